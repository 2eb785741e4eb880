//! The bounded queue between the reading thread and the engine thread.
//!
//! Input must never grow memory without bound, yet `stop`, `isready` and
//! `quit` must reach the engine while it works. The reader therefore
//! keeps reading and acts on those itself; every other command waits here
//! for the engine thread. The queue holds at most [`MAX_JOBS`] commands
//! and [`MAX_COST`] bytes' worth of them. When it is full the reader
//! waits for room (back-pressure through the input pipe) as long as the
//! engine thread only works through quick commands; while a long command
//! (a search, a perft, a bench) runs, waiting could hide a `stop` for
//! ever, so a line that does not fit is dropped and reported instead.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Most commands waiting at once.
pub const MAX_JOBS: usize = 10_000;
/// Most bytes' worth of commands waiting at once (see [`cost`]).
pub const MAX_COST: usize = 32 << 20;

/// What a queued line may hold in memory: its text and, per word, about
/// what a parsed word (a `String`) costs.
pub fn cost(line: &str) -> usize {
    64 + line.len() + 48 * line.split_whitespace().count()
}

/// Why [`JobQueue::push`] did not queue a job.
#[derive(Debug, Eq, PartialEq, thiserror::Error)]
pub enum PushError {
    /// Full while a long command runs: the job was dropped.
    #[error("the input queue is full behind a long command")]
    Full,
    /// The queue was closed (quit or end of input).
    #[error("the input queue is closed")]
    Closed,
}

struct State<T> {
    jobs: VecDeque<(T, usize)>,
    cost: usize,
    /// The id of the long command the engine thread runs, if any.
    long_running: Option<u64>,
    closed: bool,
}

/// A multi-producer, single-consumer queue bounded by count and cost.
pub struct JobQueue<T> {
    state: Mutex<State<T>>,
    /// Signalled when a job is queued, taken, or the state changes.
    changed: Condvar,
}

impl<T> Default for JobQueue<T> {
    fn default() -> Self {
        JobQueue {
            state: Mutex::new(State {
                jobs: VecDeque::new(),
                cost: 0,
                long_running: None,
                closed: false,
            }),
            changed: Condvar::new(),
        }
    }
}

impl<T> JobQueue<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Queues `job` of `cost` bytes. Waits while the queue is full and the
    /// engine thread runs quick commands or a long one that `stopped`
    /// says was stopped (it ends soon); fails with [`PushError::Full`]
    /// when it is full while a long command runs on. A job always fits an
    /// empty queue.
    pub fn push(
        &self,
        job: T,
        cost: usize,
        stopped: &dyn Fn(u64) -> bool,
    ) -> Result<(), PushError> {
        let mut state = self.lock();
        loop {
            if state.closed {
                return Err(PushError::Closed);
            }
            let fits = state.jobs.is_empty()
                || (state.jobs.len() < MAX_JOBS && state.cost + cost <= MAX_COST);
            if fits {
                state.cost += cost;
                state.jobs.push_back((job, cost));
                self.changed.notify_all();
                return Ok(());
            }
            if state.long_running.is_some_and(|id| !stopped(id)) {
                return Err(PushError::Full);
            }
            // A timeout, so a long command that starts meanwhile or a stop
            // is seen even if no one signals.
            state = self
                .changed
                .wait_timeout(state, Duration::from_millis(20))
                .unwrap_or_else(|poison| poison.into_inner())
                .0;
        }
    }

    /// Whether a job of `cost` bytes would go in now without waiting.
    pub fn has_room(&self, cost: usize) -> bool {
        let state = self.lock();
        state.jobs.is_empty() || (state.jobs.len() + 1 < MAX_JOBS && state.cost + cost <= MAX_COST)
    }

    /// Queues `job` whatever the bounds (the last job, `Quit`), then
    /// closes the queue to further pushes.
    pub fn push_last(&self, job: T) {
        let mut state = self.lock();
        state.jobs.push_back((job, 0));
        state.closed = true;
        self.changed.notify_all();
    }

    /// Takes the next job, waiting for one; `None` once the queue is
    /// closed and empty.
    pub fn pop(&self) -> Option<T> {
        let mut state = self.lock();
        loop {
            if let Some((job, cost)) = state.jobs.pop_front() {
                state.cost -= cost;
                self.changed.notify_all();
                return Some(job);
            }
            if state.closed {
                return None;
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(|poison| poison.into_inner());
        }
    }

    /// Marks the long command the engine thread runs (`None`: none).
    pub fn set_long_running(&self, running: Option<u64>) {
        let mut state = self.lock();
        state.long_running = running;
        self.changed.notify_all();
    }

    /// Commands waiting.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().jobs.len()
    }

    /// Whether no command waits.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn never(_: u64) -> bool {
        false
    }

    #[test]
    fn jobs_come_out_in_order_and_the_queue_closes() {
        let queue = JobQueue::default();
        queue.push(1, 10, &never).unwrap();
        queue.push(2, 10, &never).unwrap();
        queue.push_last(3);
        assert_eq!(queue.push(4, 10, &never), Err(PushError::Closed));
        assert_eq!(queue.pop(), Some(1));
        assert_eq!(queue.pop(), Some(2));
        assert_eq!(queue.pop(), Some(3));
        assert_eq!(queue.pop(), None);
    }

    #[test]
    fn a_full_queue_drops_while_a_long_command_runs() {
        let queue = JobQueue::default();
        queue.set_long_running(Some(1));
        for job in 0..MAX_JOBS {
            queue.push(job, 1, &never).unwrap();
        }
        assert_eq!(queue.push(0, 1, &never), Err(PushError::Full));
        assert_eq!(queue.len(), MAX_JOBS);
        // By cost too; an oversized job still fits an empty queue.
        let queue = JobQueue::default();
        queue.set_long_running(Some(1));
        queue.push(0, MAX_COST + 1, &never).unwrap();
        assert_eq!(queue.push(1, 1, &never), Err(PushError::Full));
        assert_eq!(queue.pop(), Some(0));
        assert!(queue.is_empty());
        queue.push(1, MAX_COST, &never).unwrap();
        // Full behind a stopped long command: waits for room instead.
        let queue = Arc::new(JobQueue::default());
        queue.set_long_running(Some(7));
        for job in 0..MAX_JOBS {
            queue.push(job, 1, &never).unwrap();
        }
        let consumer = {
            let queue = Arc::clone(&queue);
            std::thread::spawn(move || queue.pop())
        };
        queue.push(MAX_JOBS, 1, &|id| id <= 7).unwrap();
        assert_eq!(consumer.join().unwrap(), Some(0));
    }

    #[test]
    fn a_full_queue_waits_while_quick_commands_run() {
        let queue = Arc::new(JobQueue::default());
        for job in 0..MAX_JOBS {
            queue.push(job, 1, &never).unwrap();
        }
        let consumer = {
            let queue = Arc::clone(&queue);
            std::thread::spawn(move || {
                let mut taken = Vec::new();
                while let Some(job) = queue.pop() {
                    taken.push(job);
                }
                taken
            })
        };
        // Blocks until the consumer makes room, then goes in.
        queue.push(MAX_JOBS, 1, &never).unwrap();
        queue.push_last(MAX_JOBS + 1);
        let taken = consumer.join().unwrap();
        assert_eq!(taken, (0..MAX_JOBS + 2).collect::<Vec<_>>());
    }

    #[test]
    fn cost_counts_words() {
        assert_eq!(cost(""), 64);
        assert_eq!(cost("go depth 3"), 64 + 10 + 3 * 48);
    }
}
