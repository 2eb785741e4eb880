//! The pasang engine and rules for the browser, behind a plain C interface:
//! text in and text out through linear memory, so a few dozen lines of
//! JavaScript (`web/js/`) drive it with no generated glue and no build tool
//! beyond cargo (docs/web.md says why).
//!
//! Two faces, as stockfish.wasm and ffish.js give:
//! - [`engine`]: the protocol engine, fed lines and printing the lines the
//!   native engine prints, through the page's `host.write` import;
//! - [`board`]: the rules as calls on a board held here (legal moves, play,
//!   undo, the position string, the result).
//!
//! Text crosses as UTF-8 bytes: the page writes an argument into a buffer
//! from [`pasang_alloc`], and reads a text answer from
//! [`pasang_text_ptr`]/[`pasang_text_len`].

pub mod board;
pub mod engine;
pub mod page;

use std::cell::RefCell;

thread_local! {
    /// The last text answer, read by the page right after the call.
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Seeds the engine's randomness (the skill levels' noise) with 64 bits
/// from the page's `crypto.getRandomValues`.
fn seed(low: u32, high: u32) {
    #[cfg(target_arch = "wasm32")]
    pasang::host::seed(u64::from(low) | (u64::from(high) << 32));
    // Natively (the crate's unit tests) the operating system seeds it.
    let _ = (low, high);
}

/// Keeps `text` as the answer the page reads next.
fn set_text(text: impl Into<String>) {
    TEXT.with(|kept| *kept.borrow_mut() = text.into());
}

/// Reads `len` bytes at `ptr` as text (lossily: the page sends UTF-8).
///
/// # Safety
/// `ptr` must be a buffer of at least `len` bytes from [`pasang_alloc`].
unsafe fn read_text(ptr: *const u8, len: usize) -> String {
    if len == 0 {
        return String::new();
    }
    // SAFETY: the caller passes a live buffer of `len` bytes.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// A buffer of `len` bytes for the page to write an argument into.
#[unsafe(no_mangle)]
pub extern "C" fn pasang_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Frees a buffer from [`pasang_alloc`].
///
/// # Safety
/// `ptr` and `len` must be what [`pasang_alloc`] gave and took.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pasang_free(ptr: *mut u8, len: usize) {
    // SAFETY: the buffer came from `pasang_alloc(len)`, never freed yet.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// Where the last text answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn pasang_text_ptr() -> *const u8 {
    TEXT.with(|kept| kept.borrow().as_ptr())
}

/// The last text answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn pasang_text_len() -> usize {
    TEXT.with(|kept| kept.borrow().len())
}

/// Puts the rule options in the text answer, one a line, from the one
/// table that spells them (`pasang::rules::RULE_OPTIONS`): the protocol
/// name, a tab, the values separated by commas, a tab, the default.
#[unsafe(no_mangle)]
pub extern "C" fn pasang_rule_options() {
    let lines: Vec<String> = pasang::rules::RULE_OPTIONS
        .iter()
        .map(|option| {
            format!(
                "{}\t{}\t{}",
                option.name,
                option.values.join(","),
                option.default
            )
        })
        .collect();
    set_text(lines.join("\n"));
}
