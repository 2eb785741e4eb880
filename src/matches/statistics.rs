//! Match arithmetic: Elo with its 95% interval, likelihood of superiority,
//! and the sequential probability ratio test (SPRT).
//!
//! The Elo, its interval and the SPRT work on the trinomial counts W/D/L
//! of the first engine, with the normal approximation of the mean score
//! (no BayesElo draw model):
//!
//! - score `s = (W + D/2) / N`, per-game variance
//!   `var = (W (1-s)² + D (1/2-s)² + L s²) / N`;
//! - Elo `= -400 log10(1/s - 1)` (the logistic model), and the 95%
//!   interval is half the Elo distance between `s ± 1.96 sqrt(var/N)`, as
//!   cutechess and fastchess print it;
//! - the SPRT is the generalised SPRT with the logistic Elo model, as
//!   fastchess computes it for `model=logistic` (and fishtest for its
//!   trinomial tests): counts of zero are regularised to 0.001, the
//!   results' empirical distribution `p` over the scores {0, 1/2, 1} is
//!   projected onto the distributions `p0`, `p1` of the greatest
//!   likelihood whose means are the scores `s0`, `s1` of `elo0`, `elo1`,
//!   and `LLR = N Σ p ln(p1 / p0)`. Unlike the plain normal approximation
//!   `(s1 - s0)(2s - s0 - s1) / (2 var / N)`, which it matches closely on
//!   ordinary counts, it stays finite and sensible when one side wins
//!   every game. The bounds are `ln(beta / (1 - alpha))` and
//!   `ln((1 - beta) / alpha)`;
//! - a second Elo interval takes each game pair (one opening played from
//!   both seats) as one sample, from the pentanomial counts of the pairs'
//!   scores (see [`pentanomial_elo`]).

use std::fmt;

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The probability beyond each end of a two-sided 95% interval.
const TAIL95: f64 = 0.025;

/// The expected score of an Elo difference (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score; infinite at 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Mean score and per-game variance of W/D/L; `None` with no games.
fn mean_and_variance(wins: u64, draws: u64, losses: u64) -> Option<(f64, f64, f64)> {
    let games = (wins + draws + losses) as f64;
    if games == 0.0 {
        return None;
    }
    let (w, d, l) = (wins as f64, draws as f64, losses as f64);
    let score = (w + d / 2.0) / games;
    let variance =
        (w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2)) / games;
    Some((games, score, variance))
}

/// An Elo estimate with its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate (may be infinite after all wins or all losses).
    pub elo: f64,
    /// Half the width of the 95% interval (infinite when unbounded).
    pub margin: f64,
    /// The Elo of the interval's lower end (minus infinity when the
    /// interval reaches a score of 0).
    pub low: f64,
    /// The Elo of the interval's upper end (infinity when it reaches a
    /// score of 1).
    pub high: f64,
}

impl EloEstimate {
    /// What [`EloEstimate`]'s `Display` gives, for the words after it:
    /// `95%` for `elo ± margin`, `95% lower bound` for `> low` (the
    /// interval reaches a score of 1), `95% upper bound` for `< high` (it
    /// reaches 0), `95% interval unbounded` for the bare estimate (both).
    pub fn kind(&self) -> &'static str {
        match (self.low.is_finite(), self.high.is_finite()) {
            (true, true) => "95%",
            (true, false) => "95% lower bound",
            (false, true) => "95% upper bound",
            (false, false) => "95% interval unbounded",
        }
    }
}

impl fmt::Display for EloEstimate {
    /// `+70.4 ± 70.6`; where the interval is one-sided, its finite end
    /// (`> +405.6`, `< -405.6`); never an infinity.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Adding 0.0 turns -0.0 into 0.0, which prints without a minus.
        match (self.low.is_finite(), self.high.is_finite()) {
            (true, true) => write!(f, "{:+.1} ± {:.1}", self.elo + 0.0, self.margin),
            (true, false) => write!(f, "> {:+.1}", self.low + 0.0),
            (false, true) => write!(f, "< {:+.1}", self.high + 0.0),
            // Both ends unbounded: the score is strictly between 0 and 1.
            (false, false) => write!(f, "{:+.1}", self.elo + 0.0),
        }
    }
}

/// The Elo difference of the first engine from its W/D/L, with its 95%
/// interval; `None` before the first game.
pub fn elo(wins: u64, draws: u64, losses: u64) -> Option<EloEstimate> {
    let (games, score, variance) = mean_and_variance(wins, draws, losses)?;
    Some(estimate(score, (variance / games).sqrt(), games))
}

/// The Elo difference of the first engine from its game pairs (each
/// opening played once from each seat), with its 95% interval: `pairs[k]`
/// counts the pairs in which it scored `k / 2` points over both games.
/// `None` before the first complete pair.
///
/// A pair is one sample of the score, so the interval takes in how the
/// two games of an opening go together: when the seat decides most games,
/// the pairs vary far less than single games would, and the interval is
/// narrower than the trinomial one, as it should be.
pub fn pentanomial_elo(pairs: &[u64; 5]) -> Option<EloEstimate> {
    let count = pairs.iter().sum::<u64>() as f64;
    if count == 0.0 {
        return None;
    }
    let pair_score = |k: usize| k as f64 / 4.0;
    let score = (0..5).map(|k| pairs[k] as f64 * pair_score(k)).sum::<f64>() / count;
    let variance = (0..5)
        .map(|k| pairs[k] as f64 * (pair_score(k) - score).powi(2))
        .sum::<f64>()
        / count;
    Some(estimate(score, (variance / count).sqrt(), count))
}

/// The Elo of `score` with the 95% interval of a normal mean score with
/// standard deviation `deviation`, from `samples` games (or pairs). At a
/// score of 1 (or 0) every sample scored the same and the normal interval
/// has no width, so its open end is the exact (Clopper-Pearson) bound of
/// a proportion all of whose `samples` succeeded: 0.025^(1/samples).
fn estimate(score: f64, deviation: f64, samples: f64) -> EloEstimate {
    let exact = TAIL95.powf(1.0 / samples);
    let low_score = if score >= 1.0 {
        exact
    } else {
        score - Z95 * deviation
    };
    let high_score = if score <= 0.0 {
        1.0 - exact
    } else {
        score + Z95 * deviation
    };
    let low = score_to_elo(low_score);
    let high = score_to_elo(high_score);
    let margin = if low.is_finite() && high.is_finite() {
        (high - low) / 2.0
    } else {
        f64::INFINITY
    };
    EloEstimate {
        elo: score_to_elo(score),
        margin,
        low,
        high,
    }
}

/// Likelihood of superiority: the probability that the first engine is
/// the stronger, from wins and losses (draws carry no information here).
pub fn likelihood_of_superiority(wins: u64, losses: u64) -> Option<f64> {
    let decisive = (wins + losses) as f64;
    (decisive > 0.0)
        .then(|| 0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * decisive).sqrt())))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7:
/// ample for a percentage).
fn erf(x: f64) -> f64 {
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// An SPRT's hypotheses and error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis H0.
    pub elo0: f64,
    /// Elo difference of the alternative H1.
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// What an SPRT concludes so far.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Decision {
    /// Neither bound crossed: keep playing.
    Continue,
    /// The lower bound crossed: H0 (`elo0`) accepted.
    AcceptH0,
    /// The upper bound crossed: H1 (`elo1`) accepted.
    AcceptH1,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::Continue => "no bound crossed",
            Decision::AcceptH0 => "H0 accepted",
            Decision::AcceptH1 => "H1 accepted",
        })
    }
}

/// Why an SPRT description does not parse. `Display` gives the message
/// `--sprt` prints after `--sprt: `.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// A word without `=`.
    #[error("'{0}' is not key=value")]
    NotKeyValue(String),
    /// A key that is none of elo0, elo1, alpha, beta (as given).
    #[error("unknown SPRT parameter '{0}' (expected elo0, elo1, alpha, beta)")]
    UnknownParameter(String),
    /// A value that is not a finite number.
    #[error("{key}: '{value}' is not a number")]
    NotANumber {
        /// The key, as given.
        key: String,
        /// The value given.
        value: String,
    },
    /// A key given twice (as given the second time).
    #[error("{0} given twice")]
    GivenTwice(String),
    /// elo0 or elo1 is missing.
    #[error("elo0 and elo1 are required")]
    MissingElo,
    /// elo0 is not below elo1.
    #[error("elo0 ({elo0}) must be below elo1 ({elo1})")]
    EloOrder {
        /// The elo0 given.
        elo0: f64,
        /// The elo1 given.
        elo1: f64,
    },
    /// alpha or beta is not above 0, or their sum is not below 1.
    #[error("alpha and beta must be above 0 with a sum below 1")]
    Risks {
        /// The alpha given (or its default).
        alpha: f64,
        /// The beta given (or its default).
        beta: f64,
    },
}

impl Sprt {
    /// Parses `elo0=<a> elo1=<b> [alpha=<x>] [beta=<y>]` (words separated
    /// by spaces or commas, in any order; alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut values: [Option<f64>; 4] = [None; 4];
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        for word in text.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(word.to_string()))?;
            let index = KEYS
                .iter()
                .position(|k| k.eq_ignore_ascii_case(key))
                .ok_or_else(|| SprtError::UnknownParameter(key.to_string()))?;
            let number: f64 = value
                .parse()
                .ok()
                .filter(|n: &f64| n.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    key: key.to_string(),
                    value: value.to_string(),
                })?;
            if values[index].replace(number).is_some() {
                return Err(SprtError::GivenTwice(key.to_string()));
            }
        }
        let (Some(elo0), Some(elo1)) = (values[0], values[1]) else {
            return Err(SprtError::MissingElo);
        };
        let alpha = values[2].unwrap_or(0.05);
        let beta = values[3].unwrap_or(0.05);
        if elo0 >= elo1 {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(SprtError::Risks { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower and upper bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after W/D/L, each game
    /// one sample (fishtest's trinomial test). Matches are judged by pairs;
    /// this checks the shared projection against fishtest's own values.
    #[cfg(test)]
    fn llr(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        self.generalised_llr(&[losses, draws, wins], &GAME_SCORES)
    }

    /// The log-likelihood ratio of H1 against H0 after game pairs counted
    /// by the first engine's points over both games (0, 1/2, 1, 3/2, 2),
    /// each pair one sample (fishtest's pentanomial test). Where the seat
    /// decides many games, as in Pasang, a pair's two games tend to split
    /// and the pairs vary less than single games: the test decides in
    /// fewer games than the trinomial one, at the same error rates.
    pub fn pentanomial_llr(&self, pairs: &[u64; 5]) -> f64 {
        self.generalised_llr(pairs, &PAIR_SCORES)
    }

    /// `N Σ p ln(p1/p0)` over the empirical distribution `p` of `counts`
    /// (zeros regularised to 0.001, as fishtest does) and its projections
    /// onto the mean scores of `elo0` and `elo1`.
    fn generalised_llr<const K: usize>(&self, counts: &[u64; K], scores: &[f64; K]) -> f64 {
        if counts.iter().all(|&count| count == 0) {
            return 0.0;
        }
        let regularised = counts.map(|count| if count == 0 { 1e-3 } else { count as f64 });
        let samples: f64 = regularised.iter().sum();
        let pdf = regularised.map(|count| count / samples);
        let p0 = closest_with_mean(&pdf, scores, elo_to_score(self.elo0));
        let p1 = closest_with_mean(&pdf, scores, elo_to_score(self.elo1));
        samples * (0..K).map(|i| pdf[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
    }

    /// Whether `llr` has crossed a bound.
    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// The scores of a loss, a draw and a win.
#[cfg(test)]
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The score of a pair by its points over both games, halved twice.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution over `scores` (increasing, from 0 to 1) of greatest
/// likelihood for results distributed as `pdf` (all entries positive)
/// among those with mean `mean` (strictly between 0 and 1).
///
/// By Lagrange it is `pdf_i / (1 + t (a_i - mean))`, where `t` is the root
/// of `g(t) = Σ pdf_i (a_i - mean) / (1 + t (a_i - mean))`, decreasing in
/// `t` on the interval that keeps every denominator positive; bisection
/// finds it to machine precision.
fn closest_with_mean<const K: usize>(pdf: &[f64; K], scores: &[f64; K], mean: f64) -> [f64; K] {
    let offsets = scores.map(|score| score - mean);
    let g = |t: f64| -> f64 {
        (0..K)
            .map(|i| pdf[i] * offsets[i] / (1.0 + t * offsets[i]))
            .sum()
    };
    // The first offset is negative and the last positive, so the interval
    // is (-1/last, -1/first).
    let (mut low, mut high) = (-1.0 / offsets[K - 1], -1.0 / offsets[0]);
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if middle <= low || middle >= high {
            break;
        }
        if g(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let t = (low + high) / 2.0;
    let mut p = [0.0; K];
    for i in 0..K {
        p[i] = pdf[i] / (1.0 + t * offsets[i]);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn sixty_percent_is_seventy_elo() {
        assert!(close(score_to_elo(0.6), 70.4365, 1e-3));
        assert!(close(score_to_elo(0.5), 0.0, 1e-12));
        assert!(close(elo_to_score(70.4365036), 0.6, 1e-9));
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn elo_intervals_match_hand_computed_values() {
        // Computed independently: s ± 1.96 sqrt(var / N), converted.
        let e = elo(60, 0, 40).unwrap();
        assert!(close(e.elo, 70.4365, 1e-3));
        assert!(close(e.margin, 70.5712, 1e-3));
        let e = elo(130, 100, 70).unwrap();
        assert!(close(e.elo, 70.4365, 1e-3));
        assert!(close(e.margin, 32.5258, 1e-3));
        let e = elo(40, 20, 40).unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.margin, 61.5427, 1e-3));
        assert_eq!(elo(0, 0, 0), None);
        let all_wins = elo(5, 0, 0).unwrap();
        assert_eq!(all_wins.elo, f64::INFINITY);
        assert_eq!(all_wins.margin, f64::INFINITY);
    }

    #[test]
    fn one_sided_intervals_give_their_finite_end_never_inf() {
        // All 40 games won: the exact bound 0.025^(1/40) = 0.91190.
        let e = elo(40, 0, 0).unwrap();
        assert!(close(e.low, 405.9944, 1e-3), "{e:?}");
        assert_eq!(e.high, f64::INFINITY);
        assert_eq!(e.to_string(), "> +406.0");
        assert_eq!(e.kind(), "95% lower bound");
        // All lost: the mirror image.
        let e = elo(0, 0, 40).unwrap();
        assert!(close(e.high, -405.9944, 1e-3), "{e:?}");
        assert_eq!(e.to_string(), "< -406.0");
        assert_eq!(e.kind(), "95% upper bound");
        // 39 of 40 won: a finite estimate whose interval reaches a score
        // of 1, so only its lower end is told.
        let e = elo(39, 0, 1).unwrap();
        assert!(e.elo.is_finite() && e.high.is_infinite());
        let low = score_to_elo(0.975 - Z95 * (0.975_f64 * 0.025 / 40.0).sqrt());
        assert!(close(e.low, low, 1e-9));
        assert_eq!(e.to_string(), format!("> {low:+.1}"));
        // One win and one loss: no end is finite, the estimate stands alone.
        let e = elo(1, 0, 1).unwrap();
        assert_eq!(e.to_string(), "+0.0");
        assert_eq!(e.kind(), "95% interval unbounded");
        // Twenty pairs all won: the bound of 20 samples, 0.025^(1/20).
        let e = pentanomial_elo(&[0, 0, 0, 0, 20]).unwrap();
        assert!(close(e.low, 277.3874, 1e-3), "{e:?}");
        assert_eq!(e.to_string(), "> +277.4");
        // A two-sided interval prints as before.
        let e = elo(60, 0, 40).unwrap();
        assert_eq!(e.kind(), "95%");
        assert_eq!(e.to_string(), "+70.4 ± 70.6");
        for (w, d, l) in [(40, 0, 0), (0, 0, 40), (39, 1, 0), (1, 0, 0), (0, 1, 0)] {
            let text = elo(w, d, l).unwrap().to_string();
            assert!(!text.contains("inf") && !text.contains("NaN"), "{text}");
        }
    }

    #[test]
    fn pentanomial_intervals_match_hand_computed_values() {
        // Computed independently: the mean pair score k/4 and its variance
        // over the pairs, s ± 1.96 sqrt(var / pairs), converted.
        let e = pentanomial_elo(&[14, 5, 147, 7, 27]).unwrap();
        assert!(close(e.elo, 24.3603, 1e-3));
        assert!(close(e.margin, 22.4737, 1e-3));
        let e = pentanomial_elo(&[3, 0, 0, 0, 5]).unwrap();
        assert!(close(e.elo, 88.7395, 1e-3));
        assert!(close(e.margin, 355.0924, 1e-3));
        // Every pair split by the seats: no doubt about an even score.
        let e = pentanomial_elo(&[0, 0, 10, 0, 0]).unwrap();
        assert_eq!((e.elo, e.margin), (0.0, 0.0));
        assert_eq!(pentanomial_elo(&[0; 5]), None);
    }

    #[test]
    fn sprt_bounds_and_llr_match_hand_computed_values() {
        let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_439, 1e-6));
        assert!(close(upper, 2.944_439, 1e-6));
        // Reference values from an independent implementation of the
        // same method (fishtest's LLR_logistic with 1e-3 regularisation).
        assert!(close(sprt.llr(130, 100, 70), 2.408_988, 1e-5));
        assert!(close(sprt.llr(100, 100, 100), -0.186_350, 1e-5));
        assert!(close(sprt.llr(60, 0, 40), 0.534_236, 1e-5));
        assert!(close(sprt.llr(100, 0, 0), 2.836_815, 1e-5));
        assert!(close(sprt.llr(0, 0, 100), -2.919_648, 1e-5));
        assert!(close(sprt.llr(1, 0, 0), 0.028_367, 1e-5));
        assert_eq!(sprt.llr(0, 0, 0), 0.0);
        let wide = Sprt::parse("elo0=0 elo1=50").unwrap();
        assert!(close(wide.llr(130, 100, 70), 8.373_154, 1e-5));
        assert!(close(wide.llr(22, 0, 0), 2.939_000, 1e-5));
        assert_eq!(sprt.decide(2.0), Decision::Continue);
        assert_eq!(sprt.decide(3.0), Decision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), Decision::AcceptH0);
        // A clearly stronger engine crosses the upper bound.
        assert_eq!(sprt.decide(sprt.llr(200, 100, 100)), Decision::AcceptH1);
    }

    #[test]
    fn pentanomial_llr_matches_hand_computed_values() {
        let sprt = Sprt::parse("elo0=0 elo1=10").unwrap();
        // Reference values from an independent implementation of the same
        // projection over the pair scores 0, 1/4, 1/2, 3/4, 1.
        for (pairs, expected) in [
            ([14, 5, 147, 7, 27], 1.471_513),
            ([3, 0, 0, 0, 5], 0.054_267),
            ([0, 0, 10, 0, 0], -0.285_796),
            ([69, 55, 724, 49, 103], 2.430_172),
            ([0, 0, 0, 0, 40], 1.134_782),
        ] {
            let llr = sprt.pentanomial_llr(&pairs);
            assert!(close(llr, expected, 1e-5), "{pairs:?}: {llr}");
        }
        assert_eq!(sprt.pentanomial_llr(&[0; 5]), 0.0);
        let wide = Sprt::parse("elo0=0 elo1=50").unwrap();
        assert!(close(
            wide.pentanomial_llr(&[0, 0, 0, 0, 40]),
            5.343_920,
            1e-5
        ));
        // The same 2,000 games as one sample each: the pairs' split by the
        // seats is noise to the trinomial test, which stays undecided.
        assert!(sprt.llr(940, 182, 878) < 1.1);
    }

    #[test]
    fn sprt_parameters_parse_strictly() {
        let sprt = Sprt::parse("elo1=5, elo0=-1").unwrap();
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta),
            (-1.0, 5.0, 0.05, 0.05)
        );
        for (bad, why) in [
            ("", SprtError::MissingElo),
            ("elo0=0", SprtError::MissingElo),
            (
                "elo0=10 elo1=0",
                SprtError::EloOrder {
                    elo0: 10.0,
                    elo1: 0.0,
                },
            ),
            (
                "elo0=0 elo1=10 alpha=0",
                SprtError::Risks {
                    alpha: 0.0,
                    beta: 0.05,
                },
            ),
            (
                "elo0=0 elo1=10 alpha=0.6 beta=0.5",
                SprtError::Risks {
                    alpha: 0.6,
                    beta: 0.5,
                },
            ),
            (
                "elo0=0 elo1=x",
                SprtError::NotANumber {
                    key: "elo1".into(),
                    value: "x".into(),
                },
            ),
            (
                "elo0=0 elo1=10 gamma=1",
                SprtError::UnknownParameter("gamma".into()),
            ),
            ("elo0=0 elo0=1 elo1=2", SprtError::GivenTwice("elo0".into())),
            ("elo0", SprtError::NotKeyValue("elo0".into())),
        ] {
            assert_eq!(Sprt::parse(bad), Err(why), "{bad}");
        }
    }

    #[test]
    fn likelihood_of_superiority_is_a_probability() {
        assert_eq!(likelihood_of_superiority(0, 0), None);
        assert!(close(likelihood_of_superiority(10, 10).unwrap(), 0.5, 1e-7));
        assert!(close(
            likelihood_of_superiority(130, 70).unwrap(),
            0.999_988_95,
            1e-6
        ));
    }
}
