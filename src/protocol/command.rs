//! Protocol commands as parsed from input lines. Parsing checks syntax
//! only; whether a position or move is legal is the engine's business.

use crate::notation::shorten;

/// The base of a `position` command.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum PositionBase {
    /// The start of the current `Pattern`.
    StartPos,
    /// A position string.
    Fen(String),
}

/// `go` parameters, with moves still as text.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct GoParams {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// South's clock (`wtime`/`stime`/`p1time`) and North's
    /// (`btime`/`ntime`/`p2time`), ms.
    pub time: [Option<u64>; 2],
    pub increment: [Option<u64>; 2],
    pub moves_to_go: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    pub mate: Option<u32>,
    pub search_moves: Vec<String>,
    /// `go perft <n>`: a move-path count, not a search.
    pub perft: Option<u32>,
    /// Parameters that were skipped, with the reason (reported, not fatal).
    pub warnings: Vec<GoWarning>,
}

/// What `query` asks (UGI): player 1 is South, who moves first.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Query {
    /// `query gameover`: `response true|false`.
    GameOver,
    /// `query p1turn`: `response true|false`, whether South is to move.
    P1Turn,
    /// `query result`: `response p1win|p2win|draw|none`.
    Result,
}

impl Query {
    /// Every query, in the order the protocol lists them.
    pub const ALL: [Query; 3] = [Query::GameOver, Query::P1Turn, Query::Result];

    /// The word after `query`.
    pub fn word(self) -> &'static str {
        match self {
            Query::GameOver => "gameover",
            Query::P1Turn => "p1turn",
            Query::Result => "result",
        }
    }
}

/// One input line's command.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Command {
    Uci,
    /// The UGI handshake: as `uci`, answered with `ugiok`, and `bestmove`
    /// lines carry no `ponder` word from then on.
    Ugi,
    /// A UGI question about the current position.
    Query(Query),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        base: PositionBase,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    Debug(bool),
    /// Extension: list the legal moves.
    Moves,
    /// Extension: the game's result so far.
    Result,
    /// Extension: board diagram and details.
    Display,
    /// Extension: move-path count.
    Perft(u32),
    /// Extension: the built-in benchmark.
    Bench(Option<u32>),
    /// Extension: the static evaluation.
    Eval,
    /// Extension: the list of commands.
    Help,
    /// An empty line: ignored.
    Empty,
}

/// Why a line is not a command.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum CommandError {
    /// The first word is no command.
    #[error("unknown command: {0}")]
    Unknown(String),
    /// A known command with bad arguments.
    #[error("error: {0}")]
    Invalid(ArgumentError),
}

/// What is wrong with a known command's arguments (each message written
/// here once; the input's words in them are shortened and made safe).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ArgumentError {
    /// A command without arguments was given some.
    #[error("'{0}' takes no arguments")]
    NoArguments(String),
    /// `query` without one of its questions.
    #[error("query takes one of gameover, p1turn, result")]
    Query,
    /// `debug` without `on` or `off`.
    #[error("debug takes 'on' or 'off'")]
    Debug,
    /// `perft` without exactly one depth.
    #[error("perft takes one depth")]
    PerftDepth,
    /// `bench` with more than one depth.
    #[error("bench takes at most one depth")]
    BenchDepth,
    /// `setoption` without `name`.
    #[error("setoption: expected 'setoption name <name> [value <value>]'")]
    SetOptionSyntax,
    /// `setoption name` without a name.
    #[error("setoption: missing option name")]
    SetOptionName,
    /// `position fen` without a position string.
    #[error("position fen: missing position string")]
    MissingPositionString,
    /// `position` with nothing after it.
    #[error("position: expected 'startpos' or 'fen <position string>'")]
    MissingBase,
    /// A word after `startpos` that is not `moves`.
    #[error(
        "position: unexpected '{0}' after 'startpos' (moves follow the word 'moves': \
         position startpos moves c j)"
    )]
    AfterStartpos(String),
    /// `position` followed by neither `startpos` nor `fen`.
    #[error("position: expected 'startpos' or 'fen', got '{0}'")]
    BadBase(String),
    /// A key given without its value.
    #[error("{command}: '{key}' needs a value")]
    MissingValue {
        /// The command (`go`, `perft`, `bench`).
        command: &'static str,
        /// The key (`depth`, `movetime` ...).
        key: String,
    },
    /// A value that is not a number of the kind the key takes.
    #[error("{command}: '{key}' value '{text}' {problem}")]
    BadNumber {
        /// The command (`go`, `perft`, `bench`).
        command: &'static str,
        /// The key (`depth`, `movetime` ...).
        key: String,
        /// The value, shortened.
        text: String,
        /// What is wrong with it.
        problem: NumberProblem,
    },
    /// A `go` whose limits are wrong: no search starts.
    #[error("{0}; no search started")]
    Go(Box<ArgumentError>),
}

/// Why a value is not a number the key takes.
#[derive(Copy, Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum NumberProblem {
    /// Below zero where counts and times are meant.
    #[error("is negative")]
    Negative,
    /// Beyond the key's range.
    #[error("is too large")]
    TooLarge,
    /// Not a number at all.
    #[error("is not a number")]
    NotANumber,
}

/// A word of `go` that is no limit: skipped with a warning, and the search
/// runs (as Stockfish skips it).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum GoWarning {
    /// The word, shortened.
    #[error("go: unknown word '{0}' ignored")]
    UnknownWord(String),
}

fn invalid(error: ArgumentError) -> CommandError {
    CommandError::Invalid(error)
}

fn number<T: std::str::FromStr>(
    command: &'static str,
    key: &str,
    value: Option<&&str>,
) -> Result<T, CommandError> {
    let text = value.ok_or_else(|| {
        invalid(ArgumentError::MissingValue {
            command,
            key: shorten(key),
        })
    })?;
    text.parse::<T>().map_err(|_| {
        let problem = match text.parse::<i128>() {
            Ok(number) if number < 0 => NumberProblem::Negative,
            Ok(_) => NumberProblem::TooLarge,
            Err(_) => NumberProblem::NotANumber,
        };
        invalid(ArgumentError::BadNumber {
            command,
            key: shorten(key),
            text: shorten(text),
            problem,
        })
    })
}

impl std::str::FromStr for Command {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command, CommandError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = tokens.split_first() else {
            return Ok(Command::Empty);
        };
        let no_arguments = |command: Command| {
            if rest.is_empty() {
                Ok(command)
            } else {
                Err(invalid(ArgumentError::NoArguments(shorten(head))))
            }
        };
        match head {
            "uci" => no_arguments(Command::Uci),
            "isready" => no_arguments(Command::IsReady),
            "ucinewgame" | "uginewgame" => no_arguments(Command::UciNewGame),
            "ugi" => no_arguments(Command::Ugi),
            "query" => match rest {
                [word] => Query::ALL.into_iter().find(|query| query.word() == *word),
                _ => None,
            }
            .map(Command::Query)
            .ok_or(invalid(ArgumentError::Query)),
            "stop" => no_arguments(Command::Stop),
            "ponderhit" => no_arguments(Command::PonderHit),
            // Whatever follows: a person typing `quit now` means it.
            "quit" => Ok(Command::Quit),
            "help" => Ok(Command::Help),
            "moves" => no_arguments(Command::Moves),
            "result" => no_arguments(Command::Result),
            "d" => no_arguments(Command::Display),
            "eval" => no_arguments(Command::Eval),
            "debug" => match rest {
                ["on"] => Ok(Command::Debug(true)),
                ["off"] => Ok(Command::Debug(false)),
                _ => Err(invalid(ArgumentError::Debug)),
            },
            "setoption" => parse_setoption(rest),
            "position" => parse_position(rest),
            "go" => parse_go(rest)
                .map(Command::Go)
                .map_err(|error| match error {
                    CommandError::Invalid(why) => invalid(ArgumentError::Go(Box::new(why))),
                    other => other,
                }),
            "perft" => match rest {
                [depth] => Ok(Command::Perft(number("perft", "depth", Some(depth))?)),
                _ => Err(invalid(ArgumentError::PerftDepth)),
            },
            "bench" => match rest {
                [] => Ok(Command::Bench(None)),
                [depth] => Ok(Command::Bench(Some(number("bench", "depth", Some(depth))?))),
                _ => Err(invalid(ArgumentError::BenchDepth)),
            },
            _ => Err(CommandError::Unknown(shorten(line.trim()))),
        }
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(invalid(ArgumentError::SetOptionSyntax));
    }
    let value_at = rest.iter().position(|token| *token == "value");
    let name_tokens = &rest[1..value_at.unwrap_or(rest.len())];
    if name_tokens.is_empty() {
        return Err(invalid(ArgumentError::SetOptionName));
    }
    let value = value_at.map(|at| rest[at + 1..].join(" "));
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

/// The arguments of `position` (the words after it): the base and the
/// moves. `pasang analyse` reads its input lines with it too.
pub(crate) fn position_arguments(
    rest: &[&str],
) -> Result<(PositionBase, Vec<String>), ArgumentError> {
    let moves_at = rest.iter().position(|token| *token == "moves");
    let base_tokens = &rest[..moves_at.unwrap_or(rest.len())];
    let moves = moves_at.map_or_else(Vec::new, |at| {
        rest[at + 1..].iter().map(|m| m.to_string()).collect()
    });
    let base = match base_tokens {
        ["startpos"] => PositionBase::StartPos,
        ["fen", fields @ ..] if !fields.is_empty() => PositionBase::Fen(fields.join(" ")),
        ["fen"] => return Err(ArgumentError::MissingPositionString),
        [] => return Err(ArgumentError::MissingBase),
        ["startpos", extra, ..] => {
            return Err(ArgumentError::AfterStartpos(shorten(extra)));
        }
        [other, ..] => return Err(ArgumentError::BadBase(shorten(other))),
    };
    Ok((base, moves))
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let (base, moves) = position_arguments(rest).map_err(invalid)?;
    Ok(Command::Position { base, moves })
}

/// Parses `go`. A limit whose value is missing or does not parse is an
/// error, and no search starts: a typo must not turn into an endless
/// search. An unknown word is skipped with a warning (as Stockfish skips
/// it) and the search runs.
fn parse_go(rest: &[&str]) -> Result<GoParams, CommandError> {
    let mut params = GoParams::default();
    let mut index = 0;
    while index < rest.len() {
        let key = rest[index];
        let value = rest.get(index + 1);
        let mut takes_value = true;
        match key {
            "depth" => params.depth = Some(number("go", key, value)?),
            "nodes" => params.nodes = Some(number("go", key, value)?),
            "movetime" => params.movetime = Some(number("go", key, value)?),
            "wtime" | "stime" | "p1time" => params.time[0] = Some(clock("go", key, value)?),
            "btime" | "ntime" | "p2time" => params.time[1] = Some(clock("go", key, value)?),
            "winc" | "sinc" | "p1inc" => params.increment[0] = Some(clock("go", key, value)?),
            "binc" | "ninc" | "p2inc" => params.increment[1] = Some(clock("go", key, value)?),
            "movestogo" => params.moves_to_go = Some(number("go", key, value)?),
            "mate" => params.mate = Some(number("go", key, value)?),
            "perft" => params.perft = Some(number("go", key, value)?),
            "infinite" => {
                params.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                params.ponder = true;
                takes_value = false;
            }
            "searchmoves" => {
                // Moves run to the next keyword or the end.
                let mut end = index + 1;
                while end < rest.len() && !GO_KEYWORDS.contains(&rest[end]) {
                    params.search_moves.push(rest[end].to_string());
                    end += 1;
                }
                index = end;
                continue;
            }
            other => {
                params.warnings.push(GoWarning::UnknownWord(shorten(other)));
                takes_value = false;
            }
        }
        index += if takes_value { 2 } else { 1 };
    }
    Ok(params)
}

const GO_KEYWORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "stime",
    "ntime",
    "sinc",
    "ninc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "infinite",
    "ponder",
    "mate",
    "perft",
    "searchmoves",
];

/// Clock values: GUIs may send a negative time when a clock ran out; it
/// counts as zero.
fn clock(command: &'static str, key: &str, value: Option<&&str>) -> Result<u64, CommandError> {
    let milliseconds: i64 = number(command, key, value)?;
    Ok(milliseconds.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, CommandError> {
        line.parse()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("  isready  "), Ok(Command::IsReady));
        assert_eq!(parse(""), Ok(Command::Empty));
        assert!(matches!(parse("foo bar"), Err(CommandError::Unknown(_))));
        assert!(matches!(parse("uci now"), Err(CommandError::Invalid(_))));
        assert_eq!(parse("quit now"), Ok(Command::Quit));
        assert_eq!(parse("help"), Ok(Command::Help));
        let Err(CommandError::Invalid(message)) = parse("position startpos c j") else {
            panic!("moves word forgotten");
        };
        assert!(
            matches!(message, ArgumentError::AfterStartpos(_)),
            "{message}"
        );
        assert!(message.to_string().contains("'moves'"), "{message}");
    }

    #[test]
    fn ugi_commands() {
        assert_eq!(parse("ugi"), Ok(Command::Ugi));
        assert_eq!(parse("uginewgame"), Ok(Command::UciNewGame));
        assert_eq!(parse("query gameover"), Ok(Command::Query(Query::GameOver)));
        assert_eq!(parse("query p1turn"), Ok(Command::Query(Query::P1Turn)));
        assert_eq!(parse("query result"), Ok(Command::Query(Query::Result)));
        for bad in ["query", "query p2turn", "query result now", "ugi x"] {
            assert!(matches!(parse(bad), Err(CommandError::Invalid(_))), "{bad}");
        }
        // UGI's clock words are the same clocks as UCI's.
        let Ok(Command::Go(params)) = parse("go p1time 1000 p2time 2000 p1inc 10 p2inc 20") else {
            panic!("go");
        };
        assert_eq!(params.time, [Some(1000), Some(2000)]);
        assert_eq!(params.increment, [Some(10), Some(20)]);
        assert!(params.warnings.is_empty());
        assert_eq!(
            parse("go wtime 1000 btime 2000 winc 10 binc 20"),
            Ok(Command::Go(params))
        );
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Ka Entry value jump"),
            Ok(Command::SetOption {
                name: "Ka Entry".into(),
                value: Some("jump".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption value 3"),
            Err(CommandError::Invalid(ArgumentError::SetOptionSyntax))
        );
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves c j"),
            Ok(Command::Position {
                base: PositionBase::StartPos,
                moves: vec!["c".into(), "j".into()]
            })
        );
        let Ok(Command::Position {
            base: PositionBase::Fen(fen),
            moves,
        }) = parse("position fen a b c d e moves x")
        else {
            panic!("fen form");
        };
        assert_eq!(fen, "a b c d e");
        assert_eq!(moves, ["x"]);
        assert_eq!(
            parse("position"),
            Err(CommandError::Invalid(ArgumentError::MissingBase))
        );
        assert_eq!(
            parse("position fen"),
            Err(CommandError::Invalid(ArgumentError::MissingPositionString))
        );
    }

    #[test]
    fn go_parameters() {
        let Ok(Command::Go(params)) =
            parse("go wtime 1000 btime -5 winc 10 ninc 20 searchmoves c d depth 3")
        else {
            panic!("go");
        };
        assert_eq!(params.time, [Some(1000), Some(0)]);
        assert_eq!(params.increment, [Some(10), Some(20)]);
        assert_eq!(params.search_moves, ["c", "d"]);
        assert_eq!(params.depth, Some(3));
        // Unknown words are skipped with a warning; the search still runs.
        let Ok(Command::Go(params)) = parse("go sideways movetime 50 now") else {
            panic!("unknown words");
        };
        assert_eq!(params.movetime, Some(50));
        assert_eq!(params.warnings.len(), 2);
        // A limit without a value that parses is an error: no search.
        for (line, why) in [
            ("go depth x", "'depth' value 'x' is not a number"),
            ("go depth", "'depth' needs a value"),
            ("go movetime", "'movetime' needs a value"),
            ("go depth -3", "'depth' value '-3' is negative"),
            ("go movetime -3", "'movetime' value '-3' is negative"),
            ("go nodes 99999999999999999999999", "is too large"),
            (
                "go depth movetime 50",
                "'depth' value 'movetime' is not a number",
            ),
        ] {
            match parse(line) {
                Err(CommandError::Invalid(why_not)) => {
                    let message = why_not.to_string();
                    assert!(message.contains(why), "{line}: {message}")
                }
                other => panic!("{line}: {other:?}"),
            }
        }
        // Clocks may run negative in a GUI: they count as zero.
        let Ok(Command::Go(params)) = parse("go wtime -20 btime 100") else {
            panic!("negative clock");
        };
        assert_eq!(params.time, [Some(0), Some(100)]);
        assert_eq!(shorten("a\u{1b}b\0"), "a?b?");
        assert!(matches!(
            parse("go perft 3"),
            Ok(Command::Go(GoParams { perft: Some(3), .. }))
        ));
    }
}
