//! The protocol engine: [`pasang::protocol::LineDriver`] with its output
//! sent to the page a line at a time.
//!
//! The page calls `engine_input` for each line it receives and then
//! `engine_run`, which carries out what is queued. A search pauses every
//! few milliseconds (`pasang::host`); the page's `host.pause_for_page`
//! unwinds the call (binaryen's asyncify), lets the event loop deliver
//! more lines to `engine_input` (a `stop` acts at once), then resumes
//! `engine_run` where it was.

use std::io::Write;

use pasang::protocol::{LineDriver, Output};

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "host")]
unsafe extern "C" {
    /// Receives one output line (UTF-8, without its line end).
    fn write(ptr: *const u8, len: usize);
}

/// Hands each flushed line to the page.
struct PageWriter {
    line: Vec<u8>,
}

impl Write for PageWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.line.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        // `Output` writes a line and its '\n', then flushes.
        if self.line.last() == Some(&b'\n') {
            self.line.pop();
        }
        #[cfg(target_arch = "wasm32")]
        // SAFETY: the import reads `len` bytes at `ptr`, which live here.
        unsafe {
            write(self.line.as_ptr(), self.line.len())
        };
        self.line.clear();
        Ok(())
    }
}

thread_local! {
    static DRIVER: LineDriver = LineDriver::new(Output::to(Box::new(PageWriter { line: Vec::new() })));
}

/// Starts the engine (printing its banner) and seeds its randomness
/// (the skill levels' noise) from the page.
#[unsafe(no_mangle)]
pub extern "C" fn engine_start(seed_low: u32, seed_high: u32) {
    crate::seed(seed_low, seed_high);
    DRIVER.with(|_| {});
}

/// Takes one input line of `len` bytes at `ptr` (see `LineDriver::input`).
///
/// # Safety
/// `ptr` must be a buffer of at least `len` bytes from `pasang_alloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn engine_input(ptr: *const u8, len: usize) {
    // SAFETY: passed on from the caller.
    let line = unsafe { crate::read_text(ptr, len) };
    DRIVER.with(|driver| driver.input(&line));
}

/// Carries out the lines taken: 1 while the engine goes on, 0 once it has
/// carried out `quit`.
#[unsafe(no_mangle)]
pub extern "C" fn engine_run() -> u32 {
    DRIVER.with(|driver| u32::from(driver.run()))
}
