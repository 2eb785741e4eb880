//! `pasang tune`: fits the evaluation's weights to datagen files (see
//! [`crate::tune`] and docs/strength.md), or with `--spsa` tunes the
//! search's constants in games (`super::spsa`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::CliError;

use crate::eval::features::{COUNT, NAMES, index};
use crate::eval::weights_in_centipoints;
use crate::tune::{FEW_POSITIONS, Sample, fit, fit_wdl, rescaled, samples};

/// Arguments of `pasang tune`.
#[derive(Args, Debug)]
#[command(after_help = "\
Prints each term's weight in centipoints (one point of margin = 100) and in
the evaluation's fixed-point units (1/1024 centipoint), ready for
src/eval/weights.rs, with the cross-entropy of the fit on the games it saw
and on the held-out games, beside that of the point margin alone and that
of the shipped weights with only their scale fitted.")]
pub struct TuneArgs {
    /// A data file written by `pasang datagen` (give several to pool them).
    #[arg(long = "data", value_name = "FILE", required_unless_present = "spsa")]
    data: Vec<PathBuf>,
    /// Tune the search's constants by SPSA in game pairs instead (the
    /// flags below, docs/spsa.md).
    #[arg(long, conflicts_with = "data", requires = "state")]
    spsa: bool,
    #[command(flatten)]
    spsa_args: Box<super::spsa::SpsaArgs>,
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
}

/// Runs `pasang tune`.
pub fn run(args: &TuneArgs) -> Result<ExitCode, CliError> {
    if args.spsa {
        return super::spsa::run(&args.spsa_args);
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
    let shipped = rescaled(&all, &weights_in_centipoints());
    println!(
        "the shipped weights at their best scale: {:.5} (held out {:.5})",
        shipped.train_loss, shipped.held_out_loss
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
