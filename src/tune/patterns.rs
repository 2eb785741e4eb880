//! Fits the 20 terms and the pattern tables ([`crate::eval::patterns`])
//! jointly: sparse logistic regression by Adam over mini-batches (the
//! step falling linearly to a tenth), on rayon's threads.
//!
//! The target of a position blends its game's result with its search
//! score: y = λ x result + (1 - λ) x s(k x score), s the logistic
//! function and k the logits per centipoint of the terms' own fit to the
//! results (so the score speaks the model's units). The model is
//! P = s(w . terms + the sum of the cells the position reads), and the
//! loss the cross-entropy against y.
//!
//! The terms start from their exact fit (Newton's method, the terms
//! alone), the tables from zero; Adam then moves both. The terms are
//! scaled to unit root-mean-square for Adam, whose steps are of about the
//! same size in every weight. Each cell is pulled towards zero (ridge) and
//! towards the same cell of the neighbouring stages (the smoothing of
//! Buro's Logistello), so stages that see few positions borrow from their
//! neighbours.
//!
//! Every `holdout`-th game is held out and the loss on it is reported, and
//! so is the loss against the results alone, the measure that compares
//! fits with different λ.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use super::{TuneError, solve};
use crate::datagen::DataRecord;
use crate::eval::features::{COUNT, index};
use crate::eval::patterns::{ActiveCells, Patterns, SLOTS, STAGE_CELLS, STAGES, TOTAL_CELLS};
use crate::eval::terms_of;
use crate::movegen::move_profile;

/// One position as the pattern fit keeps it.
#[derive(Clone, Debug)]
pub struct PatternSample {
    terms: [f32; COUNT],
    cells: [u16; SLOTS],
    count: u8,
    stage: u8,
    /// 1 won, 1/2 drawn, 0 lost, for the side to move.
    result: f32,
    /// The search's score in centipoints.
    score: f32,
    /// The game's index in its file.
    game: u32,
}

impl PatternSample {
    /// The sample of one data record of game `game`.
    pub fn of(record: &DataRecord, game: u32) -> PatternSample {
        let own = move_profile(&record.position, &record.rules);
        let terms = terms_of(&record.position, &record.rules, own);
        let active = ActiveCells::of(&record.position);
        PatternSample {
            terms: terms.map(|term| term as f32),
            cells: active.cells,
            count: active.count,
            stage: active.stage,
            result: record.result.points() as f32,
            score: record.score as f32,
            game,
        }
    }

    fn cells(&self) -> &[u16] {
        &self.cells[..self.count as usize]
    }

    /// The index of its game.
    pub fn game(&self) -> u32 {
        self.game
    }

    /// The same with its game's index moved by `offset` (pooling files).
    pub fn with_game_offset(self, offset: u32) -> PatternSample {
        PatternSample {
            game: self.game + offset,
            ..self
        }
    }
}

/// Lines parsed at once: enough to keep both threads busy, few enough to
/// keep the text in memory small.
const CHUNK_LINES: usize = 1 << 17;

/// Reads every record of a datagen file, a chunk of lines at a time (the
/// files run to gigabytes), with its game's index.
pub fn read_samples(path: &Path) -> Result<Vec<PatternSample>, TuneError> {
    let read_error = |error| TuneError::Read {
        path: PathBuf::from(path),
        error,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut samples = Vec::new();
    let mut chunk: Vec<(usize, u32, String)> = Vec::with_capacity(CHUNK_LINES);
    let mut game = 0u32;
    let flush = |chunk: &mut Vec<(usize, u32, String)>,
                 samples: &mut Vec<PatternSample>|
     -> Result<(), TuneError> {
        let parsed = chunk
            .par_iter()
            .map(|(number, game, line)| {
                DataRecord::parse(line)
                    .map(|record| PatternSample::of(&record, *game))
                    .map_err(|error| TuneError::DataRecord {
                        line: *number,
                        error,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        samples.extend(parsed);
        chunk.clear();
        Ok(())
    };
    for (number, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(read_error)?;
        if let Some(rest) = line.strip_prefix("# game ") {
            game = super::game_index(rest).unwrap_or(game);
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            chunk.push((number + 1, game, line));
            if chunk.len() == CHUNK_LINES {
                flush(&mut chunk, &mut samples)?;
            }
        }
    }
    flush(&mut chunk, &mut samples)?;
    if samples.is_empty() {
        return Err(TuneError::Empty);
    }
    Ok(samples)
}

/// How a pattern fit runs.
#[derive(Clone, Debug)]
pub struct PatternFitConfig {
    /// λ: the weight of the game's result in the target (the search
    /// score has 1 - λ).
    pub result_weight: f64,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions a step.
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// Ridge penalty on every cell.
    pub cell_l2: f64,
    /// Penalty on the difference between a cell and the same cell of the
    /// neighbouring stages.
    pub smoothing: f64,
    /// Every `holdout`-th game is held out (at least 2).
    pub holdout: u32,
    /// The share of the training games used, the first ones by index: the
    /// held-out games stay the same whatever it is.
    pub train_fraction: f64,
    /// Whether the tables are fitted (false: the terms alone, by Newton's
    /// method, the baseline).
    pub tables: bool,
    /// Whether the terms keep the engine's own weights (only their common
    /// scale is fitted): the tables then learn a correction to the
    /// evaluation the search was tuned with.
    pub fixed_terms: bool,
    /// Whether the window tables are fitted (false: the rays alone; the
    /// windows stay zero, and the engine then skips reading them).
    pub windows: bool,
    /// Seed of the order of the positions.
    pub seed: u64,
}

impl Default for PatternFitConfig {
    fn default() -> PatternFitConfig {
        PatternFitConfig {
            result_weight: 0.5,
            epochs: 12,
            batch: 16384,
            learning_rate: 0.002,
            cell_l2: 1e-6,
            smoothing: 1e-5,
            holdout: 10,
            train_fraction: 1.0,
            tables: true,
            fixed_terms: false,
            windows: true,
            seed: 1,
        }
    }
}

/// Losses of a model: mean cross-entropy against the blended target and
/// against the results alone, on the training and the held-out positions.
#[derive(Copy, Clone, Debug, Default)]
pub struct Losses {
    /// Against the target, training positions.
    pub train: f64,
    /// Against the target, held-out positions.
    pub held_out: f64,
    /// Against the results, training positions.
    pub train_result: f64,
    /// Against the results, held-out positions.
    pub held_out_result: f64,
}

/// What a pattern fit found.
#[derive(Clone, Debug)]
pub struct PatternFit {
    /// Logits per centipoint of the terms' fit to the results: the scale
    /// of the score in the target.
    pub per_centipoint: f64,
    /// Training positions used and held-out positions.
    pub positions: (usize, usize),
    /// The terms alone (Newton), on the same target.
    pub terms_only: Losses,
    /// After every epoch (empty without tables).
    pub epochs: Vec<Losses>,
    /// The fitted model as the engine reads it, and its losses (rounded
    /// to whole centipoints a cell).
    pub patterns: Patterns,
    /// The losses of `patterns`.
    pub engine: Losses,
}

/// The model in logits: terms' weights (per unit of each term) and cells.
#[derive(Clone)]
struct Model {
    terms: [f64; COUNT],
    cells: Vec<f32>,
}

impl Model {
    #[inline]
    fn logit(&self, sample: &PatternSample) -> f64 {
        let mut z = 0.0;
        for (w, x) in self.terms.iter().zip(&sample.terms) {
            z += w * *x as f64;
        }
        let stage = &self.cells[sample.stage as usize * STAGE_CELLS..][..STAGE_CELLS];
        let mut cells = 0.0f32;
        for &cell in sample.cells() {
            cells += stage[cell as usize];
        }
        z + cells as f64
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of probability `p` against target `y`.
fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Which samples a fit trains on and holds out.
struct Split {
    holdout: u32,
    last_train_game: u32,
}

impl Split {
    fn new(samples: &[PatternSample], config: &PatternFitConfig) -> Split {
        let last = samples.iter().map(|s| s.game).max().unwrap_or(0);
        Split {
            holdout: config.holdout.max(2),
            last_train_game: (last as f64 * config.train_fraction.clamp(0.0, 1.0)).ceil() as u32,
        }
    }

    fn held_out(&self, sample: &PatternSample) -> bool {
        sample.game % self.holdout == self.holdout - 1
    }

    fn trains(&self, sample: &PatternSample) -> bool {
        !self.held_out(sample) && sample.game <= self.last_train_game
    }
}

/// The losses of `predict` (a logit per sample).
fn losses(
    samples: &[PatternSample],
    targets: &[f32],
    split: &Split,
    predict: impl Fn(&PatternSample) -> f64 + Sync,
) -> Losses {
    let zero = || [0.0f64; 6];
    let sums = samples
        .par_iter()
        .zip(targets)
        .fold(zero, |mut sums, (sample, &y)| {
            let at = if split.held_out(sample) {
                3
            } else if split.trains(sample) {
                0
            } else {
                return sums;
            };
            let p = sigmoid(predict(sample));
            sums[at] += cross_entropy(p, y as f64);
            sums[at + 1] += cross_entropy(p, sample.result as f64);
            sums[at + 2] += 1.0;
            sums
        })
        .reduce(zero, |mut a, b| {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
            a
        });
    let mean = |sum: f64, count: f64| if count > 0.0 { sum / count } else { f64::NAN };
    Losses {
        train: mean(sums[0], sums[2]),
        train_result: mean(sums[1], sums[2]),
        held_out: mean(sums[3], sums[5]),
        held_out_result: mean(sums[4], sums[5]),
    }
}

/// The terms' logistic fit to `targets` on the training samples by
/// Newton's method (a small ridge keeps terms that never vary in check).
fn newton_terms(
    samples: &[PatternSample],
    targets: &[f32],
    split: &Split,
) -> Result<[f64; COUNT], TuneError> {
    let mut w = [0.0; COUNT];
    let count = samples.iter().filter(|s| split.trains(s)).count();
    if count == 0 {
        return Err(TuneError::Empty);
    }
    let l2 = 1e-6 * count as f64;
    for _ in 0..8 {
        let zero = || (vec![0.0f64; COUNT], vec![0.0f64; COUNT * COUNT]);
        let (gradient, hessian) = samples
            .par_iter()
            .zip(targets)
            .filter(|(sample, _)| split.trains(sample))
            .fold(zero, |(mut g, mut h), (sample, &y)| {
                let x = sample.terms.map(f64::from);
                let p = sigmoid(w.iter().zip(&x).map(|(a, b)| a * b).sum());
                let weight = p * (1.0 - p);
                for i in 0..COUNT {
                    g[i] += (p - y as f64) * x[i];
                    for j in 0..=i {
                        h[i * COUNT + j] += weight * x[i] * x[j];
                    }
                }
                (g, h)
            })
            .reduce(zero, |mut a, b| {
                a.0.iter_mut().zip(b.0).for_each(|(x, y)| *x += y);
                a.1.iter_mut().zip(b.1).for_each(|(x, y)| *x += y);
                a
            });
        let mut matrix = vec![vec![0.0; COUNT + 1]; COUNT];
        for i in 0..COUNT {
            for j in 0..COUNT {
                matrix[i][j] = hessian[i.max(j) * COUNT + i.min(j)];
            }
            matrix[i][i] += l2;
            matrix[i][COUNT] = gradient[i] + l2 * w[i];
        }
        let step = solve(matrix).ok_or(TuneError::Singular)?;
        for (weight, step) in w.iter_mut().zip(step) {
            *weight -= step;
        }
    }
    Ok(w)
}

/// The engine's own weights times the one scale (logits a centipoint)
/// that fits `targets` best, by Newton's method in one dimension.
fn engine_terms(samples: &[PatternSample], targets: &[f32], split: &Split) -> [f64; COUNT] {
    let unit = crate::eval::patterns::SCALE_OF_TERMS as f64;
    let weights = Patterns::empty().terms().map(|w| w as f64 / unit);
    let evaluation = |s: &PatternSample| -> f64 {
        weights
            .iter()
            .zip(&s.terms)
            .map(|(w, &x)| w * x as f64)
            .sum()
    };
    let mut scale = 0.001;
    for _ in 0..20 {
        let (gradient, curvature) = samples
            .par_iter()
            .zip(targets)
            .filter(|(s, _)| split.trains(s))
            .map(|(s, &y)| {
                let e = evaluation(s);
                let p = sigmoid(scale * e);
                ((p - y as f64) * e, p * (1.0 - p) * e * e)
            })
            .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
        if curvature <= 0.0 {
            break;
        }
        scale -= gradient / curvature;
    }
    weights.map(|w| w * scale)
}

/// Fits the terms and (with `config.tables`) the tables; `report` hears
/// each epoch's losses as it ends.
pub fn fit_patterns(
    samples: &[PatternSample],
    config: &PatternFitConfig,
    mut report: impl FnMut(usize, &Losses),
) -> Result<PatternFit, TuneError> {
    let split = Split::new(samples, config);
    let train: Vec<usize> = (0..samples.len())
        .filter(|&i| split.trains(&samples[i]))
        .collect();
    let held = samples.iter().filter(|s| split.held_out(s)).count();
    if train.is_empty() {
        return Err(TuneError::Empty);
    }
    // The scale of the score: the terms' fit to the results alone.
    let results: Vec<f32> = samples.iter().map(|s| s.result).collect();
    let by_results = newton_terms(samples, &results, &split)?;
    let per_centipoint = by_results[index::MARGIN] / 100.0;
    if per_centipoint <= 0.0 {
        return Err(TuneError::Singular);
    }
    let lambda = config.result_weight.clamp(0.0, 1.0) as f32;
    let targets: Vec<f32> = samples
        .iter()
        .map(|s| {
            lambda * s.result + (1.0 - lambda) * sigmoid(per_centipoint * s.score as f64) as f32
        })
        .collect();
    let terms = if config.fixed_terms {
        engine_terms(samples, &targets, &split)
    } else {
        newton_terms(samples, &targets, &split)?
    };
    let mut model = Model {
        terms,
        cells: vec![0.0; TOTAL_CELLS],
    };
    let terms_only = losses(samples, &targets, &split, |s| model.logit(s));
    let mut epochs = Vec::new();
    if config.tables {
        epochs = adam(
            samples,
            &targets,
            &split,
            &train,
            config,
            &mut model,
            &mut report,
        );
    }
    let patterns = quantize(&model, samples.len());
    // The file's evaluation in the model's units: centipoints times the
    // margin's logits a centipoint.
    let per_engine_cp = model.terms[index::MARGIN] / 100.0;
    let engine = losses(samples, &targets, &split, |s| {
        engine_centipoints(&patterns, s) * per_engine_cp
    });
    Ok(PatternFit {
        per_centipoint,
        positions: (train.len(), held),
        terms_only,
        epochs,
        patterns,
        engine,
    })
}

/// The engine's evaluation of a sample from its stored terms and cells,
/// in centipoints (as [`Patterns::evaluate`] adds them).
fn engine_centipoints(patterns: &Patterns, sample: &PatternSample) -> f64 {
    let scale = crate::eval::patterns::SCALE_OF_TERMS as f64;
    let terms: f64 = patterns
        .terms()
        .iter()
        .zip(&sample.terms)
        .map(|(&w, &x)| w as f64 * x as f64)
        .sum();
    let stage = &patterns.cells()[sample.stage as usize * STAGE_CELLS..][..STAGE_CELLS];
    let cells: i32 = sample
        .cells()
        .iter()
        .map(|&c| stage[c as usize] as i32)
        .sum();
    terms / scale + cells as f64
}

/// The model in the engine's units: one point of margin 100 centipoints.
fn quantize(model: &Model, positions: usize) -> Patterns {
    let scale = crate::eval::patterns::SCALE_OF_TERMS as f64;
    let to_cp = 100.0 / model.terms[index::MARGIN];
    let mut terms = model
        .terms
        .map(|w| (w * to_cp * scale).round().clamp(-1e6, 1e6) as i32);
    terms[index::MARGIN] = 100 * crate::eval::patterns::SCALE_OF_TERMS;
    let cells = model
        .cells
        .iter()
        .map(|&c| (c as f64 * to_cp).round().clamp(-30000.0, 30000.0) as i16)
        .collect();
    Patterns::new(terms, cells, &format!("fitted to {positions} positions"))
        .expect("the model has every cell")
}

/// Adam over mini-batches of the training samples; returns each epoch's
/// losses.
fn adam(
    samples: &[PatternSample],
    targets: &[f32],
    split: &Split,
    train: &[usize],
    config: &PatternFitConfig,
    model: &mut Model,
    report: &mut impl FnMut(usize, &Losses),
) -> Vec<Losses> {
    // The terms in units of their root mean square, so one step size fits
    // all: weight w on x is weight w x rms on x / rms.
    let rms: [f64; COUNT] = {
        let mut sums = [0.0; COUNT];
        for &i in train {
            for (sum, x) in sums.iter_mut().zip(&samples[i].terms) {
                *sum += (*x as f64).powi(2);
            }
        }
        sums.map(|sum| (sum / train.len() as f64).sqrt().max(1e-9))
    };
    let parameters = COUNT + TOTAL_CELLS;
    let mut weights: Vec<f64> = (0..COUNT)
        .map(|t| model.terms[t] * rms[t])
        .chain(model.cells.iter().map(|&c| c as f64))
        .collect();
    let (mut first, mut second) = (vec![0.0f64; parameters], vec![0.0f64; parameters]);
    let fixed: Vec<f64> = weights[..COUNT].to_vec();
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-8);
    let mut step = 0i32;
    let mut order = train.to_vec();
    let mut random = SmallRng::seed_from_u64(config.seed);
    let threads = rayon::current_num_threads().max(1);
    let mut history = Vec::new();
    let total_steps = (config.epochs * train.len().div_ceil(config.batch.max(1))).max(1);
    for epoch in 0..config.epochs {
        order.shuffle(&mut random);
        for batch in order.chunks(config.batch.max(1)) {
            let current = model.clone();
            let chunk = batch.len().div_ceil(threads * 2).max(1);
            let gradient = batch
                .par_chunks(chunk)
                .map(|part| {
                    let mut gradient = vec![0.0f32; parameters];
                    for &i in part {
                        let sample = &samples[i];
                        let error = (sigmoid(current.logit(sample)) - targets[i] as f64) as f32;
                        for t in 0..COUNT {
                            gradient[t] += error * (sample.terms[t] as f64 / rms[t]) as f32;
                        }
                        let base = COUNT + sample.stage as usize * STAGE_CELLS;
                        for &cell in sample.cells() {
                            gradient[base + cell as usize] += error;
                        }
                    }
                    gradient
                })
                .reduce_with(|mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                })
                .unwrap_or_else(|| vec![0.0; parameters]);
            step += 1;
            let n = batch.len() as f64;
            let (correct1, correct2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            // The step shrinks linearly to a tenth over the run: the
            // windows' many rare cells jitter at a constant step.
            let done = (step - 1) as f64 / total_steps as f64;
            let rate = config.learning_rate * (1.0 - 0.9 * done);
            let (l2, smoothing) = (config.cell_l2, config.smoothing);
            // Terms first, then the cells stage by stage, with the pulls
            // towards zero and the neighbouring stages.
            let neighbours = |p: usize| -> f64 {
                let cell = p - COUNT;
                let (stage, within) = (cell / STAGE_CELLS, cell % STAGE_CELLS);
                let mut pull = 0.0;
                if stage > 0 {
                    pull += weights[p] - weights[COUNT + (stage - 1) * STAGE_CELLS + within];
                }
                if stage + 1 < STAGES {
                    pull += weights[p] - weights[COUNT + (stage + 1) * STAGE_CELLS + within];
                }
                pull
            };
            let updates: Vec<f64> = (0..parameters)
                .into_par_iter()
                .map(|p| {
                    let mut g = gradient[p] as f64 / n;
                    if p >= COUNT {
                        g += l2 * weights[p] + smoothing * neighbours(p);
                    }
                    g
                })
                .collect();
            let window_cells = crate::eval::patterns::WINDOW_TABLES * crate::eval::patterns::CELLS;
            for p in 0..parameters {
                if !config.windows && p >= COUNT && (p - COUNT) % STAGE_CELLS < window_cells {
                    continue;
                }
                let g = updates[p];
                first[p] = beta1 * first[p] + (1.0 - beta1) * g;
                second[p] = beta2 * second[p] + (1.0 - beta2) * g * g;
                weights[p] -=
                    rate * (first[p] / correct1) / ((second[p] / correct2).sqrt() + epsilon);
            }
            if config.fixed_terms {
                // The terms stay the engine's.
                weights[..COUNT].copy_from_slice(&fixed);
            }
            for t in 0..COUNT {
                model.terms[t] = weights[t] / rms[t];
            }
            for (cell, &w) in model.cells.iter_mut().zip(&weights[COUNT..]) {
                *cell = w as f32;
            }
        }
        let result = losses(samples, targets, split, |s| model.logit(s));
        report(epoch + 1, &result);
        history.push(result);
    }
    history
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::patterns::CELLS;

    /// Samples whose outcome hangs on one cell and on the margin: the fit
    /// finds the cell's sign and the held-out loss beats the terms alone.
    #[test]
    fn finds_a_planted_cell() {
        let mut random = SmallRng::seed_from_u64(4);
        use rand::RngExt;
        let planted = 7 * CELLS + 300;
        let samples: Vec<PatternSample> = (0..40_000)
            .map(|i| {
                let mut terms = [0.0f32; COUNT];
                terms[index::MARGIN] = random.random_range(-20..=20) as f32;
                terms[index::TEMPO] = 1.0;
                let mut cells = [0u16; SLOTS];
                let lit = random.random::<bool>();
                cells[0] = if lit { planted as u16 } else { 5 };
                let logit = 0.15 * terms[index::MARGIN] as f64 + if lit { 2.0 } else { -1.0 };
                let won = random.random::<f64>() < sigmoid(logit);
                PatternSample {
                    terms,
                    cells,
                    count: 1,
                    stage: 2,
                    result: if won { 1.0 } else { 0.0 },
                    score: 0.0,
                    game: i / 20,
                }
            })
            .collect();
        let config = PatternFitConfig {
            result_weight: 1.0,
            epochs: 6,
            batch: 512,
            learning_rate: 0.02,
            ..PatternFitConfig::default()
        };
        let mut heard = 0;
        let fit = fit_patterns(&samples, &config, |_, _| heard += 1).unwrap();
        assert_eq!(heard, 6);
        assert_eq!(fit.epochs.len(), 6);
        let last = fit.epochs.last().unwrap();
        assert!(
            last.held_out < fit.terms_only.held_out - 0.05,
            "{last:?} vs {:?}",
            fit.terms_only
        );
        // The file keeps the difference: the planted cell above the
        // other, by about 3 logits at 0.15 a point (2,000 centipoints).
        let stage = &fit.patterns.cells()[2 * STAGE_CELLS..];
        let difference = stage[planted] as i32 - stage[5] as i32;
        assert!((1500..2500).contains(&difference), "{difference}");
        assert!((fit.engine.held_out - last.held_out).abs() < 0.01);
        // Held-out games are every tenth.
        assert_eq!(fit.positions.1, 4_000);
    }

    /// Fewer training games, the same held-out ones.
    #[test]
    fn a_fraction_of_the_games_trains() {
        let samples: Vec<PatternSample> = (0..1000)
            .map(|i| PatternSample {
                terms: [1.0; COUNT],
                cells: [0; SLOTS],
                count: 0,
                stage: 0,
                result: (i % 2) as f32,
                score: 0.0,
                game: i / 10,
            })
            .collect();
        let config = PatternFitConfig {
            train_fraction: 0.5,
            ..PatternFitConfig::default()
        };
        let split = Split::new(&samples, &config);
        let trained = samples.iter().filter(|s| split.trains(s)).count();
        let held = samples.iter().filter(|s| split.held_out(s)).count();
        assert_eq!(held, 100);
        assert!((440..=460).contains(&trained), "{trained}");
    }
}
