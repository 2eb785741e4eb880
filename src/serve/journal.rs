//! The rooms' journal: one append-only file of JSON lines, one
//! [`Entry`] (a room's [`Event`] with its time) a line. An event is on
//! disk (written and `fdatasync`ed) before [`Journal::append`] returns,
//! so before anyone is told of it. Appends from every room go through
//! one writer thread that syncs once for all the lines waiting (group
//! commit): a sync costs the same for one line or a hundred, so the disk
//! keeps up with many rooms.
//!
//! An append-only file of lines was chosen over SQLite: the rooms' state
//! is small and read whole at start, every change is an append, a torn
//! last line (a crash mid-write) is found and dropped by its missing
//! newline or bad JSON, and nothing needs a C library.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};

use serde::{Deserialize, Serialize};

use super::room::Event;

/// The journal's file name in the data folder.
pub const FILE_NAME: &str = "rooms.jsonl";

/// One line of the journal.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// When it happened, ms since the Unix epoch.
    pub at: u64,
    /// The room's code.
    pub room: String,
    /// What happened.
    pub event: Event,
}

/// Why the journal cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file cannot be opened, read, written or synced.
    #[error("journal {path}: {source}")]
    Io {
        /// The journal's path.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The writer thread is gone (after a write failed).
    #[error("the journal's writer has stopped")]
    Stopped,
}

type Waiting = (Vec<u8>, SyncSender<Result<(), String>>);

/// The journal's writing end; cloned into every connection.
#[derive(Clone)]
pub struct Journal {
    sender: Sender<Waiting>,
}

impl Journal {
    /// Opens (or creates) the journal in `folder` for appending and starts
    /// its writer thread.
    pub fn open(folder: &Path) -> Result<Journal, JournalError> {
        let path = folder.join(FILE_NAME);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|source| JournalError::Io {
                path: path.clone(),
                source,
            })?;
        let (sender, receiver) = mpsc::channel();
        std::thread::Builder::new()
            .name("journal".into())
            .spawn(move || write_loop(file, receiver))
            .map_err(|source| JournalError::Io { path, source })?;
        Ok(Journal { sender })
    }

    /// Writes `entry` and returns once it is on disk.
    pub fn append(&self, entry: &Entry) -> Result<(), JournalError> {
        let mut line = serde_json::to_vec(entry).map_err(|_| JournalError::Stopped)?;
        line.push(b'\n');
        let (done, wait) = mpsc::sync_channel(1);
        self.sender
            .send((line, done))
            .map_err(|_| JournalError::Stopped)?;
        match wait.recv() {
            Ok(Ok(())) => Ok(()),
            Ok(Err(why)) => Err(JournalError::Io {
                path: PathBuf::from(FILE_NAME),
                source: std::io::Error::other(why),
            }),
            Err(_) => Err(JournalError::Stopped),
        }
    }
}

/// The writer: takes every line waiting, writes them, syncs once, and
/// answers each.
fn write_loop(mut file: File, receiver: Receiver<Waiting>) {
    while let Ok(first) = receiver.recv() {
        let mut batch = vec![first];
        while let Ok(more) = receiver.try_recv() {
            batch.push(more);
        }
        let mut bytes = Vec::with_capacity(batch.iter().map(|(line, _)| line.len()).sum());
        for (line, _) in &batch {
            bytes.extend_from_slice(line);
        }
        let result = file
            .write_all(&bytes)
            .and_then(|()| file.sync_data())
            .map_err(|error| error.to_string());
        for (_, done) in batch {
            let _ = done.send(result.clone());
        }
        if result.is_err() {
            // A journal that failed a write may hold half a line: later
            // appends would follow it, so none are taken.
            return;
        }
    }
}

/// Reads every whole entry of the journal in `folder` (none if it does
/// not exist); a torn or unreadable line (a crash mid-write) is dropped
/// with a warning, as nothing after it was acknowledged from it.
pub fn read(folder: &Path) -> Result<Vec<Entry>, JournalError> {
    let path = folder.join(FILE_NAME);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(JournalError::Io { path, source }),
    };
    let mut entries = Vec::new();
    for (number, line) in BufReader::new(file).split(b'\n').enumerate() {
        let line = line.map_err(|source| JournalError::Io {
            path: path.clone(),
            source,
        })?;
        match serde_json::from_slice::<Entry>(&line) {
            Ok(entry) => entries.push(entry),
            Err(error) => log::warn!("{}:{}: dropped: {error}", path.display(), number + 1),
        }
    }
    Ok(entries)
}

/// Replaces the journal in `folder` by `entries` (the open rooms' only),
/// written to a new file, synced and renamed over the old one: a crash
/// leaves the old or the new, never half.
pub fn rewrite(folder: &Path, entries: &[Entry]) -> Result<(), JournalError> {
    let path = folder.join(FILE_NAME);
    let new = folder.join(format!("{FILE_NAME}.new"));
    let io = |source| JournalError::Io {
        path: path.clone(),
        source,
    };
    let mut bytes = Vec::new();
    for entry in entries {
        serde_json::to_writer(&mut bytes, entry).map_err(|_| JournalError::Stopped)?;
        bytes.push(b'\n');
    }
    let mut file = File::create(&new).map_err(io)?;
    file.write_all(&bytes).map_err(io)?;
    file.sync_all().map_err(io)?;
    std::fs::rename(&new, &path).map_err(io)?;
    File::open(folder)
        .and_then(|dir| dir.sync_all())
        .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appended_entries_read_back_and_a_torn_line_is_dropped() {
        let folder = std::env::temp_dir().join(format!("pasang-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        let journal = Journal::open(&folder).unwrap();
        let entries: Vec<Entry> = (0..3)
            .map(|at| Entry {
                at,
                room: "r".into(),
                event: Event::Close,
            })
            .collect();
        for entry in &entries {
            journal.append(entry).unwrap();
        }
        let mut file = OpenOptions::new()
            .append(true)
            .open(folder.join(FILE_NAME))
            .unwrap();
        file.write_all(br#"{"at":9,"room":"r","ev"#).unwrap();
        assert_eq!(read(&folder).unwrap(), entries);
        rewrite(&folder, &entries[..1]).unwrap();
        assert_eq!(read(&folder).unwrap(), entries[..1]);
        let _ = std::fs::remove_dir_all(&folder);
    }
}
