//! How long engines may think: the time control and the other `go` limits
//! of a match, the `go` they make, and the deadline of each move.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::protocol::GoParams;

/// A game clock: base time and increment per move, in milliseconds.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct TimeControl {
    /// Time on each clock at the start of a game.
    pub base_ms: u64,
    /// Time added to a clock after each of its moves.
    pub increment_ms: u64,
}

/// Seconds (possibly fractional) as milliseconds; `None` if not a finite,
/// non-negative number of at most a day's worth.
fn seconds_to_ms(text: &str) -> Option<u64> {
    let seconds: f64 = text.trim().parse().ok()?;
    (seconds.is_finite() && (0.0..=86_400.0).contains(&seconds))
        .then(|| (seconds * 1000.0).round() as u64)
}

/// Milliseconds printed as seconds without needless zeros (`1500` → `1.5`).
fn ms_to_seconds(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Why a time control does not parse; each variant keeps the text given.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum TimeControlError {
    /// Not `<seconds>[+<increment seconds>]` with each part a number of
    /// seconds from 0 to a day.
    #[error("invalid time control '{0}' (expected <seconds>+<increment>, e.g. 10+0.1)")]
    Invalid(String),
    /// The base time is zero.
    #[error("time control '{0}' gives no time")]
    NoTime(String),
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `<seconds>[+<increment seconds>]`, e.g. `10+0.1` or `60`.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let bad = || TimeControlError::Invalid(text.to_string());
        let base_ms = seconds_to_ms(base).ok_or_else(bad)?;
        let increment_ms = seconds_to_ms(increment).ok_or_else(bad)?;
        if base_ms == 0 {
            return Err(TimeControlError::NoTime(text.to_string()));
        }
        Ok(TimeControl {
            base_ms,
            increment_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            ms_to_seconds(self.base_ms),
            ms_to_seconds(self.increment_ms)
        )
    }
}

/// All the limits of a match; any combination may be given, and each one
/// goes into every `go`.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct MatchLimits {
    /// A clock per player.
    pub clock: Option<TimeControl>,
    /// A fixed time per move, in milliseconds.
    pub movetime: Option<u64>,
    /// A fixed depth.
    pub depth: Option<u32>,
    /// A fixed number of nodes.
    pub nodes: Option<u64>,
}

impl MatchLimits {
    /// Whether no limit was given at all.
    pub fn is_empty(&self) -> bool {
        *self == MatchLimits::default()
    }

    /// The `go` for a move under these (the mover's) limits, given the
    /// clock times and increments of South and North in milliseconds
    /// (sent only when the mover has a clock).
    pub fn go(&self, remaining: [u64; 2], increments: [u64; 2]) -> GoParams {
        // wtime (p1time) is South's clock and btime (p2time) North's, as
        // chess GUIs send them; pasang also takes stime/ntime.
        let clock = self.clock.is_some();
        GoParams {
            time: remaining.map(|ms| clock.then_some(ms)),
            increment: increments.map(|ms| clock.then_some(ms)),
            movetime: self.movetime,
            depth: self.depth,
            nodes: self.nodes,
            ..GoParams::default()
        }
    }

    /// How long the mover may take before it loses on time: its clock or
    /// the movetime, whichever is shorter, plus `margin`. With neither,
    /// `ceiling` bounds the wait so that a hung engine cannot hang the
    /// match.
    pub fn allowed(&self, remaining: u64, margin: Duration, ceiling: Duration) -> Duration {
        let clock = self.clock.map(|_| remaining);
        match (clock, self.movetime) {
            (None, None) => ceiling,
            (Some(a), Some(b)) => Duration::from_millis(a.min(b)) + margin,
            (Some(t), None) | (None, Some(t)) => Duration::from_millis(t) + margin,
        }
    }

    /// The limits as one short text for reports and the `TimeControl`
    /// tag: `10+0.1`, `movetime=50`, `depth=2`, `nodes=1000`, joined by
    /// spaces.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(clock) = self.clock {
            parts.push(clock.to_string());
        }
        if let Some(movetime) = self.movetime {
            parts.push(format!("movetime={movetime}"));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth={depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::{Protocol, line};
    use crate::protocol::Command;

    #[test]
    fn time_controls_parse_and_print() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.base_ms, 10_000);
        assert_eq!(tc.increment_ms, 100);
        assert_eq!(tc.to_string(), "10+0.1");
        let tc: TimeControl = "0.5".parse().unwrap();
        assert_eq!((tc.base_ms, tc.increment_ms), (500, 0));
        assert_eq!(tc.to_string(), "0.5+0");
        assert_eq!("60+1".parse::<TimeControl>().unwrap().to_string(), "60+1");
    }

    #[test]
    fn bad_time_controls_are_errors() {
        for bad in [
            "", "+1", "x+1", "10+", "10+y", "-1+0", "inf", "nan+0", "1e9",
        ] {
            assert_eq!(
                bad.parse::<TimeControl>(),
                Err(TimeControlError::Invalid(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(
            "0+1".parse::<TimeControl>(),
            Err(TimeControlError::NoTime("0+1".into()))
        );
    }

    #[test]
    fn go_lines_carry_every_limit() {
        let limits = MatchLimits {
            clock: Some("2+0.05".parse().unwrap()),
            movetime: Some(300),
            depth: Some(4),
            nodes: Some(1000),
        };
        let go = |limits: &MatchLimits, protocol| {
            line(&Command::Go(limits.go([1500, 1800], [50, 60])), protocol)
        };
        assert_eq!(
            go(&limits, Protocol::Uci),
            "go wtime 1500 btime 1800 winc 50 binc 60 movetime 300 depth 4 nodes 1000"
        );
        assert_eq!(
            go(&limits, Protocol::Ugi),
            "go p1time 1500 p2time 1800 p1inc 50 p2inc 60 movetime 300 depth 4 nodes 1000"
        );
        assert_eq!(limits.describe(), "2+0.05 movetime=300 depth=4 nodes=1000");
        let depth_only = MatchLimits {
            depth: Some(2),
            ..MatchLimits::default()
        };
        assert_eq!(go(&depth_only, Protocol::Ugi), "go depth 2");
    }

    #[test]
    fn allowed_time_is_the_tighter_bound_plus_margin() {
        let margin = Duration::from_millis(5);
        let ceiling = Duration::from_secs(60);
        let movetime = MatchLimits {
            movetime: Some(50),
            ..MatchLimits::default()
        };
        assert_eq!(
            movetime.allowed(0, margin, ceiling),
            Duration::from_millis(55)
        );
        let both = MatchLimits {
            clock: Some("1+0".parse().unwrap()),
            movetime: Some(50),
            ..MatchLimits::default()
        };
        assert_eq!(both.allowed(20, margin, ceiling), Duration::from_millis(25));
        assert_eq!(MatchLimits::default().allowed(20, margin, ceiling), ceiling);
    }
}
