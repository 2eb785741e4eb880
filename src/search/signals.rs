//! `stop` and `ponderhit` as they cross from the protocol's thread to the
//! search threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::Limits;

/// Cross-thread signals from the protocol: `stop` and `ponderhit` apply to
/// every search whose id is at most the stored one, so a `stop` received
/// while idle never cuts a later search short.
#[derive(Default)]
pub struct Signals {
    stop_up_to: AtomicU64,
    ponderhit_up_to: AtomicU64,
}

impl Signals {
    /// Stops searches up to `id`.
    pub fn stop(&self, id: u64) {
        self.stop_up_to.fetch_max(id, Ordering::Relaxed);
    }

    /// Ends pondering of searches up to `id`.
    pub fn ponderhit(&self, id: u64) {
        self.ponderhit_up_to.fetch_max(id, Ordering::Relaxed);
    }

    /// Whether search `id` was told to stop.
    #[inline(always)]
    pub fn stopped(&self, id: u64) -> bool {
        self.stop_up_to.load(Ordering::Relaxed) >= id
    }

    /// Whether search `id` had its ponderhit.
    #[inline(always)]
    pub fn ponderhit_received(&self, id: u64) -> bool {
        self.ponderhit_up_to.load(Ordering::Relaxed) >= id
    }

    /// Returns once search `id` may give its bestmove: infinite and ponder
    /// searches answer only after `stop` (or `ponderhit`), even when they
    /// finished early. Polls every millisecond; not for hot paths.
    pub(crate) fn wait_for_release(&self, limits: &Limits, id: u64) {
        while !self.stopped(id)
            && (limits.infinite || (limits.ponder && !self.ponderhit_received(id)))
        {
            crate::host::wait_a_moment();
        }
    }
}

/// The signals a search obeys and its id among them.
#[derive(Copy, Clone)]
pub struct Control<'a> {
    /// Where `stop` and `ponderhit` arrive.
    pub signals: &'a Signals,
    /// This search's id: signals for it or a later one apply.
    pub id: u64,
}

/// Stops the searches an engine runs for callers in this process
/// ([`crate::engine::Engine::search`]), from any thread: a stop reaches the
/// search running (or the last one), never a later one.
#[derive(Clone, Default)]
pub struct StopHandle {
    shared: Arc<StopShared>,
}

#[derive(Default)]
struct StopShared {
    signals: Signals,
    /// The id of the latest search started.
    latest: AtomicU64,
}

impl StopHandle {
    /// Stops the search now running, if any: it returns its best move so
    /// far as soon as it notices.
    pub fn stop(&self) {
        let latest = self.shared.latest.load(Ordering::SeqCst);
        self.shared.signals.stop(latest);
    }

    /// The control of a new search, numbered after every earlier one.
    pub(crate) fn next_search(&self) -> Control<'_> {
        let id = self.shared.latest.fetch_add(1, Ordering::SeqCst) + 1;
        Control {
            signals: &self.shared.signals,
            id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_apply_to_earlier_searches_only() {
        let signals = Signals::default();
        signals.stop(3);
        assert!(signals.stopped(2));
        assert!(signals.stopped(3));
        assert!(!signals.stopped(4));
    }

    #[test]
    fn a_stop_reaches_the_latest_search_only() {
        let handle = StopHandle::default();
        let first = handle.next_search();
        assert!(!first.signals.stopped(first.id));
        handle.stop();
        assert!(first.signals.stopped(first.id));
        let second = handle.next_search();
        assert!(!second.signals.stopped(second.id));
    }
}
