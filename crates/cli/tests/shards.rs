//! What users meet when they split runs over a cluster: incomplete runs said loudly (and an
//! error with `--require-complete`), a bot edited between shards named, and a store journal
//! for network file systems.

mod common;

use common::{python_bot_path, run, stderr, stdout};

fn arena_args<'a>(bot: &'a str, shard: &'a str, db: &'a str) -> Vec<&'a str> {
    vec![
        "arena",
        "kingdomino",
        bot,
        "builtin:greedy",
        "--games",
        "8",
        "--no-timeout",
        "--quiet",
        "--keep-replays",
        "none",
        "--shard",
        shard,
        "--db",
        db,
    ]
}

#[test]
fn a_missing_shard_is_said_loudly_and_fails_with_require_complete() {
    let dir = tempfile::tempdir().unwrap();
    for (shard, db) in [
        ("1/4", "s1.sqlite"),
        ("2/4", "s2.sqlite"),
        ("4/4", "s4.sqlite"),
    ] {
        let out = run(dir.path(), &arena_args("builtin:random", shard, db));
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let merge = [
        "merge",
        "s1.sqlite",
        "s2.sqlite",
        "s4.sqlite",
        "--into",
        "all.sqlite",
    ];
    let out = run(dir.path(), &merge);
    assert!(out.status.success(), "{}", stderr(&out));
    let why = "run 1 is incomplete: 6/8 matches have a result; missing 2: 4-5 (a shard that \
               never ran, a run still going, or matches without a result)";
    assert_eq!(stderr(&out), format!("warning: {why}\n"));

    let mut strict = merge.to_vec();
    strict.push("--require-complete");
    let out = run(dir.path(), &strict);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(stderr(&out), format!("error: {why}\n"));

    let out = run(dir.path(), &["report", "--db", "all.sqlite"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("6/8 matches"), "{}", stdout(&out));
    assert_eq!(stderr(&out), format!("warning: {why}\n"));
    let out = run(
        dir.path(),
        &["report", "--db", "all.sqlite", "--require-complete"],
    );
    assert_eq!(out.status.code(), Some(3));

    // The missing shard arrives: the merged run is whole and nothing is said.
    let out = run(
        dir.path(),
        &arena_args("builtin:random", "3/4", "s3.sqlite"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(
        dir.path(),
        &[
            "merge",
            "s3.sqlite",
            "--into",
            "all.sqlite",
            "--require-complete",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn a_bot_edited_between_shards_is_named_and_both_runs_are_shown() {
    let dir = tempfile::tempdir().unwrap();
    let bot_file = dir.path().join("bot.py");
    std::fs::copy(python_bot_path(), &bot_file).unwrap();
    let bot = "python3 bot.py";
    let out = run(dir.path(), &arena_args(bot, "1/2", "s1.sqlite"));
    assert!(out.status.success(), "{}", stderr(&out));
    let mut text = std::fs::read_to_string(&bot_file).unwrap();
    text.push_str("\n# edited between shards\n");
    std::fs::write(&bot_file, text).unwrap();
    let out = run(dir.path(), &arena_args(bot, "2/2", "s2.sqlite"));
    assert!(out.status.success(), "{}", stderr(&out));

    let out = run(
        dir.path(),
        &["merge", "s1.sqlite", "s2.sqlite", "--into", "all.sqlite"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let warnings = stderr(&out);
    assert!(
        warnings.contains(
            "warning: runs 1 and 2 are the same run except for the content of python3 bot.py: a \
             bot changed between shards or resumptions, so their matches are not pooled; `realm \
             report --run 1` and `realm report --run 2` show each"
        ),
        "{warnings}"
    );
    // Both halves are listed and reported.
    let out = run(dir.path(), &["report", "--db", "all.sqlite", "--list"]);
    let list = stdout(&out);
    assert_eq!(list.lines().count(), 2, "{list}");
    assert!(list.lines().all(|l| l.contains("4/8 matches")), "{list}");
}

#[test]
fn a_store_for_network_file_systems_uses_a_rollback_journal() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = arena_args("builtin:random", "1/1", "nfs.sqlite");
    args.extend(["--db-journal", "delete"]);
    let out = run(dir.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    // Bytes 18 and 19 of an SQLite file are its write and read versions: 1 for a rollback
    // journal, 2 for WAL.
    let journal_versions = || {
        let header = std::fs::read(dir.path().join("nfs.sqlite")).unwrap();
        (header[18], header[19])
    };
    assert_eq!(journal_versions(), (1, 1));
    assert!(!dir.path().join("nfs.sqlite-wal").exists());
    // Reading and resuming keep the store's journal.
    let out = run(
        dir.path(),
        &["report", "--db", "nfs.sqlite", "--require-complete"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(
        dir.path(),
        &arena_args("builtin:random", "1/1", "nfs.sqlite"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(journal_versions(), (1, 1));
    // A store made without the flag is in WAL mode.
    let out = run(
        dir.path(),
        &arena_args("builtin:random", "1/1", "local.sqlite"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let header = std::fs::read(dir.path().join("local.sqlite")).unwrap();
    assert_eq!((header[18], header[19]), (2, 2));
}

/// `path` and its journal files that exist.
fn store_files(dir: &std::path::Path, name: &str) -> Vec<String> {
    ["", "-wal", "-shm", "-journal"]
        .iter()
        .map(|suffix| format!("{name}{suffix}"))
        .filter(|file| dir.join(file).exists())
        .collect()
}

#[test]
fn a_merge_that_fails_leaves_no_new_store_and_an_old_one_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("notes.txt"), "not a store\n").unwrap();
    let out = run(d, &["merge", "notes.txt", "--into", "new.sqlite"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with("notes.txt is not a realm results store (not an SQLite database)\n"),
        "{}",
        stderr(&out)
    );
    assert_eq!(store_files(d, "new.sqlite"), Vec::<String>::new());

    // Two copies of a league that each took a different second bot cannot be merged.
    for (db, second) in [
        ("a.sqlite", "builtin:random"),
        ("b.sqlite", "builtin:reference"),
    ] {
        for args in [
            vec!["league", "new", "main", "kingdomino"],
            vec!["league", "add", "main", "builtin:greedy"],
            vec!["league", "add", "main", second],
        ] {
            let out = run(d, &[&args[..], &["--db", db]].concat());
            assert!(out.status.success(), "{}", stderr(&out));
        }
    }
    let clash = "error: cannot merge run league:main: its entrant 1 is `builtin:random` \
                 (builtin:random) in one store and `builtin:reference` (builtin:reference) in \
                 the other\n";
    let out = run(d, &["merge", "a.sqlite", "b.sqlite", "--into", "m.sqlite"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), clash);
    assert_eq!(store_files(d, "m.sqlite"), Vec::<String>::new());
    let show = || stdout(&run(d, &["league", "show", "main", "--db", "a.sqlite"]));
    let before = show();
    let out = run(d, &["merge", "b.sqlite", "--into", "a.sqlite"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), clash);
    assert_eq!(show(), before);
}
