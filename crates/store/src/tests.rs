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
        "results store was written by a newer realm (schema 99, this realm knows 1)"
    );
}
