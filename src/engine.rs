//! The engine facade between the protocol and the search: the current
//! game, the options, the transposition table. The protocol never reaches
//! into the search; the search never prints.

use std::fmt;
use std::fmt::Write as _;

use crate::eval::evaluate;
use crate::eval::nnue::{Network, NetworkError};
use crate::movegen::legal_moves;
use crate::moves::Move;
pub use crate::notation::start_position;
use crate::notation::{
    ListMoveError, MoveError, PositionError, board_char, format_position, parse_move,
    parse_position, play_moves, shorten,
};
use crate::outcome::Status;
use crate::position::{Player, Position};
use crate::rules::{Centre, KaEntry, OptionValueError, Pattern, Rules, SecondColumn};
use crate::search::{
    Limits, Listener, Reference, ReferenceError, SearchResult, Searcher, Settings, Signals, skill,
};
use crate::tt::{MAX_HASH_MIB, TableError, TranspositionTable};

/// Most search threads `Threads` allows.
pub(crate) const MAX_THREADS: usize = 256;
/// Most lines `MultiPV` allows (no position has more moves).
pub(crate) const MAX_MULTIPV: usize = crate::moves::MAX_MOVES;
/// Default `Hash` in MiB.
pub(crate) const DEFAULT_HASH_MIB: usize = 16;

/// Why the engine refused a `setoption`, a `position` or `searchmoves`;
/// on any of them the engine's state stays as it was. `Display` gives the
/// text the protocol sends after `info string error: `.
#[derive(Debug)]
pub enum EngineError {
    /// No option has this name (as given).
    UnknownOption(String),
    /// The option needs a value and got none.
    MissingValue {
        /// The option's name as announced.
        option: &'static str,
    },
    /// A spin option's value is not an integer.
    NotAnInteger {
        /// The option's name as announced.
        option: &'static str,
        /// The value given.
        given: String,
    },
    /// A spin option's value is outside its range.
    OutOfRange {
        /// The option's name as announced.
        option: &'static str,
        /// The value given.
        given: i64,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// A check option's value is neither `true` nor `false`.
    NotABoolean {
        /// The option's name as announced.
        option: &'static str,
        /// The value given, in lower case.
        given: String,
    },
    /// `Hash`: the table could not be had; the previous size stays.
    Table(TableError),
    /// `Reference Player`: not a reference player.
    ReferencePlayer(ReferenceError),
    /// A rule option's value is not one of its values.
    Rule(OptionValueError),
    /// The position string does not parse.
    Position(PositionError),
    /// A move of the `position` command's list does not parse or is
    /// illegal where it is played.
    ListMove(ListMoveError),
    /// A move of `searchmoves` does not parse or is illegal.
    SearchMove(MoveError),
    /// `EvalFile`: the file is no network; the engine keeps its own.
    Network(NetworkError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownOption(name) => write!(f, "unknown option '{}'", shorten(name)),
            EngineError::MissingValue { option } => write!(f, "option '{option}' needs a value"),
            EngineError::NotAnInteger { option, given } => write!(
                f,
                "option '{option}' value '{}' is not an integer",
                shorten(given)
            ),
            EngineError::OutOfRange {
                option,
                given,
                min,
                max,
            } => write!(
                f,
                "option '{option}' value {given} is out of range {min}..{max}"
            ),
            EngineError::NotABoolean { option, given } => write!(
                f,
                "option '{option}' value '{}' is not true or false",
                shorten(given)
            ),
            EngineError::Table(error) => error.fmt(f),
            EngineError::ReferencePlayer(error) => error.fmt(f),
            EngineError::Rule(error) => error.fmt(f),
            EngineError::Position(error) => write!(f, "invalid position: {error}"),
            EngineError::ListMove(error) => error.fmt(f),
            EngineError::SearchMove(error) => write!(f, "searchmoves: {error}"),
            EngineError::Network(error) => write!(f, "EvalFile: {error}; the network is unchanged"),
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Table(error) => Some(error),
            EngineError::ReferencePlayer(error) => Some(error),
            EngineError::Rule(error) => Some(error),
            EngineError::Position(error) => Some(error),
            EngineError::ListMove(error) => Some(error),
            EngineError::SearchMove(error) => Some(error),
            EngineError::Network(error) => Some(error),
            _ => None,
        }
    }
}

/// The kind and range of an option, as `uci` announces it.
pub(crate) enum OptionKind {
    /// An integer in a range.
    Spin { default: i64, min: i64, max: i64 },
    /// On or off.
    Check { default: bool },
    /// An action.
    Button,
    /// One of a fixed set of words.
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
    /// Free text (empty by default).
    Text,
}

/// Every option: name and kind.
pub(crate) const OPTIONS: &[(&str, OptionKind)] = &[
    (
        "Hash",
        OptionKind::Spin {
            default: DEFAULT_HASH_MIB as i64,
            min: 1,
            max: MAX_HASH_MIB as i64,
        },
    ),
    (
        "Threads",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
    ),
    (
        "MultiPV",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
    ),
    (
        "Move Overhead",
        OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    ),
    ("Ponder", OptionKind::Check { default: false }),
    ("UCI_ShowWDL", OptionKind::Check { default: false }),
    ("Clear Hash", OptionKind::Button),
    (
        "Pattern",
        OptionKind::Combo {
            default: "1",
            values: Pattern::NAMES,
        },
    ),
    (
        "Ka Entry",
        OptionKind::Combo {
            default: "slide",
            values: KaEntry::NAMES,
        },
    ),
    (
        "Second Column",
        OptionKind::Combo {
            default: "opposite",
            values: SecondColumn::NAMES,
        },
    ),
    (
        "Centre",
        OptionKind::Combo {
            default: "wall",
            values: Centre::NAMES,
        },
    ),
    (
        "Skill Level",
        OptionKind::Spin {
            default: 20,
            min: 0,
            max: 20,
        },
    ),
    ("UCI_LimitStrength", OptionKind::Check { default: false }),
    (
        "UCI_Elo",
        OptionKind::Spin {
            default: skill::elo_range().1 as i64,
            min: skill::elo_range().0 as i64,
            max: skill::elo_range().1 as i64,
        },
    ),
    (
        "Reference Player",
        OptionKind::Combo {
            default: "off",
            values: Reference::NAMES,
        },
    ),
    ("Debug Log File", OptionKind::Text),
    ("Use NNUE", OptionKind::Check { default: USE_NNUE }),
    ("EvalFile", OptionKind::Text),
];

/// Whether the network evaluates by default (docs/strength.md has the
/// match that decided it).
pub const USE_NNUE: bool = false;

/// The `option` lines of the `uci` answer.
pub(crate) fn option_lines() -> Vec<String> {
    OPTIONS
        .iter()
        .map(|(name, kind)| match kind {
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::Combo { default, values } => {
                let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionKind::Text => format!("option name {name} type string default <empty>"),
        })
        .collect()
}

/// What a `setoption` asks of the caller beyond the engine's own state.
#[derive(Debug, Eq, PartialEq)]
pub enum OptionEffect {
    /// Nothing more.
    None,
    /// Log protocol lines to this file (`None`: stop logging).
    LogFile(Option<String>),
}

/// The current game and settings.
pub struct Engine {
    /// Rule options as set; they apply to positions set afterwards.
    rules: Rules,
    /// The rules the current position is played under.
    game_rules: Rules,
    position: Position,
    /// The table, the proven results and the helper threads.
    searcher: Searcher,
    hash_mib: usize,
    settings: Settings,
    /// The network `Use NNUE` switches on (the embedded one or `EvalFile`'s).
    network: std::sync::Arc<Network>,
    skill_level: u8,
    limit_strength: bool,
    elo: i32,
    /// `UCI_ShowWDL`: add win/draw/loss chances to the `info` lines.
    show_wdl: bool,
    /// Whether the session speaks UGI (set by `ugi`, cleared by `uci`).
    ugi: bool,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the pattern-1 start with default options.
    pub fn new() -> Engine {
        let rules = Rules::default();
        Engine {
            rules,
            game_rules: rules,
            position: start_position(rules.pattern),
            searcher: Searcher::new(TranspositionTable::new(DEFAULT_HASH_MIB)),
            hash_mib: DEFAULT_HASH_MIB,
            settings: Settings {
                network: USE_NNUE.then(Network::embedded),
                ..Settings::default()
            },
            network: Network::embedded(),
            skill_level: skill::MAX_LEVEL,
            limit_strength: false,
            elo: skill::elo_range().1,
            show_wdl: false,
            ugi: false,
        }
    }

    /// Whether the session speaks UGI: its `bestmove` lines then name no
    /// ponder move.
    pub fn ugi(&self) -> bool {
        self.ugi
    }

    /// Sets the session's protocol: UGI (`true`, after `ugi`) or UCI.
    pub fn set_ugi(&mut self, ugi: bool) {
        self.ugi = ugi;
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules of the current position.
    pub fn game_rules(&self) -> &Rules {
        &self.game_rules
    }

    /// Current search settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Whether `info` lines carry `wdl` (the `UCI_ShowWDL` option).
    pub fn show_wdl(&self) -> bool {
        self.show_wdl
    }

    /// Forgets everything learned: the table and the proven results are
    /// emptied.
    pub fn new_game(&mut self) {
        self.forget();
    }

    fn forget(&mut self) {
        self.searcher.forget();
    }

    /// Applies `setoption`. On error nothing changes.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<OptionEffect, EngineError> {
        let Some((canonical, kind)) = OPTIONS
            .iter()
            .find(|(option, _)| option.eq_ignore_ascii_case(name.trim()))
        else {
            return Err(EngineError::UnknownOption(name.to_string()));
        };
        let option: &'static str = canonical;
        let value = value.map(str::trim);
        let needed = || {
            value
                .filter(|v| !v.is_empty())
                .ok_or(EngineError::MissingValue { option })
        };
        let spin = |min: i64, max: i64| -> Result<i64, EngineError> {
            let text = needed()?;
            let number: i64 = text.parse().map_err(|_| EngineError::NotAnInteger {
                option,
                given: text.to_string(),
            })?;
            if (min..=max).contains(&number) {
                Ok(number)
            } else {
                Err(EngineError::OutOfRange {
                    option,
                    given: number,
                    min,
                    max,
                })
            }
        };
        let boolean = |text: &str| match text.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(EngineError::NotABoolean {
                option,
                given: other.to_string(),
            }),
        };
        let rule_change = |rules: Rules, engine: &mut Engine| {
            if rules != engine.rules {
                engine.rules = rules;
                // Another rule set makes every stored result meaningless.
                engine.forget();
            }
        };
        match (*canonical, kind) {
            ("Hash", OptionKind::Spin { min, max, .. }) => {
                let mib = spin(*min, *max)? as usize;
                if mib != self.hash_mib {
                    // Free the old table first so the peak is one table.
                    self.searcher.set_table(TranspositionTable::new(1));
                    match TranspositionTable::try_new(mib) {
                        Ok(table) => {
                            self.searcher.set_table(table);
                            self.hash_mib = mib;
                        }
                        Err(error) => {
                            self.searcher.set_table(
                                TranspositionTable::try_new(self.hash_mib)
                                    .unwrap_or_else(|_| TranspositionTable::new(1)),
                            );
                            return Err(EngineError::Table(error));
                        }
                    }
                }
            }
            ("Threads", OptionKind::Spin { min, max, .. }) => {
                self.settings.threads = spin(*min, *max)? as usize;
            }
            ("MultiPV", OptionKind::Spin { min, max, .. }) => {
                self.settings.multipv = spin(*min, *max)? as usize;
            }
            ("Move Overhead", OptionKind::Spin { min, max, .. }) => {
                self.settings.move_overhead = spin(*min, *max)? as u64;
            }
            // The GUI says whether it may send `go ponder`; the engine
            // ponders only when asked, so the value is checked and kept nowhere.
            ("Ponder", _) => {
                boolean(needed()?)?;
            }
            ("UCI_ShowWDL", _) => {
                self.show_wdl = boolean(needed()?)?;
            }
            ("Clear Hash", _) => self.forget(),
            ("Skill Level", OptionKind::Spin { min, max, .. }) => {
                self.skill_level = spin(*min, *max)? as u8;
                self.update_strength();
            }
            ("UCI_LimitStrength", _) => {
                self.limit_strength = boolean(needed()?)?;
                self.update_strength();
            }
            ("UCI_Elo", OptionKind::Spin { min, max, .. }) => {
                self.elo = spin(*min, *max)? as i32;
                self.update_strength();
            }
            ("Reference Player", _) => {
                self.settings.reference =
                    needed()?.parse().map_err(EngineError::ReferencePlayer)?;
            }
            ("Pattern" | "Ka Entry" | "Second Column" | "Centre", _) => {
                let rules = self
                    .rules
                    .with_option(canonical, needed()?)
                    .map_err(EngineError::Rule)?;
                rule_change(rules, self);
            }
            ("Use NNUE", _) => {
                let on = boolean(needed()?)?;
                self.settings.network = on.then(|| self.network.clone());
            }
            ("EvalFile", _) => {
                let network = match value.filter(|v| !v.is_empty() && *v != "<empty>") {
                    None => Network::embedded(),
                    Some(path) => std::sync::Arc::new(
                        Network::load(std::path::Path::new(path)).map_err(EngineError::Network)?,
                    ),
                };
                if self.settings.network.is_some() {
                    self.settings.network = Some(network.clone());
                }
                self.network = network;
            }
            ("Debug Log File", _) => {
                let path = value.filter(|v| !v.is_empty() && *v != "<empty>");
                return Ok(OptionEffect::LogFile(path.map(str::to_string)));
            }
            _ => unreachable!("every option is matched above"),
        }
        Ok(OptionEffect::None)
    }

    /// The search's level: `UCI_Elo` mapped onto the measured ladder when
    /// `UCI_LimitStrength` is on, `Skill Level` otherwise.
    fn update_strength(&mut self) {
        self.settings.skill_level = if self.limit_strength {
            skill::level_for_elo(self.elo)
        } else {
            self.skill_level
        };
    }

    /// Sets the position from a base and moves. On error the previous
    /// position stays and the message names the fault.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), EngineError> {
        let rules = self.rules;
        let base = match fen {
            None => start_position(rules.pattern),
            Some(text) => parse_position(text).map_err(EngineError::Position)?,
        };
        self.position = play_moves(base, &rules, moves, |_| {}).map_err(EngineError::ListMove)?;
        self.game_rules = rules;
        Ok(())
    }

    /// Parses moves for `searchmoves`; unknown or illegal ones are errors.
    pub fn parse_moves(&self, texts: &[String]) -> Result<Vec<Move>, EngineError> {
        texts
            .iter()
            .map(|text| {
                parse_move(&self.position, &self.game_rules, text).map_err(EngineError::SearchMove)
            })
            .collect()
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(&self.position, &self.game_rules).to_vec()
    }

    /// The game status of the current position.
    pub fn status(&self) -> Status {
        Status::of(&self.position, &self.game_rules)
    }

    /// Searches the current position.
    pub fn search(
        &self,
        limits: &Limits,
        signals: &Signals,
        id: u64,
        listener: &dyn Listener,
    ) -> SearchResult {
        self.search_with(limits, &self.settings, signals, id, listener)
    }

    /// Searches with explicit settings (bench uses one thread).
    pub fn search_with(
        &self,
        limits: &Limits,
        settings: &Settings,
        signals: &Signals,
        id: u64,
        listener: &dyn Listener,
    ) -> SearchResult {
        self.searcher.search(
            &self.position,
            &self.game_rules,
            limits,
            settings,
            signals,
            id,
            listener,
        )
    }

    /// Sets rule options directly (command-line tools).
    pub fn set_rules(&mut self, rules: Rules) {
        if rules != self.rules {
            self.rules = rules;
            self.forget();
        }
        self.game_rules = rules;
    }

    /// The board diagram and details of `d`.
    pub fn display(&self) -> String {
        let mut text = diagram(&self.position);
        let position = &self.position;
        let _ = writeln!(text, "Position: {}", format_position(position));
        let _ = writeln!(text, "Side to move: {}", position.side_to_move());
        let _ = writeln!(text, "Phase: {}", position.phase());
        let _ = writeln!(
            text,
            "Scores: south {} north {}",
            position.score(Player::South),
            position.score(Player::North)
        );
        let rules = &self.game_rules;
        let _ = writeln!(
            text,
            "Rules: pattern {} ka-entry {} second-column {} centre {}",
            rules.pattern, rules.ka_entry, rules.second_column, rules.centre
        );
        let _ = writeln!(text, "Key: {:016X}", position.key());
        let _ = write!(text, "Status: {}", self.status());
        text
    }

    /// The evaluation and its terms, for `eval`.
    pub fn eval_report(&self) -> String {
        let evaluation = evaluate(&self.position, &self.game_rules);
        format!(
            "margin {} mobility {} danger {} threats {} tempo {} total {} (centipoints, side to move: {})",
            evaluation.margin,
            evaluation.mobility,
            evaluation.danger,
            evaluation.threats,
            evaluation.tempo,
            evaluation.total,
            self.position.side_to_move()
        ) + &format!(
            "; network {} ({}, {})",
            self.network.evaluate(&self.position),
            self.network.name(),
            if self.settings.network.is_some() {
                "in use"
            } else {
                "not in use: Use NNUE is off"
            }
        )
    }
}

/// A board diagram with coordinates, rank 11 at the top.
pub(crate) fn diagram(position: &Position) -> String {
    let mut text = String::new();
    for rank in (0..11).rev() {
        let _ = write!(text, "{:>2} ", rank + 1);
        for file in 0..11 {
            let square = crate::bitboard::Square::new(rank, file).expect("on the board");
            let _ = write!(text, " {}", board_char(position, square));
        }
        text.push('\n');
    }
    text.push_str("    a b c d e f g h i j k\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The protocol sends these texts after `info string error: `: the
    /// error types must keep them word for word.
    #[test]
    fn errors_keep_the_protocol_text() {
        let mut engine = Engine::new();
        let option = |engine: &mut Engine, name: &str, value: Option<&str>| {
            engine.set_option(name, value).err().unwrap().to_string()
        };
        assert_eq!(
            option(&mut engine, "Bogus", Some("3")),
            "unknown option 'Bogus'"
        );
        assert_eq!(
            option(&mut engine, "hash", Some("abc")),
            "option 'Hash' value 'abc' is not an integer"
        );
        assert_eq!(
            option(&mut engine, "Hash", Some("0")),
            format!("option 'Hash' value 0 is out of range 1..{MAX_HASH_MIB}")
        );
        assert_eq!(
            option(&mut engine, "Hash", None),
            "option 'Hash' needs a value"
        );
        assert_eq!(
            option(&mut engine, "Ponder", Some("Maybe")),
            "option 'Ponder' value 'maybe' is not true or false"
        );
        assert_eq!(
            option(&mut engine, "Reference Player", Some("nope")),
            "invalid Reference Player value 'nope' (expected off greedy margin3)"
        );
        let position = engine.set_position(Some("garbage"), &[]).unwrap_err();
        assert!(matches!(position, EngineError::Position(_)));
        assert!(position.to_string().starts_with("invalid position: "));
        let list = engine.set_position(None, &["zz9".to_string()]).unwrap_err();
        assert!(matches!(
            list,
            EngineError::ListMove(ListMoveError { number: 1, .. })
        ));
        assert!(list.to_string().starts_with("move 1 of the list: "));
        let search = engine.parse_moves(&["zz9".to_string()]).unwrap_err();
        assert!(search.to_string().starts_with("searchmoves: "));
    }
}
