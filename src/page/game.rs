//! The game a page shows: rules, a start position, the moves played and
//! the ply on view, all checked by the project's own rules core. The page
//! never decides what is legal; it is sent the legal moves of the shown
//! position with what each captures, and sends back a move's notation.

use super::wire::{BoardState, MovePlace, MoveState, Over, OverReason};
use crate::bitboard::{Bitboard, Square};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::notation::{
    MoveError, PositionError, format_position, parse_move, parse_position, start_position,
};
use crate::outcome::{Reason, Status};
use crate::outcome::{describe_result, player_title};
use crate::position::{Player, Position};
use crate::record::{
    self, Ending, GameResult, Record, RecordError, ReplayError, Scoresheet, Termination,
};
use crate::rules::{RULE_OPTIONS, Rules};

/// Why a request about the game was refused.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum GameError {
    /// A position string that does not parse or cannot occur.
    #[error("invalid position: {0}")]
    Position(#[source] PositionError),
    /// A move that is not legal in the shown position (or not a move).
    #[error(transparent)]
    Move(MoveError),
    /// A move asked for after the game ended.
    #[error("the game is over")]
    GameOver,
    /// A ply outside the game.
    #[error("there is no ply {0} in this game")]
    NoSuchPly(usize),
    /// Record text that does not read or replay.
    #[error("cannot load the record: {0}")]
    Record(#[source] LoadError),
}

/// Why record text gives no game to show.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum LoadError {
    /// The text is not records text.
    #[error(transparent)]
    Read(RecordError),
    /// The text holds no game.
    #[error("no game in the text")]
    NoGame,
    /// The game does not replay: a rule tag names no rule, the `FEN` tag
    /// does not parse or a ply is refused.
    #[error(transparent)]
    Replay(ReplayError),
}

/// A game (the game layer's [`record::Game`]) and the ply on view.
#[derive(Clone, Debug)]
pub struct Game {
    game: record::Game,
    /// The ply on view, `0..=game.len()`.
    cursor: usize,
}

impl From<LoadError> for GameError {
    fn from(error: LoadError) -> GameError {
        GameError::Record(error)
    }
}

impl Game {
    /// A game under `rules` from `start` (a position string), or from the
    /// start of the rules' pattern.
    pub fn new(rules: Rules, start: Option<&str>) -> Result<Game, GameError> {
        let text = start.map_or_else(|| rules.pattern.start_position_string(), str::to_string);
        let position = parse_position(&text).map_err(GameError::Position)?;
        Ok(Game {
            game: record::Game::new(rules, position),
            cursor: 0,
        })
    }

    /// A game under `rules` from the start of the rules' pattern.
    pub fn at_start(rules: Rules) -> Game {
        Game {
            game: record::Game::new(rules, start_position(rules.pattern)),
            cursor: 0,
        }
    }

    /// The rules played under.
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// The position on view.
    pub fn shown(&self) -> Position {
        self.game.positions()[self.cursor]
    }

    /// The last position of the game.
    pub fn end(&self) -> Position {
        self.game.current()
    }

    /// The status at the end of the game.
    pub fn end_status(&self) -> Status {
        self.game.status()
    }

    /// The ply on view.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The number of plies played.
    pub fn len(&self) -> usize {
        self.game.len()
    }

    /// Whether no move has been played.
    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    /// Whether the last ply is on view.
    pub fn at_end(&self) -> bool {
        self.cursor == self.game.len()
    }

    /// The status of the position on view.
    pub fn status(&self) -> Status {
        Status::of(&self.shown(), &self.rules())
    }

    /// The start position as a string.
    pub fn start_string(&self) -> String {
        format_position(&self.game.start())
    }

    /// The moves up to the ply on view, in notation.
    pub fn moves_to_cursor(&self) -> Vec<String> {
        self.game.moves()[..self.cursor]
            .iter()
            .map(Move::to_string)
            .collect()
    }

    /// Every move of the game, in notation.
    pub fn moves_to_end(&self) -> Vec<String> {
        self.game.moves().iter().map(Move::to_string).collect()
    }

    /// Plays `text` in the shown position. A move other than the next one
    /// of the game cuts the game there (as a take-back and a new move
    /// would); the same move as the game's next just steps forward.
    pub fn play(&mut self, text: &str) -> Result<Move, GameError> {
        if let Status::Over { .. } = self.status() {
            return Err(GameError::GameOver);
        }
        let shown = self.shown();
        let mv = parse_move(&shown, &self.rules(), text).map_err(GameError::Move)?;
        if self.game.moves().get(self.cursor) != Some(&mv) {
            self.game.truncate(self.cursor);
            self.game.push(mv);
        }
        self.cursor += 1;
        Ok(mv)
    }

    /// Why `text` is not a move of the shown position (for a text
    /// [`Game::play`] refused).
    pub fn why_illegal(&self, text: &str) -> crate::illegal::Illegal {
        crate::illegal::why_illegal(&self.shown(), &self.rules(), text)
    }

    /// Shows ply `ply` (0 is the start).
    pub fn goto(&mut self, ply: usize) -> Result<(), GameError> {
        if ply > self.game.len() {
            return Err(GameError::NoSuchPly(ply));
        }
        self.cursor = ply;
        Ok(())
    }

    /// Removes the last `plies` plies (fewer if the game is shorter) and
    /// shows the new end.
    pub fn take_back(&mut self, plies: usize) {
        let keep = self.game.len().saturating_sub(plies);
        self.game.truncate(keep);
        self.cursor = keep;
    }

    /// The game as a record in the format of `pasang match --out`, with
    /// the tool that kept it (the `Event` tag) and the players' names.
    pub fn record(&self, event: &'static str, south: &str, north: &str) -> Record {
        self.record_ending(event, south, north, None)
    }

    /// The game's record, lost by `loser` other than by a move (a flag
    /// that fell, a resignation: its result then says so), else as
    /// [`Game::record`]. Every finished game's record names how it
    /// ended in a `Termination` tag, whatever ended it, so that a reader
    /// never has to guess from the moves.
    pub fn record_ending(
        &self,
        event: &'static str,
        south: &str,
        north: &str,
        lost: Option<(Player, Termination)>,
    ) -> Record {
        let (result, ending) = match lost {
            Some((loser, termination)) => (
                GameResult::decided(Some(loser.opponent())),
                Some(Ending {
                    termination,
                    detail: None,
                    scores: None,
                }),
            ),
            None => {
                let status = self.end_status();
                let ending = match status {
                    Status::Over { reason, scores, .. } => Some(Ending {
                        termination: match reason {
                            Reason::Score => Termination::Score,
                            Reason::Suntuk => Termination::Suntuk,
                        },
                        detail: Some(describe_result(&status, self.end().side_to_move())),
                        scores: Some(scores),
                    }),
                    Status::InPlay => None,
                };
                (GameResult::of_status(&status), ending)
            }
        };
        Record::from_game(Scoresheet {
            players: [south.to_string(), north.to_string()],
            start: self.start_string(),
            result,
            ending,
            ..Scoresheet::of_game(event, &self.game, &[])
        })
    }

    /// A game read from a record (as `pasang match --out` writes),
    /// replayed under its own rules, shown at its end.
    pub fn from_record(record: &Record) -> Result<Game, GameError> {
        let game = record::Game::from_record(record).map_err(LoadError::Replay)?;
        Ok(Game {
            cursor: game.len(),
            game,
        })
    }

    /// Everything the page draws, for the `state` message.
    pub fn state(&self) -> BoardState {
        let shown = self.shown();
        let status = self.status();
        let board: String = Square::all()
            .map(|square| crate::notation::board_char(&shown, square))
            .collect();
        let legal = match status {
            Status::InPlay => legal_moves(&shown, &self.rules())
                .iter()
                .map(|&mv| move_state(&shown, mv))
                .collect(),
            Status::Over { .. } => Vec::new(),
        };
        let last = (self.cursor > 0).then(|| {
            let before = self.game.positions()[self.cursor - 1];
            move_state(&before, self.game.moves()[self.cursor - 1])
        });
        let side = shown.side_to_move();
        let (over, text) = match status {
            Status::InPlay => (None, format!("{} to move", player_title(side))),
            Status::Over { winner, reason, .. } => (
                Some(Over {
                    winner,
                    reason: match reason {
                        Reason::Score => OverReason::Points,
                        Reason::Suntuk => OverReason::Suntuk,
                    },
                }),
                describe_result(&status, side),
            ),
        };
        BoardState {
            board,
            side,
            phase: shown.phase().number(),
            scores: [shown.score(Player::South), shown.score(Player::North)],
            position: format_position(&shown),
            start: self.start_string(),
            moves: self.moves_to_end(),
            cursor: self.cursor,
            legal,
            last,
            over,
            status: text,
            rules: RULE_OPTIONS
                .iter()
                .map(|option| (option.field, option.value(&self.rules())))
                .collect(),
        }
    }
}

/// Names of the points of a set.
fn names(set: Bitboard) -> Vec<String> {
    set.map(|square| square.to_string()).collect()
}

/// A move of `position` as the page needs it: its notation, where it
/// goes (a file for a passage, points otherwise) and what it takes.
fn move_state(position: &Position, mv: Move) -> MoveState {
    let capture = position.capture(mv);
    MoveState {
        notation: mv.to_string(),
        captures: names(capture.points_taken()),
        points: capture.points(),
        place: if mv.is_passage() {
            MovePlace::Passage {
                file: mv.passage_file(),
            }
        } else {
            MovePlace::Step {
                from: mv.from().to_string(),
                to: mv.to().to_string(),
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// The state as the page reads it.
    fn state_of(game: &Game) -> Value {
        serde_json::to_value(game.state()).unwrap()
    }

    #[test]
    fn the_state_gives_each_rule_option_by_its_field() {
        let rules = Rules {
            centre: crate::rules::Centre::Open,
            ..Rules::default()
        };
        let state = state_of(&Game::new(rules, None).unwrap());
        assert_eq!(
            state["rules"],
            json!({"pattern": "1", "ka_entry": "slide", "second_column": "opposite", "centre": "open"})
        );
    }

    #[test]
    fn the_start_has_eleven_passages_and_120_stones() {
        let game = Game::new(Rules::default(), None).unwrap();
        assert_eq!(state_of(&Game::at_start(Rules::default())), state_of(&game));
        let state = state_of(&game);
        assert_eq!(state["legal"].as_array().unwrap().len(), 11);
        let board = state["board"].as_str().unwrap();
        assert_eq!(board.len(), 121);
        assert_eq!(
            board.chars().filter(|c| matches!(c, 'w' | 'b')).count(),
            120
        );
        assert_eq!(&board[60..61], "+");
        assert_eq!(state["status"], "South to move");
        assert_eq!(state["phase"], 1);
    }

    #[test]
    fn moves_are_checked_and_the_last_one_is_described() {
        let mut game = Game::new(Rules::default(), None).unwrap();
        assert!(matches!(game.play("zz"), Err(GameError::Move(_))));
        game.play("c").unwrap();
        game.play("j").unwrap();
        game.play("b4c4").unwrap();
        let state = state_of(&game);
        assert_eq!(state["moves"], json!(["c", "j", "b4c4n"]));
        assert_eq!(state["last"]["from"], "b4");
        assert_eq!(state["last"]["captures"], json!(["c6", "c7", "c8"]));
        assert_eq!(state["scores"], json!([11, 9]));
    }

    #[test]
    fn navigating_back_and_playing_cuts_the_game() {
        let mut game = Game::new(Rules::default(), None).unwrap();
        for mv in ["c", "j", "b4c4n"] {
            game.play(mv).unwrap();
        }
        game.goto(1).unwrap();
        assert_eq!(game.shown().side_to_move(), Player::North);
        game.play("j").unwrap();
        assert_eq!(game.len(), 3, "the same move keeps the rest");
        game.goto(1).unwrap();
        game.play("k").unwrap();
        assert_eq!(game.len(), 2);
        assert_eq!(game.goto(3), Err(GameError::NoSuchPly(3)));
        game.take_back(5);
        assert!(game.is_empty());
    }

    #[test]
    fn a_finished_game_says_why_and_refuses_moves() {
        let text = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../w........../SN........b s 50 60 ak";
        let mut game = Game::new(Rules::default(), Some(text)).unwrap();
        let state = state_of(&game);
        assert_eq!(state["over"]["reason"], "suntuk");
        assert_eq!(state["over"]["winner"], "north");
        assert!(state["status"].as_str().unwrap().contains("suntuk"));
        assert_eq!(game.play("a1a2n"), Err(GameError::GameOver));
    }

    #[test]
    fn every_finished_record_says_how_it_ended() {
        // Suntuk: South to move with no legal move.
        let suntuk = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../w........../SN........b s 50 60 ak";
        let game = Game::new(Rules::default(), Some(suntuk)).unwrap();
        let record = game.record("pasang gui", "Anonymous", "pasang");
        assert_eq!(record.tag("Termination"), Some("suntuk"));
        assert_eq!(record.tag("Scores"), Some("50-60"));
        assert!(record.tag("TerminationDetail").unwrap().contains("suntuk"));
        let resigned = game.record_ending(
            "pasang gui",
            "a",
            "b",
            Some((Player::South, Termination::Resignation)),
        );
        assert_eq!(resigned.tag("Termination"), Some("resignation"));
        // A game in play has none; its result is `*`.
        let mut open = Game::new(Rules::default(), None).unwrap();
        open.play("c").unwrap();
        assert_eq!(open.record("pasang gui", "a", "b").tag("Termination"), None);
    }

    #[test]
    fn records_round_trip() {
        let mut game = Game::new(Rules::default(), None).unwrap();
        for mv in ["c", "j", "b4c4n", "k7j7w"] {
            game.play(mv).unwrap();
        }
        let text = game.record("pasang gui", "Anonymous", "pasang").to_string();
        let read = |text: &str| Game::from_record(&crate::record::read(text).unwrap()[0]);
        let loaded = read(&text).unwrap();
        assert_eq!(loaded.game, game.game);
        assert!(loaded.at_end());
        let error = read("[Event \"x\"]\n\n1. c c *\n").unwrap_err();
        assert!(error.to_string().contains("ply 2"), "{error}");
    }
}
