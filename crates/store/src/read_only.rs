//! Reading a store without writing anything, for `realm serve`.
//!
//! A read-only SQLite connection to a WAL database creates the `-wal` and `-shm` files when they
//! are missing and cannot remove them afterwards. So each read opens its own connection: when a
//! writer has the store open (both files exist) the connection shares them and sees every
//! committed match; when the store is at rest it is opened `immutable`, which touches no file,
//! and the read is kept only if the database file did not change meanwhile (a writer that starts
//! during the read appends to its WAL and leaves the file alone until a checkpoint). One race
//! remains: a writer closing the store between the check and the open leaves behind the two
//! (empty) files that the read-only connection then creates; the next writer reuses them.

use std::path::Path;
use std::time::SystemTime;

use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::migrations::SCHEMA_VERSION;
use crate::{Result, StoreError};

/// Reads retried when a checkpoint changed the file under an `immutable` read.
const ATTEMPTS: usize = 5;

pub(crate) fn read<T>(path: &Path, f: impl Fn(&Connection) -> Result<T>) -> Result<T> {
    for _ in 0..ATTEMPTS {
        if writer_active(path) {
            return f(&connect(path, "mode=ro")?);
        }
        let before = fingerprint(path)?;
        let result = f(&connect(path, "immutable=1")?);
        if fingerprint(path)? == before {
            return result;
        }
    }
    Err(StoreError::Unsettled(path.display().to_string()))
}

/// realm's schema is there: a schema version and the `runs` table.
pub(crate) fn has_realm_schema(conn: &Connection) -> Result<bool> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let has_runs: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs')",
        [],
        |r| r.get(0),
    )?;
    Ok(version > 0 && has_runs)
}

/// Refuses anything but a realm store of exactly this realm's schema.
pub(crate) fn check_schema(path: &Path, conn: &Connection) -> Result<()> {
    let not_a_store = |why: &str| StoreError::NotAStore {
        path: path.display().to_string(),
        why: why.to_string(),
    };
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| match e.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => not_a_store("not an SQLite database"),
            _ => e.into(),
        })?;
    let id: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
    if let Some(why) = crate::foreign_application(id) {
        return Err(not_a_store(&why));
    }
    if !has_realm_schema(conn)? {
        return Err(not_a_store(if fingerprint(path)?.0 == 0 {
            "empty file"
        } else {
            "no realm schema"
        }));
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    if version < SCHEMA_VERSION {
        return Err(StoreError::Outdated {
            path: path.display().to_string(),
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// A process has the store open in WAL mode (or left it so): its `-wal` and `-shm` exist.
fn writer_active(path: &Path) -> bool {
    let beside = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        Path::new(&name).exists()
    };
    beside("-wal") && beside("-shm")
}

fn fingerprint(path: &Path) -> Result<(u64, Option<SystemTime>)> {
    let meta = std::fs::metadata(path).map_err(|e| StoreError::NotAStore {
        path: path.display().to_string(),
        why: e.to_string(),
    })?;
    Ok((meta.len(), meta.modified().ok()))
}

fn connect(path: &Path, parameter: &str) -> Result<Connection> {
    let uri = format!("file:{}?{parameter}", uri_path(path));
    Connection::open_with_flags(
        &uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|source| StoreError::Open {
        path: path.display().to_string(),
        source,
    })
}

/// The path as a `file:` URI path: the characters URIs reserve are percent-encoded.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            _ if b.is_ascii_graphic() || *b == b' ' => out.push(*b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_characters_are_escaped_in_the_uri() {
        assert_eq!(
            uri_path(Path::new("/tmp/a b/r?#%.sqlite")),
            "/tmp/a b/r%3F%23%25.sqlite"
        );
    }
}
