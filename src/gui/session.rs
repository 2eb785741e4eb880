//! One page's session as a state machine with no I/O: messages from the
//! page and lines from the engine go in, messages for the page and lines
//! for the engine come out. [`super::connection`] moves them; the unit
//! tests here play both sides.
//!
//! The engine is asked only to search (`setoption`, `ucinewgame`,
//! `isready`, `position`, `go`, `stop`, as typed [`Command`]s that the
//! client writes in the engine's protocol), so any engine that speaks the
//! protocol will do; the rules, the board and the end of the game are the
//! server's own.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::host::Instant;

use serde_json::{Value, json};

use super::clock::Clock;
use super::game::{Game, GameError, LoadError};
use super::mode::Mode;
use super::request::{FieldProblem, Request, RequestError, Settings};
use super::review::{GameReview, OpenedFile};
use crate::client::{EngineScore, InfoLine};
use crate::notation::parse_move;
use crate::position::Player;
use crate::protocol::options::RULE_OPTIONS;
use crate::protocol::{BestMove, Command, GoParams, PositionBase, ReplyKind};
use crate::record::{self, Record};
use crate::rules::Rules;

/// Default time per engine move in play and watch modes, in ms: the
/// engine answers within a few seconds, as a person expects.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// The board's default `Skill Level` in play: a newcomer meets an engine
/// that can be beaten (the engine option's own default stays 20; the page
/// says so beside its setting, and analysis always searches at full
/// strength).
pub const DEFAULT_SKILL: u64 = 5;

/// Why the engine is being asked to search.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Purpose {
    /// For a move to play (play and watch modes).
    Move,
    /// Analysis of the shown position.
    Analyse,
}

/// The search the engine is running.
#[derive(Copy, Clone, Debug)]
struct Search {
    purpose: Purpose,
    /// The session's generation when it started: a search of an older
    /// generation is stale, and its output is dropped.
    generation: u64,
    /// Whether `stop` has been sent.
    stopping: bool,
    /// The side to move in the searched position (scores are its view).
    side: Player,
}

/// What the session knows of the engine process.
#[derive(Debug, Default)]
struct EngineState {
    /// Options the engine announced; others are never sent.
    options: Vec<String>,
    /// Values sent so far, so each is sent only when it changes.
    sent: BTreeMap<String, String>,
    /// Whether the engine can be asked to search.
    usable: bool,
    /// Whether the next search is of a new game (`ucinewgame` first).
    new_game: bool,
}

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
    engine: EngineState,
    search: Option<Search>,
    /// Bumped by every change that makes a running search pointless.
    generation: u64,
    /// The newest `info` of the current search per line, sent at the
    /// next [`Session::flush`] so that a chatty engine cannot flood the
    /// page.
    infos: BTreeMap<u64, Value>,
    to_page: Vec<String>,
    to_engine: Vec<Command>,
    /// The record file the page opened, while it holds several games.
    file: Option<OpenedFile>,
    /// The record the game on the board was read from, while the game's
    /// moves are still the record's.
    source: Option<Record>,
    /// The review of the game (kept while its moves stay the game's).
    review: Option<GameReview>,
    /// Whether the page has heard the review as it stands.
    review_sent: bool,
    /// The play or watch mode the last move was played in: whose game a
    /// review of it is.
    played_in: Option<Mode>,
}

impl Session {
    /// A session whose engine announced `options` and is called `name`.
    /// When no engine could be started, [`Session::on_engine_gone`] says
    /// why; the board still works without one.
    pub fn new(name: &str, options: Vec<String>) -> Session {
        let mut session = Session {
            game: Game::new(Rules::default(), None).expect("the built-in start is valid"),
            mode: Mode::Play {
                person: Player::South,
            },
            running: true,
            skill: DEFAULT_SKILL,
            movetime: DEFAULT_MOVETIME_MS,
            multipv: 3,
            clock: None,
            engine_name: name.to_string(),
            engine: EngineState {
                options,
                usable: true,
                new_game: true,
                ..EngineState::default()
            },
            search: None,
            generation: 0,
            infos: BTreeMap::new(),
            to_page: Vec::new(),
            to_engine: Vec::new(),
            file: None,
            source: None,
            review: None,
            review_sent: false,
            played_in: None,
        };
        session.send_page(json!({"type": "hello", "engine": name}));
        session.send_state();
        session
    }

    /// Messages for the page, oldest first.
    pub fn take_page(&mut self) -> Vec<String> {
        std::mem::take(&mut self.to_page)
    }

    /// Commands for the engine, oldest first.
    pub fn take_engine(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.to_engine)
    }

    /// Handles one message from the page; a refused one is answered with
    /// an `error` message and changes nothing.
    pub fn on_page(&mut self, text: &str) {
        if let Err(error) = self.request(text) {
            let mut message = json!({"type": "error", "message": error.to_string()});
            // The page may tag a request (with the part of its address it
            // came from); the error carries the tag back.
            if let Ok(request) = serde_json::from_str::<Value>(text)
                && let Some(tag) = request["tag"].as_str().filter(|tag| !tag.is_empty())
            {
                message["tag"] = json!(tag);
            }
            self.send_page(message);
        }
        self.update_review();
        self.sync();
    }

    /// Handles one line of engine output.
    pub fn on_engine(&mut self, line: &str) {
        if ReplyKind::of(line) == Some(ReplyKind::BestMove) {
            // A bestmove line without a move is refused as an empty move.
            let best = BestMove::parse(line).map_or(Some(String::new()), |answer| answer.best);
            self.on_bestmove(best.as_deref());
        } else if line.split_whitespace().next() == Some("info") {
            self.on_info(line);
        }
    }

    /// The engine process is gone: say so, and search no more.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub fn on_engine_gone(&mut self, why: &str) {
        if self.engine.usable {
            self.engine.usable = false;
            self.search = None;
            self.send_page(json!({"type": "error", "message": format!("engine: {why}")}));
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

    /// The player who lost on time.
    fn flagged(&self) -> Option<Player> {
        self.clock.and_then(|clock| clock.flagged())
    }

    /// Runs the clock of the side to move at the end of the game, in play
    /// mode while the game goes on; stops it otherwise.
    fn update_clock(&mut self) {
        let runner = match self.mode {
            Mode::Play { .. } if self.game.end_status() == crate::outcome::Status::InPlay => {
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
        if self.flagged().is_some() {
            return Err(GameError::GameOver);
        }
        let mover = self.game.shown().side_to_move();
        self.game.play(text)?;
        if matches!(self.mode, Mode::Play { .. } | Mode::Watch) {
            self.played_in = Some(self.mode);
        }
        if let Some(clock) = &mut self.clock
            && clock.running() == Some(mover)
        {
            clock.moved(mover, Instant::now());
        }
        Ok(())
    }

    /// Sends the engine lines gathered since the last flush.
    pub fn flush(&mut self) {
        for (_, info) in std::mem::take(&mut self.infos) {
            self.send_page(info);
        }
    }

    fn send_page(&mut self, message: Value) {
        self.to_page.push(message.to_string());
    }

    /// The game state with the session's mode and settings.
    fn send_state(&mut self) {
        let mut state = self.game.state();
        state["mode"] = json!(self.mode.name());
        state["person"] = match self.mode {
            Mode::Play { person } => json!(person.name()),
            _ => Value::Null,
        };
        // In play, the engine's stones are not the person's to move.
        if let Mode::Play { person } = self.mode
            && self.game.shown().side_to_move() != person
        {
            state["legal"] = json!([]);
        }
        state["running"] = json!(self.running);
        state["skill"] = json!(self.skill);
        state["movetime"] = json!(self.movetime);
        state["multipv"] = json!(self.multipv);
        state["engine_ok"] = json!(self.engine.usable);
        state["clock"] = match self.clock {
            Some(clock) => {
                let now = Instant::now();
                let (base, increment) = clock.control();
                json!({
                    "south": clock.left(Player::South, now).as_millis() as u64,
                    "north": clock.left(Player::North, now).as_millis() as u64,
                    "running": clock.running().map(Player::name),
                    "minutes": base.as_secs() / 60,
                    "increment": increment.as_secs(),
                })
            }
            None => Value::Null,
        };
        if let Some(loser) = self.flagged() {
            let end = self.game.end();
            let winner = loser.opponent();
            state["over"] = json!({"winner": winner.name(), "reason": "time"});
            state["legal"] = json!([]);
            state["status"] = json!(format!(
                "{} wins on time: {}'s clock ran out (South {} - North {})",
                crate::outcome::player_title(winner),
                crate::outcome::player_title(loser),
                end.score(Player::South),
                end.score(Player::North)
            ));
        }
        state["thinking"] = json!(
            self.search
                .is_some_and(|s| !s.stopping && s.purpose == Purpose::Move)
        );
        self.send_page(state);
    }

    /// Acts on one message from the page: parsed and checked first
    /// ([`Request::parse`]), then checked against the session's state.
    fn request(&mut self, text: &str) -> Result<(), RequestError> {
        match Request::parse(text)? {
            Request::New { rules, start } => self.set_game(Game::new(rules, start.as_deref())?),
            Request::Move(text) => {
                if self.mode == Mode::Review {
                    return Err(RequestError::Reviewing);
                }
                // The person plays their own side only, also in a
                // position stepped back to (a move there replaces the
                // rest of the game).
                if let Mode::Play { person } = self.mode
                    && self.game.shown().side_to_move() != person
                {
                    return Err(RequestError::EnginesTurn);
                }
                self.play(&text)?;
            }
            Request::Goto(ply) => self.game.goto(ply)?,
            Request::TakeBack => {
                if self.mode == Mode::Review {
                    return Err(RequestError::Reviewing);
                }
                self.game.take_back(1);
                // In play mode, back to a position where the person moves.
                if let Mode::Play { person } = self.mode {
                    while !self.game.is_empty() && self.game.shown().side_to_move() != person {
                        self.game.take_back(1);
                    }
                }
            }
            Request::Mode(mode) => {
                self.mode = mode;
                self.running = true;
            }
            Request::Settings(settings) => self.apply(settings),
            Request::Run(on) => self.running = on,
            Request::Load { text, review } => {
                let records =
                    record::read(&text).map_err(|error| GameError::from(LoadError::Read(error)))?;
                match records.len() {
                    0 => return Err(GameError::from(LoadError::NoGame).into()),
                    1 => {
                        self.open_record(&records[0])?;
                        self.file = None;
                    }
                    // The page picks one; the board stays as it is till then.
                    _ => {
                        let file = OpenedFile::new(records);
                        self.send_page(file.games_message());
                        self.file = Some(file);
                    }
                }
                if review {
                    self.mode = Mode::Review;
                }
            }
            Request::Pick(number) => {
                let count = self.file.as_ref().map_or(0, OpenedFile::len);
                let number = number
                    .filter(|number| (1..=count as u64).contains(number))
                    .ok_or(RequestError::BadField {
                        field: "game",
                        problem: FieldProblem::NoSuchGame(count),
                    })? as usize;
                let file = self.file.as_ref().expect("a file with games");
                let record = file.game(number).expect("in range").clone();
                // A game that does not replay leaves the board as it was.
                self.open_record(&record)?;
                let file = self.file.as_mut().expect("a file with games");
                file.choose(number);
                let games = file.games_message();
                self.send_page(games);
            }
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

    /// The `record` message answering `save`: the annotated record of
    /// the review in review mode, else the game's record (with a loss on
    /// time, if a flag fell).
    fn record_message(&self) -> Value {
        if self.mode == Mode::Review
            && let Some(record) = self.review.as_ref().and_then(GameReview::annotated_record)
        {
            return json!({"type": "record", "text": record.to_string(), "annotated": true});
        }
        let (south, north) = self.player_names();
        let record = self.game.record_ending(south, north, self.flagged());
        json!({"type": "record", "text": record.to_string()})
    }

    /// What the engine should be doing now, if anything.
    fn wanted(&self) -> Option<Purpose> {
        if !self.engine.usable
            || self.flagged().is_some()
            || self.game.status() != crate::outcome::Status::InPlay
        {
            return None;
        }
        match self.mode {
            Mode::Play { person } => (self.game.at_end()
                && self.game.shown().side_to_move() != person)
                .then_some(Purpose::Move),
            Mode::Watch => (self.running && self.game.at_end()).then_some(Purpose::Move),
            Mode::Analyse => self.running.then_some(Purpose::Analyse),
            // The review searches in-process, not with the page's engine.
            Mode::Review => None,
        }
    }

    /// Puts a new `game` on the board: played in no mode yet, a new game
    /// for the engine, the clocks afresh.
    fn set_game(&mut self, game: Game) {
        self.game = game;
        self.played_in = None;
        self.engine.new_game = true;
        if let Some(clock) = &mut self.clock {
            clock.reset();
        }
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

    /// The record of the game on the board: the one it was read from
    /// while its moves are the record's, or a new one.
    fn record_of_game(&self) -> Record {
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
                self.game.record(south, north)
            }
        }
    }

    /// Who played South and North, as a saved record names them: by the
    /// mode on now, or (in analysis and review) the one the game was
    /// played in.
    fn player_names(&self) -> (&str, &str) {
        let mode = match self.mode {
            Mode::Play { .. } | Mode::Watch => self.mode,
            _ => self.played_in.unwrap_or(self.mode),
        };
        match mode {
            Mode::Play {
                person: Player::South,
            } => ("person", self.engine_name.as_str()),
            Mode::Play {
                person: Player::North,
            } => (self.engine_name.as_str(), "person"),
            Mode::Watch => (self.engine_name.as_str(), self.engine_name.as_str()),
            _ => ("?", "?"),
        }
    }

    /// In review mode, a review of the game on the board (the one there
    /// is, or a new one); elsewhere an unfinished review stops. A review
    /// of other moves than the game's goes.
    fn update_review(&mut self) {
        let moves = self.game.moves_to_end();
        if self
            .review
            .as_ref()
            .is_some_and(|review| !review.is_of(&moves))
        {
            self.review = None;
        }
        if self.mode != Mode::Review {
            if self.review.as_ref().is_some_and(GameReview::running) {
                self.review = None;
            }
            self.review_sent = false;
            return;
        }
        // Nothing to judge yet, or a file whose game is still to be picked.
        let picking = self.file.as_ref().is_some_and(|file| !file.is_chosen());
        if self.review.is_none() && !moves.is_empty() && !picking {
            self.review = Some(GameReview::start(self.record_of_game(), moves));
            self.review_sent = false;
        }
        if !self.review_sent
            && let Some(review) = &self.review
        {
            let message = review.message();
            self.send_page(message);
            self.review_sent = true;
        }
    }

    /// Passes on how far the review has come.
    fn poll_review(&mut self) {
        let Some(review) = &mut self.review else {
            return;
        };
        match review.poll() {
            Ok(false) => {}
            Ok(true) => {
                let message = review.message();
                self.send_page(message);
            }
            Err(why) => {
                self.review = None;
                self.send_page(
                    json!({"type": "error", "message": format!("the review failed: {why}")}),
                );
            }
        }
    }

    /// Brings the engine in line with the session: stops a search that is
    /// no longer wanted, starts one that is (once the old one has ended).
    fn sync(&mut self) {
        let wanted = self.wanted();
        match &mut self.search {
            Some(search) => {
                let current =
                    search.generation == self.generation && Some(search.purpose) == wanted;
                if !current && !search.stopping {
                    search.stopping = true;
                    self.to_engine.push(Command::Stop);
                }
            }
            None => {
                if let Some(purpose) = wanted {
                    self.start(purpose);
                }
            }
        }
    }

    /// Sends an option if the engine has it and its value changed.
    fn set_option(&mut self, name: &str, value: String) {
        let known = self
            .engine
            .options
            .iter()
            .any(|option| option.eq_ignore_ascii_case(name));
        if known && self.engine.sent.get(name) != Some(&value) {
            self.engine.sent.insert(name.to_string(), value.clone());
            self.to_engine.push(Command::SetOption {
                name: name.to_string(),
                value: Some(value),
            });
        }
    }

    fn start(&mut self, purpose: Purpose) {
        let rules = self.game.rules();
        for option in &RULE_OPTIONS {
            self.set_option(option.name, option.value(&rules));
        }
        match purpose {
            Purpose::Move => {
                self.set_option("Skill Level", self.skill.to_string());
                self.set_option("MultiPV", "1".into());
            }
            Purpose::Analyse => {
                self.set_option("Skill Level", "20".into());
                self.set_option("MultiPV", self.multipv.to_string());
            }
        }
        if std::mem::take(&mut self.engine.new_game) {
            self.to_engine.push(Command::UciNewGame);
        }
        // The answer is not awaited (the protocol keeps commands in
        // order); it is good manners after options, and harmless.
        self.to_engine.push(Command::IsReady);
        self.to_engine.push(Command::Position {
            base: PositionBase::Fen(self.game.start_string()),
            moves: self.game.moves_to_cursor(),
        });
        let go = match (purpose, self.clock) {
            (Purpose::Move, Some(clock)) => {
                // South's clock is `wtime`, as White's is in UCI.
                let now = Instant::now();
                let left = |player| clock.left(player, now).as_millis() as u64;
                let increment = clock.control().1.as_millis() as u64;
                GoParams {
                    time: [Some(left(Player::South)), Some(left(Player::North))],
                    increment: [Some(increment); 2],
                    ..GoParams::default()
                }
            }
            (Purpose::Move, None) => GoParams {
                movetime: Some(self.movetime),
                ..GoParams::default()
            },
            (Purpose::Analyse, _) => GoParams {
                infinite: true,
                ..GoParams::default()
            },
        };
        self.to_engine.push(Command::Go(go));
        let side = self.game.shown().side_to_move();
        self.search = Some(Search {
            purpose,
            generation: self.generation,
            stopping: false,
            side,
        });
        self.infos.clear();
        self.send_page(json!({
            "type": "search",
            "purpose": match purpose { Purpose::Move => "move", Purpose::Analyse => "analyse" },
            "side": side.name(),
            "ply": self.game.cursor(),
        }));
    }

    fn on_info(&mut self, line: &str) {
        let Some(search) = self.search else { return };
        if search.stopping || search.generation != self.generation {
            return;
        }
        // Only lines with a score and a line of moves are shown.
        let Some(info) = InfoLine::parse(line).filter(|info| info.string.is_none()) else {
            return;
        };
        let Some(score) = info.score.filter(|_| !info.pv.is_empty()) else {
            return;
        };
        let multipv = info.multipv.unwrap_or(1);
        // Only the moves of the line that are legal are shown: a foreign
        // engine's nonsense stops there.
        let rules = self.game.rules();
        let mut position = self.game.shown();
        let mut pv = Vec::new();
        for text in &info.pv {
            match parse_move(&position, &rules, text) {
                Ok(mv) => {
                    pv.push(mv.to_string());
                    position = position.play(mv);
                }
                Err(_) => break,
            }
        }
        let (text, south) = describe(score, search.side);
        self.infos.insert(
            multipv,
            json!({
                "type": "info",
                "multipv": multipv,
                "depth": info.depth.unwrap_or(0),
                "nps": info.nps,
                "score": text,
                "south": south,
                "pv": pv,
                "side": search.side.name(),
                "ply": self.game.cursor(),
            }),
        );
    }

    /// The search's end: its move (`None` for `bestmove (none)`).
    fn on_bestmove(&mut self, best: Option<&str>) {
        let Some(search) = self.search.take() else {
            return;
        };
        self.flush();
        if let Some(word) = best
            && search.generation == self.generation
            && !search.stopping
            && search.purpose == Purpose::Move
        {
            match self.play(word) {
                Ok(()) => {
                    self.generation += 1;
                    self.update_clock();
                }
                Err(error) => {
                    // Asking again would bring the same move back.
                    self.engine.usable = false;
                    self.send_page(json!({
                        "type": "error",
                        "message": format!("the engine played '{word}', which is refused ({error}); it is asked for no more moves"),
                    }));
                }
            }
            self.send_state();
        } else if search.purpose == Purpose::Move {
            // A search for a move ended without one being played.
            self.send_state();
        }
        self.sync();
    }
}

/// A score as South sees it, as text (`+1.50`, `+#3`) and as a number for
/// the evaluation bar (mates as +-100,000).
fn describe(score: EngineScore, side: Player) -> (String, i64) {
    let sign = if side == Player::South { 1 } else { -1 };
    match score {
        EngineScore::Centipoints(cp) => {
            let south = cp * sign;
            (format!("{:+.2}", south as f64 / 100.0), south)
        }
        EngineScore::Mate(moves) => {
            // `mate 0` is a finished game the side to move lost.
            let winning = moves > 0;
            let south_wins = winning == (side == Player::South);
            let text = format!("{}#{}", if south_wins { '+' } else { '-' }, moves.abs());
            (text, if south_wins { 100_000 } else { -100_000 })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::{Protocol, line};
    use crate::rules::Pattern;

    /// The lines the session sent to a UCI engine.
    fn lines_sent(session: &mut Session) -> Vec<String> {
        let commands = session.take_engine();
        commands.iter().map(|c| line(c, Protocol::Uci)).collect()
    }

    const OPTIONS: [&str; 7] = [
        "Pattern",
        "Ka Entry",
        "Second Column",
        "Centre",
        "Skill Level",
        "MultiPV",
        "Hash",
    ];

    fn session() -> Session {
        let mut session = Session::new("pasang", OPTIONS.iter().map(|s| s.to_string()).collect());
        session.take_page();
        session
    }

    fn page(session: &mut Session) -> Vec<Value> {
        session
            .take_page()
            .iter()
            .map(|text| serde_json::from_str(text).unwrap())
            .collect()
    }

    #[test]
    fn scores_are_shown_from_souths_side() {
        assert_eq!(describe(EngineScore::Mate(0), Player::North).0, "+#0");
        assert_eq!(
            describe(EngineScore::Centipoints(150), Player::North),
            ("-1.50".to_string(), -150)
        );
        assert_eq!(describe(EngineScore::Mate(3), Player::South).1, 100_000);
    }

    #[test]
    fn a_person_plays_and_the_engine_answers() {
        let mut s = session();
        s.on_page(r#"{"type":"move","move":"c"}"#);
        let sent = lines_sent(&mut s);
        assert!(
            sent.contains(&format!("setoption name Skill Level value {DEFAULT_SKILL}")),
            "{sent:?}"
        );
        assert!(sent.contains(&"ucinewgame".to_string()));
        assert!(sent.ends_with(&[
            format!(
                "position fen {} moves c",
                Pattern::One.start_position_string()
            ),
            "go movetime 1000".to_string(),
        ]));
        page(&mut s);
        s.on_engine("info depth 3 seldepth 3 multipv 1 score cp 150 nodes 10 pv j b4c4n zz");
        s.on_engine("bestmove j ponder b4c4n");
        let messages = page(&mut s);
        let info = messages.iter().find(|m| m["type"] == "info").unwrap();
        // North's +1.50 is South's -1.50; the illegal tail is cut.
        assert_eq!(info["score"], "-1.50");
        assert_eq!(info["pv"], json!(["j", "b4c4n"]));
        let state = messages
            .iter()
            .rev()
            .find(|m| m["type"] == "state")
            .unwrap();
        assert_eq!(state["moves"], json!(["c", "j"]));
        assert_eq!(state["status"], "South to move");
        assert!(
            lines_sent(&mut s).is_empty(),
            "the person's turn: no search"
        );
    }

    #[test]
    fn bad_requests_get_errors_and_change_nothing() {
        let mut s = session();
        for (text, expected) in [
            ("not json", "malformed message"),
            (r#"{"type":"fly"}"#, "unknown type 'fly'"),
            (r#"{"type":"move","move":"k11"}"#, "k11"),
            (r#"{"type":"goto","ply":5}"#, "no ply 5"),
            (r#"{"type":"settings","skill":21}"#, "bad 'skill'"),
            (
                r#"{"type":"new","position":"nonsense"}"#,
                "invalid position",
            ),
            (
                r#"{"type":"mode","mode":"play","side":"east"}"#,
                "bad 'side'",
            ),
        ] {
            s.on_page(text);
            let messages = page(&mut s);
            assert_eq!(messages.len(), 1, "{text}: {messages:?}");
            assert_eq!(messages[0]["type"], "error");
            let message = messages[0]["message"].as_str().unwrap();
            assert!(message.contains(expected), "{text}: {message}");
        }
        assert!(lines_sent(&mut s).is_empty());
    }

    #[test]
    fn fields_are_checked_before_the_sessions_state() {
        let mut s = session();
        s.on_page(r#"{"type":"mode","mode":"review"}"#);
        page(&mut s);
        // A move that is no string is refused for its field, not because
        // a review is on.
        let error = s.request(r#"{"type":"move","move":5}"#).unwrap_err();
        assert_eq!(error.to_string(), "bad 'move': not a string");
        assert!(matches!(
            s.request(r#"{"type":"move","move":"c"}"#),
            Err(RequestError::Reviewing)
        ));
        // With no file open, any game number is past its games.
        for game in ["", r#","game":"1""#, r#","game":1"#, r#","game":0"#] {
            let text = format!(r#"{{"type":"pick"{game}}}"#);
            let error = s.request(&text).unwrap_err();
            assert!(
                matches!(
                    error,
                    RequestError::BadField {
                        field: "game",
                        problem: FieldProblem::NoSuchGame(0)
                    }
                ),
                "{text}: {error}"
            );
        }
        // Settings are all checked before any is applied.
        s.on_page(r#"{"type":"settings","skill":3,"multipv":9}"#);
        assert_eq!(page(&mut s)[0]["type"], "error");
        assert_eq!(s.skill, DEFAULT_SKILL);
        s.on_page(r#"{"type":"settings","skill":3,"multipv":2}"#);
        let state = page(&mut s).pop().unwrap();
        assert_eq!(
            (state["skill"].clone(), state["multipv"].clone()),
            (json!(3), json!(2))
        );
    }

    #[test]
    fn the_engines_turn_is_its_own() {
        let mut s = session();
        s.on_page(r#"{"type":"mode","mode":"play","side":"north"}"#);
        assert!(lines_sent(&mut s).contains(&"go movetime 1000".to_string()));
        page(&mut s);
        s.on_page(r#"{"type":"move","move":"c"}"#);
        assert_eq!(page(&mut s)[0]["message"], "it is the engine's turn");
    }

    #[test]
    fn a_person_stepped_back_cannot_move_for_the_engine() {
        let mut s = session();
        s.on_page(r#"{"type":"move","move":"c"}"#);
        s.on_engine("bestmove j");
        s.on_page(r#"{"type":"goto","ply":1}"#);
        let state = page(&mut s).pop().unwrap();
        assert_eq!(
            state["legal"],
            json!([]),
            "no stone of the engine's lights up"
        );
        s.on_page(r#"{"type":"move","move":"k"}"#);
        assert_eq!(page(&mut s)[0]["message"], "it is the engine's turn");
        assert_eq!(s.game.len(), 2, "the engine's move stands");
    }

    #[test]
    fn analysis_restarts_on_navigation_and_drops_stale_output() {
        let mut s = session();
        s.on_page(r#"{"type":"move","move":"c"}"#);
        s.on_page(r#"{"type":"settings","multipv":2}"#);
        s.on_page(r#"{"type":"mode","mode":"analyse"}"#);
        // The move search is stopped first; its bestmove is not played.
        assert_eq!(lines_sent(&mut s).last().unwrap(), "stop");
        s.on_engine("bestmove j");
        let sent = lines_sent(&mut s);
        assert!(
            sent.contains(&"setoption name MultiPV value 2".to_string()),
            "{sent:?}"
        );
        assert_eq!(sent.last().unwrap(), "go infinite");
        page(&mut s);
        s.on_engine("info depth 5 multipv 2 score mate 2 pv j");
        s.flush();
        let info = page(&mut s).pop().unwrap();
        assert_eq!(info["multipv"], 2);
        assert_eq!(info["score"], "-#2");
        s.on_page(r#"{"type":"goto","ply":0}"#);
        assert_eq!(lines_sent(&mut s), ["stop"]);
        s.on_engine("info depth 6 multipv 1 score cp 5 pv j");
        s.on_engine("bestmove j");
        s.flush();
        assert!(page(&mut s).iter().all(|m| m["type"] != "info"), "stale");
        assert_eq!(lines_sent(&mut s).last().unwrap(), "go infinite");
        s.on_page(r#"{"type":"run","on":false}"#);
        assert_eq!(lines_sent(&mut s), ["stop"]);
        s.on_engine("bestmove c");
        assert!(lines_sent(&mut s).is_empty());
        assert_eq!(s.game.len(), 1, "analysis plays no move");
    }

    #[test]
    fn options_the_engine_lacks_are_not_sent() {
        let mut s = Session::new("other", vec!["Hash".into()]);
        s.on_page(r#"{"type":"mode","mode":"watch"}"#);
        let sent = lines_sent(&mut s);
        assert!(
            sent.iter().all(|line| !line.starts_with("setoption")),
            "{sent:?}"
        );
        assert_eq!(sent.last().unwrap(), "go movetime 1000");
    }

    #[test]
    fn an_illegal_engine_move_stops_the_engine() {
        let mut s = session();
        s.on_page(r#"{"type":"mode","mode":"watch"}"#);
        lines_sent(&mut s);
        page(&mut s);
        s.on_engine("bestmove z9z9");
        let messages = page(&mut s);
        assert!(messages[0]["message"].as_str().unwrap().contains("z9z9"));
        assert!(lines_sent(&mut s).is_empty());
        s.on_engine_gone("exited");
        assert!(page(&mut s).is_empty(), "said once");
    }

    #[test]
    fn without_an_engine_the_board_still_works() {
        let mut s = Session::new("missing", Vec::new());
        s.on_engine_gone("cannot start");
        let messages = page(&mut s);
        assert!(
            messages
                .iter()
                .any(|m| m["message"] == "engine: cannot start")
        );
        s.on_page(r#"{"type":"move","move":"c"}"#);
        s.on_page(r#"{"type":"mode","mode":"analyse"}"#);
        assert!(lines_sent(&mut s).is_empty());
        assert_eq!(s.game.len(), 1);
    }

    #[test]
    fn the_clock_runs_for_the_mover_and_its_flag_ends_the_game() {
        let mut s = session();
        s.on_page(r#"{"type":"settings","clock_minutes":1,"clock_increment":2}"#);
        let state = page(&mut s).pop().unwrap();
        assert_eq!(state["clock"]["running"], "south");
        s.on_page(r#"{"type":"move","move":"c"}"#);
        let go = lines_sent(&mut s).pop().unwrap();
        // South has its increment; North's clock has just started.
        let words: Vec<&str> = go.split_whitespace().collect();
        let number = |at: usize| words[at].parse::<u64>().unwrap();
        assert_eq!(words[1], "wtime", "{go}");
        assert_eq!(words[3], "btime", "{go}");
        assert_eq!(words[5..], ["winc", "2000", "binc", "2000"], "{go}");
        assert!((61_000..=62_000).contains(&number(2)), "{go}");
        assert!((59_000..=60_000).contains(&number(4)), "{go}");
        s.tick(Instant::now());
        page(&mut s);
        s.tick(Instant::now() + Duration::from_secs(61));
        let state = page(&mut s).pop().unwrap();
        assert_eq!(state["over"], json!({"winner": "south", "reason": "time"}));
        assert!(
            state["status"]
                .as_str()
                .unwrap()
                .starts_with("South wins on time")
        );
        assert_eq!(lines_sent(&mut s), ["stop"]);
        s.on_engine("bestmove j");
        assert_eq!(s.game.len(), 1, "a move after the flag is not played");
        s.on_page(r#"{"type":"new"}"#);
        assert_eq!(page(&mut s).pop().unwrap()["over"], Value::Null);
    }

    #[test]
    fn take_back_in_play_returns_to_the_persons_move() {
        let mut s = session();
        s.on_page(r#"{"type":"move","move":"c"}"#);
        s.on_engine("bestmove j");
        s.on_page(r#"{"type":"takeback"}"#);
        assert!(s.game.is_empty());
    }

    #[test]
    fn saving_and_loading_use_match_records() {
        let mut s = session();
        s.on_page(r#"{"type":"move","move":"c"}"#);
        s.on_engine("bestmove j");
        page(&mut s);
        s.on_page(r#"{"type":"save"}"#);
        let record = page(&mut s).pop().unwrap();
        let text = record["text"].as_str().unwrap().to_string();
        assert!(
            text.contains("[South \"person\"]") && text.contains("1. c j *"),
            "{text}"
        );
        s.on_page(r#"{"type":"new"}"#);
        s.on_page(&json!({"type": "load", "text": text}).to_string());
        assert_eq!(s.game.len(), 2);
    }

    #[test]
    fn address_parts_are_named_in_errors_and_analyze_is_taken() {
        let mut s = session();
        s.on_page(r#"{"type":"new","position":"garbage","tag":"position=garbage"}"#);
        let error = page(&mut s).pop().unwrap();
        assert_eq!(error["tag"], "position=garbage");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("invalid position")
        );
        s.on_page(r#"{"type":"mode","mode":"analyze"}"#);
        let messages = page(&mut s);
        let state = messages.iter().find(|m| m["type"] == "state").unwrap();
        assert_eq!(state["mode"], "analyse");
        s.on_page(r#"{"type":"mode","mode":"fly"}"#);
        let error = page(&mut s).pop().unwrap();
        assert!(
            error["message"].as_str().unwrap().contains("analyze"),
            "{error}"
        );
        assert_eq!(error["tag"], Value::Null);
    }

    /// Polls the session until its review is done.
    fn finish_review(s: &mut Session) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            s.tick(Instant::now());
            if let Some(done) = page(s)
                .into_iter()
                .find(|m| m["type"] == "review" && m["running"] == false)
            {
                return done;
            }
            assert!(Instant::now() < deadline, "the review did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn the_game_just_played_is_reviewed_with_one_request() {
        let mut s = session();
        s.on_page(r#"{"type":"move","move":"c"}"#);
        s.on_engine("bestmove j");
        page(&mut s);
        s.on_page(r#"{"type":"mode","mode":"review"}"#);
        let messages = page(&mut s);
        let review = messages.iter().find(|m| m["type"] == "review").unwrap();
        assert_eq!(review["players"]["south"], "person");
        assert_eq!(review["players"]["north"], "pasang");
        assert_eq!(review["total"], 3);
        let done = finish_review(&mut s);
        assert_eq!(done["game"]["plies"][1]["move"], "j");
        // Back in play the game goes on, and its review goes with the
        // moves it judged.
        s.on_page(r#"{"type":"mode","mode":"play","side":"south"}"#);
        s.on_page(r#"{"type":"move","move":"b4c4n"}"#);
        assert!(s.review.is_none());
    }

    #[test]
    fn a_file_of_two_games_is_picked_from_and_reviewed() {
        let mut s = session();
        let text = "[Event \"a\"]\n[South \"Ann\"]\n[North \"Bob\"]\n[Result \"*\"]\n\n1. d k *\n\n\
                    [Event \"b\"]\n[South \"Cid\"]\n[North \"Dee\"]\n[Result \"*\"]\n\n1. c j 2. b4c4n *\n";
        s.on_page(&json!({"type": "load", "text": text, "review": true}).to_string());
        let messages = page(&mut s);
        let games = messages.iter().find(|m| m["type"] == "games").unwrap();
        assert_eq!(games["games"][1]["north"], "Dee");
        assert!(
            messages.iter().all(|m| m["type"] != "review"),
            "nothing picked yet"
        );
        assert!(s.game.is_empty());
        // A game that does not replay is refused and changes nothing.
        let broken = text.replace("1. d k *", "1. d d *");
        s.on_page(&json!({"type": "load", "text": broken, "review": true}).to_string());
        page(&mut s);
        s.on_page(r#"{"type":"pick","game":1}"#);
        let error = page(&mut s).pop().unwrap();
        assert!(
            error["message"].as_str().unwrap().contains("ply 2"),
            "{error}"
        );
        assert!(s.game.is_empty() && !s.file.as_ref().unwrap().is_chosen());
        s.on_page(&json!({"type": "load", "text": text, "review": true}).to_string());
        page(&mut s);
        s.on_page(r#"{"type":"pick","game":3}"#);
        assert!(
            page(&mut s)[0]["message"]
                .as_str()
                .unwrap()
                .contains("2 games")
        );
        s.on_page(r#"{"type":"pick","game":2}"#);
        let messages = page(&mut s);
        let state = messages.iter().find(|m| m["type"] == "state").unwrap();
        assert_eq!(state["mode"], "review");
        assert_eq!(state["moves"], json!(["c", "j", "b4c4n"]));
        let started = messages.iter().find(|m| m["type"] == "review").unwrap();
        assert_eq!(started["running"], true);
        assert_eq!(started["players"]["south"], "Cid");
        assert!(s.take_engine().is_empty(), "the page's engine is not asked");
        // Stepping through is allowed; playing another move is not.
        s.on_page(r#"{"type":"goto","ply":1}"#);
        s.on_page(r#"{"type":"move","move":"j"}"#);
        assert!(
            page(&mut s)
                .iter()
                .any(|m| m["message"].as_str().is_some_and(|m| m.contains("review")))
        );
        let done = finish_review(&mut s);
        assert_eq!(done["game"]["plies"].as_array().unwrap().len(), 3);
        // Saved, it is the annotated record; read again, it is the review
        // at once, with no search.
        s.on_page(r#"{"type":"save"}"#);
        let record = page(&mut s).pop().unwrap();
        assert_eq!(record["annotated"], true);
        let annotated = record["text"].as_str().unwrap().to_string();
        assert!(
            annotated.contains("[SouthAccuracy") || annotated.contains("[SouthBlunders"),
            "{annotated}"
        );
        let mut fresh = session();
        fresh.on_page(&json!({"type": "load", "text": annotated, "review": true}).to_string());
        let review = page(&mut fresh)
            .into_iter()
            .find(|m| m["type"] == "review")
            .unwrap();
        assert_eq!(review["running"], false);
        assert_eq!(review["game"]["plies"], done["game"]["plies"]);
    }
}
