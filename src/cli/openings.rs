//! `pasang openings`: writes an openings file for `pasang match
//! --openings` whose lines are fair starts. Every line of `--plies` plies
//! from a pattern's start (2: both passages; 4: passages and kas) that is
//! legal under every chosen rule set is searched to `--depth` under each
//! of them, and kept when every score lies within `--window` of even, as
//! chess books keep exits within about a pawn. With `--pair-check`, a
//! kept line is also played as a game pair, the engine at N nodes against
//! itself at 4N, under each rule set; a line is dropped when both games
//! of every such pair go to one seat (the opening decides, not the
//! engines).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::rule_sets::RuleSetArgs;
use super::{CliError, Progress};
use crate::engine::Engine;
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::notation::start_position;
use crate::outcome::Status;
use crate::position::{Player, Position};
use crate::rules::{Pattern, Rules};
use crate::schedule::openings::describe;
use crate::search::{Limits, Score, Silent};

/// The arguments of `pasang openings`.
#[derive(Args, Debug)]
#[command(
    after_help = "The file has one opening a line: the pattern's start position \
    string, then `moves` and the plies. A match plays every line under every rule set it is \
    given, so choose the same rule sets here as there, e.g. all 24: --pattern 1,2 \
    --ka-entry slide,jump,both --second-column opposite,any --centre wall,open"
)]
pub struct OpeningsArgs {
    /// Plies of each opening from the pattern's start: 2 are both
    /// passages, 4 the passages and both kas.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=6))]
    plies: u64,
    /// Depth of the search that scores each opening under each rule set.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Keep openings scored within this many centipoints of even (100 is
    /// one point) under every rule set.
    #[arg(long, default_value_t = 150, value_name = "CP")]
    window: i32,
    /// Play each kept opening as a game pair under each rule set, the
    /// engine at this many nodes a move against itself at four times as
    /// many, and drop it when one seat wins both games every time.
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pair_check: Option<u64>,
    /// The rule sets the openings must be legal and fair under.
    #[command(flatten)]
    rules: RuleSetArgs,
    /// Write the file here instead of to stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// An opening: the pattern it starts from, its plies and the position
/// after them.
struct Line {
    pattern: Pattern,
    plies: Vec<Move>,
    position: Position,
}

/// Runs `pasang openings`.
pub fn run(args: &OpeningsArgs) -> Result<ExitCode, CliError> {
    let rule_sets = args.rules.rule_sets();
    let progress = Progress::stderr();
    let mut patterns: Vec<Pattern> = rule_sets.iter().map(|rules| rules.pattern).collect();
    patterns.dedup();
    let mut lines = Vec::new();
    for &pattern in &patterns {
        let sets = sets_of(&rule_sets, pattern);
        let start = start_position(pattern);
        let mut plies = Vec::new();
        enumerate(
            &start,
            &sets,
            args.plies as usize,
            &mut plies,
            &mut |plies, position| {
                lines.push(Line {
                    pattern,
                    plies: plies.to_vec(),
                    position,
                });
            },
        );
    }
    let candidates = lines.len();
    let mut engine = Engine::new();
    let mut kept = Vec::new();
    for (index, line) in lines.into_iter().enumerate() {
        progress.show(&format!(
            "opening {} of {candidates}: {} kept",
            index + 1,
            kept.len()
        ));
        let sets = sets_of(&rule_sets, line.pattern);
        let fair = sets.iter().all(|rules| {
            let score = search_score(&mut engine, rules, &line.position, args.depth);
            score.is_some_and(|cp| cp.abs() <= args.window)
        });
        let decided = fair
            && args
                .pair_check
                .is_some_and(|nodes| sets.iter().all(|rules| seat_decides(rules, &line, nodes)));
        if fair && !decided {
            kept.push(line);
        }
    }
    progress.clear();
    let sets: Vec<String> = rule_sets.iter().map(describe).collect();
    let mut text = format!(
        "# pasang openings --plies {} --depth {} --window {}{}: {} of {candidates} kept\n# rule sets: {}\n",
        args.plies,
        args.depth,
        args.window,
        args.pair_check
            .map_or(String::new(), |nodes| format!(" --pair-check {nodes}")),
        kept.len(),
        sets.join(" ")
    );
    for line in &kept {
        let plies: Vec<String> = line.plies.iter().map(Move::to_string).collect();
        text.push_str(&format!(
            "{} moves {}\n",
            line.pattern.start_position_string(),
            plies.join(" ")
        ));
    }
    eprintln!("{} of {candidates} openings kept", kept.len());
    match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|e| CliError::Write(path.clone(), e))?,
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(CliError::Output)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The rule sets of `pattern` among `rule_sets`.
fn sets_of(rule_sets: &[Rules], pattern: Pattern) -> Vec<Rules> {
    rule_sets
        .iter()
        .copied()
        .filter(|rules| rules.pattern == pattern)
        .collect()
}

/// Calls `found` with every line of `depth` more plies from `position`
/// that is legal under every one of `sets` and leaves the game in play.
fn enumerate(
    position: &Position,
    sets: &[Rules],
    depth: usize,
    plies: &mut Vec<Move>,
    found: &mut dyn FnMut(&[Move], Position),
) {
    if sets
        .iter()
        .any(|rules| Status::of(position, rules) != Status::InPlay)
    {
        return;
    }
    if depth == 0 {
        found(plies, *position);
        return;
    }
    let Some((first, others)) = sets.split_first() else {
        return;
    };
    for &mv in legal_moves(position, first).iter() {
        if others
            .iter()
            .all(|rules| legal_moves(position, rules).contains(mv))
        {
            plies.push(mv);
            enumerate(&position.play(mv), sets, depth - 1, plies, found);
            plies.pop();
        }
    }
}

/// The score of `position` under `rules` from South's view, in
/// centipoints; `None` for a forced win (never fair).
fn search_score(
    engine: &mut Engine,
    rules: &Rules,
    position: &Position,
    depth: u32,
) -> Option<i32> {
    engine.new_game();
    engine.set_rules(*rules);
    engine.set_position(*position);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let info = engine.search(&limits, &Silent).final_info?;
    match info.score {
        Score::Centipoints(cp) if position.side_to_move() == Player::South => Some(cp),
        Score::Centipoints(cp) => Some(-cp),
        Score::Mate(_) => None,
    }
}

/// Whether one seat wins both games of a pair from `line` under `rules`,
/// the engine at `nodes` a move against itself at four times as many.
fn seat_decides(rules: &Rules, line: &Line, nodes: u64) -> bool {
    let strong_south = play_out(rules, line.position, [4 * nodes, nodes]);
    let strong_north = play_out(rules, line.position, [nodes, 4 * nodes]);
    strong_south.is_some() && strong_south == strong_north
}

/// The winner of the game from `position`, South searching `nodes[0]`
/// nodes a move and North `nodes[1]`.
fn play_out(rules: &Rules, mut position: Position, nodes: [u64; 2]) -> Option<Player> {
    let mut engine = Engine::new();
    engine.set_rules(*rules);
    loop {
        if let Status::Over { winner, .. } = Status::of(&position, rules) {
            return winner;
        }
        engine.set_position(position);
        let limits = Limits {
            nodes: Some(nodes[position.side_to_move().index()]),
            ..Limits::default()
        };
        position = position.play(engine.search(&limits, &Silent).best_move?);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_plies_are_both_passages_legal_under_every_set() {
        let one = Rules::default();
        let mut lines = Vec::new();
        let start = start_position(Pattern::One);
        enumerate(&start, &[one], 2, &mut Vec::new(), &mut |plies, _| {
            lines.push(plies.to_vec())
        });
        // Each of South's 11 passages, then one of North's opposite it.
        assert_eq!(lines.len(), 60);
        assert!(
            lines
                .iter()
                .all(|plies| plies.iter().all(|mv| mv.to_string().len() == 1))
        );
        let any = Rules {
            second_column: crate::rules::SecondColumn::Any,
            ..one
        };
        let count = |sets: &[Rules]| {
            let mut count = 0;
            enumerate(&start, sets, 2, &mut Vec::new(), &mut |_, _| count += 1);
            count
        };
        // Only lines legal under both rule sets.
        let both = count(&[one, any]);
        assert!(0 < both && both < 60 && both < count(&[any]), "{both}");
    }
}
