//! `pasang tune`: fits the evaluation's weights to datagen files (see
//! [`crate::tune`] and docs/strength.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::CliError;

use crate::eval::features::{COUNT, NAMES, index};
use crate::tune::patterns::{Losses, PatternFitConfig, PatternSample, fit_patterns, read_samples};
use crate::tune::{FEW_POSITIONS, Sample, fit, fit_wdl, samples};

/// Arguments of `pasang tune`.
#[derive(Args, Debug)]
#[command(after_help = "\
Prints each term's weight in centipoints (one point of margin = 100) and in
the evaluation's fixed-point units (1/1024 centipoint), ready for
src/eval/weights.rs, with the cross-entropy of the fit on the games it saw
and on the held-out games, beside that of the point margin alone.

With --patterns FILE, fits the 20 terms and the pattern tables jointly
instead (src/eval/patterns.rs, docs/strength.md): the target blends the
game's result (weight --result-weight) with the search's score, the terms
alone are fitted first (Newton) and reported as the baseline, then Adam
fits terms and tables together, reporting the losses after every epoch
on the training and the held-out games, against the target and against
the results alone. The fitted file is written to FILE; `setoption name
EvalFile value FILE` and `Use Patterns` true play with it.")]
pub struct TuneArgs {
    /// A data file written by `pasang datagen` (give several to pool them).
    #[arg(long = "data", value_name = "FILE", required = true)]
    data: Vec<PathBuf>,
    /// Every N-th game is held out of the fit to measure it (0: none).
    #[arg(long, value_name = "N", default_value_t = 10)]
    holdout: u64,
    /// Newton steps.
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=100))]
    steps: u64,
    /// Ridge penalty per sample (keeps rare terms from running away).
    #[arg(long, value_name = "X", default_value_t = 1e-6)]
    l2: f64,
    /// Terms held at zero, by name (comma-separated).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    without: Vec<String>,
    /// Fit the pattern tables with the terms and write them to FILE.
    #[arg(long, value_name = "FILE")]
    patterns: Option<PathBuf>,
    /// Pattern fit: the weight of the game's result in the target, the
    /// search's score having the rest.
    #[arg(long, value_name = "X", default_value_t = 0.5)]
    result_weight: f64,
    /// Pattern fit: passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = 12)]
    epochs: usize,
    /// Pattern fit: positions a step.
    #[arg(long, value_name = "N", default_value_t = 16384)]
    batch: usize,
    /// Pattern fit: Adam's step size.
    #[arg(long, value_name = "X", default_value_t = 0.002)]
    learning_rate: f64,
    /// Pattern fit: ridge penalty on every cell.
    #[arg(long, value_name = "X", default_value_t = 1e-6)]
    cell_l2: f64,
    /// Pattern fit: penalty on a cell's difference from the same cell of
    /// the neighbouring stages.
    #[arg(long, value_name = "X", default_value_t = 1e-5)]
    smoothing: f64,
    /// Pattern fit: the shares of the training games to fit on, the first
    /// games by index, one fit each (the held-out games stay the same);
    /// the file is the last fit's.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "1")]
    train_fractions: Vec<f64>,
    /// Pattern fit: keep the terms at the engine's own weights (fit only
    /// their common scale) and fit the tables as a correction to them.
    #[arg(long)]
    fixed_terms: bool,
    /// Pattern fit: fit the rays' tables only (the windows stay zero and
    /// the engine skips them).
    #[arg(long)]
    no_windows: bool,
    /// Pattern fit: seed of the order of the positions.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

fn print_losses(what: &str, losses: &Losses) {
    println!(
        "{what}: target train {:.5} held out {:.5}; results train {:.5} held out {:.5}",
        losses.train, losses.held_out, losses.train_result, losses.held_out_result
    );
}

/// `pasang tune --patterns FILE`.
fn run_patterns(args: &TuneArgs, out: &std::path::Path) -> Result<ExitCode, CliError> {
    let started = Instant::now();
    let mut all: Vec<PatternSample> = Vec::new();
    for path in &args.data {
        // Game indices restart in every file: shift them past the last.
        let offset = all.iter().map(|s| s.game() + 1).max().unwrap_or(0);
        let more = read_samples(path).map_err(|error| CliError::Samples(path.clone(), error))?;
        all.extend(more.into_iter().map(|s| s.with_game_offset(offset)));
    }
    eprintln!(
        "info string read {} positions in {:.1} s",
        all.len(),
        started.elapsed().as_secs_f64()
    );
    let mut last = None;
    for &fraction in &args.train_fractions {
        let config = PatternFitConfig {
            result_weight: args.result_weight,
            epochs: args.epochs,
            batch: args.batch,
            learning_rate: args.learning_rate,
            cell_l2: args.cell_l2,
            smoothing: args.smoothing,
            holdout: args.holdout.clamp(2, u32::MAX as u64) as u32,
            train_fraction: fraction,
            tables: true,
            fixed_terms: args.fixed_terms,
            windows: !args.no_windows,
            seed: args.seed,
        };
        let began = Instant::now();
        let fit = fit_patterns(&all, &config, |epoch, losses| {
            print_losses(
                &format!("  epoch {epoch} ({:.0} s)", began.elapsed().as_secs_f64()),
                losses,
            );
        })
        .map_err(CliError::Tune)?;
        println!(
            "fraction {fraction}: {} training positions, {} held out; score scale {:.6} logits/cp; result weight {}",
            fit.positions.0, fit.positions.1, fit.per_centipoint, args.result_weight
        );
        print_losses(
            if args.fixed_terms {
                "terms alone (the engine's weights, their scale fitted)"
            } else {
                "terms alone (Newton)"
            },
            &fit.terms_only,
        );
        if let Some(best) = fit.epochs.last() {
            print_losses("terms + tables (Adam, last epoch)", best);
        }
        print_losses("terms + tables as the engine reads them", &fit.engine);
        last = Some(fit);
    }
    if let Some(fit) = last {
        std::fs::write(out, fit.patterns.to_bytes())
            .map_err(|error| CliError::Write(out.to_path_buf(), error))?;
        println!(
            "wrote {} ({} bytes); terms in 1/{} cp: {:?}",
            out.display(),
            fit.patterns.to_bytes().len(),
            crate::eval::patterns::SCALE_OF_TERMS,
            fit.patterns.terms()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `pasang tune`.
pub fn run(args: &TuneArgs) -> Result<ExitCode, CliError> {
    if let Some(out) = &args.patterns {
        return run_patterns(args, out);
    }
    let mut active = [true; COUNT];
    for name in &args.without {
        let Some(term) = NAMES.iter().position(|known| known == name) else {
            return Err(CliError::UnknownTerm(name.clone()));
        };
        if term == index::MARGIN {
            return Err(CliError::MarginLeftOut);
        }
        active[term] = false;
    }
    let started = Instant::now();
    let mut all: Vec<Sample> = Vec::new();
    for path in &args.data {
        let text =
            std::fs::read_to_string(path).map_err(|error| CliError::Read(path.clone(), error))?;
        let mut more =
            samples(&text, args.holdout).map_err(|error| CliError::Samples(path.clone(), error))?;
        all.append(&mut more);
    }
    eprintln!(
        "info string read {} positions in {:.1} s",
        all.len(),
        started.elapsed().as_secs_f64()
    );
    if all.len() < FEW_POSITIONS {
        eprintln!(
            "warning: {} positions are too few for a fit of {COUNT} weights to mean much: \
             give at least {FEW_POSITIONS} (about 400 games)",
            all.len()
        );
    }
    let steps = args.steps as usize;
    let mut margin_only = [false; COUNT];
    margin_only[index::MARGIN] = true;
    let baseline = fit(&all, &margin_only, steps, args.l2).map_err(CliError::Tune)?;
    let fitted = fit(&all, &active, steps, args.l2).map_err(CliError::Tune)?;
    println!(
        "positions {} cross-entropy: margin alone {:.5} (held out {:.5}), fit {:.5} (held out {:.5})",
        all.len(),
        baseline.train_loss,
        baseline.held_out_loss,
        fitted.train_loss,
        fitted.held_out_loss
    );
    println!(
        "win model: P(win) = 1 / (1 + exp(-{:.6} x cp))",
        fitted.logits_per_centipoint()
    );
    let wdl = fit_wdl(&all);
    println!(
        "wdl model of the search scores: P(win) = 1 / (1 + exp(-({:.6} x cp - {:.4}))), P(loss) likewise at -cp, P(draw) the rest",
        wdl.per_centipoint, wdl.draw_band
    );
    let centipoints = fitted.centipoints();
    println!(
        "{:<12} {:>12} {:>12} {:>10}",
        "term", "logit", "centipoints", "fixed"
    );
    for term in 0..COUNT {
        println!(
            "{:<12} {:>12.6} {:>12.3} {:>10}",
            NAMES[term],
            fitted.logits[term],
            centipoints[term],
            (centipoints[term] * 1024.0).round() as i64
        );
    }
    Ok(ExitCode::SUCCESS)
}
