//! What realm does to files it did not create: foreign databases stay untouched, merge sources
//! are only read, replays appear whole or not at all, and nothing is created outside the path
//! the user named.

mod common;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

use common::{realm, run, stderr, stdout};

/// The folder's listing, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// An application's SQLite database (one table, one row), written by Python's sqlite3: the
/// bytes of a database realm must not touch.
fn foreign_database(path: &Path) -> Vec<u8> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
             c.execute('create table users(name text)'); \
             c.execute(\"insert into users values('ada')\"); c.commit()",
        ])
        .arg(path)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{out:?}");
    std::fs::read(path).unwrap()
}

#[test]
fn realm_refuses_another_applications_database_and_leaves_it_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("app.db");
    let bytes = foreign_database(&db);
    let expected = format!(
        "error: {} is not a realm results store (an SQLite database without realm's tables)\n",
        "app.db"
    );
    for args in [
        &["report", "--db", "app.db"][..],
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--games",
            "2",
            "--db",
            "app.db",
        ][..],
        &["merge", "--into", "app.db", "other.sqlite"][..],
    ] {
        let out = run(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), expected, "{args:?}");
        assert_eq!(std::fs::read(&db).unwrap(), bytes, "{args:?}");
    }
    assert_eq!(listing(dir.path()), ["app.db"]);
}

#[test]
fn merge_only_reads_its_sources() {
    let dir = tempfile::tempdir().unwrap();
    let arena = [
        "arena",
        "kingdomino",
        "builtin:greedy",
        "builtin:random",
        "--games",
        "4",
        "--db",
        "shard.sqlite",
    ];
    assert!(run(dir.path(), &arena).status.success());
    // Leave the source as a copy would arrive from another machine: one file, no WAL beside it.
    let source = dir.path().join("shard.sqlite");
    let before = (std::fs::read(&source).unwrap(), listing(dir.path()));
    let out = run(
        dir.path(),
        &["merge", "--into", "all.sqlite", "shard.sqlite"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let after_names: Vec<String> = listing(dir.path())
        .into_iter()
        .filter(|n| !n.starts_with("all.sqlite"))
        .collect();
    assert_eq!((std::fs::read(&source).unwrap(), after_names), before);
}

#[test]
fn a_replay_path_in_a_missing_directory_is_an_error_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--replay",
            "a/b/r.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: cannot write replay a/b/r.json: no directory a/b\n"
    );
    let out = run(
        dir.path(),
        &[
            "referee",
            "kingdomino",
            "-p1",
            "realm bot kingdomino greedy",
            "-p2",
            "realm bot kingdomino random",
            "-l",
            "logs/game.json",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "error: cannot write replay logs/game.json: no directory logs\n"
    );
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--games",
            "2",
            "--replay-dir",
            "x/y",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "error: --replay-dir x/y: no directory x\n");
    assert_eq!(listing(dir.path()), Vec::<String>::new());
    // realm's own default folder is created.
    let out = run(
        dir.path(),
        &["play", "kingdomino", "builtin:greedy", "builtin:random"],
    );
    assert!(out.status.success());
    assert_eq!(listing(dir.path()), ["replays"]);
}

#[test]
fn a_full_disk_leaves_no_truncated_replay() {
    let dir = tempfile::tempdir().unwrap();
    // A file size limit makes every write past 4 KiB fail as a full disk does (EFBIG, with
    // SIGXFSZ ignored); a Kingdomino replay is far larger.
    let mut command = Command::new(realm());
    command
        .args([
            "play",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--replay",
            "r.json",
        ])
        .current_dir(dir.path());
    // SAFETY: setrlimit and signal are async-signal-safe and touch no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 4096,
                rlim_max: 4096,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = command.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(
        text.starts_with("error: cannot write replay r.json: "),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1, "{text}");
    assert_eq!(listing(dir.path()), Vec::<String>::new());
}

#[test]
fn an_unwritable_stderr_costs_no_match_and_no_panic() {
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(realm())
        .args([
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--games",
            "4",
        ])
        .args(["--no-such-flag"])
        .current_dir(dir.path())
        .stderr(full.try_clone().unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error, quietly");
    // A bot that cannot be started warns on stderr in every match; all four are still played.
    let out = Command::new(realm())
        .args([
            "arena",
            "kingdomino",
            "builtin:greedy",
            "./no-such-bot",
            "--games",
            "4",
        ])
        .current_dir(dir.path())
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report = run(dir.path(), &["report"]);
    let text = String::from_utf8_lossy(&report.stdout).into_owned();
    assert!(text.contains(": 4/4 matches"), "{text}");
}

/// `realm play kingdomino` with a fixed seed and its replay at `replay`, run in `dir`.
fn play_with_replay(dir: &Path, replay: &str) -> std::process::Output {
    run(
        dir,
        &[
            "play",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "--seed",
            "1",
            "--replay",
            replay,
        ],
    )
}

/// `stat -c %F`'s word for what `path` is, without following a last symbolic link.
fn file_kind(path: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::symlink_metadata(path).unwrap().file_type();
    match () {
        _ if kind.is_symlink() => "symbolic link",
        _ if kind.is_char_device() => "character special file",
        _ if kind.is_fifo() => "fifo",
        _ if kind.is_file() => "regular file",
        _ => "other",
    }
}

#[test]
fn a_replay_written_to_a_device_leaves_the_device_in_place() {
    let dir = tempfile::tempdir().unwrap();
    // A null device of the test's own (major 1, minor 3), never the machine's /dev/null.
    let made = Command::new("mknod")
        .args(["-m", "666", "fnull", "c", "1", "3"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    if !made.success() {
        eprintln!("skipped: mknod is not allowed here");
        return;
    }
    let out = play_with_replay(dir.path(), "fnull");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        file_kind(&dir.path().join("fnull")),
        "character special file"
    );
    assert_eq!(listing(dir.path()), ["fnull"], "no temporary is left");
}

#[test]
fn a_replay_written_to_a_fifo_goes_through_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // The reader blocks until realm opens the FIFO for writing. Were the FIFO replaced instead,
    // this thread would never return: the assertion on the file kind fails first.
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let out = play_with_replay(dir.path(), "pipe");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(file_kind(&fifo), "fifo");
    let replay: serde_json::Value = serde_json::from_slice(&reader.join().unwrap()).unwrap();
    assert_eq!(replay["spec"]["seed"], 1);
    assert_eq!(listing(dir.path()), ["pipe"], "no temporary is left");
}

#[test]
fn a_replay_written_to_a_symlink_replaces_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("kept")).unwrap();
    std::fs::write(dir.path().join("kept/game.json"), "old").unwrap();
    std::os::unix::fs::symlink("kept/game.json", dir.path().join("latest.json")).unwrap();
    let out = play_with_replay(dir.path(), "latest.json");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(file_kind(&dir.path().join("latest.json")), "symbolic link");
    let target = dir.path().join("kept/game.json");
    assert_eq!(file_kind(&target), "regular file");
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&target).unwrap()).unwrap();
    assert_eq!(replay["spec"]["seed"], 1);
    assert_eq!(listing(dir.path()), ["kept", "latest.json"]);
    assert_eq!(listing(&dir.path().join("kept")), ["game.json"]);
}

/// A folder no process may create files in while this lives: `chattr +i` (root ignores
/// permission bits, not the immutable attribute), else mode 555. `None` when neither stops this
/// process from creating a file there.
struct ReadOnlyFolder<'a>(&'a Path);

impl<'a> ReadOnlyFolder<'a> {
    fn new(dir: &'a Path) -> Option<Self> {
        use std::os::unix::fs::PermissionsExt;
        let immutable = Command::new("chattr").arg("+i").arg(dir).output();
        if !immutable.is_ok_and(|out| out.status.success()) {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
        }
        let folder = ReadOnlyFolder(dir);
        let probe = dir.join("probe");
        if std::fs::write(&probe, "").is_ok() {
            let _ = std::fs::remove_file(probe);
            return None;
        }
        Some(folder)
    }
}

impl Drop for ReadOnlyFolder<'_> {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        let _ = Command::new("chattr").arg("-i").arg(self.0).output();
        let _ = std::fs::set_permissions(self.0, std::fs::Permissions::from_mode(0o755));
    }
}

#[test]
fn report_and_league_show_read_a_store_in_a_read_only_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for args in [
        &["league", "new", "main", "kingdomino"][..],
        &["league", "add", "main", "builtin:greedy"],
        &["league", "add", "main", "builtin:random"],
        &["league", "run", "main", "--games", "2", "--quiet"],
    ] {
        let out = run(d, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    let before = listing(d);
    assert_eq!(before, ["realm.sqlite"], "the store is at rest");
    let Some(_read_only) = ReadOnlyFolder::new(d) else {
        eprintln!("skipped: nothing makes a folder read-only for this user here");
        return;
    };
    for (args, shown) in [
        (&["report"][..], "builtin:greedy"),
        (&["report", "--list"], "league:main"),
        (&["league", "show", "main"], "builtin:greedy"),
        (
            &["league", "info", "main", "builtin:greedy"],
            "builtin:greedy",
        ),
    ] {
        let out = run(d, args);
        assert_eq!(stderr(&out), "", "{args:?}");
        assert!(out.status.success(), "{args:?}");
        assert!(stdout(&out).contains(shown), "{args:?}: {}", stdout(&out));
    }
    assert_eq!(listing(d), before);
}

/// `realm ARGS` run in a folder deleted under it: the shell enters the folder, deletes it, and
/// becomes realm there.
fn run_in_deleted_folder(folder: &Path, args: &str) -> std::process::Output {
    std::fs::create_dir(folder).unwrap();
    Command::new("sh")
        .args([
            "-c",
            &format!("cd \"$1\" && rmdir \"$1\" && exec \"$0\" {args}"),
        ])
        .arg(realm())
        .arg(folder)
        .output()
        .unwrap()
}

#[test]
fn an_error_in_a_deleted_current_folder_says_the_folder_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("gone");
    let out = run_in_deleted_folder(&gone, "report");
    assert_eq!(out.status.code(), Some(2));
    let said = format!(
        "error: the current folder {} no longer exists: ",
        gone.display()
    );
    assert_eq!(
        stderr(&out),
        format!("{said}no results store at realm.sqlite\n")
    );
    // The case reported: arena's error named no path at all.
    let out = run_in_deleted_folder(
        &gone,
        "arena kingdomino builtin:greedy builtin:random --games 2",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with(&said), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
}
