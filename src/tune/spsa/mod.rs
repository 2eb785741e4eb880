//! SPSA (simultaneous perturbation stochastic approximation) over the
//! search's tunable constants ([`crate::search::params`]), as fishtest and
//! OpenBench run it.
//!
//! A run is a number of game pairs. Each iteration (a batch of pairs) takes
//! the current values θ, draws a sign ±1 for every tuned constant, and
//! plays pairs between an engine at θ + c_k·sign and one at θ − c_k·sign
//! (every constant perturbed at once). With R the batch's wins minus
//! losses of the plus engine, every constant moves by a_k / c_k · R · sign.
//! The gains decay on fishtest's schedule, k counting pairs from 1 and N
//! the run's pairs: c_k = c / k^γ, a_k = a / (A + k)^α, with γ = 0.101,
//! α = 0.602, A = N/10, and per constant c = c_end · N^γ and
//! a = r_end · c_end² · (A + N)^α, so the perturbation ends at the
//! constant's `c_end` (its tuning step) and the step at r_end.
//!
//! The parts: this file (the schedule, the perturbation and the update),
//! `state` (the run as a small text file, written after every batch, and
//! the log), `play` (a batch's games) and `shard` (one shard's results of a
//! batch, and their merge into one update).

pub(crate) mod play;
pub(crate) mod shard;
pub(crate) mod state;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

use crate::search::TUNABLES;

/// Fishtest's exponents and the share of the run taken as A.
pub(crate) const ALPHA: f64 = 0.602;
/// The perturbation's decay exponent.
pub(crate) const GAMMA: f64 = 0.101;
/// A as a share of the run's pairs.
pub(crate) const A_SHARE: f64 = 0.1;
/// Fishtest's default learning rate at the end of a run.
pub(crate) const R_END: f64 = 0.002;

/// One tuned constant: which tunable, its current value θ (a real number;
/// the engine gets it rounded) and its final perturbation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tuned {
    /// Index into [`TUNABLES`].
    pub index: usize,
    /// θ.
    pub value: f64,
    /// c_end.
    pub c_end: f64,
}

impl Tuned {
    pub(crate) fn name(&self) -> &'static str {
        TUNABLES[self.index].name
    }

    fn bounds(&self) -> (f64, f64) {
        let tunable = &TUNABLES[self.index];
        (f64::from(tunable.min), f64::from(tunable.max))
    }
}

/// The schedule of a run: its length and gains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Schedule {
    /// N, the run's pairs.
    pub pairs: u64,
    /// α.
    pub alpha: f64,
    /// γ.
    pub gamma: f64,
    /// A.
    pub big_a: f64,
    /// r_end.
    pub r_end: f64,
}

impl Schedule {
    /// Fishtest's schedule for a run of `pairs` pairs.
    pub(crate) fn fishtest(pairs: u64, r_end: f64) -> Schedule {
        Schedule {
            pairs,
            alpha: ALPHA,
            gamma: GAMMA,
            big_a: A_SHARE * pairs as f64,
            r_end,
        }
    }

    /// c_k of a constant with final perturbation `c_end`, at pair `k` (from
    /// 1).
    pub(crate) fn c(&self, c_end: f64, k: u64) -> f64 {
        let n = self.pairs.max(1) as f64;
        c_end * n.powf(self.gamma) / (k.max(1) as f64).powf(self.gamma)
    }

    /// a_k of a constant with final perturbation `c_end`, at pair `k`.
    pub(crate) fn a(&self, c_end: f64, k: u64) -> f64 {
        let n = self.pairs.max(1) as f64;
        let a = self.r_end * c_end * c_end * (self.big_a + n).powf(self.alpha);
        a / (self.big_a + k.max(1) as f64).powf(self.alpha)
    }
}

/// The signs of one iteration: a fixed function of the run's seed and the
/// first pair of the batch, so every shard of an iteration draws the same.
pub(crate) fn signs(seed: u64, first_pair: u64, count: usize) -> Vec<f64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
        seed ^ first_pair
            .wrapping_add(1)
            .wrapping_mul(0xD1B5_4A32_D192_ED03),
    );
    (0..count)
        .map(|_| if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 })
        .collect()
}

/// The engines' values of one iteration: θ ± c_k·sign, rounded and kept in
/// range, as `(name, plus, minus)`.
pub(crate) fn perturbed(
    tuned: &[Tuned],
    schedule: &Schedule,
    signs: &[f64],
    k: u64,
) -> Vec<(&'static str, i32, i32)> {
    tuned
        .iter()
        .zip(signs)
        .map(|(t, sign)| {
            let (min, max) = t.bounds();
            let c = schedule.c(t.c_end, k) * sign;
            let round = |x: f64| x.round().clamp(min, max) as i32;
            (t.name(), round(t.value + c), round(t.value - c))
        })
        .collect()
}

/// Moves every constant by a_k / c_k · `result` · sign, within its range.
pub(crate) fn update(tuned: &mut [Tuned], schedule: &Schedule, signs: &[f64], k: u64, result: i64) {
    for (t, sign) in tuned.iter_mut().zip(signs) {
        let (min, max) = t.bounds();
        let step = schedule.a(t.c_end, k) / schedule.c(t.c_end, k) * result as f64 * sign;
        t.value = (t.value + step).clamp(min, max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::find;

    fn tuned(name: &str) -> Tuned {
        let index = find(name).unwrap();
        Tuned {
            index,
            value: f64::from(TUNABLES[index].default),
            c_end: f64::from(TUNABLES[index].step),
        }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let schedule = Schedule::fishtest(1000, R_END);
        assert_eq!(schedule.big_a, 100.0);
        assert!((schedule.c(10.0, 1000) - 10.0).abs() < 1e-9);
        // c starts at c_end N^γ: 10 x 1000^0.101 = 20.09.
        assert!((schedule.c(10.0, 1) - 20.09).abs() < 0.01);
        // a_N / c_N² is r_end.
        let r = schedule.a(10.0, 1000) / schedule.c(10.0, 1000).powi(2);
        assert!((r - R_END).abs() < 1e-12);
        // Both decay.
        assert!(schedule.a(10.0, 1) > schedule.a(10.0, 500));
        assert!(schedule.c(10.0, 1) > schedule.c(10.0, 500));
    }

    #[test]
    fn signs_depend_on_the_seed_and_the_batch_only() {
        assert_eq!(signs(7, 16, 12), signs(7, 16, 12));
        assert_ne!(signs(7, 16, 64), signs(7, 24, 64));
        assert_ne!(signs(7, 16, 64), signs(8, 16, 64));
        assert!(signs(1, 0, 64).iter().all(|s| *s == 1.0 || *s == -1.0));
        let plus = signs(1, 0, 1000).iter().filter(|s| **s > 0.0).count();
        assert!((400..600).contains(&plus), "{plus}");
    }

    #[test]
    fn perturbation_is_symmetric_and_stays_in_range() {
        let schedule = Schedule::fishtest(100, R_END);
        let mut near_edge = tuned("NarrowMoves");
        near_edge.value = 8.0;
        let values = perturbed(
            &[tuned("FutilityMargin1"), near_edge],
            &schedule,
            &[1.0, 1.0],
            1,
        );
        let (name, plus, minus) = values[0];
        assert_eq!(name, "FutilityMargin1");
        let c = schedule.c(10.0, 1);
        assert_eq!(plus, (75.0 + c).round() as i32);
        assert_eq!(minus, (75.0 - c).round() as i32);
        assert_eq!(values[1].1, 8, "clamped to the range's top");
        assert!(values[1].2 < 8);
    }

    #[test]
    fn the_update_follows_the_result_and_the_sign() {
        let schedule = Schedule::fishtest(100, 0.01);
        let mut values = vec![tuned("FutilityMargin1"), tuned("AspirationDelta")];
        update(&mut values, &schedule, &[1.0, -1.0], 1, 3);
        assert!(values[0].value > 75.0, "plus won: toward plus");
        assert!(values[1].value < 60.0, "plus won, sign -1: toward minus");
        let step = schedule.a(10.0, 1) / schedule.c(10.0, 1) * 3.0;
        assert!((values[0].value - 75.0 - step).abs() < 1e-9);
        let before = values.clone();
        update(&mut values, &schedule, &[1.0, -1.0], 2, 0);
        assert_eq!(values, before, "an even batch moves nothing");
        // A huge result stops at the range.
        update(&mut values, &schedule, &[1.0, 1.0], 3, 1_000_000);
        assert_eq!(values[0].value, 400.0);
    }
}
