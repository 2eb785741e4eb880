//! The board page's session: one page's game, modes, searches and
//! records as a state machine with no I/O. Messages from the page and
//! lines from the engine go in, messages for the page and commands for
//! the engine come out. `pasang gui` runs one per page with an engine
//! process ([`crate::gui`]), the static site one in a Web Worker with the
//! engine in the same thread ([`in_process`]), and `pasang serve` one
//! with no engine for the pages that need only the rules (Learn,
//! Puzzles and friend games on one device).
//!
//! A transport drives it through [`Session`]'s few methods, whatever
//! carries the messages: [`Session::on_page`] with each page message,
//! [`Session::on_engine`] with each engine line (and
//! [`Session::on_engine_gone`] if the engine goes), [`Session::tick`] and
//! [`Session::flush`] now and then, [`Session::take_page`] and
//! [`Session::take_engine`] for what to send on. [`transport::turn`]
//! does that for any [`transport::PageLink`] and
//! [`transport::EngineLink`]; the unit tests here call the methods
//! themselves, playing both ends.
//!
//! The parts: [`request`] (the page's messages parsed into typed
//! requests), [`message`] (the messages to the page, as types), [`mode`]
//! (play, analyse, watch, review, friend), [`clock`] (play mode's
//! optional clock), [`review`] (a record file's games and a game's
//! review), [`transport`] and [`in_process`].
//!
//! The engine is asked only to search (`setoption`, `ucinewgame`,
//! `isready`, `position`, `go`, `stop`, as typed [`Command`]s that the
//! client writes in the engine's protocol), so any engine that speaks the
//! protocol will do; the rules, the board and the end of the game are the
//! session's own.
//!
//! By concern: [`search`] (what the engine is asked and its answers),
//! [`analysis`] (the lines of a search, for the page), [`records`] (record
//! files opened and saved) and [`reviewing`] (review mode); the state
//! message is built in [`state`].

pub mod clock;
pub mod in_process;
pub mod message;
pub mod mode;
pub mod request;
pub mod review;
pub mod transport;

mod analysis;
mod records;
mod reviewing;
mod search;
mod state;
#[cfg(test)]
mod tests;

use std::time::Duration;

use crate::host::Instant;

use self::clock::Clock;
use self::message::{ErrorKind, ErrorMessage, PageMessage};
use self::mode::Mode;
use self::request::{Incoming, Request, RequestError, Settings};
use self::review::{GameReview, OpenedFile};
use crate::notation::MoveError;
use crate::page::game::{Game, GameError};
use crate::page::wire::RuleChoice;
use crate::position::Player;
use crate::protocol::Command;
use crate::record::{Record, Termination};
use crate::rules::Rules;

use analysis::Lines;
use search::EngineState;

/// Default time per engine move in play and watch modes, in ms: the
/// engine answers within a few seconds, as a person expects.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// The board's default `Skill Level` in play: a newcomer meets an engine
/// that can be beaten (the engine option's own default stays 20; the page
/// says so beside its setting, and analysis always searches at full
/// strength).
pub const DEFAULT_SKILL: u64 = 5;

/// One page's session.
#[derive(Debug)]
pub struct Session {
    game: Game,
    mode: Mode,
    /// Analysis or watching runs (the page's start/stop).
    running: bool,
    skill: u64,
    movetime: u64,
    multipv: u64,
    /// The play-mode clock, if the person asked for one.
    clock: Option<Clock>,
    engine_name: String,
    /// The engine, its search and the commands for it.
    engine: EngineState,
    /// Bumped by every change that makes a running search pointless.
    generation: u64,
    /// The current search's newest lines, sent at the next flush.
    lines: Lines,
    to_page: Vec<PageMessage>,
    /// The record file the page opened, while it holds several games.
    file: Option<OpenedFile>,
    /// The record the game on the board was read from, while the game's
    /// moves are still the record's.
    source: Option<Record>,
    /// The review of the game (kept while its moves stay the game's).
    review: Option<GameReview>,
    /// Whether the page has heard the review as it stands.
    review_sent: bool,
    /// The play, watch or friend mode the last move was played in: whose
    /// game a review of it is.
    played_in: Option<Mode>,
    /// The players of a friend game, South's and North's (blank: unknown).
    names: (String, String),
    /// A session of a server with no engine ([`Session::without_engine`]).
    engine_free: bool,
    /// The side that resigned the game on the board, if one did.
    resigned: Option<Player>,
    /// The tool whose board this is, as a saved record's `Event` tag
    /// names it.
    event: &'static str,
}

impl Session {
    /// A session whose engine announced `options` and is called `name`.
    /// When no engine could be started, [`Session::on_engine_gone`] says
    /// why; the board still works without one.
    pub fn new(name: &str, options: Vec<String>) -> Session {
        let mut session = Session {
            game: Game::at_start(Rules::default()),
            mode: Mode::Play {
                person: Player::South,
            },
            running: true,
            skill: DEFAULT_SKILL,
            movetime: DEFAULT_MOVETIME_MS,
            multipv: 3,
            clock: None,
            engine_name: name.to_string(),
            engine: EngineState::new(options),
            generation: 0,
            lines: Lines::default(),
            to_page: Vec::new(),
            file: None,
            source: None,
            review: None,
            review_sent: false,
            played_in: None,
            names: (String::new(), String::new()),
            engine_free: false,
            resigned: None,
            event: "pasang gui",
        };
        session.send_page(PageMessage::Hello {
            engine: name.to_string(),
            rules: RuleChoice::all(),
        });
        session.send_state();
        session
    }

    /// A session with no engine, for a server that runs none (`pasang
    /// serve`): the rules, the board, friend games and records. It starts
    /// in analysis, stopped; the modes that need an engine (play, watch,
    /// review) and a record's review are refused with
    /// [`RequestError::NoEngine`]. Only `pasang serve` (the `cli`
    /// feature) has such a server.
    #[cfg(feature = "cli")]
    pub fn without_engine() -> Session {
        let mut session = Session::new("", Vec::new());
        session.engine.usable = false;
        session.engine_free = true;
        session.event = "pasang serve";
        session.mode = Mode::Analyse;
        session.running = false;
        session.to_page.clear();
        session.send_page(PageMessage::Hello {
            engine: String::new(),
            rules: RuleChoice::all(),
        });
        session.send_state();
        session
    }

    /// Names the tool whose board this is in saved records (`pasang gui`
    /// by default).
    pub fn set_event(&mut self, event: &'static str) {
        self.event = event;
    }

    /// Messages for the page, oldest first, as JSON text.
    pub fn take_page(&mut self) -> Vec<String> {
        std::mem::take(&mut self.to_page)
            .iter()
            .map(PageMessage::to_json)
            .collect()
    }

    /// Commands for the engine, oldest first.
    pub fn take_engine(&mut self) -> Vec<Command> {
        self.engine.take_commands()
    }

    /// Whether commands wait for the engine.
    pub fn has_engine_commands(&self) -> bool {
        self.engine.has_commands()
    }

    /// Handles one message from the page; a refused one is answered with
    /// an `error` message and changes nothing.
    pub fn on_page(&mut self, text: &str) {
        let Incoming { request, tag } = Incoming::read(text);
        if let Err(error) = request.and_then(|request| self.act(request)) {
            // The page may tag a request (with the part of its address it
            // came from); the error carries the tag back.
            self.send_page(PageMessage::Error(ErrorMessage {
                message: error.to_string(),
                kind: error_kind(&error, &self.game),
                tag,
            }));
        }
        self.update_review();
        self.sync();
    }

    /// The engine process is gone: say so, and search no more.
    pub fn on_engine_gone(&mut self, why: &str) {
        if self.engine.usable {
            self.engine.usable = false;
            self.engine.search = None;
            self.send_page(PageMessage::error(
                ErrorKind::Engine,
                format!("engine: {why}"),
            ));
            self.send_state();
        }
    }

    /// Looks at the clock: a flag that fell ends the game.
    pub fn tick(&mut self, now: Instant) {
        self.poll_review();
        let fell = self
            .clock
            .as_mut()
            .is_some_and(|clock| clock.flagged().is_none() && clock.check(now).is_some());
        if fell {
            self.generation += 1;
            self.send_state();
            self.sync();
        }
    }

    /// Sends the engine lines gathered since the last flush.
    pub fn flush(&mut self) {
        for info in self.lines.take() {
            self.send_page(PageMessage::Info(info));
        }
    }

    fn send_page(&mut self, message: PageMessage) {
        self.to_page.push(message);
    }

    /// The player who lost on time.
    fn flagged(&self) -> Option<Player> {
        self.clock.and_then(|clock| clock.flagged())
    }

    /// The player who lost other than by a move, and how: on time, or by
    /// resigning.
    fn lost(&self) -> Option<(Player, Termination)> {
        self.flagged()
            .map(|loser| (loser, Termination::TimeForfeit))
            .or(self.resigned.map(|loser| (loser, Termination::Resignation)))
    }

    /// Runs the clock of the side to move at the end of the game, in play
    /// mode while the game goes on; stops it otherwise.
    fn update_clock(&mut self) {
        let runner = match self.mode {
            Mode::Play { .. }
                if self.resigned.is_none()
                    && self.game.end_status() == crate::outcome::Status::InPlay =>
            {
                Some(self.game.end().side_to_move())
            }
            _ => None,
        };
        if let Some(clock) = &mut self.clock {
            clock.run(runner, Instant::now());
        }
    }

    /// Plays `text` for the shown position's mover, charging its clock.
    fn play(&mut self, text: &str) -> Result<(), GameError> {
        if self.lost().is_some() {
            return Err(GameError::GameOver);
        }
        let mover = self.game.shown().side_to_move();
        self.game.play(text)?;
        if matches!(self.mode, Mode::Play { .. } | Mode::Watch | Mode::Friend) {
            self.played_in = Some(self.mode);
        }
        if let Some(clock) = &mut self.clock
            && clock.running() == Some(mover)
        {
            clock.moved(mover, Instant::now());
        }
        Ok(())
    }

    /// Acts on one request (its fields checked already by
    /// [`Incoming::read`]) after checking it against the session's state.
    fn act(&mut self, request: Request) -> Result<(), RequestError> {
        if self.engine_free {
            match &request {
                Request::Mode(mode @ (Mode::Play { .. } | Mode::Watch | Mode::Review)) => {
                    return Err(RequestError::NoEngine(mode.name().as_str()));
                }
                Request::Load { review: true, .. } => {
                    return Err(RequestError::NoEngine("review"));
                }
                _ => {}
            }
        }
        match request {
            Request::New { rules, start } => self.set_game(Game::new(rules, start.as_deref())?),
            Request::Move(text) => self.person_moves(&text)?,
            Request::Goto(ply) => self.game.goto(ply)?,
            Request::TakeBack => self.take_back()?,
            Request::Resign => self.resign()?,
            Request::Mode(mode) => {
                self.mode = mode;
                self.running = true;
            }
            Request::Settings(settings) => self.apply(settings),
            Request::Run(on) => self.running = on,
            Request::Load { text, review } => self.load(&text, review)?,
            Request::Pick(number) => self.pick(number)?,
            Request::Names { south, north } => self.names = (south, north),
            Request::Save => {
                let message = self.record_message();
                self.send_page(message);
                return Ok(());
            }
        }
        self.generation += 1;
        self.update_clock();
        self.send_state();
        Ok(())
    }

    /// The person's move `text`, if it is theirs to play.
    fn person_moves(&mut self, text: &str) -> Result<(), RequestError> {
        if self.mode == Mode::Review {
            return Err(RequestError::Reviewing);
        }
        // The person plays their own side only, also in a position
        // stepped back to (a move there replaces the rest of the game).
        if let Mode::Play { person } = self.mode
            && self.game.shown().side_to_move() != person
        {
            return Err(RequestError::EnginesTurn);
        }
        Ok(self.play(text)?)
    }

    /// The person resigns in play; in a friend game (or analysis) the
    /// side to move at the game's end does. The game ends there: no move
    /// follows, and its record says so.
    fn resign(&mut self) -> Result<(), RequestError> {
        if self.mode == Mode::Review {
            return Err(RequestError::Reviewing);
        }
        if self.lost().is_some() || self.game.end_status() != crate::outcome::Status::InPlay {
            return Err(RequestError::Game(GameError::GameOver));
        }
        self.resigned = Some(match self.mode {
            Mode::Play { person } => person,
            _ => self.game.end().side_to_move(),
        });
        self.game.goto(self.game.len())?;
        Ok(())
    }

    /// Takes back the last move; in play mode, back to a position where
    /// the person moves. A resignation is taken back first.
    fn take_back(&mut self) -> Result<(), RequestError> {
        if self.mode == Mode::Review {
            return Err(RequestError::Reviewing);
        }
        if self.resigned.take().is_some() {
            return Ok(());
        }
        self.game.take_back(1);
        if let Mode::Play { person } = self.mode {
            while !self.game.is_empty() && self.game.shown().side_to_move() != person {
                self.game.take_back(1);
            }
        }
        Ok(())
    }

    /// Applies settings (all of them checked already).
    fn apply(&mut self, settings: Settings) {
        if settings.clock_base.is_some() || settings.clock_increment.is_some() {
            // A new time control starts both clocks afresh.
            let (old_base, old_increment) = self
                .clock
                .map_or((Duration::ZERO, Duration::ZERO), |clock| clock.control());
            let base = settings.clock_base.unwrap_or(old_base);
            let increment = settings.clock_increment.unwrap_or(old_increment);
            self.clock = (!base.is_zero()).then(|| Clock::new(base, increment));
        }
        self.skill = settings.skill.unwrap_or(self.skill);
        self.movetime = settings.movetime.unwrap_or(self.movetime);
        self.multipv = settings.multipv.unwrap_or(self.multipv);
    }

    /// Puts a new `game` on the board: played in no mode yet, a new game
    /// for the engine, the clocks afresh.
    fn set_game(&mut self, game: Game) {
        self.game = game;
        self.resigned = None;
        self.played_in = None;
        self.engine.new_game = true;
        if let Some(clock) = &mut self.clock {
            clock.reset();
        }
    }
}

/// The kind of a refusal, for the page to word in its own language.
fn error_kind(error: &RequestError, game: &Game) -> ErrorKind {
    match error {
        RequestError::Malformed(_) => ErrorKind::Malformed,
        RequestError::BadField { field, .. } => ErrorKind::BadField {
            field: field.clone(),
        },
        RequestError::Game(GameError::Position(_)) => ErrorKind::BadPosition,
        RequestError::Game(GameError::Move(
            MoveError::Malformed { text, .. } | MoveError::Illegal { text, .. },
        )) => ErrorKind::IllegalMove {
            notation: text.clone(),
            why: game.why_illegal(text),
        },
        RequestError::Game(GameError::GameOver) => ErrorKind::GameOver,
        RequestError::Game(GameError::NoSuchPly(ply)) => ErrorKind::NoSuchPly { ply: *ply },
        RequestError::Game(GameError::Record(_)) => ErrorKind::BadRecord,
        RequestError::EnginesTurn => ErrorKind::EnginesTurn,
        RequestError::Reviewing => ErrorKind::Reviewing,
        RequestError::NoEngine(mode) => ErrorKind::NoEngine { mode },
    }
}
