//! Record files: a file opened (one game onto the board, or several to
//! pick from), a game picked from it, and the record saved, with the
//! players' names as the game was played.

use super::Session;
use crate::page::game::{Game, GameError, LoadError};
use crate::position::Player;
use crate::record::{self, Record};
use crate::session::message::PageMessage;
use crate::session::mode::Mode;
use crate::session::request::{FieldProblem, RequestError};
use crate::session::review::{GameReview, OpenedFile};

impl Session {
    /// Opens record file `text`: its one game onto the board, or its
    /// games offered to the page; in review mode if `review`.
    pub(super) fn load(&mut self, text: &str, review: bool) -> Result<(), RequestError> {
        let records =
            record::read(text).map_err(|error| GameError::from(LoadError::Read(error)))?;
        match <[Record; 1]>::try_from(records) {
            Ok([record]) => {
                self.open_record(&record)?;
                self.file = None;
            }
            Err(records) if records.is_empty() => {
                return Err(GameError::from(LoadError::NoGame).into());
            }
            // The page picks one; the board stays as it is till then.
            Err(records) => {
                let file = OpenedFile::new(records);
                self.send_page(file.games_message());
                self.file = Some(file);
            }
        }
        if review {
            self.mode = Mode::Review;
        }
        Ok(())
    }

    /// Opens game `number` (from 1) of the file open; `None` (not a whole
    /// number) or a number past its games is refused.
    pub(super) fn pick(&mut self, number: Option<u64>) -> Result<(), RequestError> {
        let count = self.file.as_ref().map_or(0, OpenedFile::len);
        let no_such_game = || RequestError::BadField {
            field: "game".into(),
            problem: FieldProblem::NoSuchGame(count),
        };
        let (number, record) = number
            .and_then(|number| usize::try_from(number).ok())
            .and_then(|number| Some((number, self.file.as_ref()?.game(number)?.clone())))
            .ok_or_else(no_such_game)?;
        // A game that does not replay leaves the board as it was.
        self.open_record(&record)?;
        if let Some(file) = &mut self.file {
            file.choose(number);
            let games = file.games_message();
            self.send_page(games);
        }
        Ok(())
    }

    /// Reads game `record` onto the board; its annotations, if it has
    /// any, are the review at once.
    fn open_record(&mut self, record: &Record) -> Result<(), RequestError> {
        self.set_game(Game::from_record(record)?);
        self.source = Some(record.clone());
        self.review = GameReview::from_annotated(record, self.game.moves_to_end());
        self.review_sent = false;
        Ok(())
    }

    /// The `record` message answering `save`: the annotated record of
    /// the review in review mode, else the game's record (with a loss on
    /// time if a flag fell, by resignation if a side resigned).
    pub(super) fn record_message(&self) -> PageMessage {
        if self.mode == Mode::Review
            && let Some(record) = self.review.as_ref().and_then(GameReview::annotated_record)
        {
            return PageMessage::Record {
                text: record.to_string(),
                annotated: true,
            };
        }
        let (south, north) = self.player_names();
        let record = self
            .game
            .record_ending(self.event, &south, &north, self.lost());
        PageMessage::Record {
            text: record.to_string(),
            annotated: false,
        }
    }

    /// The record of the game on the board: the one it was read from
    /// while its moves are the record's, or a new one.
    pub(super) fn record_of_game(&self) -> Record {
        let moves = self.game.moves_to_end();
        match &self.source {
            Some(record)
                if record.moves.len() == moves.len()
                    && record.moves.iter().zip(&moves).all(|(a, b)| a.text == *b) =>
            {
                record.clone()
            }
            _ => {
                let (south, north) = self.player_names();
                self.game.record(self.event, &south, &north)
            }
        }
    }

    /// Who played South and North, as a saved record names them: by the
    /// mode on now, or (in analysis and review) the one the game was
    /// played in. A friend game's players and the person against the
    /// engine go by the names the page gave (the person is `Anonymous`
    /// without one, as lichess has it); the engine by its name and its
    /// Skill Level, as `pasang play` names it (lichess names its AI with its level too).
    pub(super) fn player_names(&self) -> (String, String) {
        let mode = match self.mode {
            Mode::Play { .. } | Mode::Watch | Mode::Friend => self.mode,
            _ => self.played_in.unwrap_or(self.mode),
        };
        let engine = || format!("{} (skill {})", self.engine_name, self.skill);
        let given = |side: Player| match side {
            Player::South => self.names.0.as_str(),
            Player::North => self.names.1.as_str(),
        };
        let person = |side: Player| match given(side) {
            "" => "Anonymous".to_string(),
            name => name.to_string(),
        };
        match mode {
            Mode::Play {
                person: Player::South,
            } => (person(Player::South), engine()),
            Mode::Play {
                person: Player::North,
            } => (engine(), person(Player::North)),
            Mode::Watch => (engine(), engine()),
            Mode::Friend => (known(given(Player::South)), known(given(Player::North))),
            _ => ("?".to_string(), "?".to_string()),
        }
    }
}

/// A player's name as a record writes it: `?` for one not given.
fn known(name: &str) -> String {
    if name.is_empty() { "?" } else { name }.to_string()
}
