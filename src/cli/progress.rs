//! A one-line progress display on stderr, drawn only when stderr is a
//! terminal: piped or redirected runs stay silent, so logs and scripts see
//! only the results.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

/// Longest progress line; longer text is cut so the line never wraps on
/// an ordinary terminal (wrapped lines cannot be redrawn with `\r`).
const WIDTH: usize = 79;

/// A redrawable status line on stderr.
pub struct Progress {
    enabled: bool,
    /// Whether a line is on screen (and must be erased before other
    /// output).
    drawn: Mutex<bool>,
}

impl Progress {
    /// Progress on stderr if it is a terminal, otherwise none.
    pub fn stderr() -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            drawn: Mutex::new(false),
        }
    }

    /// Whether anything will be drawn.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Replaces the status line with `text`.
    pub fn show(&self, text: &str) {
        if !self.enabled {
            return;
        }
        let mut drawn = self.drawn.lock().unwrap_or_else(|p| p.into_inner());
        let cut: String = text.chars().take(WIDTH).collect();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{cut}");
        let _ = err.flush();
        *drawn = true;
    }

    /// Erases the status line, if one is drawn.
    pub fn clear(&self) {
        if !self.enabled {
            return;
        }
        let mut drawn = self.drawn.lock().unwrap_or_else(|p| p.into_inner());
        if *drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            *drawn = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}
