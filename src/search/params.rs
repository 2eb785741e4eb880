//! The search's tunable constants: margins, depths, the narrow-node width,
//! the aspiration window, the history bound and the time-use factors, each
//! with its default, range and tuning step, in one table.
//!
//! The engine takes them as hidden options (`setoption name FutilityMargin1
//! value 80`), not listed in the `uci` answer, as Stockfish's `TUNE()`
//! build does: they exist for the match runner's SPSA (`pasang tune
//! --spsa`, docs/spsa.md), and values it finds come back to [`TUNABLES`]
//! as plain defaults. A search copies its [`Params`] once, so reading them
//! costs what reading a constant does (docs/spsa.md: bench and nps).

/// One tunable constant: its option name, default, range and the
/// perturbation SPSA ends its run with (fishtest's `c_end`).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Tunable {
    /// The hidden option's name.
    pub name: &'static str,
    /// The value of the default build.
    pub default: i32,
    /// The smallest value allowed.
    pub min: i32,
    /// The largest value allowed.
    pub max: i32,
    /// SPSA's final perturbation (`c_end`), in the value's own units.
    pub step: i32,
    /// Whether fixed-node games can tune it (time-use factors need a
    /// clock).
    pub search: bool,
}

const fn tunable(name: &'static str, default: i32, min: i32, max: i32, step: i32) -> Tunable {
    Tunable {
        name,
        default,
        min,
        max,
        step,
        search: true,
    }
}

const fn timing(name: &'static str, default: i32, min: i32, max: i32, step: i32) -> Tunable {
    Tunable {
        search: false,
        ..tunable(name, default, min, max, step)
    }
}

/// Indices into [`TUNABLES`] and [`Params`].
pub(crate) mod index {
    /// The deepest node reverse futility may end.
    pub const FUTILITY_DEPTH: usize = 0;
    /// Reverse futility's margins per ply, by stage (four entries).
    pub const FUTILITY_MARGIN: usize = 1;
    /// The narrow-node width: this many moves or fewer.
    pub const NARROW_MOVES: usize = 5;
    /// The shallowest node ProbCut may end.
    pub const PROBCUT_DEPTH: usize = 6;
    /// ProbCut's margins beyond the bound, by stage (four entries).
    pub const PROBCUT_MARGIN: usize = 7;
    /// The aspiration window's first half-width.
    pub const ASPIRATION_DELTA: usize = 11;
    /// The bound of history values.
    pub const HISTORY_LIMIT: usize = 12;
    /// Percent of the soft time bound after which no iteration starts.
    pub const TIME_SOFT: usize = 13;
    /// The hard time bound, in percent of the soft one.
    pub const TIME_HARD: usize = 14;
    /// Percent of the increment added to a move's share.
    pub const TIME_INCREMENT: usize = 15;
    /// Stones per expected move left.
    pub const TIME_STONES_PER_MOVE: usize = 16;
    /// The soft share's scale, in percent, after 0 to 4 or more
    /// iterations with the same best move (five entries).
    pub const TIME_STABILITY: usize = 17;
    /// The soft share's scale, in percent, when the score fell by 100
    /// centipoints or more.
    pub const TIME_FALL_BIG: usize = 22;
    /// Likewise when it fell by 50 to 99.
    pub const TIME_FALL_SMALL: usize = 23;
    /// Stones left at which a game is usually decided (the endgame solve
    /// proves it): the clock is shared among the moves before.
    pub const TIME_DECIDED_STONES: usize = 24;
    /// The best move's share of the root's nodes, in percent, from which
    /// it stands alone.
    pub const TIME_EFFORT: usize = 25;
    /// The soft share's scale, in percent, when the best move stands
    /// alone.
    pub const TIME_EFFORT_SCALE: usize = 26;
    /// The soft share's scale, in percent, while an endgame within the
    /// solve's reach is not yet proven.
    pub const TIME_SOLVE_SCALE: usize = 27;
}

/// How many tunable constants there are.
pub const TUNABLE_COUNT: usize = 28;

/// Every tunable constant, in [`index`] order. The defaults are the
/// values measured in docs/strength.md; the ProbCut margins are the
/// fitted spreads (130, 125, 165, 210) times 3/2, as they were computed.
pub const TUNABLES: [Tunable; TUNABLE_COUNT] = [
    tunable("FutilityDepth", 6, 2, 12, 1),
    tunable("FutilityMargin1", 75, 10, 400, 10),
    tunable("FutilityMargin2", 95, 10, 400, 10),
    tunable("FutilityMargin3", 115, 10, 400, 10),
    tunable("FutilityMargin4", 140, 10, 400, 10),
    tunable("NarrowMoves", 3, 0, 8, 1),
    tunable("ProbCutDepth", 8, 3, 20, 1),
    tunable("ProbCutMargin1", 195, 40, 800, 20),
    tunable("ProbCutMargin2", 187, 40, 800, 20),
    tunable("ProbCutMargin3", 247, 40, 800, 20),
    tunable("ProbCutMargin4", 315, 40, 800, 20),
    tunable("AspirationDelta", 60, 5, 400, 8),
    tunable("HistoryLimit", 16384, 2048, 32000, 1500),
    timing("TimeSoftPercent", 60, 20, 150, 5),
    timing("TimeHardPercent", 300, 100, 600, 25),
    timing("TimeIncrementPercent", 75, 0, 100, 5),
    timing("TimeStonesPerMove", 8, 2, 20, 1),
    timing("TimeStability0", 140, 30, 250, 8),
    timing("TimeStability1", 115, 30, 250, 8),
    timing("TimeStability2", 100, 30, 250, 8),
    timing("TimeStability3", 85, 30, 250, 8),
    timing("TimeStability4", 70, 30, 250, 8),
    timing("TimeFallBig", 130, 100, 250, 5),
    timing("TimeFallSmall", 115, 100, 250, 5),
    timing("TimeDecidedStones", 0, 0, 60, 4),
    timing("TimeEffortPercent", 100, 50, 100, 3),
    timing("TimeEffortScale", 100, 30, 100, 5),
    timing("TimeSolveScale", 100, 50, 300, 10),
];

/// The index of the tunable named `name` (any case).
pub fn find(name: &str) -> Option<usize> {
    TUNABLES
        .iter()
        .position(|tunable| tunable.name.eq_ignore_ascii_case(name.trim()))
}

/// Why a value cannot be given to a tunable constant.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// No tunable has this name.
    #[error("unknown search parameter '{}'", crate::notation::shorten(.0))]
    Unknown(String),
    /// The value is outside the tunable's range.
    #[error("search parameter '{name}' value {given} is out of range {min}..{max}")]
    OutOfRange {
        /// The tunable's name.
        name: &'static str,
        /// The value given.
        given: i64,
        /// The smallest value allowed.
        min: i32,
        /// The largest value allowed.
        max: i32,
    },
}

/// One value for each tunable constant; [`Default`] is the build's.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Params {
    values: [i32; TUNABLE_COUNT],
}

impl Default for Params {
    fn default() -> Params {
        let mut values = [0; TUNABLE_COUNT];
        let mut i = 0;
        while i < TUNABLE_COUNT {
            values[i] = TUNABLES[i].default;
            i += 1;
        }
        Params { values }
    }
}

impl Params {
    /// The value of tunable `index`.
    #[inline(always)]
    pub(crate) fn get(&self, index: usize) -> i32 {
        self.values[index]
    }

    /// The value of the tunable named `name`.
    pub fn value(&self, name: &str) -> Result<i32, ParamError> {
        let index = find(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        Ok(self.values[index])
    }

    /// Sets tunable `index` (see [`find`]), within its range.
    pub fn set(&mut self, index: usize, value: i64) -> Result<(), ParamError> {
        let tunable = &TUNABLES[index];
        if value < i64::from(tunable.min) || value > i64::from(tunable.max) {
            return Err(ParamError::OutOfRange {
                name: tunable.name,
                given: value,
                min: tunable.min,
                max: tunable.max,
            });
        }
        self.values[index] = value as i32;
        Ok(())
    }

    /// A value of the per-stage tunables starting at `first`, for the
    /// stage of [`stage`].
    #[inline(always)]
    pub(crate) fn staged(&self, first: usize, stage: usize) -> i32 {
        self.values[first + (stage & 3)]
    }

    /// A percentage tunable as a fraction.
    pub(crate) fn fraction(&self, index: usize) -> f64 {
        f64::from(self.values[index]) / 100.0
    }
}

/// The stage of the game by stones on the board, for the per-stage
/// margins: under 30, 30-59, 60-89, 90 or more.
#[inline(always)]
pub(crate) const fn stage(stones: u32) -> usize {
    match stones {
        0..30 => 0,
        30..60 => 1,
        60..90 => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_defaults_in_range() {
        for (i, tunable) in TUNABLES.iter().enumerate() {
            assert!(tunable.min <= tunable.default && tunable.default <= tunable.max);
            assert!(tunable.step > 0 && tunable.step <= tunable.max - tunable.min);
            assert_eq!(find(tunable.name), Some(i));
            assert!(!tunable.name.contains([' ', ',', '=']), "{}", tunable.name);
        }
        assert_eq!(find("futilitymargin3"), Some(index::FUTILITY_MARGIN + 2));
        assert_eq!(find(" AspirationDelta "), Some(index::ASPIRATION_DELTA));
        assert_eq!(find("Hash"), None);
    }

    #[test]
    fn the_indices_name_their_entries() {
        let named = [
            (index::FUTILITY_DEPTH, "FutilityDepth"),
            (index::FUTILITY_MARGIN + 3, "FutilityMargin4"),
            (index::NARROW_MOVES, "NarrowMoves"),
            (index::PROBCUT_DEPTH, "ProbCutDepth"),
            (index::PROBCUT_MARGIN, "ProbCutMargin1"),
            (index::ASPIRATION_DELTA, "AspirationDelta"),
            (index::HISTORY_LIMIT, "HistoryLimit"),
            (index::TIME_SOFT, "TimeSoftPercent"),
            (index::TIME_HARD, "TimeHardPercent"),
            (index::TIME_INCREMENT, "TimeIncrementPercent"),
            (index::TIME_STONES_PER_MOVE, "TimeStonesPerMove"),
            (index::TIME_STABILITY + 4, "TimeStability4"),
            (index::TIME_FALL_BIG, "TimeFallBig"),
            (index::TIME_FALL_SMALL, "TimeFallSmall"),
            (index::TIME_DECIDED_STONES, "TimeDecidedStones"),
            (index::TIME_EFFORT, "TimeEffortPercent"),
            (index::TIME_EFFORT_SCALE, "TimeEffortScale"),
            (index::TIME_SOLVE_SCALE, "TimeSolveScale"),
        ];
        for (index, name) in named {
            assert_eq!(TUNABLES[index].name, name);
        }
    }

    #[test]
    fn set_checks_the_range() {
        let mut params = Params::default();
        let i = find("NarrowMoves").unwrap();
        params.set(i, 5).unwrap();
        assert_eq!(params.value("narrowmoves"), Ok(5));
        assert_eq!(
            params.set(i, 9),
            Err(ParamError::OutOfRange {
                name: "NarrowMoves",
                given: 9,
                min: 0,
                max: 8
            })
        );
        assert!(params.set(i, -1).is_err());
        assert!(params.set(i, i64::MAX).is_err());
        assert_eq!(params.get(i), 5, "a refused value leaves the old one");
        assert_eq!(
            params.value("Nope"),
            Err(ParamError::Unknown("Nope".into()))
        );
    }

    #[test]
    fn percentages_read_as_the_old_constants() {
        let params = Params::default();
        assert_eq!(params.fraction(index::TIME_SOFT), 0.6);
        assert_eq!(params.fraction(index::TIME_STABILITY), 1.4);
        assert_eq!(params.fraction(index::TIME_FALL_BIG), 1.3);
        assert_eq!(params.fraction(index::TIME_STABILITY + 3), 0.85);
    }
}
