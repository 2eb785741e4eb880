//! The command line: one module per subcommand, and the flags they share.
//!
//! `pasang` with no subcommand (or `pasang uci`) runs the protocol loop;
//! the subcommands are tools for people and scripts. Exit codes: 0 on
//! success, 1 when some input (a position, a move, a file) was bad or an
//! operation failed, 2 for usage errors (clap's convention).

mod analyse;
mod annotate;
mod bench;
mod datagen;
mod error;
mod gui;
mod manuals;
mod matches;
mod openings;
mod perft;
mod play;
mod progress;
mod puzzles;
mod rule_sets;
pub(crate) use rule_sets::RuleArgs;
mod serve;
mod show;
mod spsa;
mod suite;
mod tune;

use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::engine::{DEFAULT_HASH_MIB, MAX_THREADS};
use crate::record::Game;
use crate::rules::Rules;
use crate::tt::MAX_HASH_MIB;

pub(crate) use crate::outcome::{describe_result, player_title};
use crate::record::StartMovesError;
pub(crate) use error::CliError;
pub(crate) use progress::Progress;

/// Pasang engine: speaks a UCI-style protocol on stdin/stdout when run
/// without a subcommand.
#[derive(Parser, Debug)]
#[command(name = "pasang", version = crate::version::VERSION, long_version = crate::version::version(), about, long_about = None, propagate_version = true)]
pub(crate) struct Cli {
    /// Record every protocol line, both ways, with timestamps in this file
    /// (appended). Applies to the protocol loop only.
    #[arg(long, value_name = "PATH")]
    log_file: Option<String>,
    #[command(subcommand)]
    command: Option<CliCommand>,
}

#[derive(Subcommand, Debug)]
enum CliCommand {
    /// Runs the protocol loop on stdin/stdout (the same as no subcommand).
    Uci(UciArgs),
    /// Analyses positions given as arguments or on stdin, one per line.
    #[command(visible_alias = "analyze")]
    Analyse(analyse::AnalyseArgs),
    /// Reviews recorded games with the engine: evaluations, the better
    /// moves, marked mistakes and each side's accuracy.
    Annotate(annotate::AnnotateArgs),
    /// Plays a game against the engine in the terminal.
    Play(play::PlayArgs),
    /// Prints a board diagram of a position, or of a recorded game at a
    /// ply (--record), or writes it as SVG.
    Show(show::ShowArgs),
    /// Counts move paths to a depth (move generator check and speed).
    Perft(perft::PerftArgs),
    /// Searches the built-in positions to a fixed depth on one thread.
    Bench(bench::BenchArgs),
    /// Plays engine-vs-engine matches refereed by the rules.
    Match(Box<matches::MatchArgs>),
    /// Writes an openings file of fair starts for `pasang match
    /// --openings`: lines of a few plies scored near even by a deep search.
    Openings(openings::OpeningsArgs),
    /// Writes training data: self-play at fixed nodes or depth, every
    /// searched position with its score and the game's result.
    Datagen(datagen::DatagenArgs),
    /// Runs an engine through the trap suite at a fixed node count, or
    /// mines the suite from game records (--make).
    Suite(suite::SuiteArgs),
    /// Finds puzzles in game records: after a mistake, the one move that
    /// wins (or saves the game), and the line after it.
    Puzzles(puzzles::PuzzlesArgs),
    /// Fits the evaluation's weights to datagen files by logistic
    /// regression on the games' results (Texel tuning).
    Tune(tune::TuneArgs),
    /// Serves a board in the browser to play, analyse and watch engines,
    /// and to review recorded games.
    Gui(gui::GuiArgs),
    /// Serves rooms where two people play each other in real time on the
    /// board page, and others watch; every move is kept on disk.
    Serve(serve::ServeArgs),
    /// Writes the man pages, one per subcommand, into a folder (for
    /// packagers).
    #[command(hide = true)]
    GenerateMan(manuals::OutArgs),
    /// Writes bash, zsh and fish completions into a folder (for
    /// packagers).
    #[command(hide = true)]
    GenerateCompletions(manuals::OutArgs),
}

#[derive(Args, Debug)]
struct UciArgs {
    /// Record every protocol line, both ways, with timestamps in this file
    /// (appended).
    #[arg(long, value_name = "PATH")]
    log_file: Option<String>,
}

/// The engine's resources, for the subcommands that search in-process.
#[derive(Args, Debug, Clone)]
pub(crate) struct SearchResources {
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    pub threads: u64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MIB as u64, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MIB as u64))]
    pub hash: u64,
}

/// A position given on the command line: a base and moves played from it.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct PositionArgs {
    /// Start from this position string instead of the pattern's start
    /// (quote it: it holds spaces).
    #[arg(long, value_name = "POSITION")]
    pub fen: Option<String>,
    /// Moves played from the start or from --fen, separated by spaces or
    /// commas, e.g. --moves "c j b4c4n". May be repeated.
    #[arg(long, value_name = "MOVES", action = clap::ArgAction::Append)]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// Whether `--fen` or `--moves` was given.
    pub fn given(&self) -> bool {
        self.fen.is_some() || !self.moves.is_empty()
    }

    /// The position these flags give under `rules`, with its history.
    pub fn replay(&self, rules: &Rules) -> Result<Game, StartMovesError> {
        Game::from_moves(rules, self.fen.as_deref(), &self.move_list())
    }

    /// The moves, one token each.
    pub fn move_list(&self) -> Vec<String> {
        self.moves
            .iter()
            .flat_map(|text| text.split([' ', ',', '\t']))
            .filter(|token| !token.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// The position in the stdin form of `analyse`: `startpos moves ...`
    /// or `fen <position> moves ...`.
    pub fn describe(&self) -> String {
        let mut text = match &self.fen {
            Some(fen) => format!("fen {}", fen.trim()),
            None => "startpos".to_string(),
        };
        let moves = self.move_list();
        if !moves.is_empty() {
            text.push_str(" moves ");
            text.push_str(&moves.join(" "));
        }
        text
    }
}

/// The points `mv` captures from `before`, as `show` and `play` print them.
pub(crate) fn points_taken(
    before: &crate::position::Position,
    mv: crate::moves::Move,
) -> Vec<String> {
    before
        .capture(mv)
        .points_taken()
        .into_iter()
        .map(|point| point.to_string())
        .collect()
}

/// Logging to stderr at the levels `RUST_LOG` names; without it, silent
/// but for `pasang serve`, which logs at info (what happens in its rooms,
/// for its admin), as text or as JSON lines.
fn init_logging(command: Option<&CliCommand>) {
    use std::io::Write as _;
    let serve = match command {
        Some(CliCommand::Serve(args)) => Some(args.log_format),
        _ => None,
    };
    let default = if serve.is_some() { "info" } else { "off" };
    let env = env_logger::Env::default().default_filter_or(default);
    let mut builder = env_logger::Builder::from_env(env);
    builder.target(env_logger::Target::Stderr);
    if serve == Some(serve::LogFormat::Json) {
        builder.format(|out, record| {
            let line = serde_json::json!({
                "time": out.timestamp_millis().to_string(),
                "level": record.level().as_str(),
                "target": record.target(),
                "message": record.args().to_string(),
            });
            writeln!(out, "{line}")
        });
    }
    let _ = builder.try_init();
}

/// Exit code 1 where something failed, else 0.
pub(crate) fn failed_if(failed: bool) -> ExitCode {
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Parses the command line, runs it and returns the exit code. Every
/// subcommand's `run` takes its arguments (defined beside it) and gives
/// `Result<ExitCode, CliError>`, or its own error that a `CliError` wraps.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // Help and version go to stdout with code 0; usage errors to
            // stderr with code 2.
            let _ = error.print();
            return exit_code(error.exit_code());
        }
    };
    init_logging(cli.command.as_ref());
    if cli.log_file.is_some() && !matches!(cli.command, None | Some(CliCommand::Uci(_))) {
        let error = Cli::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            "--log-file records the protocol loop; use it without a subcommand or with 'uci'",
        );
        let _ = error.print();
        return exit_code(error.exit_code());
    }
    let result = match cli.command {
        None => run_protocol(cli.log_file.as_deref()),
        Some(CliCommand::Uci(args)) => {
            run_protocol(args.log_file.as_deref().or(cli.log_file.as_deref()))
        }
        Some(CliCommand::Analyse(args)) => analyse::run(&args),
        Some(CliCommand::Annotate(args)) => annotate::run(&args),
        Some(CliCommand::Play(args)) => play::run(&args),
        Some(CliCommand::Show(args)) => show::run(&args),
        Some(CliCommand::Perft(args)) => perft::run(&args),
        Some(CliCommand::Bench(args)) => bench::run(&args),
        Some(CliCommand::Match(args)) => matches::run(&args).map_err(CliError::Match),
        Some(CliCommand::Openings(args)) => openings::run(&args),
        Some(CliCommand::Datagen(args)) => datagen::run(&args),
        Some(CliCommand::Suite(args)) => suite::run(&args),
        Some(CliCommand::Puzzles(args)) => puzzles::run(&args),
        Some(CliCommand::Tune(args)) => tune::run(&args),
        Some(CliCommand::Gui(args)) => crate::gui::run(&args.settings()).map_err(CliError::Gui),
        Some(CliCommand::Serve(args)) if args.check => crate::serve::check::run(args.data())
            .map(|report| {
                println!("{report}");
                ExitCode::SUCCESS
            })
            .map_err(CliError::ServeCheck),
        Some(CliCommand::Serve(args)) => {
            crate::serve::run(&args.settings()).map_err(CliError::Serve)
        }
        Some(CliCommand::GenerateMan(args)) => manuals::man(&args),
        Some(CliCommand::GenerateCompletions(args)) => manuals::completions(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

/// clap's exit code (0 for help and version, 2 for usage errors).
fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// The protocol loop, logging to `log_file` if given.
fn run_protocol(log_file: Option<&str>) -> Result<ExitCode, CliError> {
    let output = Arc::new(crate::protocol::Output::stdout());
    if let Some(path) = log_file {
        output.set_log_file(Some(path)).map_err(CliError::LogFile)?;
    }
    let code = crate::protocol::run(std::io::stdin().lock(), output);
    Ok(exit_code(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn moves_split_on_spaces_and_commas() {
        let args = PositionArgs {
            fen: None,
            moves: vec!["c j".into(), "b4c4n,k7j7w".into()],
        };
        assert_eq!(args.move_list(), ["c", "j", "b4c4n", "k7j7w"]);
        assert_eq!(args.describe(), "startpos moves c j b4c4n k7j7w");
    }
}
