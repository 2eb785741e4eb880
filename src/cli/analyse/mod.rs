//! `pasang analyse`: searches positions given as arguments or read from
//! stdin, one per line, and prints the best move, score and lines, as text
//! or as one JSON object per line.
//!
//! A bad line is reported on stderr with its number and skipped; stdout
//! only ever receives whole results, so a consumer such as `jq` never sees
//! a broken object. The exit code is 1 if any line failed.

mod json;

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Mutex;

use clap::Args;

use super::{CliError, PositionArgs, Progress, RuleArgs, SearchResources, describe_result};
use crate::engine::{Engine, MAX_MULTIPV};
use crate::notation::format_position;
use crate::outcome::Status;
use crate::protocol::{ArgumentError, PositionBase, Refusal, position_arguments, set_position};
use crate::search::{Info, Limits, Listener};

use json::AnalysisJson;

/// Depth searched when no limit is given.
pub const DEFAULT_DEPTH: u32 = 12;

/// Arguments of `pasang analyse`.
#[derive(Args, Debug)]
#[command(after_help = "\
Positions come from --fen/--moves, or as arguments, or (with none of these)
from stdin, one per line. An argument or a line is one of:
  <position string>                   e.g. the 5-field string `show` prints
  startpos [moves <m1> <m2> ...]      the start of --pattern, then moves
  fen <position string> [moves ...]   a position string, then moves
A leading 'position' word (as in the protocol) is accepted; empty lines and
lines starting with '#' are skipped.

Exit status: 0 if every position was analysed, 1 if any was bad (each is
reported on stderr with its line number), 2 for usage errors.")]
pub struct AnalyseArgs {
    /// Positions to analyse, each quoted as one argument in the form of a
    /// stdin line (see below), e.g. 'startpos moves c j'.
    #[arg(value_name = "POSITION", conflicts_with_all = ["fen", "moves"])]
    positions: Vec<String>,
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    rules: RuleArgs,
    /// Search to this depth (default 12 when no limit is given).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: Option<u32>,
    /// Search this many milliseconds per position.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Search about this many nodes per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Report this many best lines.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_MULTIPV as u64))]
    multipv: u64,
    #[command(flatten)]
    resources: SearchResources,
    /// One JSON object per position and line of output.
    #[arg(long)]
    json: bool,
}

/// Why one input gives no position to analyse.
#[derive(Debug, thiserror::Error)]
enum InputError {
    /// Not a `position` command's arguments (the protocol's words).
    #[error(transparent)]
    NotAPosition(ArgumentError),
    /// The engine refuses the position or a move.
    #[error(transparent)]
    Refused(#[from] Refusal),
}

/// What went wrong with one input.
enum Failure {
    /// The input is bad: report it and go on with the next line.
    Input(InputError),
    /// Stdout is gone (e.g. `| head`): stop quietly.
    Output,
}

/// Runs `pasang analyse`: exit code 1 if any position failed.
pub fn run(args: &AnalyseArgs) -> Result<ExitCode, CliError> {
    let mut engine = Engine::new();
    engine.set_rules(args.rules.rules());
    // clap keeps the numbers within the engine's ranges.
    engine
        .set_hash(args.resources.hash as usize)
        .map_err(CliError::Table)?;
    engine.set_threads(args.resources.threads as usize);
    engine.set_multipv(args.multipv as usize);
    let limits = Limits {
        depth: args
            .depth
            .or((args.movetime.is_none() && args.nodes.is_none()).then_some(DEFAULT_DEPTH)),
        movetime: args.movetime,
        nodes: args.nodes,
        ..Limits::default()
    };
    let progress = Progress::stderr();
    let mut out = std::io::stdout().lock();
    let mut analyse = |text: &str, base: &PositionBase, moves: &[String]| {
        engine.new_game();
        set_position(&mut engine, base, moves)
            .map_err(|error| Failure::Input(InputError::Refused(error)))?;
        let report = search(&engine, &limits, &progress);
        let line = if args.json {
            AnalysisJson::new(text, &engine, &report).to_line()
        } else {
            text_report(text, &engine, &report)
        };
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|_| Failure::Output)
    };

    if args.position.given() {
        let moves = args.position.move_list();
        let base = match &args.position.fen {
            Some(fen) => PositionBase::Fen(fen.trim().to_string()),
            None => PositionBase::StartPos,
        };
        return match analyse(&args.position.describe(), &base, &moves) {
            Ok(()) | Err(Failure::Output) => Ok(ExitCode::SUCCESS),
            Err(Failure::Input(message)) => {
                eprintln!("error: {message}");
                Ok(ExitCode::FAILURE)
            }
        };
    }

    if !args.positions.is_empty() {
        let mut failed = 0usize;
        for (index, text) in args.positions.iter().enumerate() {
            let result = parse_line(text.trim())
                .map_err(Failure::Input)
                .and_then(|(base, moves)| analyse(text.trim(), &base, &moves));
            match result {
                Ok(()) => {}
                Err(Failure::Output) => break,
                Err(Failure::Input(message)) => {
                    eprintln!("error: argument {}: {message}", index + 1);
                    failed += 1;
                }
            }
        }
        return Ok(super::failed_if(failed > 0));
    }

    Ok(analyse_stdin(&mut analyse, &progress))
}

/// One search's work: a position's text, its base and moves in; a
/// failure of the input or of the output out.
type Analyse<'a> = dyn FnMut(&str, &PositionBase, &[String]) -> Result<(), Failure> + 'a;

/// Analyses the positions of stdin, one per line (blank lines and `#`
/// comments skipped), going on past bad lines; 1 if any failed.
fn analyse_stdin(analyse: &mut Analyse<'_>, progress: &Progress) -> ExitCode {
    if std::io::stdin().is_terminal() {
        eprintln!(
            "Reading positions from stdin, one per line ('startpos moves c j', 'fen <position string>'); end with Ctrl-D (Ctrl-Z on Windows)."
        );
    }
    let mut failed = 0usize;
    let mut input = std::io::stdin().lock();
    let mut bytes = Vec::new();
    let mut number = 0usize;
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(error) => {
                eprintln!("error: cannot read stdin: {error}");
                failed += 1;
                break;
            }
        }
        number += 1;
        let Ok(text) = std::str::from_utf8(&bytes) else {
            eprintln!("error: line {number}: not valid UTF-8");
            failed += 1;
            continue;
        };
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let result = parse_line(text)
            .map_err(Failure::Input)
            .and_then(|(base, moves)| {
                progress.show(&format!("line {number}: searching"));
                analyse(text, &base, &moves)
            });
        progress.clear();
        match result {
            Ok(()) => {}
            Err(Failure::Output) => break,
            Err(Failure::Input(message)) => {
                eprintln!("error: line {number}: {message}");
                failed += 1;
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} line{} failed", if failed == 1 { "" } else { "s" });
    }
    super::failed_if(failed > 0)
}

/// An input line read as the arguments of the protocol's `position`
/// command (by its parser, on the words themselves), a bare position
/// string standing for `fen <position string>`.
fn parse_line(text: &str) -> Result<(PositionBase, Vec<String>), InputError> {
    let text = text.trim();
    let text = text
        .strip_prefix("position")
        .filter(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
        .unwrap_or(text)
        .trim_start();
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.first().is_some_and(|first| first.contains('/')) {
        words.insert(0, "fen");
    }
    position_arguments(&words).map_err(InputError::NotAPosition)
}

/// Collects the lines of the deepest iteration, and shows progress.
struct Collector<'a> {
    lines: Mutex<Vec<Info>>,
    progress: &'a Progress,
}

impl Listener for Collector<'_> {
    fn info(&self, info: &Info) {
        if info.multipv == 1 {
            let pv: Vec<String> = info.pv.iter().take(8).map(ToString::to_string).collect();
            self.progress.show(&format!(
                "depth {} {} nodes {} {}",
                info.depth,
                info.score,
                info.nodes,
                pv.join(" ")
            ));
        }
        let mut lines = self.lines.lock().unwrap_or_else(|p| p.into_inner());
        let slot = info.multipv.max(1) - 1;
        if lines.len() <= slot {
            lines.resize(slot + 1, info.clone());
        }
        lines[slot] = info.clone();
    }
}

/// What a search found, or the result of a finished game.
enum Finding {
    Over(Status),
    Searched {
        best: Info,
        lines: Vec<Info>,
        nodes: u64,
    },
}

fn search(engine: &Engine, limits: &Limits, progress: &Progress) -> Finding {
    let status = engine.status();
    if let Status::Over { .. } = status {
        return Finding::Over(status);
    }
    let collector = Collector {
        lines: Mutex::new(Vec::new()),
        progress,
    };
    let result = engine.search(limits, &collector);
    progress.clear();
    let mut lines = collector
        .lines
        .into_inner()
        .unwrap_or_else(|p| p.into_inner());
    // Lines can come from different iterations when a limit cuts the last
    // one short; each keeps its own depth. Line 1 is the move played.
    match result.final_info {
        Some(best) => {
            if lines.is_empty() {
                lines.push(best.clone());
            } else {
                lines[0] = Info {
                    multipv: 1,
                    ..best.clone()
                };
            }
            Finding::Searched {
                best,
                lines,
                nodes: result.nodes,
            }
        }
        // A position in play always has a move; keep the output sane if
        // the search ever returns none.
        None => Finding::Over(status),
    }
}

fn text_report(input: &str, engine: &Engine, report: &Finding) -> String {
    let position = engine.position();
    let mut text = format!(
        "position {input}\n  fen      {}\n",
        format_position(position)
    );
    match report {
        Finding::Over(status) => {
            text.push_str(&format!(
                "  result   {}\n  bestmove (none)\n",
                describe_result(status, position.side_to_move())
            ));
        }
        Finding::Searched { best, lines, nodes } => {
            text.push_str(&format!(
                "  search   depth {} seldepth {} nodes {nodes} time {} ms nps {}\n",
                best.depth,
                best.seldepth,
                best.time_ms,
                nodes * 1000 / best.time_ms.max(1)
            ));
            let side = position.side_to_move().name();
            for line in lines {
                let pv: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
                text.push_str(&format!(
                    "  line {:<3} {:<9} depth {:<3} {}\n",
                    line.multipv,
                    line.score.to_string(),
                    line.depth,
                    pv.join(" ")
                ));
            }
            let best_move = best
                .pv
                .first()
                .map_or_else(|| "(none)".to_string(), ToString::to_string);
            text.push_str(&format!(
                "  bestmove {best_move} (score {} for {side})\n",
                best.score
            ));
        }
    }
    // The caller adds the final newline; a blank line separates positions.
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_lines_take_every_form() {
        assert_eq!(
            parse_line("startpos").unwrap(),
            (PositionBase::StartPos, vec![])
        );
        assert_eq!(
            parse_line("position startpos moves c j").unwrap(),
            (
                PositionBase::StartPos,
                vec!["c".to_string(), "j".to_string()]
            )
        );
        let fen = PositionBase::Fen("a/b c d e".into());
        let (base, moves) = parse_line("fen a/b c d e moves x").unwrap();
        assert_eq!(base, fen);
        assert_eq!(moves, ["x"]);
        let (base, moves) = parse_line("a/b c d e").unwrap();
        assert_eq!(base, fen);
        assert!(moves.is_empty());
        assert_eq!(parse_line("a/b moves c").unwrap().1, ["c"]);
        let after_startpos = parse_line("startpos c j");
        assert!(
            matches!(
                &after_startpos,
                Err(InputError::NotAPosition(ArgumentError::AfterStartpos(word))) if word == "c"
            ),
            "{after_startpos:?}"
        );
        assert!(
            parse_line("bogus line")
                .unwrap_err()
                .to_string()
                .contains("'bogus'")
        );
        let fen = parse_line("fen");
        assert!(
            matches!(
                fen,
                Err(InputError::NotAPosition(
                    ArgumentError::MissingPositionString
                ))
            ),
            "{fen:?}"
        );
        let empty = parse_line("position");
        assert!(
            matches!(
                empty,
                Err(InputError::NotAPosition(ArgumentError::MissingBase))
            ),
            "{empty:?}"
        );
    }
}
