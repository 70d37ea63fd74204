//! The match loop against real child processes, with a tiny game whose rules are obvious: each
//! call sends `ask N` and the right answer is `N`. Every misbehaviour must end as the right fault,
//! quickly, and leave no process behind.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use realm_arena::{run_match, BotProcess, MatchOptions, OutputLimits, Seat};
use realm_core::referee::LineRules;
use realm_core::{
    EndReason, Fault, FaultKind, MatchSpec, Outcome, Referee, ReplayPlayer, Request, Verdict,
};

/// Two players alternate for `rounds` rounds; a fault eliminates, a wrong number is invalid.
/// Each answer is `lines_per_answer` lines, of which the first is judged.
struct EchoReferee {
    rounds: u32,
    calls: u32,
    /// Each seat's time limit.
    limits: [Duration; 2],
    lines_per_answer: usize,
    rules: LineRules,
    correct: [i64; 2],
    faults: [Option<Fault>; 2],
    pending: Option<(usize, u32)>,
}

impl EchoReferee {
    fn new(rounds: u32, limit_ms: u64) -> Self {
        Self::with_limits(rounds, [limit_ms, limit_ms])
    }

    /// Seat-by-seat limits: a timeout test limits the seat under test only, so the other seat
    /// cannot time out on a loaded machine.
    fn with_limits(rounds: u32, limits_ms: [u64; 2]) -> Self {
        EchoReferee {
            rounds,
            calls: 0,
            limits: limits_ms.map(Duration::from_millis),
            lines_per_answer: 1,
            rules: LineRules::default(),
            correct: [0, 0],
            faults: [None, None],
            pending: None,
        }
    }
}

impl Referee for EchoReferee {
    fn next_request(&mut self) -> Option<Request> {
        loop {
            if self.calls >= self.rounds * 2 {
                return None;
            }
            let player = (self.calls % 2) as usize;
            let n = self.calls;
            self.calls += 1;
            if self.faults[player].is_none() {
                self.pending = Some((player, n));
                return Some(Request {
                    player,
                    turn: n / 2 + 1,
                    lines: vec![format!("ask {n}")],
                    expected_lines: self.lines_per_answer,
                    time_limit: self.limits[player],
                });
            }
        }
    }

    fn answer(&mut self, player: usize, lines: &[String]) -> Verdict {
        let (_, n) = self.pending.take().expect("a pending request");
        match lines[0].trim().parse::<u32>() {
            Ok(v) if v == n => {
                self.correct[player] += 1;
                Verdict::ok()
            }
            Ok(v) => Verdict::warning(format!("{v} is not {n}")),
            Err(_) => {
                let detail = format!("not a number: {:?}", lines[0]);
                self.faults[player] = Some(Fault {
                    kind: FaultKind::Malformed,
                    turn: n,
                    detail: detail.clone(),
                });
                Verdict::fault(FaultKind::Malformed, detail)
            }
        }
    }

    fn fault(&mut self, player: usize, fault: Fault) {
        self.pending = None;
        self.faults[player] = Some(fault);
    }

    fn frame(&self) -> serde_json::Value {
        serde_json::json!({ "turn": self.calls, "scores": self.correct })
    }

    fn outcome(&self) -> Outcome {
        Outcome {
            scores: self.correct.to_vec(),
            ranks: realm_core::ranks_from_keys(&self.correct),
            end: EndReason::Finished,
            detail: "finished".into(),
            faults: self.faults.to_vec(),
            stats: Vec::new(),
        }
    }

    fn line_rules(&self) -> LineRules {
        self.rules
    }
}

const GOOD: &str = "while read a n; do echo $n; done";

/// The time limit of tests that are not about time: far above anything a loaded machine adds,
/// so only the behaviour under test decides the verdict. Timeout tests use bots that never
/// answer.
const NO_RUSH: u64 = 600_000;

fn play(bot0: &str, bot1: &str, rounds: u32, limit_ms: u64) -> realm_arena::MatchResult {
    play_with(
        [bot0, bot1],
        EchoReferee::new(rounds, limit_ms),
        MatchOptions::default(),
    )
}

fn play_with(
    bots: [&str; 2],
    referee: EchoReferee,
    options: MatchOptions,
) -> realm_arena::MatchResult {
    play_spawned(BotProcess::spawn, bots, referee, options)
}

/// How a test starts its bots: `BotProcess::spawn` or `spawn_without_namespace`.
type Spawn = fn(&str, OutputLimits) -> std::io::Result<BotProcess>;

fn play_spawned(
    spawn: Spawn,
    [bot0, bot1]: [&str; 2],
    referee: EchoReferee,
    options: MatchOptions,
) -> realm_arena::MatchResult {
    let spec = MatchSpec::new("echo", 2, 0);
    let seats = [bot0, bot1]
        .iter()
        .map(|cmd| Seat::process(spawn(cmd, OutputLimits::default()).expect("spawn")))
        .collect();
    let players = [bot0, bot1]
        .iter()
        .map(|c| ReplayPlayer {
            name: c.to_string(),
            command: c.to_string(),
        })
        .collect();
    run_match(&spec, players, Box::new(referee), seats, options)
}

/// Replay players `p0`, `p1`, ... for matches whose commands the test does not record.
fn anonymous_players(n: usize) -> Vec<ReplayPlayer> {
    (0..n)
        .map(|i| ReplayPlayer {
            name: format!("p{i}"),
            command: String::new(),
        })
        .collect()
}

fn fault_of(result: &realm_arena::MatchResult, player: usize) -> Option<FaultKind> {
    result.replay.outcome.faults[player]
        .as_ref()
        .map(|f| f.kind)
}

/// True when no process of the group `pgid` exists any more.
fn group_is_gone(pgid: i32) -> bool {
    realm_arena::become_subreaper();
    // SAFETY: signal 0 only checks for existence.
    unsafe { libc::kill(-pgid, 0) == -1 }
}

/// Whether `done` becomes true within a minute: killed processes take a moment to disappear,
/// a long one on a loaded machine. A guard against waiting forever, not a measure of speed.
fn soon(mut done: impl FnMut() -> bool) -> bool {
    let started = std::time::Instant::now();
    while !done() {
        if started.elapsed() > Duration::from_secs(60) {
            return false;
        }
        thread::sleep(Duration::from_millis(10));
    }
    true
}

/// `group_is_gone` within a minute, reaping the group's members that were left to this process
/// (the tests' subreaper) meanwhile.
fn group_is_gone_soon(pgid: i32) -> bool {
    soon(|| {
        // SAFETY: waitpid on this process's own children of that group, without blocking.
        while unsafe { libc::waitpid(-pgid, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
        group_is_gone(pgid)
    })
}

#[test]
fn well_behaved_bots_answer_every_call() {
    let result = play(GOOD, GOOD, 5, NO_RUSH);
    assert_eq!(result.replay.outcome.scores, vec![5, 5]);
    assert_eq!(result.replay.turns.len(), 10);
    assert_eq!(result.replay.turns[3].input, vec!["ask 3".to_string()]);
    assert_eq!(result.replay.turns[3].output, vec!["3".to_string()]);
    assert!(result.replay.outcome.faults.iter().all(Option::is_none));
}

#[test]
fn a_bot_that_sleeps_past_the_limit_times_out_without_waiting_for_it() {
    // The sleeper would hold the match for a day; `without_hanging` fails the test long before.
    let result = without_hanging(|| {
        let referee = EchoReferee::with_limits(3, [NO_RUSH, 100]);
        play_with(
            [GOOD, "read l; sleep 86400"],
            referee,
            MatchOptions::default(),
        )
    });
    assert_eq!(fault_of(&result, 1), Some(FaultKind::Timeout));
    assert_eq!(result.replay.outcome.scores, vec![3, 0]);
}

#[test]
fn a_bot_that_crashes_mid_game_is_recorded_as_crashed() {
    let result = play(
        GOOD,
        "read a n; echo $n; read l; echo dying >&2; exit 3",
        3,
        NO_RUSH,
    );
    assert_eq!(fault_of(&result, 1), Some(FaultKind::Crashed));
    let fault = result.replay.outcome.faults[1].as_ref().unwrap();
    assert!(fault.detail.contains("exit status: 3"), "{}", fault.detail);
    assert!(fault.detail.contains("dying"), "{}", fault.detail);
    assert_eq!(result.replay.outcome.scores, vec![3, 1]);
}

#[test]
fn a_bot_printing_garbage_gets_the_referees_verdict() {
    let result = play("while read l; do echo banana; done", GOOD, 3, NO_RUSH);
    assert_eq!(fault_of(&result, 0), Some(FaultKind::Malformed));
    assert_eq!(result.replay.turns[0].output, vec!["banana".to_string()]);
}

#[test]
fn a_bot_that_prints_nothing_and_exits_crashes() {
    let result = play("exit 0", GOOD, 2, NO_RUSH);
    assert!(
        matches!(fault_of(&result, 0), Some(FaultKind::Crashed)),
        "{:?}",
        result.replay.outcome.faults
    );
}

#[test]
fn a_bot_that_closes_stdout_but_keeps_running_is_closed_output() {
    // It would run for a day: realm waits a bounded while for an exit, then judges it.
    let result = without_hanging(|| play("exec 1>&-; sleep 86400", GOOD, 2, NO_RUSH));
    assert_eq!(fault_of(&result, 0), Some(FaultKind::ClosedOutput));
    let fault = result.replay.outcome.faults[0].as_ref().unwrap();
    assert_eq!(
        fault.detail,
        "closed its standard output after 0 of 1 lines"
    );
}

/// A bot that answers once, closes stdout, and exits with status 3 only after `sleep 0.7`, as a
/// Python bot whose interpreter teardown is slow on a loaded machine: a crash with its status
/// and last stderr line, not a closed output.
fn slow_exit_after_closing_stdout(spawn: Spawn) {
    let bot = "read a n; echo $n; read l; exec 1>&-; sleep 0.7; echo tearing down >&2; exit 3";
    let referee = EchoReferee::new(3, NO_RUSH);
    let result = play_spawned(spawn, [GOOD, bot], referee, MatchOptions::default());
    let fault = result.replay.outcome.faults[1].as_ref().expect("a fault");
    assert_eq!(
        (fault.kind, fault.detail.as_str()),
        (
            FaultKind::Crashed,
            "exited (exit status: 3) after 0 of 1 lines; last stderr line: tearing down"
        )
    );
}

#[test]
fn a_bot_that_exits_long_after_closing_stdout_has_crashed_with_its_status() {
    slow_exit_after_closing_stdout(BotProcess::spawn);
}

#[test]
fn without_a_namespace_a_bot_that_exits_long_after_closing_stdout_has_crashed() {
    realm_arena::become_subreaper();
    slow_exit_after_closing_stdout(BotProcess::spawn_without_namespace);
}

#[test]
fn a_bot_that_closes_its_stdin_stopped_reading_its_input() {
    // It answers once, then runs for a day without reading: the next input cannot be written.
    let bot = "read a n; exec 0<&-; echo $n; sleep 86400";
    let result = without_hanging(move || play(GOOD, bot, 3, NO_RUSH));
    let fault = result.replay.outcome.faults[1].as_ref().expect("a fault");
    assert_eq!(
        (fault.kind, fault.detail.as_str()),
        (FaultKind::ClosedInput, "stopped reading its input")
    );
    assert_eq!(fault.kind.code(), "closed_input");
    assert_eq!(result.replay.outcome.scores, vec![3, 1]);
}

#[test]
fn a_bot_that_closes_its_stdin_and_then_exits_has_crashed() {
    let bot = "read a n; exec 0<&-; echo $n; sleep 0.5; echo bye >&2; exit 5";
    let result = play(GOOD, bot, 3, NO_RUSH);
    let fault = result.replay.outcome.faults[1].as_ref().expect("a fault");
    assert_eq!(
        (fault.kind, fault.detail.as_str()),
        (
            FaultKind::Crashed,
            "exited (exit status: 5) after 0 of 1 lines; last stderr line: bye"
        )
    );
}

#[test]
fn a_bot_that_floods_output_is_stopped() {
    // Many rounds, so the verdict does not depend on how fast the reader thread is scheduled:
    // the queue passes the cap long before the game could end.
    let result = play("yes 1", GOOD, 1000, NO_RUSH);
    assert_eq!(fault_of(&result, 0), Some(FaultKind::OutputFlood));
}

/// A bot that answers `0` padded with leading zeros to `bytes` bytes, then sleeps.
fn zeros_bot(bytes: usize) -> String {
    format!("read l; head -c {bytes} /dev/zero | tr '\\0' 0; echo; sleep 30")
}

#[test]
fn the_referees_line_limit_accepts_a_line_at_it_and_floods_one_past_it() {
    // Ice and Fire §3.1: a line of 10,000 or more bytes counts as no answer.
    let rules = LineRules::CODINGAME.with_max_line_bytes(9_999);
    for (bytes, fault) in [(9_999, None), (10_000, Some(FaultKind::OutputFlood))] {
        let referee = EchoReferee {
            rules,
            ..EchoReferee::new(1, NO_RUSH)
        };
        let result = play_with([&zeros_bot(bytes), GOOD], referee, MatchOptions::default());
        assert_eq!(fault_of(&result, 0), fault, "{bytes} bytes");
        if let Some(f) = &result.replay.outcome.faults[0] {
            assert_eq!(f.detail, "wrote a line of more than 9999 bytes");
        }
    }
}

#[test]
fn without_a_limit_of_the_spec_a_long_line_passes_and_the_safety_cap_floods() {
    // Blocking §4.4: any message may follow the move, so 20,000 bytes is an answer.
    let referee = EchoReferee::new(1, NO_RUSH);
    let result = play_with([&zeros_bot(20_000), GOOD], referee, MatchOptions::default());
    assert_eq!(result.replay.outcome.faults, vec![None, None]);
    assert_eq!(result.replay.turns[0].output[0].len(), 20_000);
    let referee = EchoReferee::new(1, NO_RUSH);
    let over_cap = zeros_bot(OutputLimits::default().max_line_bytes + 1);
    let result = play_with([&over_cap, GOOD], referee, MatchOptions::default());
    assert_eq!(fault_of(&result, 0), Some(FaultKind::OutputFlood));
}

#[test]
fn long_lines_cannot_add_up_to_unbounded_memory() {
    let limits = OutputLimits {
        max_pending_bytes: 100_000,
        ..OutputLimits::default()
    };
    let bot = "read l; for i in 1 2 3 4 5 6; do head -c 20000 /dev/zero | tr '\\0' 1; echo; done; sleep 30";
    let mut process = BotProcess::spawn(bot, limits).unwrap();
    let report = process.call(&["ask 0".into()], 10, Some(Duration::from_millis(NO_RUSH)));
    let (kind, detail) = report.answer.unwrap_err();
    assert_eq!(kind, FaultKind::OutputFlood);
    assert_eq!(detail, "more than 100000 bytes of unread lines queued");
    assert_eq!(
        report.partial.len(),
        6,
        "the lines read before the flood are kept"
    );
}

#[test]
fn lf_only_rules_keep_a_cr_inside_the_line() {
    // Blocking §4: every line ends with `\n`, so `0 0 A001\rjunk` is one (malformed) line.
    let mut process = BotProcess::spawn(
        "read l; printf '0 0 A001\\rjunk\\nnext\\r\\n'; sleep 30",
        OutputLimits::default(),
    )
    .unwrap();
    process.set_line_rules(LineRules::LF);
    let report = process.call(&["go".into()], 2, Some(Duration::from_millis(NO_RUSH)));
    assert_eq!(report.answer.unwrap(), vec!["0 0 A001\rjunk", "next\r"]);
}

#[test]
fn the_runner_frames_each_seat_by_the_referees_rules() {
    // `0\r1\n` is the answer `0` then `1` under CodinGame framing, and one bad line under LF.
    let bot = "read l; printf '0\\r1\\n'; read l; sleep 30";
    let codingame = EchoReferee {
        rules: LineRules::CODINGAME,
        ..EchoReferee::new(1, NO_RUSH)
    };
    let result = play_with([bot, GOOD], codingame, MatchOptions::default());
    assert_eq!(result.replay.turns[0].output, vec!["0"]);
    assert_eq!(result.replay.outcome.faults, vec![None, None]);
    let lf = EchoReferee::new(1, NO_RUSH);
    let result = play_with([bot, GOOD], lf, MatchOptions::default());
    assert_eq!(result.replay.turns[0].output, vec!["0\r1"]);
    assert_eq!(fault_of(&result, 0), Some(FaultKind::Malformed));
}

#[test]
fn a_bot_that_never_reads_its_input_cannot_block_realm() {
    // 200 calls of a large input overflow the pipe of a bot that never reads.
    let spec = MatchSpec::new("echo", 2, 0);
    let mut process = BotProcess::spawn("sleep 30", OutputLimits::default()).unwrap();
    let big: Vec<String> = (0..20_000)
        .map(|i| format!("line {i} of a long input"))
        .collect();
    let report = process.call(&big, 1, Some(Duration::from_millis(200)));
    assert_eq!(report.answer.unwrap_err().0, FaultKind::Timeout);
    drop(spec);
}

#[test]
fn extra_lines_are_kept_for_the_next_call_and_count_as_instant() {
    let mut process = BotProcess::spawn(
        "read l; echo 0; echo 1; echo 2; sleep 30",
        OutputLimits::default(),
    )
    .unwrap();
    let first = process.call(&["ask 0".into()], 1, Some(Duration::from_millis(NO_RUSH)));
    assert_eq!(first.answer.unwrap(), vec!["0"]);
    let second = process.call(&["ask 1".into()], 2, Some(Duration::from_millis(NO_RUSH)));
    assert_eq!(second.answer.unwrap(), vec!["1", "2"]);
}

#[test]
fn cr_lf_and_crlf_each_end_one_line_under_codingame_rules() {
    // Ice and Fire §3.1: `WAIT\rWAIT\n` is two answers.
    let mut process = BotProcess::spawn(
        "read l; printf 'a\\rb\\r\\nc\\nd'; sleep 30",
        OutputLimits::default(),
    )
    .unwrap();
    process.set_line_rules(LineRules::CODINGAME);
    let report = process.call(&["go".into()], 3, Some(Duration::from_millis(NO_RUSH)));
    assert_eq!(report.answer.unwrap(), vec!["a", "b", "c"]);
}

#[test]
fn stderr_is_kept_per_call() {
    let mut process = BotProcess::spawn(
        "while read l; do echo \"dbg $l\" >&2; sleep 0.05; echo 1; done",
        OutputLimits::default(),
    )
    .unwrap();
    let report = process.call(&["first".into()], 1, Some(Duration::from_millis(NO_RUSH)));
    assert_eq!(report.answer.unwrap(), vec!["1"]);
    assert_eq!(report.stderr, "dbg first\n");
}

#[test]
fn children_spawned_by_a_bot_die_with_it() {
    realm_arena::become_subreaper();
    let mut process = BotProcess::spawn(
        "sleep 1000 & sleep 1000 & trap '' TERM; while read l; do echo 1; done",
        OutputLimits::default(),
    )
    .unwrap();
    let pgid = process.pgid();
    assert_eq!(
        process
            .call(&["x".into()], 1, Some(Duration::from_millis(NO_RUSH)))
            .answer
            .unwrap(),
        vec!["1"]
    );
    assert!(!group_is_gone(pgid));
    process.stop();
    assert!(group_is_gone_soon(pgid), "the bot's children outlived it");
}

#[test]
fn no_process_is_left_after_a_match_of_misbehaving_bots() {
    realm_arena::become_subreaper();
    let cmd = "sleep 1000 & read l; sleep 30";
    let spec = MatchSpec::new("echo", 2, 0);
    let p0 = BotProcess::spawn(cmd, OutputLimits::default()).unwrap();
    let p1 = BotProcess::spawn(
        "sleep 1000 & while read a n; do echo $n; done",
        OutputLimits::default(),
    )
    .unwrap();
    let groups = [p0.pgid(), p1.pgid()];
    let players = anonymous_players(2);
    let result = run_match(
        &spec,
        players,
        Box::new(EchoReferee::with_limits(3, [100, NO_RUSH])),
        vec![Seat::process(p0), Seat::process(p1)],
        MatchOptions::default(),
    );
    assert_eq!(fault_of(&result, 0), Some(FaultKind::Timeout));
    assert_eq!(result.replay.outcome.scores, vec![0, 3]);
    for pgid in groups {
        assert!(group_is_gone_soon(pgid), "group {pgid} survived the match");
    }
}

#[test]
fn no_timeout_waits_for_a_slow_bot() {
    let spec = MatchSpec::new("echo", 2, 0);
    let slow = "while read a n; do sleep 0.3; echo $n; done";
    let seats = vec![
        Seat::process(BotProcess::spawn(slow, OutputLimits::default()).unwrap()),
        Seat::process(BotProcess::spawn(GOOD, OutputLimits::default()).unwrap()),
    ];
    let players = anonymous_players(2);
    let options = MatchOptions {
        no_timeout: true,
        ..MatchOptions::default()
    };
    let result = run_match(
        &spec,
        players,
        Box::new(EchoReferee::new(1, 10)),
        seats,
        options,
    );
    assert_eq!(result.replay.outcome.scores, vec![1, 1]);
}

#[test]
fn the_lines_a_faulted_bot_did_print_are_in_the_replay() {
    // The other seat answers both lines of every call.
    let two_lines = "while read a n; do echo $n; echo $n; done";
    // The first line comes at once, the second never: 3 s is far more than a loaded machine
    // takes to echo a line, and the other seat has no limit to miss.
    let referee = EchoReferee {
        lines_per_answer: 2,
        ..EchoReferee::with_limits(1, [3_000, NO_RUSH])
    };
    let result = play_with(
        ["read l; echo 0; sleep 86400", two_lines],
        referee,
        MatchOptions::default(),
    );
    let turn = &result.replay.turns[0];
    assert_eq!(turn.output, vec!["0"]);
    assert_eq!(
        turn.verdict,
        Verdict::fault(
            FaultKind::Timeout,
            "no complete answer within 3000 ms (1 of 2 lines)"
        )
    );
    let referee = EchoReferee {
        lines_per_answer: 2,
        ..EchoReferee::new(1, NO_RUSH)
    };
    let result = play_with(
        ["read l; echo 0; exit 3", two_lines],
        referee,
        MatchOptions::default(),
    );
    let turn = &result.replay.turns[0];
    assert_eq!(turn.output, vec!["0"]);
    assert_eq!(
        turn.verdict,
        Verdict::fault(
            FaultKind::Crashed,
            "exited (exit status: 3) after 1 of 2 lines"
        )
    );
}

/// Runs `f` on its own thread and fails the test if it has not returned after a minute: a
/// guard against hanging forever, not a measure of speed.
fn without_hanging<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the call never returned")
}

#[test]
fn a_bot_flooding_stderr_still_times_out_and_its_stderr_stays_capped() {
    let report = without_hanging(|| {
        let mut process = BotProcess::spawn("yes flood >&2", OutputLimits::default()).unwrap();
        process.call(&["ask 0".into()], 1, Some(Duration::from_millis(200)))
    });
    assert_eq!(
        report.answer,
        Err((
            FaultKind::Timeout,
            "no complete answer within 200 ms (0 of 1 lines)".to_string()
        ))
    );
    // 64 KiB kept, then one line counting the rest.
    let cap = OutputLimits::default().max_stderr_bytes;
    let kept = &report.stderr[..cap.min(report.stderr.len())];
    let marker = &report.stderr[kept.len()..];
    assert!(kept.starts_with("flood\nflood\n"), "{}", &kept[..20]);
    assert!(
        marker.starts_with("\n[realm: ") && marker.ends_with(" more bytes of stderr dropped]\n"),
        "{marker}"
    );
    assert_eq!(marker.lines().count(), 2, "{marker}");
}

#[test]
fn a_huge_time_scale_means_no_limit_instead_of_a_panic() {
    let options = MatchOptions {
        time_scale: 1e30,
        ..MatchOptions::default()
    };
    let result = play_with([GOOD, GOOD], EchoReferee::new(2, 50), options);
    assert_eq!(result.replay.outcome.scores, vec![2, 2]);
}

#[test]
fn the_clock_includes_the_write_that_completes_the_input() {
    // `cat` answers the moment its input arrives, often before realm's `write` has returned;
    // timed from after that `write`, such answers measured below a microsecond. The answer
    // cannot exist before the input is written, so a round trip of two processes is measured.
    let mut process = BotProcess::spawn("cat", OutputLimits::default()).unwrap();
    let limit = Some(Duration::from_millis(NO_RUSH));
    let mut under_a_microsecond = 0;
    for i in 0..300 {
        let report = process.call(&[i.to_string()], 1, limit);
        assert_eq!(report.answer, Ok(vec![i.to_string()]));
        if report.elapsed < Duration::from_micros(1) {
            under_a_microsecond += 1;
        }
    }
    assert_eq!(under_a_microsecond, 0);
}

/// Live (non-zombie) processes whose command line contains `marker`.
fn live_processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat.rsplit(") ").next().is_some_and(|r| r.starts_with('Z'));
        if cmdline.contains(marker) && !zombie {
            found.push(cmdline);
        }
    }
    found
}

#[test]
fn a_child_that_left_the_bots_group_dies_after_the_match() {
    realm_arena::become_subreaper();
    // A marker unique to this test run, so parallel runs cannot see each other's sleepers.
    let marker = format!("sleep 8881.{}", std::process::id());
    let bot = format!("setsid {marker} & {GOOD}");
    let result = play(&bot, GOOD, 3, NO_RUSH);
    assert_eq!(result.replay.outcome.scores, vec![3, 3]);
    soon(|| live_processes_with(&marker).is_empty());
    assert_eq!(live_processes_with(&marker), Vec::<String>::new());
}

#[test]
fn a_shell_builtin_as_the_bot_keeps_its_meaning() {
    let result = play("exit 3", GOOD, 2, NO_RUSH);
    let fault = result.replay.outcome.faults[0].as_ref().expect("a fault");
    assert_eq!(fault.kind, FaultKind::Crashed);
    assert!(fault.detail.contains("exit status: 3"), "{}", fault.detail);
}

/// A bot that exits while a child it started still holds its stdout open: the exit is the
/// verdict (not a timeout after the limit, and no endless wait without one).
fn dead_bot_with_a_child_holding_stdout(spawn: Spawn) {
    let marker = format!("sleep 8883.{}", std::process::id());
    let bot = format!("read l; {marker} & exit 4");
    let result = without_hanging(move || {
        let options = MatchOptions {
            no_timeout: true,
            ..MatchOptions::default()
        };
        play_spawned(spawn, [&bot, GOOD], EchoReferee::new(2, 10), options)
    });
    let fault = result.replay.outcome.faults[0].as_ref().expect("a fault");
    assert_eq!(fault.kind, FaultKind::Crashed, "{}", fault.detail);
    assert!(fault.detail.contains("exit status: 4"), "{}", fault.detail);
}

#[test]
fn a_dead_bot_is_a_crash_even_while_its_child_holds_stdout() {
    dead_bot_with_a_child_holding_stdout(BotProcess::spawn);
}

#[test]
fn without_a_namespace_a_dead_bot_is_still_a_crash_while_its_child_holds_stdout() {
    realm_arena::become_subreaper();
    dead_bot_with_a_child_holding_stdout(BotProcess::spawn_without_namespace);
}

#[test]
fn a_time_margin_accepts_late_answers_and_counts_them() {
    // Every answer takes at least 300 ms against a 50 ms limit: late every time, and far inside
    // a margin of ten minutes however loaded the machine is.
    let slow = "while read a n; do sleep 0.3; echo $n; done";
    let options = MatchOptions {
        time_margin: Duration::from_millis(NO_RUSH),
        ..MatchOptions::default()
    };
    let referee = EchoReferee::with_limits(2, [50, NO_RUSH]);
    let result = play_with([slow, GOOD], referee, options);
    assert_eq!(result.replay.outcome.faults, vec![None, None]);
    assert_eq!(result.replay.outcome.scores, vec![2, 2]);
    assert_eq!(result.late_calls, vec![2, 0]);
    // Without the margin the same bot times out at its first call.
    let result = play_with(
        [slow, GOOD],
        EchoReferee::new(2, 50),
        MatchOptions::default(),
    );
    assert_eq!(fault_of(&result, 0), Some(FaultKind::Timeout));
}

#[test]
fn with_timings_a_replay_marks_late_answers_and_nothing_otherwise() {
    let slow = "while read a n; do sleep 0.3; echo $n; done";
    let referee = || EchoReferee::with_limits(2, [50, NO_RUSH]);
    let margin = Duration::from_millis(NO_RUSH);
    let timed = MatchOptions {
        time_margin: margin,
        timings: true,
        ..MatchOptions::default()
    };
    let result = play_with([slow, GOOD], referee(), timed);
    let late: Vec<bool> = result.replay.turns.iter().map(|t| t.late).collect();
    assert_eq!(late, vec![true, false, true, false]);
    // Without timings the replay holds no timing-dependent field: the same bytes as before.
    let untimed = MatchOptions {
        time_margin: margin,
        ..MatchOptions::default()
    };
    let result = play_with([slow, GOOD], referee(), untimed);
    assert_eq!(result.late_calls, vec![2, 0]);
    let json = serde_json::to_string(&result.replay).unwrap();
    assert!(
        !json.contains("\"late\"") && !json.contains("stderr_after_answer"),
        "{json}"
    );
}

#[test]
fn with_timings_a_replay_marks_stderr_written_after_the_answer() {
    // Seat 0 writes to stderr only once seat 1 is being called, so surely after realm read its
    // answer; seat 1 answers only after that, so seat 0's next call finds the text waiting.
    let dir = tempfile::tempdir().unwrap();
    let (called, written) = (dir.path().join("called"), dir.path().join("written"));
    let (called, written) = (called.display(), written.display());
    let seat0 = format!(
        "while read a n; do echo $n; while [ ! -f {called} ]; do sleep 0.01; done; \
         echo thinking aloud >&2; touch {written}; done"
    );
    let seat1 = format!(
        "while read a n; do touch {called}; while [ ! -f {written} ]; do sleep 0.01; done; echo $n; done"
    );
    let play_it = |timings| {
        let options = MatchOptions {
            no_timeout: true,
            timings,
            ..MatchOptions::default()
        };
        let _ = std::fs::remove_file(dir.path().join("called"));
        let _ = std::fs::remove_file(dir.path().join("written"));
        play_with([&seat0, &seat1], EchoReferee::new(2, NO_RUSH), options)
    };
    let result = play_it(true);
    let flags: Vec<bool> = result
        .replay
        .turns
        .iter()
        .map(|t| t.stderr_after_answer)
        .collect();
    assert_eq!(
        &flags[..3],
        &[true, false, false],
        "seat 0's first call wrote stderr after its answer"
    );
    let next_stderr = &result.replay.turns[2].stderr;
    assert!(
        next_stderr.starts_with("thinking aloud\n"),
        "read with seat 0's next call: {next_stderr:?}"
    );
    let result = play_it(false);
    assert!(result.replay.turns.iter().all(|t| !t.stderr_after_answer));
}
