//! Files realm writes for users (replays, game results): whole or not at all.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many symbolic links in a row realm follows, as Linux does (`ELOOP` past that).
const MAX_SYMLINK_HOPS: usize = 40;

/// Writes `bytes` to `path`, whole or not at all where the file system allows it.
///
/// A regular file (or a path that does not exist yet) is written through a temporary file in the
/// same directory and a rename, so a reader (the viewer) never sees a half-written file, even
/// when the disk fills up mid-write: then the temporary file is removed and the error returned.
/// A symbolic link is followed and its target replaced that way, so the link stays a link.
/// Anything else (a device such as `/dev/null`, a FIFO) is written through as it is: renaming
/// over it would replace it with a regular file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if fs::metadata(path).is_ok_and(|meta| !meta.is_file()) {
        return write_through(path, bytes);
    }
    match resolve_symlinks(path)? {
        Some(target) => replace_by_rename(&target, bytes),
        // A link into /proc (`/dev/stdout`) names an open file, not a path to rename over.
        None => write_through(path, bytes),
    }
}

/// The path that `path`'s chain of symbolic links ends at (which may not exist yet), `path`
/// itself when it is no link, or `None` when the chain goes through /proc, whose links the
/// kernel resolves to open files rather than to paths.
fn resolve_symlinks(path: &Path) -> io::Result<Option<PathBuf>> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_SYMLINK_HOPS {
        let is_link = fs::symlink_metadata(&current).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            return Ok(Some(current));
        }
        if current.starts_with("/proc") {
            return Ok(None);
        }
        let link = fs::read_link(&current)?;
        // A relative target is relative to the folder holding the link.
        current = match current.parent() {
            Some(dir) if link.is_relative() => dir.join(link),
            _ => link,
        };
    }
    Err(io::Error::other(format!(
        "too many levels of symbolic links at {}",
        path.display()
    )))
}

/// Writes into an existing file that is not a regular one (a device, a FIFO).
fn write_through(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).truncate(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Writes a temporary file beside `path` and renames it over `path`.
fn replace_by_rename(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temporary = temporary_beside(path);
    let written = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.flush()
    })()
    .and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// `DIR/.NAME.tmp-PID`: hidden, and unique to this process.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_appears_whole_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        write_atomically(&path, b"{}").unwrap();
        write_atomically(&path, b"[1]").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"[1]");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_chain_of_links_ends_in_its_target_even_when_that_does_not_exist_yet() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::os::unix::fs::symlink("sub/second", dir.path().join("first")).unwrap();
        std::os::unix::fs::symlink("r.json", dir.path().join("sub/second")).unwrap();
        write_atomically(&dir.path().join("first"), b"{}").unwrap();
        assert_eq!(std::fs::read(dir.path().join("sub/r.json")).unwrap(), b"{}");
        assert!(std::fs::symlink_metadata(dir.path().join("sub/second"))
            .unwrap()
            .is_symlink());
    }

    #[test]
    fn a_loop_of_links_is_an_error_that_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("b", dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        let error = write_atomically(&dir.path().join("a"), b"{}").unwrap_err();
        assert!(error
            .to_string()
            .starts_with("too many levels of symbolic links"));
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn an_open_file_named_through_proc_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let file = std::fs::File::create(&path).unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
        write_atomically(Path::new(&format!("/proc/self/fd/{fd}")), b"[2]").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"[2]");
    }
}
