//! An iteration's games: each pair from its opening (the match runner's
//! rule-set cycle and seeded random plies, by the pair's global number),
//! once with the plus engine South and once North, refereed as `pasang
//! match` referees, at a fixed node count or under a clock. Worker threads
//! keep their two engine processes from batch to batch and only change
//! their options.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use super::state::{Batch, BatchResult, GameLimit, Run};
use crate::client::{ClientError, EngineSpec, MatchLimits, Protocol};
use crate::matches::referee::{self, RefereeSettings, Seat};
use crate::position::Player;
use crate::record::Termination;
use crate::schedule::openings::{OpeningError, OpeningPlan};
use crate::schedule::shard::Shard;

/// Why an iteration's games could not be played.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PlayError {
    /// The engine does not start or answer.
    #[error("engine '{command}': {error}")]
    Engine {
        command: String,
        #[source]
        error: ClientError,
    },
    /// The engine refused a tuned value (an engine without the hidden
    /// options, or a value out of its range).
    #[error("engine '{command}' refused a tuned value: {refusal}")]
    Refused { command: String, refusal: String },
    /// A pair's opening cannot be made.
    #[error("pair {pair}: {error}")]
    Opening {
        pair: u64,
        #[source]
        error: OpeningError,
    },
    /// A game ended by a forfeit (a crash, a stall or an illegal move;
    /// a loss on time without a clock): its result says nothing of the
    /// values.
    #[error("pair {pair}: {detail}")]
    Forfeit { pair: u64, detail: String },
    /// Stopped before the iteration ended.
    #[error("stopped")]
    Stopped,
}

/// The engines of every worker, [plus, minus] each.
pub(crate) struct Players {
    workers: Vec<[Seat; 2]>,
    settings: RefereeSettings,
    command: String,
    /// Whether the games have a clock: a loss on time is then a result
    /// of the time-use values, as OpenBench counts it.
    clock: bool,
}

impl Players {
    /// `concurrency` workers for the engine of `run` (started at the first
    /// batch).
    pub(crate) fn new(run: &Run, concurrency: usize) -> Players {
        let mut words = run.engine.split_whitespace().map(str::to_string);
        let program = words.next().unwrap_or_default();
        let args: Vec<String> = words.collect();
        let (limits, time_margin) = match run.limit {
            GameLimit::Nodes(nodes) => (
                MatchLimits {
                    nodes: Some(nodes),
                    ..MatchLimits::default()
                },
                Duration::ZERO,
            ),
            GameLimit::Clock { control, margin_ms } => (
                MatchLimits {
                    clock: Some(control),
                    ..MatchLimits::default()
                },
                Duration::from_millis(margin_ms),
            ),
        };
        let spec = |name: &str| EngineSpec {
            name: name.to_string(),
            program: program.clone(),
            args: args.clone(),
            protocol: Protocol::Uci,
            options: Vec::new(),
            limits,
        };
        Players {
            workers: (0..concurrency.max(1))
                .map(|_| {
                    [
                        Seat::new(spec("plus"), limits),
                        Seat::new(spec("minus"), limits),
                    ]
                })
                .collect(),
            settings: RefereeSettings {
                // Fixed-node moves: a bound only against a hung engine.
                move_ceiling: Duration::from_secs(120),
                time_margin,
                ..RefereeSettings::default()
            },
            command: run.engine.clone(),
            clock: matches!(run.limit, GameLimit::Clock { .. }),
        }
    }

    /// Plays the pairs of `batch` that `shard` has (all without one).
    pub(crate) fn play(
        &mut self,
        run: &Run,
        batch: &Batch,
        shard: Option<Shard>,
        stop: &AtomicBool,
    ) -> Result<BatchResult, PlayError> {
        let options = |plus: bool| -> Vec<(String, String)> {
            batch
                .values
                .iter()
                .map(|(name, p, m)| (name.to_string(), (if plus { p } else { m }).to_string()))
                .collect()
        };
        for seats in &mut self.workers {
            for (seat, plus) in seats.iter_mut().zip([true, false]) {
                let refused = seat
                    .configure(options(plus), &self.settings)
                    .map_err(|error| PlayError::Engine {
                        command: self.command.clone(),
                        error,
                    })?;
                if let Some(refusal) = refused.into_iter().next() {
                    return Err(PlayError::Refused {
                        command: self.command.clone(),
                        refusal,
                    });
                }
            }
        }
        let pairs: Vec<u64> = (batch.first..batch.first + batch.count)
            .filter(|pair| shard.is_none_or(|shard| shard.has(*pair)))
            .collect();
        let plan = OpeningPlan {
            rule_sets: run.rule_sets(),
            book: None,
            random_plies: run.random_plies,
            seed: run.seed,
        };
        let next = AtomicUsize::new(0);
        let outcome: Mutex<Result<BatchResult, PlayError>> = Mutex::new(Ok(BatchResult::default()));
        let failed = AtomicBool::new(false);
        let settings = &self.settings;
        let clock = self.clock;
        std::thread::scope(|scope| {
            for seats in &mut self.workers {
                let (pairs, plan, next, outcome, failed) =
                    (&pairs, &plan, &next, &outcome, &failed);
                scope.spawn(move || {
                    loop {
                        if failed.load(Ordering::SeqCst) || stop.load(Ordering::SeqCst) {
                            return;
                        }
                        let Some(&pair) = pairs.get(next.fetch_add(1, Ordering::SeqCst)) else {
                            return;
                        };
                        let played = play_pair(seats, plan, pair, settings, clock, stop);
                        let mut outcome = outcome.lock().unwrap_or_else(|p| p.into_inner());
                        match (played, outcome.as_mut()) {
                            (Ok(result), Ok(sum)) => sum.add(result),
                            (Err(error), Ok(_)) => {
                                *outcome = Err(error);
                                failed.store(true, Ordering::SeqCst);
                            }
                            (_, Err(_)) => {}
                        }
                    }
                });
            }
        });
        let outcome = outcome.into_inner().unwrap_or_else(|p| p.into_inner())?;
        if stop.load(Ordering::SeqCst) || outcome.pairs != pairs.len() as u64 {
            return Err(PlayError::Stopped);
        }
        Ok(outcome)
    }

    /// Quits every engine.
    pub(crate) fn shut_down(&mut self) {
        for seat in self.workers.iter_mut().flatten() {
            seat.shut_down();
        }
    }
}

/// One pair: the plus engine South, then North.
fn play_pair(
    seats: &mut [Seat; 2],
    plan: &OpeningPlan,
    pair: u64,
    settings: &RefereeSettings,
    clock: bool,
    stop: &AtomicBool,
) -> Result<BatchResult, PlayError> {
    let opening = plan
        .opening(pair as usize)
        .map_err(|error| PlayError::Opening { pair, error })?;
    let mut result = BatchResult {
        pairs: 1,
        ..BatchResult::default()
    };
    let [plus, minus] = seats;
    for plus_seat in [Player::South, Player::North] {
        let order = if plus_seat == Player::South {
            [&mut *plus, &mut *minus]
        } else {
            [&mut *minus, &mut *plus]
        };
        let game = referee::play(order, &opening, settings, stop).ok_or(PlayError::Stopped)?;
        let counts = clock && game.termination == Termination::TimeForfeit;
        if Termination::FORFEITS.contains(&game.termination) && !counts {
            return Err(PlayError::Forfeit {
                pair,
                detail: game.detail,
            });
        }
        match game.winner {
            None => result.draws += 1,
            Some(winner) if winner == plus_seat => result.wins += 1,
            Some(_) => result.losses += 1,
        }
    }
    Ok(result)
}
