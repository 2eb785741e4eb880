//! The optional game clock of play mode: time left per player, an
//! increment per move, and the flag. Time comes in as arguments, so the
//! clock is tested without waiting.

use std::time::Duration;

use crate::host::Instant;

use crate::position::Player;

/// Two players' clocks; at most one runs.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Clock {
    /// The time control: base time and increment.
    base: Duration,
    increment: Duration,
    /// Time left when each clock last stopped.
    left: [Duration; 2],
    /// The running clock and since when.
    running: Option<(Player, Instant)>,
    /// The player whose time ran out.
    flagged: Option<Player>,
}

impl Clock {
    /// Both clocks at `base`, stopped; `increment` is added per move.
    pub fn new(base: Duration, increment: Duration) -> Clock {
        Clock {
            base,
            increment,
            left: [base; 2],
            running: None,
            flagged: None,
        }
    }

    /// The same time control, both clocks full again.
    pub fn reset(&mut self) {
        *self = Clock::new(self.base, self.increment);
    }

    /// The base time and the increment.
    pub fn control(&self) -> (Duration, Duration) {
        (self.base, self.increment)
    }

    /// Time left for `player` at `now`.
    pub fn left(&self, player: Player, now: Instant) -> Duration {
        let stored = self.left[player.index()];
        match self.running {
            Some((runner, since)) if runner == player => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// The running clock's player.
    pub fn running(&self) -> Option<Player> {
        self.running.map(|(player, _)| player)
    }

    /// The player whose time ran out.
    pub fn flagged(&self) -> Option<Player> {
        self.flagged
    }

    /// Runs `player`'s clock (or none), charging the one that ran.
    pub fn run(&mut self, player: Option<Player>, now: Instant) {
        if self.flagged.is_some() || self.running() == player {
            return;
        }
        if let Some((runner, _)) = self.running {
            self.left[runner.index()] = self.left(runner, now);
        }
        self.running = player.map(|p| (p, now));
    }

    /// `player` has moved: its clock stops and gains the increment.
    pub fn moved(&mut self, player: Player, now: Instant) {
        if self.flagged.is_some() {
            return;
        }
        self.run(None, now);
        self.left[player.index()] += self.increment;
    }

    /// Flags the running player if its time is up; returns it.
    pub fn check(&mut self, now: Instant) -> Option<Player> {
        if let Some((runner, _)) = self.running
            && self.flagged.is_none()
            && self.left(runner, now).is_zero()
        {
            self.left[runner.index()] = Duration::ZERO;
            self.running = None;
            self.flagged = Some(runner);
        }
        self.flagged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_clock_is_charged_and_the_mover_gains_the_increment() {
        let start = Instant::now();
        let at = |ms| start + Duration::from_millis(ms);
        let mut clock = Clock::new(Duration::from_secs(10), Duration::from_secs(1));
        clock.run(Some(Player::South), at(0));
        assert_eq!(clock.left(Player::South, at(3000)), Duration::from_secs(7));
        clock.moved(Player::South, at(3000));
        assert_eq!(clock.left(Player::South, at(9000)), Duration::from_secs(8));
        clock.run(Some(Player::North), at(3000));
        assert_eq!(clock.check(at(12_000)), None);
        assert_eq!(clock.check(at(13_000)), Some(Player::North));
        assert_eq!(clock.left(Player::North, at(20_000)), Duration::ZERO);
        clock.run(Some(Player::South), at(14_000));
        assert_eq!(clock.running(), None, "a flagged clock stays stopped");
        clock.reset();
        assert_eq!(clock.flagged(), None);
        assert_eq!(clock.left(Player::North, at(0)), Duration::from_secs(10));
    }
}
