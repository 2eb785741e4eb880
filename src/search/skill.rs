//! Weaker play on request: `Skill Level` below 20 caps the depth and picks
//! among the best few root moves with a random error that grows as the
//! level falls, so lower levels miss more and bigger, the way a person
//! does, rather than playing random moves.

use super::Info;
use super::Score;

/// Full strength.
pub const MAX_LEVEL: u8 = 20;
/// Lines compared when choosing a weaker move.
pub const CANDIDATE_LINES: usize = 4;

/// Elo of measured levels on the engine's own scale: Skill Level 0 is the
/// anchor at 1000 and each step adds the Elo difference measured between
/// neighbouring levels (docs/strength.md). `UCI_Elo` maps onto it.
/// Measured at 50 ms a move, 100 games per pair: 5 vs 0 +276, 10 vs 5
/// +372, 15 vs 10 +252, 20 vs 15 +330 (each about +-100).
pub const LADDER: [(u8, i32); 5] = [(0, 1000), (5, 1241), (10, 1516), (15, 1741), (20, 2114)];

/// The lowest and highest `UCI_Elo`.
pub const fn elo_range() -> (i32, i32) {
    (LADDER[0].1, LADDER[LADDER.len() - 1].1)
}

/// The Skill Level whose measured Elo is nearest `elo`, interpolating
/// linearly between measured levels (clamped to the ladder).
pub fn level_for_elo(elo: i32) -> u8 {
    let (low, high) = elo_range();
    let elo = elo.clamp(low, high);
    for pair in LADDER.windows(2) {
        let ((level_a, elo_a), (level_b, elo_b)) = (pair[0], pair[1]);
        if elo <= elo_b {
            let span = (elo_b - elo_a).max(1) as f64;
            let fraction = (elo - elo_a) as f64 / span;
            return (level_a as f64 + fraction * (level_b - level_a) as f64).round() as u8;
        }
    }
    MAX_LEVEL
}

/// The deepest iteration a level searches.
pub fn depth_cap(level: u8) -> u32 {
    1 + level as u32 / 2
}

/// Centipoints of random error per candidate at this level.
fn error_scale(level: u8) -> i32 {
    (MAX_LEVEL.saturating_sub(level) as i32) * 40
}

fn comparable(score: Score) -> i32 {
    match score {
        Score::Centipoints(cp) => cp,
        Score::Mate(moves) if moves > 0 => 100_000 - moves,
        Score::Mate(moves) => -100_000 - moves,
    }
}

/// `count` numbers uniform in 0..1 drawn from `seed` (SplitMix64): the
/// noise of a seeded search, the same for the same seed everywhere.
pub fn seeded_noise(seed: u64, count: usize) -> Vec<f64> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

/// Index of the line to play among `lines` (best first), using `noise`
/// (uniform in 0..1, one per line) to perturb the scores.
pub fn choose(lines: &[Info], level: u8, noise: &[f64]) -> usize {
    if level >= MAX_LEVEL || lines.len() <= 1 {
        return 0;
    }
    let scale = error_scale(level) as f64;
    lines
        .iter()
        .zip(noise)
        .enumerate()
        .map(|(index, (line, random))| (index, comparable(line.score) as f64 + random * scale))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(0, |(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(cp: i32) -> Info {
        Info {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Centipoints(cp),
            nodes: 0,
            time_ms: 0,
            hashfull: 0,
            pv: Vec::new(),
        }
    }

    #[test]
    fn full_strength_plays_the_best_line() {
        let lines = [line(300), line(100)];
        assert_eq!(choose(&lines, 20, &[0.0, 1.0]), 0);
    }

    #[test]
    fn low_levels_can_err_but_never_by_a_mile() {
        let lines = [line(300), line(250), line(-900)];
        // The second line wins with favourable noise at level 0...
        assert_eq!(choose(&lines, 0, &[0.0, 1.0, 0.0]), 1);
        // ...but a line a whole 1200 cp worse never does.
        assert_ne!(choose(&lines, 0, &[0.0, 0.0, 1.0]), 2);
        assert!(depth_cap(0) < depth_cap(10) && depth_cap(10) < depth_cap(19));
    }

    #[test]
    fn seeded_noise_repeats_and_stays_in_range() {
        let noise = seeded_noise(7, 64);
        assert_eq!(noise, seeded_noise(7, 64));
        assert_ne!(noise, seeded_noise(8, 64));
        assert!(noise.iter().all(|x| (0.0..1.0).contains(x)));
    }

    #[test]
    fn elo_maps_onto_the_measured_ladder() {
        let (low, high) = elo_range();
        assert_eq!(level_for_elo(low - 500), 0);
        assert_eq!(level_for_elo(high + 500), MAX_LEVEL);
        for (level, elo) in LADDER {
            assert_eq!(level_for_elo(elo), level);
        }
        let mut previous = 0;
        for elo in (low..=high).step_by(25) {
            let level = level_for_elo(elo);
            assert!(level >= previous);
            previous = level;
        }
    }
}
