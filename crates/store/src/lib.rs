//! realm's results store: one SQLite file (WAL mode) holding runs, the bots that played them and
//! every finished match. Written by the arena, read by reports and the viewer.
//!
//! **Invariants**: a match is identified by (run key, match index) and stored at most once, so
//! resuming or merging shards never duplicates or loses one; the schema only moves forward
//! through numbered migrations. This crate knows no game rules and runs no matches.

mod migrations;
mod model;

use std::path::Path;
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension};

pub use model::{BotRecord, MatchRecord, RunRecord};

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
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// An open results store.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the store at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store> {
        let open_err = |source| StoreError::Open {
            path: path.display().to_string(),
            source,
        };
        let conn = Connection::open(path).map_err(open_err)?;
        conn.busy_timeout(Duration::from_secs(30))
            .map_err(open_err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(open_err)?;
        migrations::migrate(&conn)?;
        Ok(Store { conn })
    }

    /// Finds the run with `run.key`, or creates it; returns its id. Resuming a run reuses it.
    pub fn ensure_run(&mut self, run: &RunRecord, bots: &[BotRecord]) -> Result<i64> {
        let tx = self.conn.transaction()?;
        let existing: Option<i64> = tx
            .query_row("SELECT id FROM runs WHERE key = ?1", [&run.key], |r| {
                r.get(0)
            })
            .optional()?;
        let run_id = match existing {
            Some(id) => id,
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
                    let bot_id = upsert_bot(&tx, bot)?;
                    tx.execute(
                        "INSERT INTO run_bots (run_id, idx, bot_id, name) VALUES (?1, ?2, ?3, ?4)",
                        params![run_id, idx as i64, bot_id, bot.name],
                    )?;
                }
                run_id
            }
        };
        tx.commit()?;
        Ok(run_id)
    }

    /// Match indices of the run already stored.
    pub fn done_matches(&self, run_id: i64) -> Result<Vec<u64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT match_idx FROM matches WHERE run_id = ?1 ORDER BY match_idx")?;
        let rows = stmt.query_map([run_id], |r| r.get::<_, i64>(0))?;
        Ok(rows
            .collect::<rusqlite::Result<Vec<_>>>()?
            .into_iter()
            .map(|i| i as u64)
            .collect())
    }

    /// Stores finished matches in one transaction; a match already present is left as it is.
    pub fn insert_matches(&mut self, run_id: i64, matches: &[MatchRecord]) -> Result<usize> {
        let tx = self.conn.transaction()?;
        let mut inserted = 0;
        for m in matches {
            inserted += insert_match(&tx, run_id, m)?;
        }
        tx.commit()?;
        Ok(inserted)
    }

    /// Every run, newest first.
    pub fn runs(&self) -> Result<Vec<RunRecord>> {
        let mut stmt = self
            .conn
            .prepare(&format!("{RUN_SELECT} ORDER BY id DESC"))?;
        let rows = stmt.query_map([], model::run_from_row)?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// One run by key, or by id (as `realm report --list` prints it).
    pub fn run(&self, id_or_key: &str) -> Result<RunRecord> {
        let by_key = self
            .conn
            .query_row(
                &format!("{RUN_SELECT} WHERE key = ?1"),
                [id_or_key],
                model::run_from_row,
            )
            .optional()?;
        let found = match (by_key, id_or_key.parse::<i64>()) {
            (Some(run), _) => Some(run),
            (None, Ok(id)) => self
                .conn
                .query_row(
                    &format!("{RUN_SELECT} WHERE id = ?1"),
                    [id],
                    model::run_from_row,
                )
                .optional()?,
            (None, Err(_)) => None,
        };
        found.ok_or_else(|| StoreError::NoSuchRun(id_or_key.to_string()))
    }

    /// The newest run, if any.
    pub fn latest_run(&self) -> Result<Option<RunRecord>> {
        Ok(self.runs()?.into_iter().next())
    }

    /// The bots of a run, in entrant order.
    pub fn run_bots(&self, run_id: i64) -> Result<Vec<BotRecord>> {
        let mut stmt = self.conn.prepare(
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
    }

    /// The matches of a run, by index.
    pub fn matches(&self, run_id: i64) -> Result<Vec<MatchRecord>> {
        let mut stmt = self.conn.prepare(&format!(
            "{MATCH_SELECT} WHERE run_id = ?1 ORDER BY match_idx"
        ))?;
        let rows = stmt.query_map([run_id], model::match_from_row)?;
        rows.collect::<rusqlite::Result<Vec<_>>>()?
            .into_iter()
            .collect()
    }

    /// Copies every run and match of `other` into this store. Runs are matched by key, matches by
    /// (run key, index), so merging the same shard twice changes nothing. Returns matches added.
    pub fn merge_from(&mut self, other: &Store) -> Result<usize> {
        let mut added = 0;
        for run in other.runs()? {
            let bots = other.run_bots(run.id)?;
            let run_id = self.ensure_run(&run, &bots)?;
            added += self.insert_matches(run_id, &other.matches(run.id)?)?;
        }
        Ok(added)
    }
}

const RUN_SELECT: &str =
    "SELECT id, key, kind, created_at, game, variant, league, n_players, seed, n_matches, config FROM runs";
const MATCH_SELECT: &str =
    "SELECT match_idx, seed, seats, scores, ranks, end_reason, detail, faults, \
     n_calls, duration_ms, replay_path, times_us, data FROM matches";

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
         faults, n_calls, duration_ms, replay_path, times_us, data) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
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
            to_json(&m.data, "data")?,
        ],
    )?)
}

fn to_json<T: serde::Serialize>(value: &T, column: &'static str) -> Result<String> {
    serde_json::to_string(value).map_err(|source| StoreError::Json { column, source })
}

#[cfg(test)]
mod tests;
