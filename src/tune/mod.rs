//! Texel tuning: fits the evaluation's weights to game results by logistic
//! regression.
//!
//! Every position of a `pasang datagen` file becomes one sample: its
//! evaluation terms ([`crate::eval::features`]) and the result of its game
//! for the side to move (1 won, 1/2 drawn, 0 lost). The model is
//! P(win) = 1 / (1 + e^-(w . terms)), fitted by Newton's method (the
//! problem is small: 16 weights, so each step solves a 16 x 16 system
//! exactly and a handful of steps converge). The weights are then scaled so
//! that one point of margin is worth 100 centipoints, the evaluation's
//! unit, and that scale is also the model of win chance against score that
//! `UCI_ShowWDL` can use.

pub(crate) mod spsa;

use rayon::prelude::*;

use crate::datagen::DataRecord;
use crate::datagen::format::DataRecordError;
use crate::eval::features::{COUNT, index};
use crate::eval::terms_of;
use crate::movegen::move_profile;

/// One position: its terms and its game's result for the side to move.
#[derive(Clone, Debug)]
pub struct Sample {
    terms: [f64; COUNT],
    target: f64,
    /// The search's score in centipoints, for the model of result against
    /// score.
    score: f64,
    /// Held out of the fit, to measure it on games it did not see.
    held_out: bool,
}

/// Below this many positions a fit means little, and `pasang tune` says
/// so. Logistic regression wants about ten events per fitted weight
/// (Peduzzi et al., 1996), and a game's positions share one result, so the
/// events are games: 20 weights x 10 = 200 games of the rarer result,
/// about 400 games, which at the 37 positions a game of the data in
/// docs/strength.md is about 15,000 positions.
pub const FEW_POSITIONS: usize = 15_000;

/// A data file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A record line is malformed.
    #[error("line {line}: {error}")]
    DataRecord {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        error: DataRecordError,
    },
    /// No usable positions.
    #[error("no positions to fit")]
    Empty,
    /// The fit's system of equations is singular (a term never varies).
    #[error("the fit is singular: some term never varies in the data (add --l2)")]
    Singular,
}

/// Reads the samples of a datagen file's text. Every `holdout`-th game (by
/// its index) is held out of the fit; 0 holds none out.
pub fn samples(text: &str, holdout: u64) -> Result<Vec<Sample>, TuneError> {
    // The game index of every line: records follow their `# game i` line.
    let mut lines = Vec::new();
    let mut game = 0u64;
    for (number, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("# game ") {
            game = game_index(rest).unwrap_or(game);
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            lines.push((
                number + 1,
                line,
                holdout > 0 && game % holdout == holdout - 1,
            ));
        }
    }
    let samples = lines
        .par_iter()
        .map(|&(number, line, held_out)| {
            let record = DataRecord::parse(line).map_err(|error| TuneError::DataRecord {
                line: number,
                error,
            })?;
            // A proven result says nothing of how the evaluation's terms
            // weigh: the fit leaves mates out (datagen files keep them).
            if record.is_mate() {
                return Ok(None);
            }
            let own = move_profile(&record.position, &record.rules);
            let terms = terms_of(&record.position, &record.rules, own);
            Ok(Some(Sample {
                terms: terms.map(f64::from),
                target: record.result.points(),
                score: f64::from(record.score),
                held_out,
            }))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    if samples.is_empty() {
        return Err(TuneError::Empty);
    }
    Ok(samples)
}

/// The result of a fit.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Logistic weights, one per term (logits per unit of the term).
    pub logits: [f64; COUNT],
    /// Mean cross-entropy on the samples fitted.
    pub train_loss: f64,
    /// Mean cross-entropy on the held-out samples (NaN without any).
    pub held_out_loss: f64,
}

impl Fit {
    /// The weights in centipoints per unit of each term, the margin's
    /// being 100.
    pub fn centipoints(&self) -> [f64; COUNT] {
        let scale = 100.0 / self.logits[index::MARGIN];
        self.logits.map(|logit| logit * scale)
    }

    /// Logits per centipoint: the model's P(win) = 1 / (1 + e^-(k x cp)).
    pub fn logits_per_centipoint(&self) -> f64 {
        self.logits[index::MARGIN] / 100.0
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(a: &[f64; COUNT], b: &[f64; COUNT]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean cross-entropy of `logits` over the samples `pick` selects.
fn loss(samples: &[Sample], logits: &[f64; COUNT], pick: impl Fn(&Sample) -> bool + Sync) -> f64 {
    let (sum, count) = samples
        .par_iter()
        .filter(|sample| pick(sample))
        .map(|sample| {
            let p = sigmoid(dot(logits, &sample.terms)).clamp(1e-12, 1.0 - 1e-12);
            let y = sample.target;
            (-(y * p.ln() + (1.0 - y) * (1.0 - p).ln()), 1usize)
        })
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if count == 0 {
        f64::NAN
    } else {
        sum / count as f64
    }
}

/// Fits the terms `active` selects (the others stay 0) by `steps` Newton
/// steps with ridge penalty `l2` per sample.
pub fn fit(
    samples: &[Sample],
    active: &[bool; COUNT],
    steps: usize,
    l2: f64,
) -> Result<Fit, TuneError> {
    let mut logits = [0.0; COUNT];
    let train = |sample: &Sample| !sample.held_out;
    let count = samples.iter().filter(|sample| train(sample)).count();
    if count == 0 {
        return Err(TuneError::Empty);
    }
    for _ in 0..steps {
        // Gradient and Hessian of the summed cross-entropy.
        let (gradient, hessian) = samples
            .par_iter()
            .filter(|sample| train(sample))
            .fold(
                || ([0.0; COUNT], [[0.0; COUNT]; COUNT]),
                |(mut gradient, mut hessian), sample| {
                    let p = sigmoid(dot(&logits, &sample.terms));
                    let weight = p * (1.0 - p);
                    for (i, row) in hessian.iter_mut().enumerate() {
                        gradient[i] += (p - sample.target) * sample.terms[i];
                        for (j, cell) in row.iter_mut().enumerate().take(i + 1) {
                            *cell += weight * sample.terms[i] * sample.terms[j];
                        }
                    }
                    (gradient, hessian)
                },
            )
            .reduce(
                || ([0.0; COUNT], [[0.0; COUNT]; COUNT]),
                |mut a, b| {
                    for i in 0..COUNT {
                        a.0[i] += b.0[i];
                        for j in 0..COUNT {
                            a.1[i][j] += b.1[i][j];
                        }
                    }
                    a
                },
            );
        // The system over the active terms only.
        let terms: Vec<usize> = (0..COUNT).filter(|&i| active[i]).collect();
        let n = terms.len();
        let mut matrix = vec![vec![0.0; n + 1]; n];
        for (row, &i) in terms.iter().enumerate() {
            for (column, &j) in terms.iter().enumerate() {
                let (a, b) = if i >= j { (i, j) } else { (j, i) };
                matrix[row][column] = hessian[a][b];
            }
            matrix[row][row] += l2 * count as f64;
            matrix[row][n] = gradient[i] + l2 * count as f64 * logits[i];
        }
        let step = solve(matrix).ok_or(TuneError::Singular)?;
        for (row, &i) in terms.iter().enumerate() {
            logits[i] -= step[row];
        }
    }
    Ok(Fit {
        logits,
        train_loss: loss(samples, &logits, train),
        held_out_loss: loss(samples, &logits, |sample| sample.held_out),
    })
}

/// Weights given in centipoints (the shipped ones, say) measured on the
/// samples: only their common scale, the logits per centipoint, is fitted,
/// so the losses say how well those weights, as they are, predict the
/// results beside a full fit on the same samples.
pub fn rescaled(samples: &[Sample], centipoints: &[f64; COUNT]) -> Fit {
    let train = |sample: &Sample| !sample.held_out;
    let k = golden_minimum(1e-6, 0.05, |k| {
        loss(samples, &centipoints.map(|weight| weight * k), train)
    });
    let logits = centipoints.map(|weight| weight * k);
    Fit {
        logits,
        train_loss: loss(samples, &logits, train),
        held_out_loss: loss(samples, &logits, |sample| sample.held_out),
    }
}

/// The model of win, draw and loss against a score: P(win) =
/// s(k x cp - d), P(loss) = s(-k x cp - d), P(draw) the rest, with s the
/// logistic function (an ordered logit, symmetric because the score is the
/// side to move's).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WdlModel {
    /// Logits per centipoint (k).
    pub per_centipoint: f64,
    /// The draw band's half-width in logits (d, at least 0).
    pub draw_band: f64,
}

impl WdlModel {
    /// P(win), P(draw), P(loss) at `centipoints`.
    pub fn probabilities(&self, centipoints: f64) -> (f64, f64, f64) {
        let win = sigmoid(self.per_centipoint * centipoints - self.draw_band);
        let loss = sigmoid(-self.per_centipoint * centipoints - self.draw_band);
        (win, (1.0 - win - loss).max(0.0), loss)
    }

    /// Mean negative log-likelihood of the fitted samples' results.
    fn loss(&self, samples: &[Sample]) -> f64 {
        let (sum, count) = samples
            .par_iter()
            .filter(|sample| !sample.held_out)
            .map(|sample| {
                let (win, draw, loss) = self.probabilities(sample.score);
                let p = if sample.target == 1.0 {
                    win
                } else if sample.target == 0.0 {
                    loss
                } else {
                    draw
                };
                (-p.max(1e-12).ln(), 1usize)
            })
            .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        sum / count.max(1) as f64
    }
}

/// Fits the [`WdlModel`] to the samples' search scores and results, by
/// golden-section search on each parameter in turn (two parameters, a
/// smooth and unimodal likelihood).
pub fn fit_wdl(samples: &[Sample]) -> WdlModel {
    let mut model = WdlModel {
        per_centipoint: 0.002,
        draw_band: 1.0,
    };
    for _ in 0..4 {
        let k = golden_minimum(1e-5, 0.02, |k| {
            WdlModel {
                per_centipoint: k,
                ..model
            }
            .loss(samples)
        });
        model.per_centipoint = k;
        let d = golden_minimum(0.0, 8.0, |d| {
            WdlModel {
                draw_band: d,
                ..model
            }
            .loss(samples)
        });
        model.draw_band = d;
    }
    model
}

/// The minimum of a unimodal `f` on [low, high], to about 1e-4 of the span.
fn golden_minimum(mut low: f64, mut high: f64, f: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    while high - low > 1e-4 * (high.abs() + 1e-3) {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if f(a) < f(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Solves the augmented system `matrix` (n rows of n + 1) by Gaussian
/// elimination with partial pivoting; `None` when it is singular.
fn solve(mut matrix: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = matrix.len();
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))?;
        if matrix[pivot][column].abs() < 1e-12 {
            return None;
        }
        matrix.swap(column, pivot);
        let pivot_row = matrix[column].clone();
        for (row, values) in matrix.iter_mut().enumerate() {
            if row != column {
                let factor = values[column] / pivot_row[column];
                for (value, pivot_value) in values.iter_mut().zip(&pivot_row).skip(column) {
                    *value -= factor * pivot_value;
                }
            }
        }
    }
    Some(
        (0..n)
            .map(|row| matrix[row][n] / matrix[row][row])
            .collect(),
    )
}

/// The game index of a `# game <i> ...` line, from the words after
/// `# game `.
pub(crate) fn game_index<T: std::str::FromStr>(rest: &str) -> Option<T> {
    rest.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known model of win, draw and loss are fitted
    /// back to it.
    #[test]
    fn recovers_a_known_wdl_model() {
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let truth = WdlModel {
            per_centipoint: 0.003,
            draw_band: 1.5,
        };
        let mut random = SmallRng::seed_from_u64(9);
        let samples: Vec<Sample> = (0..60_000)
            .map(|_| {
                let score = random.random_range(-1500..=1500) as f64;
                let (win, draw, _) = truth.probabilities(score);
                let roll = random.random::<f64>();
                let target = if roll < win {
                    1.0
                } else if roll < win + draw {
                    0.5
                } else {
                    0.0
                };
                Sample {
                    terms: [0.0; COUNT],
                    target,
                    score,
                    held_out: false,
                }
            })
            .collect();
        let fitted = fit_wdl(&samples);
        assert!((fitted.per_centipoint - 0.003).abs() < 0.0003, "{fitted:?}");
        assert!((fitted.draw_band - 1.5).abs() < 0.15, "{fitted:?}");
    }

    /// The scale of weights that are right up to a factor is found, and
    /// they then predict as well as a full fit.
    #[test]
    fn rescaled_weights_find_their_scale() {
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut random = SmallRng::seed_from_u64(5);
        let samples: Vec<Sample> = (0..20_000)
            .map(|_| {
                let mut terms = [0.0; COUNT];
                terms[index::MARGIN] = random.random_range(-20..=20) as f64;
                terms[index::TEMPO] = 1.0;
                // The truth: 0.004 logits a centipoint, tempo worth 25.
                let p = sigmoid(0.004 * (100.0 * terms[index::MARGIN] + 25.0));
                Sample {
                    terms,
                    target: if random.random::<f64>() < p { 1.0 } else { 0.0 },
                    score: 0.0,
                    held_out: random.random::<f64>() < 0.1,
                }
            })
            .collect();
        let mut centipoints = [0.0; COUNT];
        centipoints[index::MARGIN] = 100.0;
        centipoints[index::TEMPO] = 25.0;
        let measured = rescaled(&samples, &centipoints);
        assert!((measured.logits_per_centipoint() - 0.004).abs() < 0.0003);
        let mut active = [false; COUNT];
        active[index::MARGIN] = true;
        active[index::TEMPO] = true;
        let full = fit(&samples, &active, 8, 0.0).unwrap();
        assert!(measured.train_loss - full.train_loss < 1e-3);
        assert!(measured.train_loss >= full.train_loss - 1e-9);
        // Weights far from the truth predict worse.
        centipoints[index::TEMPO] = -400.0;
        assert!(rescaled(&samples, &centipoints).train_loss > full.train_loss + 1e-3);
    }

    /// A datagen file's mate positions (version 3) stay out of the fit:
    /// their score is no evaluation to weigh terms against.
    #[test]
    fn mate_positions_are_left_out_of_the_samples() {
        let line = "wwwwwb.bbbw/bwwwwb.bbww/bbwwwb.bwww/bbbw.bNwwww/bbbbwb.wwww/bbbbb+.bbbb/\
                    .S...bwbbbb/w.wwbbwwbbb/w.wbbbwwwbb/w.bbbbwwwwb/w.bbbbwwwww s 15 7 bg | \
                    1 jump opposite open | 404 | w 2 | b5e5ns";
        let text = format!(
            "# pasang datagen 3 seed 1 nodes 10 random-plies 4\n# game 0 1 jump opposite open plies b g\n\
             {line}\n{}\n# end 0 south score 89-87\n",
            line.replace(" | 404 | ", " | mate 3 | ")
        );
        let read = samples(&text, 0).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].score, 404.0);
    }

    #[test]
    fn solves_a_small_system() {
        // x + y = 3, x - y = 1.
        let solution = solve(vec![vec![1.0, 1.0, 3.0], vec![1.0, -1.0, 1.0]]).unwrap();
        assert!((solution[0] - 2.0).abs() < 1e-9 && (solution[1] - 1.0).abs() < 1e-9);
        assert!(solve(vec![vec![1.0, 1.0, 1.0], vec![2.0, 2.0, 2.0]]).is_none());
    }

    /// Samples drawn from a known logistic model are fitted back to it.
    #[test]
    fn recovers_the_weights_of_a_known_model() {
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut random = SmallRng::seed_from_u64(3);
        let truth = {
            let mut logits = [0.0; COUNT];
            logits[index::MARGIN] = 0.2;
            logits[index::OWN_MOVES] = 0.05;
            logits
        };
        let samples: Vec<Sample> = (0..40_000)
            .map(|_| {
                let mut terms = [0.0; COUNT];
                terms[index::MARGIN] = random.random_range(-20..=20) as f64;
                terms[index::OWN_MOVES] = random.random_range(0..=30) as f64;
                let p = sigmoid(dot(&truth, &terms));
                Sample {
                    terms,
                    target: if random.random::<f64>() < p { 1.0 } else { 0.0 },
                    score: 0.0,
                    held_out: false,
                }
            })
            .collect();
        let mut active = [false; COUNT];
        active[index::MARGIN] = true;
        active[index::OWN_MOVES] = true;
        let fit = fit(&samples, &active, 8, 0.0).unwrap();
        assert!(
            (fit.logits[index::MARGIN] - 0.2).abs() < 0.02,
            "{:?}",
            fit.logits
        );
        assert!(
            (fit.logits[index::OWN_MOVES] - 0.05).abs() < 0.01,
            "{:?}",
            fit.logits
        );
        assert!((fit.centipoints()[index::OWN_MOVES] - 25.0).abs() < 6.0);
    }
}
