//! The board page's session with its engine (`pasang::browser::InProcessBoard`),
//! for the static site's Web Worker: the page's JSON messages in, the
//! session's messages out, as over `pasang gui`'s WebSocket.

use pasang::browser::InProcessBoard;

thread_local! {
    static BOARD: InProcessBoard = InProcessBoard::new();
}

/// Starts the session (its first messages wait for `page_take`), seeding
/// the engine's randomness from the page.
#[unsafe(no_mangle)]
pub extern "C" fn page_start(seed_low: u32, seed_high: u32) {
    crate::seed(seed_low, seed_high);
    BOARD.with(|_| {});
}

/// Handles the page's message of `len` bytes at `ptr` (may pause).
///
/// # Safety
/// `ptr` must be a buffer of at least `len` bytes from `pasang_alloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn page_message(ptr: *const u8, len: usize) {
    // SAFETY: passed on from the caller.
    let text = unsafe { crate::read_text(ptr, len) };
    BOARD.with(|board| board.on_page(&text));
}

/// Looks at the clock and passes on what the engine said (may pause).
#[unsafe(no_mangle)]
pub extern "C" fn page_tick() {
    BOARD.with(InProcessBoard::tick);
}

/// Puts the messages for the page in the text answer, one a line
/// (JSON has no raw line ends); returns how many.
#[unsafe(no_mangle)]
pub extern "C" fn page_take() -> u32 {
    let messages = BOARD.with(InProcessBoard::take_page);
    crate::set_text(messages.join("\n"));
    messages.len() as u32
}

/// Puts the players' rules page (HTML, as `pasang gui` serves it at `/rules`) in
/// the text answer, for the site's build.
#[unsafe(no_mangle)]
pub extern "C" fn page_rules() {
    crate::set_text(pasang::browser::rules_page());
}

/// Puts the rules' specification (HTML, as `pasang gui` serves it at
/// `/rules/spec`) in the text answer, for the site's build.
#[unsafe(no_mangle)]
pub extern "C" fn page_rules_spec() {
    crate::set_text(pasang::browser::rules_spec());
}

/// Puts the rules page's picture at `path` (as under `/rules/`) in the
/// text answer: 0, or -1 when there is none.
///
/// # Safety
/// `ptr` must be a buffer of at least `len` bytes from `pasang_alloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn page_rules_picture(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: passed on from the caller.
    let path = unsafe { crate::read_text(ptr, len) };
    match pasang::browser::rules_picture(&path) {
        Some(svg) => {
            crate::set_text(svg);
            0
        }
        None => -1,
    }
}
