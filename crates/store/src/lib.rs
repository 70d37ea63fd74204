//! realm's results store: one SQLite file (WAL mode) holding runs, the bots that played them,
//! every finished match, and the matches an external referee failed to play (`match_errors`,
//! which are not results). Written by the arena, read by reports and (through
//! `Store::open_read_only`, which never writes) the viewer.
//!
//! **Invariants**: a match is identified by (run key, match index) and stored at most once, so
//! resuming or merging shards never duplicates or loses one; a failed match is never in
//! `matches`, so resuming plays it again; every write transaction takes the write lock first
//! (`BEGIN IMMEDIATE`), so concurrent processes wait for each other instead of failing; the
//! schema only moves forward through numbered migrations. This crate knows no game rules and
//! runs no matches.

mod merge;
mod migrations;
mod model;
mod read_only;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior};

pub use migrations::SCHEMA_VERSION;
pub use model::{BotRecord, MatchErrorRecord, MatchRecord, RunRecord};

/// SQLite's `application_id` of a realm store ("rlm1"), so realm never mistakes another
/// application's database for its own, nor writes into one.
pub const APPLICATION_ID: i32 = 0x726c_6d31;

/// How long a writer waits for another process holding the store's write lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("results store {path}: {source}")]
    Open {
        path: String,
        source: rusqlite::Error,
    },
    #[error("results store: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("results store: bad JSON in column {column}: {source}")]
    Json {
        column: &'static str,
        source: serde_json::Error,
    },
    #[error(
        "results store was written by a newer realm (schema {found}, this realm knows {known})"
    )]
    TooNew { found: i64, known: i64 },
    #[error("no run {0} in the results store")]
    NoSuchRun(String),
    #[error("{path} is not a realm results store ({why})")]
    NotAStore { path: String, why: String },
    #[error(
        "results store {path} has schema {found}, older than this realm's {known}; \
         run `realm report --db {path}` once to upgrade it"
    )]
    Outdated {
        path: String,
        found: i64,
        known: i64,
    },
    #[error("results store {0} is open read-only")]
    ReadOnly(String),
    #[error("results store {0} kept changing while being read; try again")]
    Unsettled(String),
    /// A request the store's contents refuse (a label already taken, say).
    #[error("{0}")]
    Invalid(String),
    /// The store's file went away, was replaced or is damaged while open (see
    /// `Store::verify_still_intact`).
    #[error("results store {path} {why}")]
    NotIntact { path: String, why: String },
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// An open results store.
pub struct Store {
    access: Access,
    /// The file a writable store opened, to tell later whether it is still that file.
    opened: Option<OpenedFile>,
}

/// Where a store's file was and which file it was (device and inode) when it was opened.
struct OpenedFile {
    /// Absolute, so a later change of the working folder cannot mislead the check.
    path: PathBuf,
    /// As the caller gave it, for messages.
    shown: String,
    id: (u64, u64),
}

fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

enum Access {
    /// One connection that may write (every write transaction is `BEGIN IMMEDIATE`).
    ReadWrite(Connection),
    /// Never writes: each read opens its own read-only connection (see `read_only`).
    ReadOnly(PathBuf),
}

/// Why a database whose `application_id` is `id` is not realm's: `None` for realm's id and for
/// none (0: a new file, or a store of a realm from before application ids).
pub(crate) fn foreign_application(id: i32) -> Option<String> {
    (id != 0 && id != APPLICATION_ID)
        .then(|| format!("another application's SQLite database, application_id {id:#x}"))
}

/// Whether the database at `path` may be opened as a realm store, before anything is written to
/// it: a realm store, a new (empty) file, or a store of a realm from before application ids
/// (realm's schema, no id). Returns whether it already carries realm's id; anything else is
/// refused untouched.
fn identify(conn: &Connection, path: &Path, existed: bool) -> Result<bool> {
    let refuse = |why: String| StoreError::NotAStore {
        path: path.display().to_string(),
        why,
    };
    let id: i32 = conn
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .map_err(|e| match e.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => refuse("not an SQLite database".into()),
            _ => e.into(),
        })?;
    if id == APPLICATION_ID {
        return Ok(true);
    }
    if let Some(why) = foreign_application(id) {
        return Err(refuse(why));
    }
    if !existed || read_only::has_realm_schema(conn)? {
        return Ok(false);
    }
    Err(refuse("an SQLite database without realm's tables".into()))
}

/// How SQLite journals writes to a store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Journal {
    /// Write-ahead log: concurrent readers and one writer; needs shared memory, so the file
    /// must be on a local (or WAL-safe) file system.
    #[default]
    Wal,
    /// A rollback journal deleted after each transaction: slower, but safe on the network file
    /// systems clusters share (NFS, Lustre), where WAL is not.
    Delete,
}

impl Store {
    /// Opens (creating if needed) the store at `path` and brings its schema up to date. A new
    /// store journals in WAL mode; an existing one keeps its journal mode.
    pub fn open(path: &Path) -> Result<Store> {
        Store::open_with_journal(path, None)
    }

    /// `open`, switching the store to `journal` when one is given.
    pub fn open_with_journal(path: &Path, journal: Option<Journal>) -> Result<Store> {
        let existed = path.metadata().is_ok_and(|m| m.len() > 0);
        let open_err = |source| StoreError::Open {
            path: path.display().to_string(),
            source,
        };
        let mut conn = Connection::open(path).map_err(open_err)?;
        // The busy timeout comes first so that every later step waits for other processes.
        conn.busy_timeout(BUSY_TIMEOUT).map_err(open_err)?;
        if !identify(&conn, path, existed)? {
            // Claimed first, in the write that creates the file: another realm opening the
            // store a moment later sees a realm store, never an SQLite file without realm's
            // tables.
            conn.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(open_err)?;
        }
        match journal {
            Some(journal) => set_journal(&conn, journal),
            None if existed => Ok(()),
            None => set_journal(&conn, Journal::Wal),
        }
        .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(open_err)?;
        // A deferred transaction that reads before it writes cannot wait for the write lock
        // (SQLite answers SQLITE_BUSY at once to avoid a deadlock), so writers take it first.
        conn.set_transaction_behavior(TransactionBehavior::Immediate);
        migrations::migrate(&conn)?;
        let opened = std::path::absolute(path)
            .and_then(|path| Ok((file_id(&path.metadata()?), path)))
            .map(|(id, absolute)| OpenedFile {
                path: absolute,
                shown: path.display().to_string(),
                id,
            })
            .map_err(|e| StoreError::NotIntact {
                path: path.display().to_string(),
                why: format!("cannot be read back after opening: {e}"),
            })?;
        Ok(Store {
            access: Access::ReadWrite(conn),
            opened: Some(opened),
        })
    }

    /// Checks that the store is still the file it opened, where it opened it, and that SQLite
    /// finds it sound (`PRAGMA quick_check`). A store deleted or replaced while open takes the
    /// writes made since with it (they went to the old file), so a run that ends must say so
    /// rather than claim its matches are stored. A read-only store always passes.
    pub fn verify_still_intact(&self) -> Result<()> {
        let Some(opened) = &self.opened else {
            return Ok(());
        };
        let broken = |why: String| StoreError::NotIntact {
            path: opened.shown.clone(),
            why,
        };
        match opened.path.metadata() {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(broken(
                    "was deleted while realm was writing to it: the matches stored since it was \
                     opened are lost"
                        .into(),
                ))
            }
            Err(e) => return Err(broken(format!("cannot be checked: {e}"))),
            Ok(meta) if file_id(&meta) != opened.id => {
                return Err(broken(
                    "was replaced by another file while realm was writing to it: the matches \
                     stored since it was opened are not in it"
                        .into(),
                ))
            }
            Ok(_) => {}
        }
        // A connection of its own, which reads the file as a resumed run would: the open one
        // answers from the pages it has cached.
        let (verdict, id) =
            Connection::open_with_flags(&opened.path, OpenFlags::SQLITE_OPEN_READ_ONLY)
                .and_then(|conn| {
                    conn.busy_timeout(BUSY_TIMEOUT)?;
                    let verdict =
                        conn.query_row("PRAGMA quick_check", [], |r| r.get::<_, String>(0))?;
                    let id: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
                    Ok((verdict, id))
                })
                .map_err(|e| broken(format!("is damaged ({e}); it cannot be trusted to resume")))?;
        // A file truncated to nothing is a sound, empty database.
        if id != APPLICATION_ID {
            return Err(broken(
                "was emptied or overwritten while realm was writing to it: the matches stored \
                 in it are lost"
                    .into(),
            ));
        }
        if verdict != "ok" {
            return Err(broken(format!(
                "is damaged (quick_check: {verdict}); it cannot be trusted to resume"
            )));
        }
        Ok(())
    }

    /// Opens an existing store for reading only: nothing is ever written, not even the WAL
    /// files or a migration. A file that is not a realm store, or whose schema is older or
    /// newer than this realm's, is refused with a clear error.
    pub fn open_read_only(path: &Path) -> Result<Store> {
        let path = std::path::absolute(path).map_err(|e| StoreError::NotAStore {
            path: path.display().to_string(),
            why: e.to_string(),
        })?;
        read_only::read(&path, |conn| read_only::check_schema(&path, conn))?;
        Ok(Store {
            access: Access::ReadOnly(path),
            opened: None,
        })
    }

    /// Runs `f` on a connection that sees the store's latest committed state.
    fn read<T>(&self, f: impl Fn(&Connection) -> Result<T>) -> Result<T> {
        match &self.access {
            Access::ReadWrite(conn) => f(conn),
            Access::ReadOnly(path) => read_only::read(path, f),
        }
    }

    /// A write transaction: `BEGIN IMMEDIATE`, the behaviour `open` sets on the connection.
    fn write_transaction(&mut self) -> Result<rusqlite::Transaction<'_>> {
        match &mut self.access {
            Access::ReadWrite(conn) => Ok(conn.transaction()?),
            Access::ReadOnly(path) => Err(StoreError::ReadOnly(path.display().to_string())),
        }
    }

    /// Finds the run with `run.key`, or creates it; returns its id. Resuming a run reuses it,
    /// and a run asked for more matches than it had records the larger count.
    pub fn ensure_run(&mut self, run: &RunRecord, bots: &[BotRecord]) -> Result<i64> {
        let tx = self.write_transaction()?;
        let run_id = ensure_run_in(&tx, run, bots)?;
        tx.commit()?;
        Ok(run_id)
    }

    /// Match indices of the run already stored.
    pub fn done_matches(&self, run_id: i64) -> Result<Vec<u64>> {
        self.read(|conn| {
            let mut stmt =
                conn.prepare("SELECT match_idx FROM matches WHERE run_id = ?1 ORDER BY match_idx")?;
            let rows = stmt.query_map([run_id], |r| r.get::<_, i64>(0))?;
            Ok(rows
                .collect::<rusqlite::Result<Vec<_>>>()?
                .into_iter()
                .map(|i| i as u64)
                .collect())
        })
    }

    /// Stores finished matches in one transaction; a match already present is left as it is.
    /// A stored match is no longer a failed one: its `match_errors` row goes.
    pub fn insert_matches(&mut self, run_id: i64, matches: &[MatchRecord]) -> Result<usize> {
        let tx = self.write_transaction()?;
        let inserted = insert_matches_in(&tx, run_id, matches)?;
        tx.commit()?;
        Ok(inserted)
    }

    /// Records that a match could not be played (its external referee failed). It is not a
    /// finished match: it stays out of `matches`, so resuming the run plays it again. Only the
    /// latest failure of a match is kept, and none once the match is stored.
    pub fn record_match_error(&mut self, run_id: i64, error: &MatchErrorRecord) -> Result<()> {
        let tx = self.write_transaction()?;
        insert_match_error(&tx, run_id, error)?;
        tx.commit()?;
        Ok(())
    }

    /// The run's matches whose latest attempt failed and that are not stored, by index.
    pub fn match_errors(&self, run_id: i64) -> Result<Vec<MatchErrorRecord>> {
        self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT match_idx, seed, seats, reason FROM match_errors WHERE run_id = ?1 \
                 ORDER BY match_idx",
            )?;
            let rows = stmt.query_map([run_id], model::match_error_from_row)?;
            rows.collect::<rusqlite::Result<Vec<_>>>()?
                .into_iter()
                .collect()
        })
    }

    /// Records why a run stopped before its scheduled end (an SPRT decision), as JSON.
    pub fn set_verdict(&mut self, run_id: i64, verdict: &str) -> Result<()> {
        let tx = self.write_transaction()?;
        tx.execute(
            "UPDATE runs SET verdict = ?2 WHERE id = ?1",
            params![run_id, verdict],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Why the run stopped before its scheduled end, if it did (see `set_verdict`).
    pub fn verdict(&self, run_id: i64) -> Result<Option<String>> {
        self.read(|conn| {
            Ok(conn
                .query_row("SELECT verdict FROM runs WHERE id = ?1", [run_id], |r| {
                    r.get::<_, Option<String>>(0)
                })
                .optional()?
                .flatten())
        })
    }

    /// Every run, newest first.
    pub fn runs(&self) -> Result<Vec<RunRecord>> {
        self.read(|conn| {
            let mut stmt = conn.prepare(&format!("{RUN_SELECT} ORDER BY id DESC"))?;
            let rows = stmt.query_map([], model::run_from_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// One run by key, or by id (as `realm report --list` prints it).
    pub fn run(&self, id_or_key: &str) -> Result<RunRecord> {
        let found = self.read(|conn| {
            let by_key = conn
                .query_row(
                    &format!("{RUN_SELECT} WHERE key = ?1"),
                    [id_or_key],
                    model::run_from_row,
                )
                .optional()?;
            Ok(match (by_key, id_or_key.parse::<i64>()) {
                (Some(run), _) => Some(run),
                (None, Ok(id)) => conn
                    .query_row(
                        &format!("{RUN_SELECT} WHERE id = ?1"),
                        [id],
                        model::run_from_row,
                    )
                    .optional()?,
                (None, Err(_)) => None,
            })
        })?;
        found.ok_or_else(|| StoreError::NoSuchRun(id_or_key.to_string()))
    }

    /// The newest run, if any.
    pub fn latest_run(&self) -> Result<Option<RunRecord>> {
        Ok(self.runs()?.into_iter().next())
    }

    /// The bots of a run, in entrant order.
    pub fn run_bots(&self, run_id: i64) -> Result<Vec<BotRecord>> {
        self.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT rb.name, b.command, b.hash FROM run_bots rb JOIN bots b ON b.id = rb.bot_id \
                 WHERE rb.run_id = ?1 ORDER BY rb.idx",
            )?;
            let rows = stmt.query_map([run_id], |r| {
                Ok(BotRecord {
                    name: r.get(0)?,
                    command: r.get(1)?,
                    hash: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// Adds an entrant to an existing run (a league growing), after the others; returns its
    /// index. A label already in the run is refused.
    pub fn add_run_bot(
        &mut self,
        run_id: i64,
        bot: &BotRecord,
        note: Option<&str>,
    ) -> Result<usize> {
        self.add_run_bot_with_status(run_id, bot, note, "active")
    }

    /// `add_run_bot` with the entrant's first status: a league adds a bot as `pending` while
    /// its self-play check runs, so a running league never schedules it before it passes.
    pub fn add_run_bot_with_status(
        &mut self,
        run_id: i64,
        bot: &BotRecord,
        note: Option<&str>,
        status: &str,
    ) -> Result<usize> {
        let tx = self.write_transaction()?;
        let taken: i64 = tx.query_row(
            "SELECT COUNT(*) FROM run_bots WHERE run_id = ?1 AND name = ?2",
            params![run_id, bot.name],
            |r| r.get(0),
        )?;
        if taken > 0 {
            return Err(StoreError::Invalid(format!(
                "the label `{}` is taken in this league (choose another with --as)",
                bot.name
            )));
        }
        let idx: i64 = tx.query_row(
            "SELECT COALESCE(MAX(idx) + 1, 0) FROM run_bots WHERE run_id = ?1",
            [run_id],
            |r| r.get(0),
        )?;
        let bot_id = upsert_bot(&tx, bot)?;
        tx.execute(
            "INSERT INTO run_bots (run_id, idx, bot_id, name, note, status) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![run_id, idx, bot_id, bot.name, note, status],
        )?;
        tx.commit()?;
        Ok(idx as usize)
    }

    /// Every entrant's status (`active`, `pending`, `retired`, `removed`, `rejected`) and note,
    /// in entrant order.
    pub fn run_bot_statuses(&self, run_id: i64) -> Result<Vec<(String, Option<String>)>> {
        self.read(|conn| {
            let mut stmt =
                conn.prepare("SELECT status, note FROM run_bots WHERE run_id = ?1 ORDER BY idx")?;
            let rows = stmt.query_map([run_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// Makes entrant `idx` `pending` again for a new check (a league taking back a removed,
    /// rejected or retired bot), with `note` as its note when one is given.
    pub fn readmit_run_bot(&mut self, run_id: i64, idx: usize, note: Option<&str>) -> Result<()> {
        let tx = self.write_transaction()?;
        tx.execute(
            "UPDATE run_bots SET status = 'pending', note = COALESCE(?3, note) \
             WHERE run_id = ?1 AND idx = ?2",
            params![run_id, idx as i64, note],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Sets the status of entrant `idx`.
    pub fn set_run_bot_status(&mut self, run_id: i64, idx: usize, status: &str) -> Result<()> {
        let tx = self.write_transaction()?;
        tx.execute(
            "UPDATE run_bots SET status = ?1 WHERE run_id = ?2 AND idx = ?3",
            params![status, run_id, idx as i64],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Deletes every match of the run in which entrant `idx` sat; returns how many.
    pub fn delete_matches_of(&mut self, run_id: i64, idx: usize) -> Result<usize> {
        let tx = self.write_transaction()?;
        let deleted = delete_matches_with(&tx, run_id, &BTreeSet::from([idx]))?;
        tx.commit()?;
        Ok(deleted)
    }

    /// The next free match index of a run (one past the largest stored or failed one).
    pub fn next_match_idx(&self, run_id: i64) -> Result<u64> {
        self.read(|conn| {
            let next: i64 = conn.query_row(
                "SELECT MAX(COALESCE((SELECT MAX(match_idx) FROM matches WHERE run_id = ?1), -1), \
                 COALESCE((SELECT MAX(match_idx) FROM match_errors WHERE run_id = ?1), -1)) + 1",
                [run_id],
                |r| r.get(0),
            )?;
            Ok(next as u64)
        })
    }

    /// When the run last started, resumed or stored a match (`YYYY-MM-DDTHH:MM:SSZ`), and how
    /// many seconds ago that was by SQLite's clock; `None` before schema 5 wrote one.
    pub fn last_activity(&self, run_id: i64) -> Result<Option<(String, f64)>> {
        self.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT last_activity_at, \
                     (julianday('now') - julianday(last_activity_at)) * 86400.0 \
                     FROM runs WHERE id = ?1 AND last_activity_at IS NOT NULL",
                    [run_id],
                    |r| Ok((r.get::<_, String>(0)?, r.get::<_, f64>(1)?)),
                )
                .optional()?)
        })
    }

    /// The kept replay of one match: `None` when there is no such match, `Some(None)` when
    /// its replay was not kept. One row read through the primary key.
    pub fn replay_path(&self, run_id: i64, match_idx: u64) -> Result<Option<Option<String>>> {
        self.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT replay_path FROM matches WHERE run_id = ?1 AND match_idx = ?2",
                    params![run_id, match_idx as i64],
                    |r| r.get::<_, Option<String>>(0),
                )
                .optional()?)
        })
    }

    /// The nearest matches before and after `match_idx` that kept a replay, however far: two
    /// range reads along the primary key.
    pub fn kept_replay_neighbours(
        &self,
        run_id: i64,
        match_idx: u64,
    ) -> Result<(Option<u64>, Option<u64>)> {
        self.read(|conn| {
            let nearest = |sql: &str| -> Result<Option<u64>> {
                Ok(conn
                    .query_row(sql, params![run_id, match_idx as i64], |r| {
                        r.get::<_, Option<i64>>(0)
                    })?
                    .map(|i| i as u64))
            };
            Ok((
                nearest(
                    "SELECT MAX(match_idx) FROM matches WHERE run_id = ?1 AND match_idx < ?2 \
                     AND replay_path IS NOT NULL",
                )?,
                nearest(
                    "SELECT MIN(match_idx) FROM matches WHERE run_id = ?1 AND match_idx > ?2 \
                     AND replay_path IS NOT NULL",
                )?,
            ))
        })
    }

    /// The matches of a run, by index.
    pub fn matches(&self, run_id: i64) -> Result<Vec<MatchRecord>> {
        self.read(|conn| {
            let mut stmt = conn.prepare(&format!(
                "{MATCH_SELECT} WHERE run_id = ?1 ORDER BY match_idx"
            ))?;
            let rows = stmt.query_map([run_id], model::match_from_row)?;
            rows.collect::<rusqlite::Result<Vec<_>>>()?
                .into_iter()
                .collect()
        })
    }
}

/// Puts a fresh store into WAL mode. Switching needs an exclusive lock, and SQLite does not
/// always wait for it through the busy timeout, so two processes creating one store at once
/// retry here instead of failing with "database is locked".
fn set_journal(conn: &Connection, journal: Journal) -> rusqlite::Result<()> {
    let mode = match journal {
        Journal::Wal => "WAL",
        Journal::Delete => "DELETE",
    };
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        match conn.pragma_update_and_check(None, "journal_mode", mode, |r| r.get::<_, String>(0)) {
            Ok(_) => return Ok(()),
            Err(e) if is_busy(&e) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(e),
        }
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
    )
}

const RUN_SELECT: &str =
    "SELECT id, key, kind, created_at, game, variant, league, n_players, seed, n_matches, config FROM runs";
const MATCH_SELECT: &str =
    "SELECT match_idx, seed, seats, scores, ranks, end_reason, detail, faults, \
     n_calls, duration_ms, replay_path, times_us, data, late_calls FROM matches";

/// `Store::ensure_run` inside a transaction.
fn ensure_run_in(tx: &rusqlite::Transaction, run: &RunRecord, bots: &[BotRecord]) -> Result<i64> {
    let existing: Option<i64> = tx
        .query_row("SELECT id FROM runs WHERE key = ?1", [&run.key], |r| {
            r.get(0)
        })
        .optional()?;
    let run_id = match existing {
        Some(id) => {
            // A run asked for more matches grows; one asked for fewer keeps what it has.
            tx.execute(
                "UPDATE runs SET n_matches = ?1 WHERE id = ?2 AND n_matches < ?1",
                params![run.n_matches as i64, id],
            )?;
            id
        }
        None => {
            tx.execute(
                "INSERT INTO runs (key, kind, created_at, game, variant, league, n_players, seed, \
                 n_matches, config) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    run.key,
                    run.kind,
                    run.created_at,
                    run.game,
                    run.variant,
                    run.league,
                    run.n_players as i64,
                    run.seed as i64,
                    run.n_matches as i64,
                    run.config,
                ],
            )?;
            let run_id = tx.last_insert_rowid();
            for (idx, bot) in bots.iter().enumerate() {
                let bot_id = upsert_bot(tx, bot)?;
                tx.execute(
                    "INSERT INTO run_bots (run_id, idx, bot_id, name) VALUES (?1, ?2, ?3, ?4)",
                    params![run_id, idx as i64, bot_id, bot.name],
                )?;
            }
            run_id
        }
    };
    // Starting or resuming is activity: a run that has not stored its first match yet is
    // still running.
    note_activity(tx, run_id)?;
    Ok(run_id)
}

/// Sets the run's `last_activity_at` to now (SQLite's clock, UTC).
fn note_activity(tx: &rusqlite::Transaction, run_id: i64) -> Result<()> {
    tx.execute(
        "UPDATE runs SET last_activity_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
        [run_id],
    )?;
    Ok(())
}

/// `Store::insert_matches` inside a transaction.
fn insert_matches_in(
    tx: &rusqlite::Transaction,
    run_id: i64,
    matches: &[MatchRecord],
) -> Result<usize> {
    let mut inserted = 0;
    for m in matches {
        inserted += insert_match(tx, run_id, m)?;
        tx.execute(
            "DELETE FROM match_errors WHERE run_id = ?1 AND match_idx = ?2",
            params![run_id, m.match_idx as i64],
        )?;
    }
    note_activity(tx, run_id)?;
    Ok(inserted)
}

/// Deletes every match of the run in which one of `entrants` sat; returns how many.
fn delete_matches_with(
    tx: &rusqlite::Transaction,
    run_id: i64,
    entrants: &BTreeSet<usize>,
) -> Result<usize> {
    if entrants.is_empty() {
        return Ok(0);
    }
    let mut doomed = Vec::new();
    let mut stmt = tx.prepare("SELECT match_idx, seats FROM matches WHERE run_id = ?1")?;
    let rows = stmt.query_map([run_id], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
    })?;
    for row in rows {
        let (idx, seats) = row?;
        let seats: Vec<usize> =
            serde_json::from_str(&seats).map_err(|source| StoreError::Json {
                column: "seats",
                source,
            })?;
        if seats.iter().any(|s| entrants.contains(s)) {
            doomed.push(idx);
        }
    }
    for idx in &doomed {
        tx.execute(
            "DELETE FROM matches WHERE run_id = ?1 AND match_idx = ?2",
            params![run_id, idx],
        )?;
    }
    Ok(doomed.len())
}

fn upsert_bot(tx: &rusqlite::Transaction, bot: &BotRecord) -> Result<i64> {
    tx.execute(
        "INSERT OR IGNORE INTO bots (command, hash, name) VALUES (?1, ?2, ?3)",
        params![bot.command, bot.hash, bot.name],
    )?;
    Ok(tx.query_row(
        "SELECT id FROM bots WHERE command = ?1 AND hash = ?2",
        params![bot.command, bot.hash],
        |r| r.get(0),
    )?)
}

fn insert_match(tx: &rusqlite::Transaction, run_id: i64, m: &MatchRecord) -> Result<usize> {
    Ok(tx.execute(
        "INSERT OR IGNORE INTO matches (run_id, match_idx, seed, seats, scores, ranks, end_reason, detail, \
         faults, n_calls, duration_ms, replay_path, times_us, data, late_calls) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        params![
            run_id,
            m.match_idx as i64,
            m.seed as i64,
            to_json(&m.seats, "seats")?,
            to_json(&m.scores, "scores")?,
            to_json(&m.ranks, "ranks")?,
            m.end_reason,
            m.detail,
            to_json(&m.faults, "faults")?,
            m.n_calls as i64,
            m.duration_ms as i64,
            m.replay_path,
            to_json(&m.times_us, "times_us")?,
            to_json(&model::finite_bot_data(&m.data), "data")?,
            to_json(&m.late_calls, "late_calls")?,
        ],
    )?)
}

/// Inserts or replaces a match error, unless the match itself is stored.
fn insert_match_error(
    tx: &rusqlite::Transaction,
    run_id: i64,
    e: &MatchErrorRecord,
) -> Result<usize> {
    Ok(tx.execute(
        "INSERT OR REPLACE INTO match_errors (run_id, match_idx, seed, seats, reason) \
         SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS \
         (SELECT 1 FROM matches WHERE run_id = ?1 AND match_idx = ?2)",
        params![
            run_id,
            e.match_idx as i64,
            e.seed as i64,
            to_json(&e.seats, "seats")?,
            e.reason,
        ],
    )?)
}

fn to_json<T: serde::Serialize>(value: &T, column: &'static str) -> Result<String> {
    serde_json::to_string(value).map_err(|source| StoreError::Json { column, source })
}

#[cfg(test)]
mod tests;
