use std::collections::BTreeMap;

use super::*;

fn run(key: &str) -> RunRecord {
    RunRecord {
        id: 0,
        key: key.into(),
        kind: "arena".into(),
        created_at: "2026-11-22T00:00:00Z".into(),
        game: "kingdomino".into(),
        variant: None,
        league: Some(3),
        n_players: 2,
        seed: u64::MAX - 3,
        n_matches: 4,
        config: "{}".into(),
    }
}

fn bots() -> Vec<BotRecord> {
    vec![
        BotRecord {
            name: "a".into(),
            command: "builtin:greedy".into(),
            hash: String::new(),
        },
        BotRecord {
            name: "b".into(),
            command: "./bot".into(),
            hash: "abc".into(),
        },
    ]
}

fn game(idx: u64) -> MatchRecord {
    MatchRecord {
        match_idx: idx,
        seed: idx * 1000,
        seats: vec![(idx % 2) as usize, 1 - (idx % 2) as usize],
        scores: vec![10, -1],
        ranks: vec![1, 2],
        end_reason: "fault".into(),
        detail: "x".into(),
        faults: vec![
            None,
            Some(("timeout".into(), "no answer within 50 ms".into())),
        ],
        n_calls: 14,
        duration_ms: 3,
        replay_path: Some("replays/x.json".into()),
        times_us: vec![vec![1, 2], vec![3]],
        data: vec![
            BTreeMap::from([("nodes".to_string(), 12.5)]),
            BTreeMap::new(),
        ],
        late_calls: vec![0, 2],
    }
}

#[test]
fn matches_round_trip_and_are_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("r.sqlite")).unwrap();
    let id = store.ensure_run(&run("k"), &bots()).unwrap();
    assert_eq!(
        store.ensure_run(&run("k"), &bots()).unwrap(),
        id,
        "same key resumes the run"
    );
    assert_eq!(store.insert_matches(id, &[game(0), game(1)]).unwrap(), 2);
    assert_eq!(store.insert_matches(id, &[game(1), game(2)]).unwrap(), 1);
    assert_eq!(store.done_matches(id).unwrap(), vec![0, 1, 2]);
    assert_eq!(store.matches(id).unwrap()[1], game(1));
    assert_eq!(store.run("k").unwrap().seed, u64::MAX - 3);
    assert_eq!(store.run_bots(id).unwrap(), bots());
}

#[test]
fn merging_shards_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Store::open(&dir.path().join("a.sqlite")).unwrap();
    let mut b = Store::open(&dir.path().join("b.sqlite")).unwrap();
    let ia = a.ensure_run(&run("k"), &bots()).unwrap();
    a.insert_matches(ia, &[game(0), game(2)]).unwrap();
    let ib = b.ensure_run(&run("k"), &bots()).unwrap();
    b.insert_matches(ib, &[game(1), game(3)]).unwrap();
    let mut all = Store::open(&dir.path().join("all.sqlite")).unwrap();
    assert_eq!(all.merge_from(&a).unwrap(), 2);
    assert_eq!(all.merge_from(&b).unwrap(), 2);
    assert_eq!(all.merge_from(&a).unwrap(), 0);
    let run_id = all.run("k").unwrap().id;
    assert_eq!(all.done_matches(run_id).unwrap(), vec![0, 1, 2, 3]);
}

#[test]
fn a_store_from_a_newer_realm_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.sqlite");
    drop(Store::open(&path).unwrap());
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let err = Store::open(&path).err().unwrap().to_string();
    assert_eq!(
        err,
        "results store was written by a newer realm (schema 99, this realm knows 5)"
    );
}

fn failure(idx: u64, reason: &str) -> MatchErrorRecord {
    MatchErrorRecord {
        match_idx: idx,
        seed: 77,
        seats: vec![1, 0],
        reason: reason.into(),
    }
}

#[test]
fn a_failed_match_is_kept_apart_until_it_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("e.sqlite")).unwrap();
    let id = store.ensure_run(&run("k"), &bots()).unwrap();
    store.insert_matches(id, &[game(0)]).unwrap();
    store.record_match_error(id, &failure(1, "first")).unwrap();
    store.record_match_error(id, &failure(1, "again")).unwrap();
    store
        .record_match_error(id, &failure(0, "stored already"))
        .unwrap();
    assert_eq!(store.match_errors(id).unwrap(), vec![failure(1, "again")]);
    assert_eq!(
        store.done_matches(id).unwrap(),
        vec![0],
        "not a finished match"
    );
    store.insert_matches(id, &[game(1)]).unwrap();
    assert_eq!(store.match_errors(id).unwrap(), vec![]);
}

#[test]
fn merging_copies_unresolved_errors_and_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let mut shard = Store::open(&dir.path().join("a.sqlite")).unwrap();
    let id = shard.ensure_run(&run("k"), &bots()).unwrap();
    shard.record_match_error(id, &failure(3, "hung")).unwrap();
    shard.set_verdict(id, r#"{"decision":"H1"}"#).unwrap();
    let mut all = Store::open(&dir.path().join("all.sqlite")).unwrap();
    all.merge_from(&shard).unwrap();
    let all_id = all.run("k").unwrap().id;
    assert_eq!(all.match_errors(all_id).unwrap(), vec![failure(3, "hung")]);
    assert_eq!(
        all.verdict(all_id).unwrap().as_deref(),
        Some(r#"{"decision":"H1"}"#)
    );
}

/// A store as realm 0.1.0 (schema 1) wrote it, with a referee error stored as a match.
fn schema_1_store(path: &std::path::Path) {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(migrations::MIGRATIONS[0]).unwrap();
    conn.pragma_update(None, "user_version", 1).unwrap();
    conn.execute_batch(
        "INSERT INTO runs VALUES (1, 'k', 'arena', 't', 'x', NULL, NULL, 2, 1, 4, '{}');
         INSERT INTO matches VALUES (1, 0, 5, '[0,1]', '[3,1]', '[1,2]', 'finished', '', \
           '[null,null]', 0, 1, NULL, '[[],[]]', '[{},{}]');
         INSERT INTO matches VALUES (1, 1, 5, '[1,0]', '[0,0]', '[1,1]', 'referee_error', \
           'referee printed \"oops\", not a score', '[null,null]', 0, 1, NULL, '[[],[]]', '[{},{}]');",
    )
    .unwrap();
}

#[test]
fn migration_2_moves_stored_referee_errors_out_of_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    schema_1_store(&path);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.done_matches(1).unwrap(), vec![0]);
    assert_eq!(
        store.match_errors(1).unwrap(),
        vec![MatchErrorRecord {
            match_idx: 1,
            seed: 5,
            seats: vec![1, 0],
            reason: "referee printed \"oops\", not a score".into(),
        }]
    );
    assert_eq!(store.verdict(1).unwrap(), None);
}

/// The store's bytes and the folder's listing, to show that nothing was written.
fn snapshot(dir: &std::path::Path, file: &str) -> (Vec<u8>, Vec<String>) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    (std::fs::read(dir.join(file)).unwrap(), names)
}

#[test]
fn a_read_only_store_reads_without_writing_anything() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.sqlite");
    {
        let mut store = Store::open(&path).unwrap();
        let id = store.ensure_run(&run("k"), &bots()).unwrap();
        store.insert_matches(id, &[game(0), game(1)]).unwrap();
    }
    let before = snapshot(dir.path(), "r.sqlite");
    assert_eq!(before.1, vec!["r.sqlite"], "a store at rest is one file");
    let mut store = Store::open_read_only(&path).unwrap();
    let id = store.run("k").unwrap().id;
    assert_eq!(store.done_matches(id).unwrap(), vec![0, 1]);
    assert_eq!(store.run_bots(id).unwrap(), bots());
    let err = store
        .insert_matches(id, &[game(2)])
        .unwrap_err()
        .to_string();
    assert!(err.ends_with("r.sqlite is open read-only"), "{err}");
    drop(store);
    assert_eq!(snapshot(dir.path(), "r.sqlite"), before);
}

#[test]
fn a_read_only_store_sees_what_a_running_writer_commits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.sqlite");
    let mut writer = Store::open(&path).unwrap();
    let id = writer.ensure_run(&run("k"), &bots()).unwrap();
    let reader = Store::open_read_only(&path).unwrap();
    assert_eq!(reader.done_matches(id).unwrap(), Vec::<u64>::new());
    writer.insert_matches(id, &[game(0)]).unwrap();
    assert_eq!(reader.done_matches(id).unwrap(), vec![0]);
}

#[test]
fn read_only_opening_refuses_what_it_cannot_read_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(
        &text,
        "not a database, just words and more words to fill a page\n".repeat(20),
    )
    .unwrap();
    let old = dir.path().join("old.sqlite");
    schema_1_store(&old);
    let newer = dir.path().join("newer.sqlite");
    drop(Store::open(&newer).unwrap());
    let conn = Connection::open(&newer).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let before: Vec<_> = ["empty.sqlite", "notes.txt", "old.sqlite", "newer.sqlite"]
        .iter()
        .map(|f| snapshot(dir.path(), f))
        .collect();
    let error = |p: &std::path::Path| Store::open_read_only(p).err().unwrap().to_string();
    let shown = |p: &std::path::Path| std::path::absolute(p).unwrap().display().to_string();
    assert_eq!(
        error(&empty),
        format!(
            "{} is not a realm results store (empty file)",
            shown(&empty)
        )
    );
    assert_eq!(
        error(&text),
        format!(
            "{} is not a realm results store (not an SQLite database)",
            shown(&text)
        )
    );
    assert_eq!(
        error(&old),
        format!(
            "results store {0} has schema 1, older than this realm's 5; run `realm report --db {0}` \
             once to upgrade it",
            shown(&old)
        )
    );
    assert_eq!(
        error(&newer),
        "results store was written by a newer realm (schema 99, this realm knows 5)"
    );
    let after: Vec<_> = ["empty.sqlite", "notes.txt", "old.sqlite", "newer.sqlite"]
        .iter()
        .map(|f| snapshot(dir.path(), f))
        .collect();
    assert_eq!(after, before);
}

#[test]
fn many_writers_opening_one_new_store_at_once_all_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("busy.sqlite");
    let barrier = std::sync::Barrier::new(8);
    std::thread::scope(|scope| {
        for t in 0..8u64 {
            let (path, barrier) = (&path, &barrier);
            scope.spawn(move || {
                barrier.wait();
                let mut store = Store::open(path).unwrap();
                // Two threads per run: resuming a run another process is creating.
                let id = store
                    .ensure_run(&run(&format!("k{}", t / 2)), &bots())
                    .unwrap();
                for i in 0..5 {
                    store.insert_matches(id, &[game(i)]).unwrap();
                }
                store.record_match_error(id, &failure(9, "x")).unwrap();
            });
        }
    });
    let store = Store::open(&path).unwrap();
    assert_eq!(store.runs().unwrap().len(), 4);
    for run in store.runs().unwrap() {
        assert_eq!(store.done_matches(run.id).unwrap(), vec![0, 1, 2, 3, 4]);
    }
}

/// The tables of the SQLite file at `path`, read without realm.
fn tables(path: &std::path::Path) -> Vec<String> {
    let conn = Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap();
    let names = stmt.query_map([], |r| r.get(0)).unwrap();
    names.map(|n| n.unwrap()).collect()
}

#[test]
fn another_applications_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ada');")
        .unwrap();
    drop(conn);
    let before = std::fs::read(&path).unwrap();
    let err = Store::open(&path).err().unwrap().to_string();
    assert_eq!(
        err,
        format!(
            "{} is not a realm results store (an SQLite database without realm's tables)",
            path.display()
        )
    );
    let err = Store::open_read_only(&path).err().unwrap().to_string();
    assert!(err.contains("is not a realm results store"), "{err}");
    assert_eq!(tables(&path), vec!["users".to_string()]);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_database_of_another_application_id_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "application_id", 42).unwrap();
    drop(conn);
    let err = Store::open(&path).err().unwrap().to_string();
    assert!(
        err.ends_with("(another application's SQLite database, application_id 0x2a)"),
        "{err}"
    );
    assert_eq!(tables(&path), Vec::<String>::new());
}

#[test]
fn a_file_that_is_not_sqlite_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(
        &path,
        "not a database at all, but long enough to have a header\n".repeat(4),
    )
    .unwrap();
    let err = Store::open(&path).err().unwrap().to_string();
    assert!(err.ends_with("(not an SQLite database)"), "{err}");
}

#[test]
fn new_stores_carry_realms_application_id_and_old_ones_get_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    drop(Store::open(&path).unwrap());
    let id = |path: &std::path::Path| -> i32 {
        let conn = Connection::open(path).unwrap();
        conn.pragma_query_value(None, "application_id", |r| r.get(0))
            .unwrap()
    };
    assert_eq!(id(&path), APPLICATION_ID);
    // A store written before application ids: realm's schema, id 0.
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "application_id", 0)
        .unwrap();
    drop(Store::open(&path).unwrap());
    assert_eq!(id(&path), APPLICATION_ID);
}

#[test]
fn matches_from_before_schema_3_read_with_no_late_calls() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.sqlite");
    let mut store = Store::open(&path).unwrap();
    let id = store.ensure_run(&run("k"), &bots()).unwrap();
    store.insert_matches(id, &[game(0)]).unwrap();
    drop(store);
    // A row written by schema 2 has no value in the column migration 3 added.
    Connection::open(&path)
        .unwrap()
        .execute("UPDATE matches SET late_calls = NULL", [])
        .unwrap();
    let store = Store::open(&path).unwrap();
    let read = &store.matches(id).unwrap()[0];
    assert_eq!(read.late_calls, Vec::<u64>::new());
    assert_eq!(read.times_us, game(0).times_us);
}

#[test]
fn a_run_asked_for_more_matches_grows_and_never_shrinks() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("r.sqlite")).unwrap();
    let mut bigger = run("k");
    let id = store.ensure_run(&bigger, &bots()).unwrap();
    bigger.n_matches = 40;
    assert_eq!(store.ensure_run(&bigger, &bots()).unwrap(), id);
    assert_eq!(store.run("k").unwrap().n_matches, 40);
    assert_eq!(store.ensure_run(&run("k"), &bots()).unwrap(), id);
    assert_eq!(store.run("k").unwrap().n_matches, 40);
}

#[test]
fn a_league_grows_retires_and_removes_entrants() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("l.sqlite")).unwrap();
    let id = store.ensure_run(&run("league:x"), &bots()[..1]).unwrap();
    let new = BotRecord {
        name: "new".into(),
        command: "./new".into(),
        hash: "h".into(),
    };
    assert_eq!(store.add_run_bot(id, &new, Some("v2")).unwrap(), 1);
    let again = store.add_run_bot(id, &new, None).unwrap_err().to_string();
    assert!(again.contains("is taken"), "{again}");
    assert_eq!(store.run_bots(id).unwrap()[1], new);
    let mut m = game(0);
    m.seats = vec![0, 1];
    let mut n = game(5);
    n.seats = vec![0, 0];
    store.insert_matches(id, &[m, n]).unwrap();
    assert_eq!(store.next_match_idx(id).unwrap(), 6);
    store.set_run_bot_status(id, 1, "retired").unwrap();
    assert_eq!(
        store.run_bot_statuses(id).unwrap(),
        vec![
            ("active".to_string(), None),
            ("retired".to_string(), Some("v2".to_string()))
        ]
    );
    assert_eq!(store.delete_matches_of(id, 1).unwrap(), 1);
    let left: Vec<u64> = store
        .matches(id)
        .unwrap()
        .iter()
        .map(|m| m.match_idx)
        .collect();
    assert_eq!(left, vec![5]);
}

#[test]
fn bot_data_that_is_not_a_number_reads_as_missing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.sqlite");
    let mut store = Store::open(&path).unwrap();
    let id = store.ensure_run(&run("k"), &bots()).unwrap();
    store.insert_matches(id, &[game(0), game(1)]).unwrap();
    // An older realm stored an overflowed `[PDATA+]` sum as JSON null.
    Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE matches SET data = '[{\"nodes\":12.5,\"s\":null},{\"t\":\"x\"}]' \
             WHERE match_idx = 0",
            [],
        )
        .unwrap();
    let read = store.matches(id).unwrap();
    assert_eq!(read[0].data, game(0).data);
    assert_eq!(read[1], game(1));
    let read_only = Store::open_read_only(&path).unwrap();
    assert_eq!(read_only.matches(id).unwrap()[0].data, game(0).data);
    assert_eq!(store.delete_matches_of(id, 0).unwrap(), 2);
}

#[test]
fn bot_data_that_is_not_finite_is_never_stored() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.sqlite");
    let mut store = Store::open(&path).unwrap();
    let id = store.ensure_run(&run("k"), &bots()).unwrap();
    let mut m = game(0);
    m.data[1] = BTreeMap::from([
        ("s".to_string(), f64::INFINITY),
        ("n".to_string(), f64::NAN),
    ]);
    store.insert_matches(id, &[m]).unwrap();
    let stored: String = Connection::open(&path)
        .unwrap()
        .query_row("SELECT data FROM matches", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, r#"[{"nodes":12.5},{}]"#);
}

/// A store with one stored match, and its path.
fn store_with_a_match(dir: &std::path::Path) -> (Store, std::path::PathBuf) {
    let path = dir.join("r.sqlite");
    let mut store = Store::open(&path).unwrap();
    let id = store.ensure_run(&run("k"), &bots()).unwrap();
    store.insert_matches(id, &[game(0)]).unwrap();
    (store, path)
}

#[test]
fn a_store_that_is_still_its_file_is_intact() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = store_with_a_match(dir.path());
    store.verify_still_intact().unwrap();
}

#[test]
fn a_store_deleted_while_open_is_not_intact() {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, path) = store_with_a_match(dir.path());
    std::fs::remove_file(&path).unwrap();
    // Writes still succeed: they go to the deleted file.
    store.insert_matches(1, &[game(1)]).unwrap();
    assert_eq!(
        store.verify_still_intact().unwrap_err().to_string(),
        format!(
            "results store {} was deleted while realm was writing to it: the matches stored \
             since it was opened are lost",
            path.display()
        )
    );
}

#[test]
fn a_store_replaced_while_open_is_not_intact() {
    let dir = tempfile::tempdir().unwrap();
    let (store, path) = store_with_a_match(dir.path());
    let other = dir.path().join("other.sqlite");
    drop(Store::open(&other).unwrap());
    std::fs::rename(&other, &path).unwrap();
    let err = store.verify_still_intact().unwrap_err().to_string();
    assert!(err.contains("was replaced by another file"), "{err}");
}

/// The store's error once its file is cut to `len` bytes while it is open.
fn error_after_truncating_to(len: u64) -> (String, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (store, path) = store_with_a_match(dir.path());
    // Checkpointed first, so the truncated file is all there is.
    store
        .read(|c| Ok(c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?))
        .unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len)
        .unwrap();
    (store.verify_still_intact().unwrap_err().to_string(), path)
}

#[test]
fn a_store_truncated_while_open_is_not_intact() {
    let (err, path) = error_after_truncating_to(4096);
    assert!(
        err.starts_with(&format!("results store {} is damaged (", path.display())),
        "{err}"
    );
    let (err, path) = error_after_truncating_to(0);
    assert_eq!(
        err,
        format!(
            "results store {} was emptied or overwritten while realm was writing to it: the \
             matches stored in it are lost",
            path.display()
        )
    );
}

fn entrant(name: &str) -> BotRecord {
    BotRecord {
        name: name.into(),
        command: format!("./{name}"),
        hash: String::new(),
    }
}

/// A league store at `path` with entrants `names` (statuses and notes as given) and matches
/// of the first entrant against each other one (match `i` seats 0 and `i`).
fn league_store(path: &std::path::Path, entrants: &[(&str, &str, Option<&str>)]) -> Store {
    let mut store = Store::open(path).unwrap();
    let id = store.ensure_run(&run("league:x"), &[]).unwrap();
    for (i, (name, status, note)) in entrants.iter().enumerate() {
        store.add_run_bot(id, &entrant(name), *note).unwrap();
        store.set_run_bot_status(id, i, status).unwrap();
        if i > 0 {
            let mut m = game(i as u64);
            m.seats = vec![0, i];
            store.insert_matches(id, &[m]).unwrap();
        }
    }
    store
}

fn standings(store: &Store) -> Vec<(String, String, Option<String>)> {
    let id = store.run("league:x").unwrap().id;
    let names = store.run_bots(id).unwrap().into_iter().map(|b| b.name);
    names
        .zip(store.run_bot_statuses(id).unwrap())
        .map(|(name, (status, note))| (name, status, note))
        .collect()
}

fn match_indices(store: &Store) -> Vec<u64> {
    let id = store.run("league:x").unwrap().id;
    store
        .matches(id)
        .unwrap()
        .iter()
        .map(|m| m.match_idx)
        .collect()
}

fn owned(rows: &[(&str, &str, Option<&str>)]) -> Vec<(String, String, Option<String>)> {
    rows.iter()
        .map(|(n, s, note)| (n.to_string(), s.to_string(), note.map(String::from)))
        .collect()
}

#[test]
fn merging_a_league_keeps_each_entrants_status_and_note() {
    let dir = tempfile::tempdir().unwrap();
    let roster = [
        ("a", "active", None),
        ("b", "retired", Some("old")),
        ("c", "rejected", Some("crashed")),
        ("d", "pending", None),
    ];
    let source = league_store(&dir.path().join("s.sqlite"), &roster);
    let mut merged = Store::open(&dir.path().join("m.sqlite")).unwrap();
    merged.merge_from(&source).unwrap();
    assert_eq!(standings(&merged), owned(&roster));
    assert_eq!(match_indices(&merged), vec![1, 2, 3]);
}

#[test]
fn merging_two_copies_of_a_league_keeps_the_later_decision() {
    let dir = tempfile::tempdir().unwrap();
    let mut ours = league_store(
        &dir.path().join("ours.sqlite"),
        &[
            ("a", "active", None),
            ("b", "retired", None),
            ("c", "active", Some("v1")),
            ("d", "pending", None),
        ],
    );
    let theirs = league_store(
        &dir.path().join("theirs.sqlite"),
        &[
            ("a", "active", None),
            ("b", "active", Some("v2")),
            ("c", "removed", None),
            ("d", "active", None),
            ("e", "retired", Some("late")),
        ],
    );
    assert_eq!(ours.merge_from(&theirs).unwrap(), 1, "match 4 is new");
    assert_eq!(
        standings(&ours),
        owned(&[
            ("a", "active", None),
            ("b", "retired", Some("v2")),
            ("c", "removed", Some("v1")),
            ("d", "active", None),
            ("e", "retired", Some("late")),
        ])
    );
    // The removed entrant's matches go, from either store.
    assert_eq!(match_indices(&ours), vec![1, 3, 4]);
}

#[test]
fn a_merge_that_fails_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let good = league_store(
        &dir.path().join("good.sqlite"),
        &[("a", "active", None), ("b", "active", None)],
    );
    let clashing = league_store(
        &dir.path().join("clash.sqlite"),
        &[("a", "active", None), ("z", "active", None)],
    );
    let path = dir.path().join("m.sqlite");
    let mut merged = league_store(&path, &[("a", "retired", None)]);
    let err = merged.merge_all(&[&good, &clashing]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot merge run league:x: its entrant 1 is `b` (./b) in one store and `z` (./z) in the \
         other"
    );
    assert_eq!(standings(&merged), owned(&[("a", "retired", None)]));
    assert_eq!(match_indices(&merged), Vec::<u64>::new());
}

#[test]
fn kept_replay_neighbours_are_found_however_far_and_one_replay_path_is_one_row() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("r.sqlite")).unwrap();
    let id = store.ensure_run(&run("far"), &bots()).unwrap();
    // 300 matches, replays kept only by 0, 150 and 299: neighbours 150 apart.
    let matches: Vec<MatchRecord> = (0..300)
        .map(|i| MatchRecord {
            replay_path: [0, 150, 299].contains(&i).then(|| format!("m{i}.json")),
            ..game(i)
        })
        .collect();
    store.insert_matches(id, &matches).unwrap();
    assert_eq!(
        store.kept_replay_neighbours(id, 150).unwrap(),
        (Some(0), Some(299))
    );
    assert_eq!(
        store.kept_replay_neighbours(id, 7).unwrap(),
        (Some(0), Some(150))
    );
    assert_eq!(
        store.kept_replay_neighbours(id, 0).unwrap(),
        (None, Some(150))
    );
    assert_eq!(
        store.replay_path(id, 150).unwrap(),
        Some(Some("m150.json".into()))
    );
    assert_eq!(store.replay_path(id, 151).unwrap(), Some(None));
    assert_eq!(store.replay_path(id, 300).unwrap(), None);
}

#[test]
fn starting_and_storing_matches_note_the_runs_last_activity() {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, _) = store_with_a_match(dir.path());
    let id = store.run("k").unwrap().id;
    let (when, age) = store.last_activity(id).unwrap().expect("noted");
    assert!(when.ends_with('Z') && when.len() == 20, "{when}");
    assert!(age >= -1.0, "{age}");
    // A run whose last activity is long past reads as long past.
    if let Access::ReadWrite(conn) = &store.access {
        conn.execute(
            "UPDATE runs SET last_activity_at = '2000-01-01T00:00:00Z'",
            [],
        )
        .unwrap();
    }
    let (when, age) = store.last_activity(id).unwrap().unwrap();
    assert_eq!(when, "2000-01-01T00:00:00Z");
    assert!(age > 86_400.0 * 365.0, "{age}");
    store.insert_matches(id, &[game(1)]).unwrap();
    assert_ne!(store.last_activity(id).unwrap().unwrap().0, when);
}
