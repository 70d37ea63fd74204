//! `realm play`, `realm bot`, `realm referee` and `realm score` as a user runs them, with real
//! child processes: a Python bot that plays from the protocol alone, and bots that misbehave
//! in every way the brief lists. Each must end with the right fault and leave no process.

mod common;

use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

use common::{
    processes_left_with, python_bot, python_bot_path, realm, run, stderr, stdout, tag,
    unique_sleep, wait_for_process_with,
};
use realm_core::{FaultKind, Replay, Verdict};

fn play(dir: &std::path::Path, bots: &[&str], extra: &[&str]) -> (String, Replay) {
    play_game(dir, "kingdomino", bots, extra)
}

fn play_game(dir: &std::path::Path, game: &str, bots: &[&str], extra: &[&str]) -> (String, Replay) {
    let replay = dir.join("r.json");
    let mut args = vec!["play", game];
    args.extend_from_slice(bots);
    if !extra.contains(&"--seed") {
        args.extend_from_slice(&["--seed", "1"]);
    }
    args.extend_from_slice(&["--replay", replay.to_str().unwrap()]);
    // Tests that are not about time run without limits, so a loaded machine cannot turn a
    // slow answer into a timeout; tests about timeouts say their own (long) limits.
    if !extra
        .iter()
        .any(|a| *a == "--time-scale" || *a == "--no-timeout")
    {
        args.push("--no-timeout");
    }
    args.extend_from_slice(extra);
    let out = run(dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let replay: Replay = serde_json::from_slice(&fs::read(&replay).unwrap()).unwrap();
    (stdout(&out), replay)
}

fn fault_kind(replay: &Replay, seat: usize) -> Option<FaultKind> {
    replay.outcome.faults[seat].as_ref().map(|f| f.kind)
}

#[test]
fn builtin_bots_play_and_the_replay_is_byte_identical_on_a_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let (summary, replay) = play(dir.path(), &["builtin:greedy", "builtin:random"], &[]);
    assert!(summary.contains("replay: "), "{summary}");
    assert!(summary.contains("builtin:greedy"), "{summary}");
    assert_eq!(replay.turns.len(), 28, "2 players: 7 turns of 4 calls");
    let first = fs::read(dir.path().join("r.json")).unwrap();
    play(dir.path(), &["builtin:greedy", "builtin:random"], &[]);
    assert_eq!(first, fs::read(dir.path().join("r.json")).unwrap());
}

#[test]
fn kingdomino_leagues_above_three_play_as_league_three() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["builtin:greedy", "builtin:random"];
    let (_, top) = play(dir.path(), &bots, &["--league", "3"]);
    let (summary, higher) = play(dir.path(), &bots, &["--league", "7"]);
    assert!(summary.contains("builtin:greedy"), "{summary}");
    assert_eq!(higher.outcome, top.outcome);
    let inputs = |r: &Replay| r.turns.iter().map(|t| t.input.clone()).collect::<Vec<_>>();
    assert!(
        inputs(&higher) == inputs(&top),
        "league 7 played differently from 3"
    );
}

#[test]
fn a_python_bot_plays_a_whole_game_from_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("");
    let (_, replay) = play(dir.path(), &[&bot, "builtin:greedy"], &[]);
    assert_eq!(replay.outcome.faults, vec![None, None]);
    assert_eq!(replay.turns.len(), 28);
    let mine: Vec<_> = replay.turns.iter().filter(|t| t.player == 0).collect();
    assert_eq!(
        mine[0].input.len(),
        2 + 18 + 8,
        "initial lines, two grids, two tile lines"
    );
    assert_eq!(mine[0].input[0], "2");
    assert!(
        mine[2].stderr.starts_with("placed at PUT"),
        "{:?}",
        mine[2].stderr
    );
    assert!(replay.outcome.scores[0] > 0);
}

#[test]
fn a_bot_that_sleeps_past_the_limit_is_eliminated_for_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("sleep");
    // The bot never answers its first call (it sleeps 60 s); the first call's limit, 1 s, is
    // scaled to 3 s, far above what a loaded machine adds to a Python start-up.
    let bot = python_bot(&format!("--misbehave sleep 1 {tag}"));
    let (summary, replay) = play(
        dir.path(),
        &[&bot, "builtin:greedy"],
        &["--time-scale", "3"],
    );
    assert_eq!(
        fault_kind(&replay, 0),
        Some(FaultKind::Timeout),
        "{summary}"
    );
    let fault = replay.outcome.faults[0].as_ref().unwrap();
    assert_eq!(
        fault.detail,
        "no complete answer within 3000 ms (0 of 2 lines)"
    );
    assert!(summary.contains("fault: seat 0"), "{summary}");
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
}

#[test]
fn a_bot_that_crashes_mid_game_is_recorded_with_its_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("crash");
    let bot = python_bot(&format!("--misbehave crash 3 {tag}"));
    let (_, replay) = play(dir.path(), &["builtin:greedy", &bot], &[]);
    let fault = replay.outcome.faults[1].as_ref().unwrap();
    assert_eq!(fault.kind, FaultKind::Crashed);
    assert_eq!(
        fault.detail,
        "exited (exit status: 3) after 0 of 2 lines; last stderr line: about to crash"
    );
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
}

#[test]
fn a_bot_printing_garbage_is_malformed() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("garbage");
    let bot = python_bot(&format!("--misbehave garbage 2 {tag}"));
    let (_, replay) = play(dir.path(), &[&bot, "builtin:greedy"], &[]);
    assert_eq!(fault_kind(&replay, 0), Some(FaultKind::Malformed));
    let faulted = replay.turns.iter().find(|t| t.verdict.is_fault()).unwrap();
    assert_eq!(faulted.output, vec!["hello", "world"]);
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
}

#[test]
fn a_bot_that_prints_nothing_and_exits_has_crashed() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("quit");
    let bot = python_bot(&format!("--misbehave quit 1 {tag}"));
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &[]);
    assert_eq!(fault_kind(&replay, 0), Some(FaultKind::Crashed));
    assert_eq!(replay.outcome.faults[0].as_ref().unwrap().turn, 1);
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
}

#[test]
fn a_flooding_bot_is_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("flood");
    let bot = python_bot(&format!("--misbehave flood 2 {tag}"));
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &[]);
    assert_eq!(fault_kind(&replay, 0), Some(FaultKind::OutputFlood));
    assert_eq!(
        replay.outcome.faults[0].as_ref().unwrap().detail,
        "wrote a line of more than 1048576 bytes"
    );
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
}

#[test]
fn the_line_a_bot_printed_before_timing_out_is_in_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("half");
    let bot = python_bot(&format!("--misbehave half 1 {tag}"));
    // The PUT line comes as soon as Python has started, the PICK line never: 10 s is far more
    // than a loaded machine takes to start Python.
    let (_, replay) = play(
        dir.path(),
        &[&bot, "builtin:random"],
        &["--time-scale", "10"],
    );
    let turn = &replay.turns[0];
    assert_eq!(turn.output, vec!["PUT 0 0 0"]);
    assert_eq!(
        turn.verdict,
        Verdict::fault(
            FaultKind::Timeout,
            "no complete answer within 10000 ms (1 of 2 lines)"
        )
    );
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
}

#[test]
fn a_child_that_sleeps_forever_dies_with_its_bot() {
    let dir = tempfile::tempdir().unwrap();
    let (seconds, sleeper) = unique_sleep(7771);
    let bot = python_bot(&format!("--spawn {seconds}"));
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &[]);
    assert_eq!(replay.outcome.faults, vec![None, None]);
    assert_eq!(processes_left_with(&sleeper), Vec::<String>::new());
    let (seconds, sleeper) = unique_sleep(7772);
    let bot = python_bot(&format!("--spawn {seconds} --misbehave sleep 1"));
    let (_, replay) = play(
        dir.path(),
        &[&bot, "builtin:random"],
        &["--time-scale", "3"],
    );
    assert_eq!(fault_kind(&replay, 0), Some(FaultKind::Timeout));
    assert_eq!(processes_left_with(&sleeper), Vec::<String>::new());
    assert_eq!(
        processes_left_with(&format!(
            "kingdomino_bot.py --spawn 7772.{}",
            std::process::id()
        )),
        Vec::<String>::new()
    );
}

#[test]
fn a_child_that_leaves_the_bots_process_group_dies_after_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let (seconds, sleeper) = unique_sleep(8881);
    let bot = format!("setsid sleep {seconds} & {}", python_bot(""));
    let (_, replay) = play(dir.path(), &[&bot, "builtin:random"], &[]);
    assert_eq!(replay.outcome.faults, vec![None, None]);
    assert_eq!(processes_left_with(&sleeper), Vec::<String>::new());
}

#[test]
fn sigterm_of_realm_play_also_kills_a_child_that_left_the_bots_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("sigterm-setsid");
    let (seconds, sleeper) = unique_sleep(8882);
    let bot = format!(
        "setsid sleep {seconds} & {}",
        python_bot(&format!("--misbehave sleep 1 {tag}"))
    );
    let mut realm = start_play_and_wait_for_the_bot(dir.path(), &bot, &sleeper);
    wait_for_process_with(&tag);
    // SAFETY: kill(2) on our own child; no memory involved.
    unsafe { libc::kill(realm.id() as i32, libc::SIGTERM) };
    assert_eq!(realm.wait().unwrap().code(), Some(130));
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
    assert_eq!(processes_left_with(&sleeper), Vec::<String>::new());
}

/// Starts `realm play kingdomino BOT builtin:greedy` with no time limit and waits until the bot
/// runs its own child (`sleep SECONDS`): realm is then in the middle of the match.
fn start_play_and_wait_for_the_bot(
    dir: &std::path::Path,
    bot: &str,
    sleeper: &str,
) -> std::process::Child {
    let child = Command::new(realm())
        .args(["play", "kingdomino", bot, "builtin:greedy", "--no-timeout"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_process_with(sleeper);
    child
}

#[test]
fn sigterm_of_realm_play_kills_its_bots() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("sigterm");
    let (seconds, sleeper) = unique_sleep(9990);
    let bot = python_bot(&format!("--spawn {seconds} --misbehave sleep 1 {tag}"));
    let mut realm = start_play_and_wait_for_the_bot(dir.path(), &bot, &sleeper);
    // SAFETY: kill(2) on our own child; no memory involved.
    unsafe { libc::kill(realm.id() as i32, libc::SIGTERM) };
    let status = realm.wait().unwrap();
    // ctrlc runs one handler for INT, TERM and HUP and cannot tell them apart: 130 for all.
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
    assert_eq!(processes_left_with(&sleeper), Vec::<String>::new());
}

#[test]
fn sigkill_of_realm_play_leaves_no_process_of_a_shell_syntax_bot() {
    let dir = tempfile::tempdir().unwrap();
    let tag = tag("sigkill");
    let (seconds, sleeper) = unique_sleep(9991);
    // `cd ... &&` makes realm's child a shell, so the kernel's parent-death signal reaches only
    // that shell: python and its `sleep` are the watchdog's to kill.
    let bot = format!(
        "cd {} && python3 {} --spawn {seconds} --misbehave sleep 1 {tag}",
        dir.path().display(),
        python_bot_path().display()
    );
    let mut realm = start_play_and_wait_for_the_bot(dir.path(), &bot, &sleeper);
    let watchdog = watchdog_of(realm.id());
    realm.kill().unwrap(); // SIGKILL
    assert_eq!(realm.wait().unwrap().signal(), Some(libc::SIGKILL));
    assert_eq!(processes_left_with(&tag), Vec::<String>::new());
    assert_eq!(processes_left_with(&sleeper), Vec::<String>::new());
    let watchdog_stat = format!("/proc/{watchdog}/stat");
    let started = std::time::Instant::now();
    while is_live(&watchdog_stat) && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!is_live(&watchdog_stat), "the watchdog outlived realm");
}

/// The pid of realm's watchdog (`sh` reading `+PGID` lines), a child of `realm_pid`.
fn watchdog_of(realm_pid: u32) -> u32 {
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let stat = fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let ppid = stat.rsplit(") ").next().and_then(|r| r.split(' ').nth(1));
        let cmdline = fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if ppid == Some(&realm_pid.to_string())
            && String::from_utf8_lossy(&cmdline).contains("read -r line")
        {
            return entry.file_name().to_string_lossy().parse().unwrap();
        }
    }
    panic!("realm {realm_pid} has no watchdog");
}

/// Whether the process of a `/proc/PID/stat` path exists and is not a zombie.
fn is_live(stat_path: &str) -> bool {
    fs::read_to_string(stat_path)
        .is_ok_and(|stat| !stat.rsplit(") ").next().is_some_and(|r| r.starts_with('Z')))
}

#[test]
fn blocking_lines_end_at_lf_only_so_a_cr_inside_makes_the_line_malformed() {
    let dir = tempfile::tempdir().unwrap();
    let bot = r"printf '0 0 A001\rjunk\n'; exec sleep 30";
    let bots = [bot, "builtin:greedy"];
    let (_, replay) = play_game(dir.path(), "blocking", &bots, &["--seed", "3"]);
    let turn = &replay.turns[0];
    assert_eq!(turn.output, vec!["0 0 A001\rjunk"]);
    assert_eq!(
        turn.verdict.kind,
        realm_core::VerdictKind::Fault(FaultKind::Malformed)
    );
}

#[test]
fn a_blocking_answer_with_a_20000_byte_message_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let message = "m".repeat(20_000);
    let bot = format!(r"printf '0 0 A001 {message}\n'; read l; exit 0");
    let bots = [bot.as_str(), "builtin:greedy"];
    // Its second call finds it gone: the exit ends the game there, without a time limit.
    let extra = ["--seed", "3"];
    let (_, replay) = play_game(dir.path(), "blocking", &bots, &extra);
    let turn = &replay.turns[0];
    assert_eq!(turn.output[0].len(), 20_009);
    assert!(!turn.verdict.is_fault(), "{:?}", turn.verdict);
}

#[test]
fn kingdomino_lines_end_at_lf_only_so_put_cr_pick_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // One line, then the bot exits once its input came: no time limit is needed to end it.
    let bot = r"printf 'PUT 0 0 0\rPICK 5\n'; read l; exit 0";
    let (_, replay) = play(dir.path(), &[bot, "builtin:greedy"], &[]);
    let turn = &replay.turns[0];
    assert_eq!(turn.output, vec!["PUT 0 0 0\rPICK 5"]);
    assert_eq!(
        turn.verdict,
        Verdict::fault(
            FaultKind::Crashed,
            "exited (exit status: 0) after 1 of 2 lines"
        )
    );
}

#[test]
fn realm_bot_speaks_the_protocol_from_the_other_side() {
    let dir = tempfile::tempdir().unwrap();
    let as_process = format!("{} bot kingdomino greedy", common::realm());
    let (_, through_process) = play(dir.path(), &[&as_process, "builtin:random"], &[]);
    let (_, in_process) = play(dir.path(), &["builtin:greedy", "builtin:random"], &[]);
    assert_eq!(through_process.outcome, in_process.outcome);
    let outputs = |r: &Replay| r.turns.iter().map(|t| t.output.clone()).collect::<Vec<_>>();
    assert_eq!(outputs(&through_process), outputs(&in_process));
}

#[test]
fn psyleague_json_gives_zero_based_ranks_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "play",
            "kingdomino",
            "builtin:random",
            "builtin:greedy",
            "--seed",
            "3",
            "--json",
        ],
    );
    assert_eq!(
        stdout(&out).trim(),
        r#"{"ranks":[1,0],"errors":[0,0],"test_data":{"seed":3},"player_data":[{},{}],"attributes":[]}"#
    );
}

#[test]
fn the_referee_command_prints_one_score_per_player() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "referee",
            "kingdomino",
            "-p1",
            "builtin:greedy",
            "-p2",
            "exit 1",
            "-d",
            "seed=5",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The scores, then the game's parameters (cg-brutaltester's replay hint reads them).
    assert_eq!(text.lines().skip(2).collect::<Vec<_>>(), ["seed=5"]);
    let lines: Vec<i64> = text.lines().take(2).map(|l| l.parse().unwrap()).collect();
    assert!(lines[0] > 0);
    assert_eq!(lines[1], -1, "a crashed player scores -1");
}

#[test]
fn bad_flags_and_files_give_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let known = realm_games::GameKind::ALL.map(realm_games::GameKind::slug);
    let unknown_game = format!(
        "error: chess does not exist; known games: {}",
        known.join(", ")
    );
    for (args, expected) in [
        (
            vec!["play", "kingdomino", "builtin:greedy"],
            "error: kingdomino is played by 2, 3, 4 players, not 1",
        ),
        (vec!["play", "chess", "a", "b"], unknown_game.as_str()),
        (
            vec!["play", "ice-and-fire", "a", "b", "--league", "9"],
            "error: ice-and-fire has no league 9; leagues: 1, 2, 3, 4",
        ),
        (
            vec!["play", "kingdomino", "builtin:nope", "b"],
            "error: kingdomino has no built-in bot `nope`",
        ),
        (
            vec!["play", "kingdomino", "a", "b", "--seed", "x"],
            "error: seed `x` is not a 64-bit integer",
        ),
        (
            vec!["play", "kingdomino", "a", "b", "--bogus"],
            "error: unexpected argument '--bogus' found (see --help)",
        ),
        (
            vec!["play", "kingdomino", "a", "b", "--time-scale", "1e30"],
            "error: --time-scale must be at most 1000 (use --no-timeout for no limits)",
        ),
        (
            vec!["score", "kingdom-builder"],
            "error: missing required argument <BOARD> (see --help)",
        ),
        (
            vec!["play"],
            "error: missing required arguments <GAME>, <BOTS>... (see --help)",
        ),
        (
            vec!["score", "kingdom-builder", "missing.txt"],
            "error: cannot read missing.txt",
        ),
        (
            vec!["report", "--db", "nothing.sqlite"],
            "error: no results store at nothing.sqlite",
        ),
    ] {
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(expected), "{args:?}: {err}");
    }
}

#[test]
fn the_scorer_reads_a_board_file() {
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../kingdom-builder/data/kingdom_builder_example_board.txt"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["score", "kingdom-builder", "--cards", "1,3,7", board],
    );
    assert_eq!(stdout(&out), "52 46 43 62\n");
}

#[test]
fn sigkill_of_realm_leaves_no_process_that_left_its_bots_session() {
    let dir = tempfile::tempdir().unwrap();
    let (seconds, sleeper) = unique_sleep(9994);
    // `setsid -f` puts the sleeper in a session of its own, out of reach of the bot's group and
    // of the watchdog: only the bot's PID namespace takes it down with realm.
    let bot = format!(
        "setsid -f sleep {seconds}; exec {}",
        python_bot("--misbehave sleep 1")
    );
    let mut realm = start_play_and_wait_for_the_bot(dir.path(), &bot, &sleeper);
    realm.kill().unwrap(); // SIGKILL
    assert_eq!(realm.wait().unwrap().signal(), Some(libc::SIGKILL));
    assert_eq!(processes_left_with(&sleeper), Vec::<String>::new());
}

#[test]
fn an_empty_bot_command_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["play", "kingdomino", "", "builtin:greedy"][..],
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "  ",
            "--games",
            "2",
        ][..],
    ] {
        let out = run(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&out),
            "error: a bot argument is empty: give `builtin:NAME` or a command to run\n"
        );
    }
}
