//! A game: its rules, start position, the moves played and the positions
//! after them, every move checked by the rules. Built by replaying a
//! record ([`Game::from_record`]) or by playing moves ([`Game::play`],
//! [`Game::push`]); what the terminal's play, `show --record`, the review
//! and the board hold a game in.

use super::{GameResult, Record, ReplayError};
use crate::moves::Move;
use crate::notation::{ListMoveError, MoveError, parse_move, play_moves};
use crate::outcome::Status;
use crate::position::Position;
use crate::rules::Rules;

/// Why a base position and a move list give no game: the error of
/// [`Game::from_moves`].
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum StartMovesError {
    /// The position string does not parse.
    #[error("invalid position: {0}")]
    Position(#[source] crate::notation::PositionError),
    /// A move does not parse or is illegal where the list reaches it.
    #[error(transparent)]
    Move(ListMoveError),
}

/// A game from a start position under its rules.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Game {
    rules: Rules,
    /// `positions[0]` is the start; `positions[i + 1]` follows `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game with no move yet, from `start` under `rules`.
    pub fn new(rules: Rules, start: Position) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// Plays `moves` from `fen` (or the start of `rules.pattern`) under
    /// `rules`; the error names the first bad move.
    pub fn from_moves<S: AsRef<str>>(
        rules: &Rules,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<Game, StartMovesError> {
        let base = match fen {
            None => crate::notation::start_position(rules.pattern),
            Some(text) => {
                crate::notation::parse_position(text).map_err(StartMovesError::Position)?
            }
        };
        let mut game = Game::new(*rules, base);
        game.play_all(moves).map_err(StartMovesError::Move)?;
        Ok(game)
    }

    /// The game of `record`: its rules and start ([`Record::start`]) and
    /// its moves, each checked; the error names the first fault.
    pub fn from_record(record: &Record) -> Result<Game, ReplayError> {
        let (rules, start) = record.start()?;
        let mut game = Game::new(rules, start);
        let texts: Vec<&str> = record.moves.iter().map(|mv| mv.text.as_str()).collect();
        game.play_all(&texts).map_err(ReplayError::Ply)?;
        Ok(game)
    }

    /// Plays the move texts `texts` from the position reached, checking
    /// each; the error names the first bad one (numbered from 1 within
    /// `texts`), and the moves before it stay played.
    pub fn play_all<S: AsRef<str>>(&mut self, texts: &[S]) -> Result<(), ListMoveError> {
        let mut played = Vec::new();
        let result = play_moves(self.current(), &self.rules, texts, |mv| played.push(mv));
        for mv in played {
            self.push(mv);
        }
        result.map(|_| ())
    }

    /// Plays the move `text` in the position reached, if it is legal.
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = parse_move(&self.current(), &self.rules, text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Plays `mv`, a legal move of the position reached (one of
    /// [`crate::movegen::legal_moves`], or a search's).
    pub fn push(&mut self, mv: Move) {
        let next = self.current().play(mv);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Takes back the last move and returns it (`None`: no move to take
    /// back, and the game is as it was).
    pub fn pop(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// Takes moves back until `plies` remain (none if fewer are played).
    pub fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.positions.truncate(plies + 1);
    }

    /// The rules it is played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.positions[0]
    }

    /// The position reached.
    pub fn current(&self) -> Position {
        self.positions[self.moves.len()]
    }

    /// Every position, the start first and the one reached last
    /// (`moves().len() + 1` of them).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The number of plies played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The last move and the position it was played from.
    pub fn last(&self) -> Option<(Position, Move)> {
        let mv = *self.moves.last()?;
        Some((self.positions[self.moves.len() - 1], mv))
    }

    /// The status of the position reached.
    pub fn status(&self) -> Status {
        Status::of(&self.current(), &self.rules)
    }

    /// Its result as the position reached gives it: `*` while in play.
    pub fn result(&self) -> GameResult {
        GameResult::of_status(&self.status())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_from_a_base_name_the_bad_move() {
        let rules = Rules::default();
        let game = Game::from_moves(&rules, None, &["c", "j"]).unwrap();
        assert_eq!(game.moves().len(), 2);
        assert_eq!(game.last().unwrap().1.to_string(), "j");
        let error = Game::from_moves(&rules, None, &["c", "c"])
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("move 2 of the list"), "{error}");
    }
    use crate::notation::start_position;
    use crate::rules::Pattern;

    #[test]
    fn pop_takes_back_the_last_move_or_nothing() {
        let rules = Rules::default();
        let mut game = Game::new(rules, start_position(rules.pattern));
        assert_eq!(game.pop(), None);
        assert_eq!(game.positions().len(), 1);
        let first = game.play("c").unwrap();
        game.play("j").unwrap();
        let after_first = game.positions()[1];
        assert_eq!(game.pop().map(|mv| mv.to_string()).as_deref(), Some("j"));
        assert_eq!(game.current(), after_first);
        assert_eq!(game.pop(), Some(first));
        assert_eq!(game.current(), game.start());
        assert!(game.is_empty());
    }

    #[test]
    fn moves_are_checked_played_and_taken_back() {
        let mut game = Game::new(Rules::default(), start_position(Pattern::One));
        game.play_all(&["c", "j", "b4c4n"]).unwrap();
        assert_eq!(game.len(), 3);
        assert_eq!(game.positions().len(), 4);
        assert_eq!(game.last().unwrap().1.to_string(), "b4c4n");
        let error = game.play_all(&["k7j7w", "c"]).unwrap_err();
        assert_eq!(error.number, 2);
        // The good move before the bad one stays played.
        assert_eq!(game.len(), 4);
        let refused = game.play("x9");
        assert!(
            matches!(
                refused,
                Err(crate::notation::MoveError::Malformed {
                    reason: "origin is not a point a1-k11",
                    ..
                })
            ),
            "{refused:?}"
        );
        assert_eq!(game.len(), 4);
        game.truncate(1);
        assert_eq!(game.moves().len(), 1);
        assert_eq!(
            game.current(),
            start_position(Pattern::One).play(game.moves()[0])
        );
        assert_eq!(game.result(), GameResult::Unfinished);
    }

    #[test]
    fn a_record_replays_into_its_game() {
        let text = "[Event \"x\"]\n\n1. c j 2. b4c4n *\n";
        let record = &super::super::read(text).unwrap()[0];
        let game = Game::from_record(record).unwrap();
        assert_eq!(game.len(), 3);
        assert_eq!(game.current(), record.replay().unwrap());
        let bad = "[Event \"x\"]\n\n1. c c *\n";
        let record = &super::super::read(bad).unwrap()[0];
        assert!(
            Game::from_record(record)
                .unwrap_err()
                .to_string()
                .starts_with("ply 2: ")
        );
    }
}
