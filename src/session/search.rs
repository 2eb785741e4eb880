//! What the engine is asked, and what comes of it: the session's wish
//! (a move, an analysis or nothing), the commands that start and stop a
//! search, and the search's end (`bestmove`).

use std::collections::BTreeMap;

use super::Session;
use crate::host::Instant;
use crate::outcome::Status;
use crate::position::Player;
use crate::protocol::options::RULE_OPTIONS;
use crate::protocol::{Command, GoParams, PositionBase, Reply};
use crate::session::message::{ErrorKind, PageMessage, SearchPurpose};
use crate::session::mode::Mode;

/// The search the engine is running.
#[derive(Copy, Clone, Debug)]
pub(super) struct Search {
    pub(super) purpose: SearchPurpose,
    /// The session's generation when it started: a search of an older
    /// generation is stale, and its output is dropped.
    pub(super) generation: u64,
    /// Whether `stop` has been sent.
    pub(super) stopping: bool,
    /// The side to move in the searched position (scores are its view).
    pub(super) side: Player,
}

/// What the session knows of the engine, and what it has for it.
#[derive(Debug, Default)]
pub(super) struct EngineState {
    /// Options the engine announced; others are never sent.
    options: Vec<String>,
    /// Values sent so far, so each is sent only when it changes.
    sent: BTreeMap<String, String>,
    /// Whether the engine can be asked to search.
    pub(super) usable: bool,
    /// Whether the next search is of a new game (`ucinewgame` first).
    pub(super) new_game: bool,
    /// The search running, if any.
    pub(super) search: Option<Search>,
    /// Commands not yet taken by the transport.
    commands: Vec<Command>,
}

impl EngineState {
    /// An engine that announced `options`, not yet asked anything.
    pub(super) fn new(options: Vec<String>) -> EngineState {
        EngineState {
            options,
            usable: true,
            new_game: true,
            ..EngineState::default()
        }
    }

    pub(super) fn take_commands(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.commands)
    }

    pub(super) fn has_commands(&self) -> bool {
        !self.commands.is_empty()
    }

    /// Sends an option if the engine has it and its value changed.
    fn set_option(&mut self, name: &str, value: String) {
        let known = self
            .options
            .iter()
            .any(|option| option.eq_ignore_ascii_case(name));
        if known && self.sent.get(name) != Some(&value) {
            self.sent.insert(name.to_string(), value.clone());
            self.commands.push(Command::SetOption {
                name: name.to_string(),
                value: Some(value),
            });
        }
    }
}

impl Session {
    /// Handles one reply of the engine.
    pub fn on_engine(&mut self, reply: &Reply) {
        match reply {
            Reply::BestMove(best) => self.on_bestmove(best.best.as_deref()),
            Reply::Info(info) => self.on_info(info),
            _ => {}
        }
    }

    /// What the engine should be doing now, if anything.
    fn wanted(&self) -> Option<SearchPurpose> {
        if !self.engine.usable || self.lost().is_some() || self.game.status() != Status::InPlay {
            return None;
        }
        match self.mode {
            Mode::Play { person } => (self.game.at_end()
                && self.game.shown().side_to_move() != person)
                .then_some(SearchPurpose::Move),
            Mode::Watch => (self.running && self.game.at_end()).then_some(SearchPurpose::Move),
            Mode::Analyse => self.running.then_some(SearchPurpose::Analyse),
            // The review searches in-process, not with the page's engine.
            Mode::Review => None,
            // Two people play: the engine keeps out of it.
            Mode::Friend => None,
        }
    }

    /// Brings the engine in line with the session: stops a search that is
    /// no longer wanted, starts one that is (once the old one has ended).
    pub(super) fn sync(&mut self) {
        let wanted = self.wanted();
        match &mut self.engine.search {
            Some(search) => {
                let current =
                    search.generation == self.generation && Some(search.purpose) == wanted;
                if !current && !search.stopping {
                    search.stopping = true;
                    self.engine.commands.push(Command::Stop);
                }
            }
            None => {
                if let Some(purpose) = wanted {
                    self.start(purpose);
                }
            }
        }
    }

    fn start(&mut self, purpose: SearchPurpose) {
        let rules = self.game.rules();
        let engine = &mut self.engine;
        for option in &RULE_OPTIONS {
            engine.set_option(option.name, option.value(&rules));
        }
        let (skill, multipv) = match purpose {
            SearchPurpose::Move => (self.skill, 1),
            SearchPurpose::Analyse => (20, self.multipv),
        };
        engine.set_option("Skill Level", skill.to_string());
        engine.set_option("MultiPV", multipv.to_string());
        if std::mem::take(&mut engine.new_game) {
            engine.commands.push(Command::UciNewGame);
        }
        // The answer is not awaited (the protocol keeps commands in
        // order); it is good manners after options, and harmless.
        engine.commands.push(Command::IsReady);
        engine.commands.push(Command::Position {
            base: PositionBase::Fen(self.game.start_string()),
            moves: self.game.moves_to_cursor(),
        });
        let go = self.go(purpose);
        self.engine.commands.push(Command::Go(go));
        let side = self.game.shown().side_to_move();
        self.engine.search = Some(Search {
            purpose,
            generation: self.generation,
            stopping: false,
            side,
        });
        self.lines.clear();
        self.send_page(PageMessage::Search {
            purpose,
            side,
            ply: self.game.cursor(),
        });
    }

    /// The limits of a search for `purpose`.
    fn go(&self, purpose: SearchPurpose) -> GoParams {
        match (purpose, self.clock) {
            (SearchPurpose::Move, Some(clock)) => {
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
            (SearchPurpose::Move, None) => GoParams {
                movetime: Some(self.movetime),
                ..GoParams::default()
            },
            (SearchPurpose::Analyse, _) => GoParams {
                infinite: true,
                ..GoParams::default()
            },
        }
    }

    /// The search's end: its move (`None` for `bestmove (none)`).
    fn on_bestmove(&mut self, best: Option<&str>) {
        let Some(search) = self.engine.search.take() else {
            return;
        };
        self.flush();
        if let Some(word) = best
            && search.generation == self.generation
            && !search.stopping
            && search.purpose == SearchPurpose::Move
        {
            match self.play(word) {
                Ok(()) => {
                    self.generation += 1;
                    self.update_clock();
                }
                Err(error) => {
                    // Asking again would bring the same move back.
                    self.engine.usable = false;
                    self.send_page(PageMessage::error(
                        ErrorKind::Engine,
                        format!(
                            "the engine played '{word}', which is refused ({error}); it is asked for no more moves"
                        ),
                    ));
                }
            }
            self.send_state();
        } else if search.purpose == SearchPurpose::Move {
            // A search for a move ended without one being played.
            self.send_state();
        }
        self.sync();
    }
}
