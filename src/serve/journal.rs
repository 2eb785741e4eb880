//! The rooms' journal: one append-only file of JSON lines, one
//! [`Entry`] (a room's [`Event`] with its time) a line. An event is on
//! disk (written and `fdatasync`ed) before [`Journal::append`] returns,
//! so before anyone is told of it. Appends from every room go through
//! one writer thread that syncs once for all the lines waiting (group
//! commit): a sync costs the same for one line or a hundred, so the disk
//! keeps up with many rooms.
//!
//! The first line names the file's format, `{"pasang_journal":2}`; a
//! file without it is format 1 (the servers of a88ce43 to af49fb0), read
//! as it is. A format newer than this binary's is refused, and nothing
//! is rewritten.
//!
//! An append-only file of lines was chosen over SQLite: the rooms' state
//! is small and read whole at start, every change is an append, a torn
//! last line (a crash mid-write) is found and dropped by its missing
//! newline or bad JSON, and nothing needs a C library.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};

use prometheus_client::metrics::histogram::Histogram;
use serde::{Deserialize, Serialize};

use super::room::Event;

/// The journal's file name in the data folder.
pub const FILE_NAME: &str = "rooms.jsonl";

/// The journal format this binary writes, and the newest it reads.
pub const FORMAT: u32 = 2;

/// Folders whose journal syncs this much slower (tests of what waits
/// for a sync: a slow disk made on purpose).
#[cfg(test)]
pub(super) static SLOW_SYNC: std::sync::Mutex<Vec<(PathBuf, std::time::Duration)>> =
    std::sync::Mutex::new(Vec::new());

/// The first line of a journal: its format.
#[derive(Clone, Copy, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    pasang_journal: u32,
}

/// Lines of finished business (closed rooms) the file may hold beyond
/// twice the open rooms' before it is compacted while the server runs.
const COMPACT_SLACK: usize = 4096;

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
    /// A line that is not an entry, with whole lines after it: not a
    /// write cut short by a crash, so the server will not guess.
    #[error(
        "journal {path}, line {line}: {why}; the lines after it were acknowledged to players, \
         so the server does not start: mend or remove that line (a copy of the file first)"
    )]
    Corrupt {
        /// The journal's path.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A line the writer could not make durable (a full disk, say): the
    /// failure of its batch's write or sync.
    #[error("journal {path}: {source}")]
    Write {
        /// The journal's path.
        path: PathBuf,
        /// The cause.
        #[source]
        source: WriteFailure,
    },
    /// The writer thread is gone.
    #[error("the journal's writer has stopped")]
    Stopped,
    /// A journal written by a newer pasang: nothing is read or
    /// rewritten.
    #[error(
        "journal {path} is format {format}, newer than this pasang reads (format {FORMAT}): run \
         the pasang that wrote it, or a newer one; the file is left as it is"
    )]
    TooNew {
        /// The journal's path.
        path: PathBuf,
        /// The format its first line names.
        format: u32,
    },
}

/// A batch's failed write or sync, told to each line of the batch (an
/// `io::Error` is not `Clone`, so they share it).
#[derive(Clone, Debug, thiserror::Error)]
#[error(transparent)]
pub struct WriteFailure(Arc<std::io::Error>);

/// A line to append, the room it is of, and whom to tell once it is on
/// disk.
struct Job {
    room: String,
    closes: bool,
    line: Vec<u8>,
    done: SyncSender<Result<(), WriteFailure>>,
}

/// The journal's writing end; cloned into every connection.
#[derive(Clone)]
pub struct Journal {
    sender: Sender<Job>,
    /// Whether the last write failed (a full disk): `/healthz` says so.
    failing: Arc<AtomicBool>,
}

impl Journal {
    /// Opens the journal in `folder`, which holds exactly `kept` (as
    /// [`rewrite`] left it), for appending, and starts its writer thread.
    /// Each write and sync is timed into `sync_timer` where given.
    pub fn open(
        folder: &Path,
        kept: &[Entry],
        sync_timer: Option<Histogram>,
    ) -> Result<Journal, JournalError> {
        Journal::open_with_slack(folder, kept, COMPACT_SLACK, sync_timer)
    }

    fn open_with_slack(
        folder: &Path,
        kept: &[Entry],
        slack: usize,
        sync_timer: Option<Histogram>,
    ) -> Result<Journal, JournalError> {
        let path = folder.join(FILE_NAME);
        let io = |source| JournalError::Io {
            path: path.clone(),
            source,
        };
        let mut file =
            private_file(OpenOptions::new().create(true).append(true), &path).map_err(io)?;
        if file.metadata().map_err(io)?.len() == 0 {
            file.write_all(&header_line())
                .and_then(|()| file.sync_data())
                .map_err(io)?;
        }
        let length = file.metadata().map_err(io)?.len();
        let mut rooms: HashMap<String, RoomLines> = HashMap::new();
        let mut next = 0;
        for entry in kept {
            let line = line_of(entry)?;
            rooms
                .entry(entry.room.clone())
                .or_insert_with(|| {
                    next += 1;
                    RoomLines {
                        order: next,
                        lines: Vec::new(),
                    }
                })
                .lines
                .push(line);
        }
        let writer = Writer {
            folder: folder.to_path_buf(),
            path: path.clone(),
            file,
            good_length: length,
            dirty: false,
            rooms,
            next_order: next,
            file_lines: kept.len(),
            open_lines: kept.len(),
            slack,
            compact_after: 2 * kept.len() + slack,
            failing: false,
            failing_flag: Arc::new(AtomicBool::new(false)),
            sync_timer,
        };
        let failing = Arc::clone(&writer.failing_flag);
        let (sender, receiver) = mpsc::channel();
        std::thread::Builder::new()
            .name("journal".into())
            .spawn(move || writer.run(receiver))
            .map_err(io)?;
        Ok(Journal { sender, failing })
    }

    /// Writes `entry` and returns once it is on disk.
    pub fn append(&self, entry: &Entry) -> Result<(), JournalError> {
        self.append_all(std::slice::from_ref(entry))
    }

    /// Writes every entry and returns once all are on disk: sent
    /// together, they go in one write and one sync (group commit).
    pub fn append_all(&self, entries: &[Entry]) -> Result<(), JournalError> {
        let mut waits = Vec::with_capacity(entries.len());
        for entry in entries {
            let (done, wait) = mpsc::sync_channel(1);
            let job = Job {
                room: entry.room.clone(),
                closes: matches!(entry.event, Event::Close),
                line: line_of(entry)?,
                done,
            };
            self.sender.send(job).map_err(|_| JournalError::Stopped)?;
            waits.push(wait);
        }
        let mut result = Ok(());
        for wait in waits {
            let answer = match wait.recv() {
                Ok(Ok(())) => Ok(()),
                Ok(Err(source)) => Err(JournalError::Write {
                    path: PathBuf::from(FILE_NAME),
                    source,
                }),
                Err(_) => Err(JournalError::Stopped),
            };
            if result.is_ok() {
                result = answer;
            }
        }
        result
    }

    /// Whether the last write failed (and none has succeeded since).
    pub fn is_failing(&self) -> bool {
        self.failing.load(Ordering::SeqCst)
    }
}

/// The header line this binary writes.
fn header_line() -> Vec<u8> {
    let mut line = serde_json::to_vec(&Header {
        pasang_journal: FORMAT,
    })
    .unwrap_or_default();
    line.push(b'\n');
    line
}

fn line_of(entry: &Entry) -> Result<Vec<u8>, JournalError> {
    let mut line = serde_json::to_vec(entry).map_err(|_| JournalError::Stopped)?;
    line.push(b'\n');
    Ok(line)
}

/// Opens a file that only its owner may read: the journal holds the
/// seats' tokens.
fn private_file(options: &mut OpenOptions, path: &Path) -> std::io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let file = options.mode(0o600).open(path)?;
        // A file from before this rule may be readable by all.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        Ok(file)
    }
    #[cfg(not(unix))]
    options.open(path)
}

/// An open room's lines, and when it was first written (compaction
/// keeps the rooms in that order).
struct RoomLines {
    order: u64,
    lines: Vec<Vec<u8>>,
}

/// The writer thread's state: the file, how much of it is known good,
/// and every open room's lines, for compaction.
struct Writer {
    folder: PathBuf,
    path: PathBuf,
    file: File,
    /// The file's length after the last synced write: anything past it
    /// is a failed write's remains.
    good_length: u64,
    /// Whether a write failed since, leaving bytes past `good_length`.
    dirty: bool,
    rooms: HashMap<String, RoomLines>,
    next_order: u64,
    /// Lines in the file, and of them the open rooms'.
    file_lines: usize,
    open_lines: usize,
    /// The file's line count that starts a compaction: twice the open
    /// rooms' and this many more.
    slack: usize,
    compact_after: usize,
    /// Whether the last write failed (to say when writing works again).
    failing: bool,
    /// The same, for the server's health.
    failing_flag: Arc<AtomicBool>,
    /// Times each write and sync.
    sync_timer: Option<Histogram>,
}

impl Writer {
    /// Takes every line waiting, writes them, syncs once, and answers
    /// each (group commit). A failed write is answered as failed and cut
    /// off the file, and the next batch tries again: a full disk refuses
    /// moves while it is full, and the journal takes them again as soon
    /// as there is room.
    fn run(mut self, receiver: Receiver<Job>) {
        while let Ok(first) = receiver.recv() {
            let mut batch = vec![first];
            while let Ok(more) = receiver.try_recv() {
                batch.push(more);
            }
            let started = std::time::Instant::now();
            let result = self.write(&batch);
            if let Some(timer) = &self.sync_timer {
                timer.observe(started.elapsed().as_secs_f64());
            }
            self.failing_flag.store(result.is_err(), Ordering::SeqCst);
            match &result {
                Ok(()) => {
                    if self.failing {
                        self.failing = false;
                        log::warn!("journal {}: writes succeed again", self.path.display());
                    }
                    for job in &batch {
                        self.remember(job);
                    }
                    if self.file_lines > self.compact_after {
                        self.compact();
                    }
                }
                Err(why) => {
                    if !self.failing {
                        self.failing = true;
                        log::error!(
                            "journal {}: {why}; moves are refused until a write succeeds",
                            self.path.display()
                        );
                    }
                }
            }
            for job in batch {
                let _ = job.done.send(result.clone());
            }
        }
    }

    fn write(&mut self, batch: &[Job]) -> Result<(), WriteFailure> {
        if self.dirty {
            // A failed write may have left half a line: cut it off first.
            self.file
                .set_len(self.good_length)
                .map_err(|error| WriteFailure(Arc::new(error)))?;
            self.dirty = false;
        }
        let mut bytes = Vec::with_capacity(batch.iter().map(|job| job.line.len()).sum());
        for job in batch {
            bytes.extend_from_slice(&job.line);
        }
        #[cfg(test)]
        if let Some((_, delay)) = SLOW_SYNC
            .lock()
            .unwrap()
            .iter()
            .find(|(folder, _)| *folder == self.folder)
        {
            std::thread::sleep(*delay);
        }
        match self
            .file
            .write_all(&bytes)
            .and_then(|()| self.file.sync_data())
        {
            Ok(()) => {
                self.good_length += bytes.len() as u64;
                self.file_lines += batch.len();
                Ok(())
            }
            Err(error) => {
                self.dirty = true;
                if self.file.set_len(self.good_length).is_ok() {
                    self.dirty = false;
                }
                Err(WriteFailure(Arc::new(error)))
            }
        }
    }

    /// Keeps an open room's line; a closed room's lines go.
    fn remember(&mut self, job: &Job) {
        if job.closes {
            if let Some(room) = self.rooms.remove(&job.room) {
                self.open_lines -= room.lines.len();
            }
            return;
        }
        let next = &mut self.next_order;
        self.rooms
            .entry(job.room.clone())
            .or_insert_with(|| {
                *next += 1;
                RoomLines {
                    order: *next,
                    lines: Vec::new(),
                }
            })
            .lines
            .push(job.line.clone());
        self.open_lines += 1;
    }

    /// Rewrites the file with the open rooms' lines only (to a new file,
    /// synced and renamed over the old one), so that closed rooms leave
    /// it and a restart reads only what is open. A compaction that fails
    /// leaves the old file as it was.
    fn compact(&mut self) {
        let mut rooms: Vec<&RoomLines> = self.rooms.values().collect();
        rooms.sort_by_key(|room| room.order);
        let lines = rooms.iter().flat_map(|room| room.lines.iter());
        match replace(&self.folder, lines).and_then(|()| {
            OpenOptions::new()
                .append(true)
                .open(&self.path)
                .and_then(|file| Ok((file.metadata()?.len(), file)))
        }) {
            Ok((length, file)) => {
                log::info!(
                    "journal {}: compacted from {} lines to {}",
                    self.path.display(),
                    self.file_lines,
                    self.open_lines
                );
                self.file = file;
                self.good_length = length;
                self.file_lines = self.open_lines;
                self.compact_after = 2 * self.open_lines + self.slack;
            }
            Err(error) => {
                log::warn!(
                    "journal {}: cannot compact it now: {error}",
                    self.path.display()
                );
                // Not again until as much again has been written.
                self.compact_after = self.file_lines + self.slack;
            }
        }
    }
}

/// Reads every whole entry of the journal in `folder` (none if it does
/// not exist). A torn last line (a crash mid-write, never acknowledged)
/// is dropped with a warning; a bad line with whole lines after it is
/// refused ([`JournalError::Corrupt`]), never skipped.
#[cfg(test)]
pub fn read(folder: &Path) -> Result<Vec<Entry>, JournalError> {
    Ok(read_numbered(folder)?
        .into_iter()
        .map(|(_, entry)| entry)
        .collect())
}

/// As [`read`], each entry with its line's number in the file (from 1,
/// the header line counted).
pub fn read_numbered(folder: &Path) -> Result<Vec<(usize, Entry)>, JournalError> {
    let path = folder.join(FILE_NAME);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(JournalError::Io { path, source }),
    };
    let mut entries = Vec::new();
    let mut bad: Option<(usize, String)> = None;
    for (number, line) in BufReader::new(file).split(b'\n').enumerate() {
        let line = line.map_err(|source| JournalError::Io {
            path: path.clone(),
            source,
        })?;
        if let Some((line, why)) = bad {
            return Err(JournalError::Corrupt { path, line, why });
        }
        if number == 0
            && let Ok(header) = serde_json::from_slice::<Header>(&line)
        {
            if header.pasang_journal > FORMAT {
                return Err(JournalError::TooNew {
                    path,
                    format: header.pasang_journal,
                });
            }
            continue;
        }
        match serde_json::from_slice::<Entry>(&line) {
            Ok(entry) => entries.push((number + 1, entry)),
            Err(error) => bad = Some((number + 1, error.to_string())),
        }
    }
    if let Some((line, why)) = bad {
        log::warn!("{}:{line}: a torn last line dropped: {why}", path.display());
    }
    Ok(entries)
}

/// Replaces the journal in `folder` by `entries` (the open rooms' only),
/// written to a new file, synced and renamed over the old one: a crash
/// leaves the old or the new, never half.
pub fn rewrite(folder: &Path, entries: &[Entry]) -> Result<(), JournalError> {
    let lines = entries.iter().map(line_of).collect::<Result<Vec<_>, _>>()?;
    replace(folder, lines.iter()).map_err(|source| JournalError::Io {
        path: folder.join(FILE_NAME),
        source,
    })
}

/// Writes the header and `lines` to a new file, syncs it, renames it
/// over the journal and syncs the folder.
fn replace<'a>(folder: &Path, lines: impl Iterator<Item = &'a Vec<u8>>) -> std::io::Result<()> {
    let path = folder.join(FILE_NAME);
    let new = folder.join(format!("{FILE_NAME}.new"));
    let mut bytes = header_line();
    for line in lines {
        bytes.extend_from_slice(line);
    }
    let written = private_file(
        OpenOptions::new().write(true).create(true).truncate(true),
        &new,
    )
    .and_then(|mut file| {
        file.write_all(&bytes)?;
        file.sync_all()
    })
    .and_then(|()| std::fs::rename(&new, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&new);
    }
    written?;
    File::open(folder).and_then(|dir| dir.sync_all())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let folder =
            std::env::temp_dir().join(format!("pasang-journal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    fn entry(at: u64, room: &str, event: Event) -> Entry {
        Entry {
            at,
            room: room.into(),
            event,
        }
    }

    fn name(seat: crate::serve::room::Side) -> Event {
        Event::Name {
            seat,
            name: "x".into(),
        }
    }

    #[test]
    fn appended_entries_read_back_and_a_torn_last_line_is_dropped() {
        let folder = folder("torn");
        let journal = Journal::open(&folder, &[], None).unwrap();
        let entries: Vec<Entry> = (0..3).map(|at| entry(at, "r", Event::Close)).collect();
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
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(folder.join(FILE_NAME))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "the tokens are the owner's only");
        }
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn a_bad_line_before_good_ones_is_refused_with_its_number() {
        let folder = folder("corrupt");
        let journal = Journal::open(&folder, &[], None).unwrap();
        for at in 0..4 {
            journal.append(&entry(at, "r", Event::Close)).unwrap();
        }
        let path = folder.join(FILE_NAME);
        let mut bytes = std::fs::read(&path).unwrap();
        // Line 1 is the header, line 2 the first entry: break line 3.
        let newlines: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == b'\n').collect();
        bytes[newlines[1] + 3] = b'#';
        std::fs::write(&path, &bytes).unwrap();
        match read(&folder) {
            Err(JournalError::Corrupt { line, .. }) => assert_eq!(line, 3),
            other => panic!("refused, not {other:?}"),
        }
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn the_first_line_names_the_format_and_a_newer_one_is_refused_untouched() {
        let folder = folder("format");
        let journal = Journal::open(&folder, &[], None).unwrap();
        journal.append(&entry(1, "r", Event::Close)).unwrap();
        let path = folder.join(FILE_NAME);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().next(), Some(r#"{"pasang_journal":2}"#));
        assert_eq!(read(&folder).unwrap().len(), 1);
        let newer = text.replacen(r#"{"pasang_journal":2}"#, r#"{"pasang_journal":3}"#, 1);
        std::fs::write(&path, &newer).unwrap();
        match read(&folder) {
            Err(error @ JournalError::TooNew { format: 3, .. }) => {
                assert!(error.to_string().contains("newer than this pasang reads"));
            }
            other => panic!("refused, not {other:?}"),
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), newer);
        // A journal of format 1 (no header) reads as it is.
        let old = r#"{"at":1,"room":"r","event":{"kind":"close"}}"#.to_string() + "\n";
        std::fs::write(&path, &old).unwrap();
        assert_eq!(read(&folder).unwrap(), vec![entry(1, "r", Event::Close)]);
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn closed_rooms_leave_the_journal_while_it_runs() {
        use crate::serve::room::Side;
        let folder = folder("compact");
        let kept = vec![entry(0, "open", name(Side::South))];
        rewrite(&folder, &kept).unwrap();
        let journal = Journal::open_with_slack(&folder, &kept, 10, None).unwrap();
        for room in 0..20 {
            let code = format!("closed{room}");
            journal.append(&entry(1, &code, name(Side::North))).unwrap();
            journal.append(&entry(2, &code, Event::Close)).unwrap();
        }
        journal
            .append(&entry(3, "open", name(Side::North)))
            .unwrap();
        let lines = read(&folder).unwrap();
        assert!(lines.len() < 20, "compacted: {} lines", lines.len());
        let open: Vec<&Entry> = lines.iter().filter(|e| e.room == "open").collect();
        assert_eq!(open.len(), 2, "the open room's lines stay, in order");
        assert_eq!(open[0].at, 0);
        assert_eq!(open[1].at, 3);
        let _ = std::fs::remove_dir_all(&folder);
    }
}
