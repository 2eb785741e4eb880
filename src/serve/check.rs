//! `pasang serve --check --data DIR`: a data folder verified without
//! serving and without writing a byte. The journal is read and every
//! room replayed as a start would (a line at fault is named by its
//! number), every record under `games/` is read, and the lock is looked
//! at: a folder a running server holds is read all the same, and said to
//! be in use. PostgreSQL's `pg_checksums --check` is the model: a tool an
//! admin runs before an upgrade or on a backup.

use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};

use super::folder::LOCK_FILE;
use super::journal::{self, JournalError};
use super::live;

/// What is wrong with a data folder.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The folder is not there or cannot be read.
    #[error("data folder {0}: {1}")]
    Folder(PathBuf, #[source] std::io::Error),
    /// The journal cannot be read, or a line of it does not replay.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A record that cannot be read, or that does not parse.
    #[error("record {path}, line {line}: {why}")]
    Record {
        /// The record's path.
        path: PathBuf,
        /// The line at fault, from 1 (0: the file as a whole).
        line: usize,
        /// What is wrong.
        why: String,
    },
}

/// Checks the data folder `data` and returns the report's lines, or the
/// first fault found. Nothing is written, not even the lock file.
pub fn run(data: &Path) -> Result<String, CheckError> {
    let metadata =
        std::fs::metadata(data).map_err(|error| CheckError::Folder(data.to_path_buf(), error))?;
    if !metadata.is_dir() {
        let error = std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a folder");
        return Err(CheckError::Folder(data.to_path_buf(), error));
    }
    let mut report = String::new();
    let _ = writeln!(report, "{}", lock_state(data));
    let journal_path = data.join(journal::FILE_NAME);
    let lines = std::fs::read(&journal_path)
        .map(|bytes| bytes.iter().filter(|&&b| b == b'\n').count())
        .unwrap_or(0);
    let records = data.join("games");
    let restored = live::restore(data, &records, false)?;
    let over = restored
        .rooms
        .iter()
        .filter(|room| room.finish().is_some())
        .count();
    let _ = writeln!(
        report,
        "journal {}: {lines} lines, rooms open: {} (in play: {}, over: {over}); every line replays",
        journal_path.display(),
        restored.rooms.len(),
        restored.rooms.len() - over,
    );
    let (count, folders) = check_records(&records)?;
    let _ = writeln!(
        report,
        "records {}: {count} records in {folders} folders: every one reads",
        records.display()
    );
    report.push_str("ok: nothing was written");
    Ok(report)
}

/// Whether a server holds the folder now, in words. The lock file is
/// opened for reading only, never made.
fn lock_state(data: &Path) -> String {
    let path = data.join(LOCK_FILE);
    let Ok(mut file) = File::open(&path) else {
        return format!("lock {}: none; no server holds the folder", path.display());
    };
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            format!("lock {}: free; no server holds the folder", path.display())
        }
        Err(_) => {
            let holder = super::folder::holder(&mut file);
            format!(
                "lock {}: in use by a running pasang serve{holder}; read all the same, as it \
                 stood at this moment",
                path.display()
            )
        }
    }
}

/// Reads every `.pgn` in `records` and its month folders: their count
/// and the folders holding them.
fn check_records(records: &Path) -> Result<(usize, usize), CheckError> {
    let mut folders = vec![records.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(records) {
        let mut months: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.is_dir())
            .collect();
        months.sort();
        folders.extend(months);
    }
    let mut count = 0;
    let mut used = 0;
    for folder in &folders {
        let Ok(entries) = std::fs::read_dir(folder) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
            .collect();
        files.sort();
        used += usize::from(!files.is_empty());
        for path in files {
            let text = std::fs::read_to_string(&path).map_err(|error| CheckError::Record {
                path: path.clone(),
                line: 0,
                why: error.to_string(),
            })?;
            let read = crate::record::read(&text).map_err(|error| CheckError::Record {
                path: path.clone(),
                line: error.line,
                why: error.fault.to_string(),
            })?;
            for record in &read {
                record.replay().map_err(|error| CheckError::Record {
                    path: path.clone(),
                    line: 0,
                    why: error.to_string(),
                })?;
            }
            count += 1;
        }
    }
    Ok((count, used))
}
