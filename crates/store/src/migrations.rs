//! Numbered schema migrations. A store is only ever moved forward; a store from a newer realm is
//! refused rather than misread.

use rusqlite::Connection;

use crate::{Result, StoreError};

/// Migration `i` brings the schema from version `i` to `i + 1`.
pub(crate) const MIGRATIONS: &[&str] = &[
    "
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        created_at TEXT NOT NULL,
        game TEXT NOT NULL,
        variant TEXT,
        league INTEGER,
        n_players INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        n_matches INTEGER NOT NULL,
        config TEXT NOT NULL
    );
    CREATE TABLE bots (
        id INTEGER PRIMARY KEY,
        command TEXT NOT NULL,
        hash TEXT NOT NULL,
        name TEXT NOT NULL,
        UNIQUE (command, hash)
    );
    CREATE TABLE run_bots (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        idx INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        name TEXT NOT NULL,
        PRIMARY KEY (run_id, idx)
    );
    CREATE TABLE matches (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        match_idx INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL,
        scores TEXT NOT NULL,
        ranks TEXT NOT NULL,
        end_reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        faults TEXT NOT NULL,
        n_calls INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        replay_path TEXT,
        times_us TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (run_id, match_idx)
    );
",
    "
    -- Matches whose external referee failed are not results: they move out of `matches`
    -- (so resuming replays them) into `match_errors`, which keeps the latest reason.
    CREATE TABLE match_errors (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        match_idx INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (run_id, match_idx)
    );
    INSERT INTO match_errors (run_id, match_idx, seed, seats, reason)
        SELECT run_id, match_idx, seed, seats, detail FROM matches
        WHERE end_reason = 'referee_error';
    DELETE FROM matches WHERE end_reason = 'referee_error';
    -- Why a run stopped before its scheduled end (an SPRT decision), as JSON.
    ALTER TABLE runs ADD COLUMN verdict TEXT;
",
    // 3: calls answered after the game's limit but within `--time-margin`, per seat (JSON);
    // NULL for matches recorded before.
    "ALTER TABLE matches ADD COLUMN late_calls TEXT;",
    // 4: leagues (runs of kind `league`) add and retire bots over time: an entrant's status
    // (`active`, `retired`, `removed`, `rejected`) and the note given when it was added.
    "ALTER TABLE run_bots ADD COLUMN status TEXT NOT NULL DEFAULT 'active';
     ALTER TABLE run_bots ADD COLUMN note TEXT;",
    // 5: when a run last started, resumed or stored a match (UTC, `YYYY-MM-DDTHH:MM:SSZ`): the
    // viewer tells a running run from an interrupted one by it, whatever killed the run.
    "ALTER TABLE runs ADD COLUMN last_activity_at TEXT;",
];

/// The schema version this realm writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

pub(crate) fn migrate(conn: &Connection) -> Result<()> {
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    for (version, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        // BEGIN IMMEDIATE takes the write lock first, so two realms opening a new store at once
        // cannot both run the same migration.
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let current: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if current as usize > version {
            conn.execute_batch("COMMIT")?;
            continue;
        }
        let applied = conn
            .execute_batch(sql)
            .and_then(|_| conn.pragma_update(None, "user_version", version as i64 + 1))
            .and_then(|_| conn.execute_batch("COMMIT"));
        if let Err(e) = applied {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(e.into());
        }
    }
    Ok(())
}
