//! What the platform gives the engine: a clock, the date, randomness, and
//! (in a browser) a moment for the page to speak.
//!
//! Natively these are the standard library's `Instant` and `SystemTime`
//! and the operating system's randomness, and a pause is nothing. On
//! `wasm32-unknown-unknown` the standard library has no clock
//! (`Instant::now` and `SystemTime::now` panic: a trap, `unreachable`, that
//! kills the Web Worker) and no randomness, and a search that never
//! returns would deafen the Worker it runs in; there the page supplies all
//! of them through imports (`web/js/pasang.mjs` defines them), and the
//! random stream is seeded by the page. Every clock and date of the crate
//! goes through here.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use wasm::Instant;

/// The time since 1970-01-01 00:00 UTC (zero if the clock is before it):
/// the records' `Date` tag, the debug log's stamps, a match's seed.
#[cfg(not(target_arch = "wasm32"))]
pub fn unix_time() -> std::time::Duration {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
}

/// The time since 1970-01-01 00:00 UTC (zero if the clock is before it):
/// the page's `Date.now()`.
#[cfg(target_arch = "wasm32")]
pub fn unix_time() -> std::time::Duration {
    wasm::unix_time()
}

/// A uniformly random number in `0.0..1.0` (the skill levels' noise).
#[cfg(not(target_arch = "wasm32"))]
pub fn random_unit() -> f64 {
    rand::random_range(0.0..1.0)
}

/// A uniformly random number in `0.0..1.0` (the skill levels' noise).
#[cfg(target_arch = "wasm32")]
pub fn random_unit() -> f64 {
    wasm::random_unit()
}

/// Lets the page handle what it has received, when enough time has passed
/// since the last pause; natively nothing (the protocol reads input on a
/// thread of its own). Called by the search every few hundred nodes.
#[inline(always)]
pub fn pause_if_due() {
    #[cfg(target_arch = "wasm32")]
    wasm::pause_if_due();
}

/// Waits a moment for a `stop` or `ponderhit` from another thread (or, in
/// a browser, from the page).
pub fn wait_a_moment() {
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(std::time::Duration::from_millis(1));
    #[cfg(target_arch = "wasm32")]
    wasm::pause();
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::ops::{Add, Sub};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    #[link(wasm_import_module = "host")]
    unsafe extern "C" {
        /// Milliseconds on a monotonic clock (`performance.now()`).
        fn now_ms() -> f64;
        /// Milliseconds since 1970-01-01 UTC (`Date.now()`).
        fn date_now_ms() -> f64;
        /// Suspends the running call until the page's event loop has run
        /// (asyncify unwinds and rewinds the stack around it).
        fn pause_for_page();
    }

    /// How long the search runs between pauses: `stop` is heard within
    /// about this long, and each pause costs a turn of the event loop.
    const SLICE_MS: f64 = 20.0;

    /// A point in time: the time since the page's time origin.
    #[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// The current time.
        pub fn now() -> Instant {
            // SAFETY: an import with no arguments that returns a number.
            let ms = unsafe { now_ms() };
            Instant(Duration::from_secs_f64(ms.max(0.0) / 1000.0))
        }

        /// Time passed since this instant (zero if the clock went back).
        pub fn elapsed(&self) -> Duration {
            Instant::now() - *self
        }

        /// Time from `earlier` to this instant (zero if it is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            *self - earlier
        }

        /// Time from `earlier` to this instant (zero if it is later).
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            *self - earlier
        }

        fn millis(self) -> f64 {
            self.0.as_secs_f64() * 1000.0
        }
    }

    impl Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, duration: Duration) -> Instant {
            Instant(self.0.saturating_add(duration))
        }
    }

    pub(super) fn unix_time() -> Duration {
        // SAFETY: an import with no arguments that returns a number.
        let ms = unsafe { date_now_ms() };
        if ms.is_finite() && ms > 0.0 {
            Duration::from_secs_f64(ms / 1000.0)
        } else {
            Duration::ZERO
        }
    }

    /// The random stream's state (splitmix64); the page seeds it.
    static RANDOM_STATE: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);

    /// Seeds the random stream (from the page's `crypto.getRandomValues`).
    pub fn seed(seed: u64) {
        RANDOM_STATE.store(seed, Ordering::Relaxed);
    }

    pub(super) fn random_unit() -> f64 {
        let state = RANDOM_STATE
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// When the last pause ended (milliseconds, as `now_ms`).
    static LAST_PAUSE: AtomicU64 = AtomicU64::new(0);

    pub(super) fn pause_if_due() {
        let now = Instant::now().millis();
        if now - f64::from_bits(LAST_PAUSE.load(Ordering::Relaxed)) >= SLICE_MS {
            pause();
        }
    }

    pub(super) fn pause() {
        // SAFETY: an import with no arguments; the page resumes the call.
        unsafe { pause_for_page() };
        LAST_PAUSE.store(Instant::now().millis().to_bits(), Ordering::Relaxed);
    }
}

#[cfg(target_arch = "wasm32")]
pub use wasm::seed;
