//! Zobrist keys, generated at compile time from a fixed seed so every
//! build hashes identically (bench node counts depend on it).

use crate::bitboard::POINT_COUNT;

/// Largest score difference either way: scores of a hand-set position go
/// up to 180 each, and the stones add at most 180 more.
pub const MAX_SCORE_DIFFERENCE: usize = 360;

/// All the random keys a position key is made of.
pub struct Keys {
    /// Per stone colour (white, black) and point.
    pub stone: [[u64; POINT_COUNT]; 2],
    /// Per player (South, North) and point.
    pub ka: [[u64; POINT_COUNT]; 2],
    /// Per player and passage file.
    pub passage: [[u64; 11]; 2],
    /// Per score difference South minus North, offset by 360.
    pub score_difference: [u64; 2 * MAX_SCORE_DIFFERENCE + 1],
    /// Present when North is to move.
    pub north_to_move: u64,
}

const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The keys.
pub static KEYS: Keys = {
    let mut state = 0x5041_5341_4e47_u64; // "PASANG"
    let mut keys = Keys {
        stone: [[0; POINT_COUNT]; 2],
        ka: [[0; POINT_COUNT]; 2],
        passage: [[0; 11]; 2],
        score_difference: [0; 2 * MAX_SCORE_DIFFERENCE + 1],
        north_to_move: 0,
    };
    let mut side = 0;
    while side < 2 {
        let mut point = 0;
        while point < POINT_COUNT {
            keys.stone[side][point] = splitmix64(&mut state);
            keys.ka[side][point] = splitmix64(&mut state);
            point += 1;
        }
        let mut file = 0;
        while file < 11 {
            keys.passage[side][file] = splitmix64(&mut state);
            file += 1;
        }
        side += 1;
    }
    let mut difference = 0;
    while difference < keys.score_difference.len() {
        keys.score_difference[difference] = splitmix64(&mut state);
        difference += 1;
    }
    keys.north_to_move = splitmix64(&mut state);
    keys
};

/// The key of a score difference (South minus North), clamped to the
/// range the stones allow.
#[inline(always)]
pub fn score_difference_key(difference: i32) -> u64 {
    let clamped = difference.clamp(-(MAX_SCORE_DIFFERENCE as i32), MAX_SCORE_DIFFERENCE as i32);
    KEYS.score_difference[(clamped + MAX_SCORE_DIFFERENCE as i32) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.stone.iter().flatten().copied().collect();
        all.extend(KEYS.ka.iter().flatten());
        all.extend(KEYS.passage.iter().flatten());
        all.extend(KEYS.score_difference);
        all.push(KEYS.north_to_move);
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
    }
}
