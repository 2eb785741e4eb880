//! The one writer all protocol output goes through: a line at a time,
//! locked, flushed after every line (pipes get no line buffering).

use std::fs::File;
use std::io::Write;
use std::sync::Mutex;

/// A debug log file that could not be opened; the previous log stays.
#[derive(Debug, thiserror::Error)]
#[error("cannot open log file '{path}': {error}")]
pub struct LogFileError {
    /// The path asked for.
    pub path: String,
    /// Why it could not be opened.
    #[source]
    pub error: std::io::Error,
}

/// Serialised, flushed output, with an optional log of both directions.
pub struct Output {
    writer: Mutex<Box<dyn Write + Send>>,
    log_file: Mutex<Option<File>>,
}

impl Output {
    /// Output to standard output.
    pub fn stdout() -> Output {
        Output::to(Box::new(std::io::stdout()))
    }

    /// Output to any writer (tests).
    pub fn to(writer: Box<dyn Write + Send>) -> Output {
        Output {
            writer: Mutex::new(writer),
            log_file: Mutex::new(None),
        }
    }

    /// Sends one line. A closed pipe is not an error worth dying for: the
    /// GUI is gone and `quit` or end of input follows.
    pub fn send(&self, line: &str) {
        log::debug!(">> {line}");
        self.log_line(">>", line);
        let mut writer = self
            .writer
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let _ = writeln!(writer, "{line}");
        let _ = writer.flush();
    }

    /// Records an input line in the debug log.
    pub fn log_input(&self, line: &str) {
        log::debug!("<< {line}");
        self.log_line("<<", line);
    }

    /// Starts (or with `None`, stops) logging every line to `path`.
    pub fn set_log_file(&self, path: Option<&str>) -> Result<(), LogFileError> {
        let file = match path {
            Some(path) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|error| LogFileError {
                        path: path.to_string(),
                        error,
                    })?,
            ),
            None => None,
        };
        *self
            .log_file
            .lock()
            .unwrap_or_else(|poison| poison.into_inner()) = file;
        Ok(())
    }

    fn log_line(&self, direction: &str, line: &str) {
        let mut guard = self
            .log_file
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some(file) = guard.as_mut() {
            let now = crate::host::unix_time();
            let _ = writeln!(
                file,
                "{}.{:03} {direction} {line}",
                now.as_secs(),
                now.subsec_millis()
            );
        }
    }
}
