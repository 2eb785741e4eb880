//! The data folder, held by one server at a time: an OS lock (`flock`)
//! on `DIR/serve.lock` for the process's life. A second server on the
//! same folder is refused before it reads or writes anything there, so
//! two servers can never fork a room's game or rewrite the journal
//! under each other. The lock goes with the process, however it ends
//! (even by SIGKILL), so a stale lock file never blocks a restart.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock file's name in the data folder.
pub const LOCK_FILE: &str = "serve.lock";

/// A data folder this process holds.
pub struct DataFolder {
    path: PathBuf,
    /// Held open (and locked) for the process's life.
    _lock: File,
}

/// Why the data folder cannot be held.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The folder or its lock file cannot be made or opened.
    #[error("data folder {0}: {1}")]
    Io(PathBuf, #[source] std::io::Error),
    /// Another process holds it.
    #[error(
        "data folder {folder} is in use by another pasang serve{holder}; \
         one server per data folder (stop that one, or give this one its own --data)"
    )]
    InUse {
        /// The folder.
        folder: PathBuf,
        /// " (process N)" where the holder wrote its id.
        holder: String,
    },
}

impl DataFolder {
    /// Makes the folder if it is missing and locks it, or says who holds
    /// it. Nothing in a folder held by another is changed.
    pub fn hold(path: &Path) -> Result<DataFolder, FolderError> {
        let io = |error| FolderError::Io(path.to_path_buf(), error);
        std::fs::create_dir_all(path).map_err(io)?;
        let mut lock = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path.join(LOCK_FILE))
            .map_err(io)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(FolderError::InUse {
                    folder: path.to_path_buf(),
                    holder: holder(&mut lock),
                });
            }
            Err(std::fs::TryLockError::Error(error)) => return Err(io(error)),
        }
        // Held: say who holds it, for the next one to name.
        lock.set_len(0)
            .and_then(|()| lock.rewind())
            .and_then(|()| writeln!(lock, "{}", std::process::id()))
            .map_err(io)?;
        Ok(DataFolder {
            path: path.to_path_buf(),
            _lock: lock,
        })
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// " (process N)" where the lock file names its holder, else nothing.
pub(super) fn holder(lock: &mut File) -> String {
    let mut holder = String::new();
    let _ = lock.read_to_string(&mut holder);
    holder
        .trim()
        .parse::<u32>()
        .map(|pid| format!(" (process {pid})"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_folder_is_refused_to_a_second_holder_until_released() {
        let path = std::env::temp_dir().join(format!("pasang-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        let first = DataFolder::hold(&path).unwrap();
        match DataFolder::hold(&path) {
            Err(FolderError::InUse { holder, .. }) => {
                assert_eq!(holder, format!(" (process {})", std::process::id()));
            }
            other => panic!("refused, not {:?}", other.map(|f| f.path)),
        }
        drop(first);
        let again = DataFolder::hold(&path).unwrap();
        assert_eq!(again.path(), path);
        drop(again);
        let _ = std::fs::remove_dir_all(&path);
    }
}
