//! `realm arena`, `realm sprt`, `realm report` and `realm merge` end to end: interrupted runs
//! resume without losing or repeating a match, shards merge into the whole run, misbehaving bots
//! become recorded faults, and external referees plug in.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    processes_left_with, python_bot, realm, run, stderr, stdout, stored, tag, unique_sleep,
};
use realm_store::{MatchRecord, Store};

/// Records without the fields that legitimately differ between two runs of one match.
fn comparable(mut records: Vec<MatchRecord>) -> Vec<MatchRecord> {
    for r in &mut records {
        r.duration_ms = 0;
        r.times_us.iter_mut().for_each(Vec::clear);
    }
    records.sort_by_key(|r| r.match_idx);
    records
}

#[test]
fn a_run_killed_with_sigkill_resumes_without_losing_or_repeating_a_match() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let bot = python_bot("");
    // No limits: this test is about interruption, not speed, and must not flake under load.
    let args = [
        "arena",
        "kingdomino",
        &bot,
        "builtin:greedy",
        "--games",
        "40",
        "--jobs",
        "2",
        "--no-timeout",
        "--quiet",
        "--db",
        "r.sqlite",
    ];
    let mut child = Command::new(realm())
        .args(args)
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(50));
        let count = if db.exists() {
            Store::open(&db).ok().and_then(|s| {
                s.latest_run()
                    .ok()
                    .flatten()
                    .map(|r| s.done_matches(r.id).unwrap().len())
            })
        } else {
            None
        };
        // A bound against a hang, far above what a loaded machine needs for six matches.
        if count.unwrap_or(0) >= 6 || started.elapsed() > Duration::from_secs(600) {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = stored(&db).len();
    assert!((6..40).contains(&before), "killed after {before} matches");
    // Bots of the killed run die with it (PR_SET_PDEATHSIG), whatever they were doing.
    assert_eq!(processes_left_with(&bot), Vec::<String>::new());

    let out = run(dir.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = stored(&db);
    let indices: BTreeSet<u64> = records.iter().map(|r| r.match_idx).collect();
    assert_eq!(records.len(), 40, "every match stored exactly once");
    assert_eq!(indices, (0..40).collect());
    assert!(records.iter().all(|r| r.faults.iter().all(Option::is_none)));
}

/// Starts `realm arena` processes together on one store, two per run (`seeds` names the runs),
/// and checks that each exits successfully and that every run holds each of its matches once.
fn burst_of_arenas_on_one_store(dir: &Path, seeds: &[&str], games: u64) {
    let spawn = |seed: &str| {
        Command::new(realm())
            .args([
                "arena",
                "kingdomino",
                "builtin:greedy",
                "builtin:random",
                "--seed",
                seed,
            ])
            .args([
                "--games",
                &games.to_string(),
                "--quiet",
                "--keep-replays",
                "none",
            ])
            .args(["--db", "shared.sqlite"])
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // The same run twice at once (both play it all; each match is stored once).
    let children: Vec<_> = seeds.iter().flat_map(|s| [spawn(s), spawn(s)]).collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let store = Store::open(&dir.join("shared.sqlite")).unwrap();
    for seed in seeds {
        let run = store
            .runs()
            .unwrap()
            .into_iter()
            .find(|r| r.seed.to_string() == *seed)
            .expect("the run is stored");
        let idx: Vec<u64> = store
            .matches(run.id)
            .unwrap()
            .iter()
            .map(|m| m.match_idx)
            .collect();
        assert_eq!(
            idx,
            (0..games).collect::<Vec<_>>(),
            "run {seed}: each match once"
        );
    }
}

#[test]
fn arena_processes_started_together_share_one_store_without_losing_or_repeating_a_match() {
    let dir = tempfile::tempdir().unwrap();
    // A fresh store: eight processes race to create it (WAL switch, migrations, runs).
    burst_of_arenas_on_one_store(dir.path(), &["1", "2", "3", "4"], 60);
    // An existing store: new runs are created while others write matches.
    burst_of_arenas_on_one_store(dir.path(), &["5", "6", "7", "8"], 20);
    let store = Store::open(&dir.path().join("shared.sqlite")).unwrap();
    assert_eq!(store.runs().unwrap().len(), 8, "eight runs");
    let report = run(dir.path(), &["report", "--db", "shared.sqlite", "--list"]);
    assert!(report.status.success(), "{}", stderr(&report));
}

#[test]
fn shards_merged_equal_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let common_args = [
        "arena",
        "kingdomino",
        "builtin:greedy",
        "builtin:random",
        "builtin:reference",
        "--games",
        "24",
        "--quiet",
    ];
    let with = |extra: &[&str]| {
        let mut args: Vec<&str> = common_args.to_vec();
        args.extend_from_slice(extra);
        let out = run(dir.path(), &args);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    with(&["--db", "whole.sqlite"]);
    with(&["--db", "a.sqlite", "--shard", "1/2"]);
    with(&["--db", "b.sqlite", "--shard", "2/2"]);
    let merge = run(
        dir.path(),
        &["merge", "a.sqlite", "b.sqlite", "--into", "all.sqlite"],
    );
    assert!(merge.status.success(), "{}", stderr(&merge));
    let again = run(dir.path(), &["merge", "a.sqlite", "--into", "all.sqlite"]);
    assert_eq!(stdout(&again), "a.sqlite: 0 matches added\n");
    let whole = comparable(stored(&dir.path().join("whole.sqlite")));
    assert_eq!(whole.len(), 24);
    assert_eq!(comparable(stored(&dir.path().join("all.sqlite"))), whole);
}

#[test]
fn misbehaving_bots_in_a_long_run_end_as_recorded_faults_and_leave_no_process() {
    let dir = tempfile::tempdir().unwrap();
    // Limits are scaled by 100 (100 s in turn 1, 5 s later) so that no fault here depends on
    // the machine's load (a Python bot on a busy machine can take 250 ms to answer; the
    // sleepers never answer); one cycle of the seven bots keeps the hangs, 5 s each, few, and
    // six jobs wait them out side by side.
    // Markers unique to this test process, so a concurrent run of the suite cannot interfere.
    let tag = tag("arena-misbehaving");
    let sleeps = [unique_sleep(7781), unique_sleep(7782), unique_sleep(7783)];
    let bots = [
        python_bot(&format!(
            "--misbehave crash 2 --spawn {} {tag}",
            sleeps[2].0
        )),
        python_bot(&format!(
            "--misbehave sleep 3 --spawn {} {tag}",
            sleeps[0].0
        )),
        python_bot(&format!("--misbehave garbage 1 {tag}")),
        python_bot(&format!("--misbehave flood 2 {tag}")),
        python_bot(&format!("--misbehave quit 2 {tag}")),
        python_bot(&format!(
            "--ignore-term --misbehave sleep 4 --spawn {} {tag}",
            sleeps[1].0
        )),
        "builtin:greedy".to_string(),
    ];
    let mut args: Vec<&str> = vec!["arena", "kingdomino"];
    args.extend(bots.iter().map(String::as_str));
    args.extend([
        "--games",
        "42",
        "--jobs",
        "6",
        "--time-scale",
        "100",
        "--quiet",
        "--db",
        "r.sqlite",
        "--format",
        "json",
    ]);
    let out = run(dir.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["run"]["matches_played"], 42);
    let faults = |bot: usize| report["bots"][bot]["faults"].clone();
    assert_eq!(faults(0), serde_json::json!({"crashed": 12}));
    assert_eq!(faults(1), serde_json::json!({"timeout": 12}));
    assert_eq!(faults(2), serde_json::json!({"malformed": 12}));
    let flood: u64 = faults(3)
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(flood, 12, "{}", faults(3));
    assert_eq!(faults(4), serde_json::json!({"crashed": 12}));
    assert_eq!(faults(5), serde_json::json!({"timeout": 12}));
    assert_eq!(faults(6), serde_json::json!({}));
    assert_eq!(report["bots"][6]["wins"], 12);
    for record in stored(&dir.path().join("r.sqlite")) {
        for (fault, seat) in record.faults.iter().zip(&record.seats) {
            if let Some((_, reason)) = fault {
                assert!(!reason.is_empty(), "bot {seat}: a fault without a reason");
            }
        }
    }
    let markers = sleeps.iter().map(|(_, marker)| marker.as_str());
    for marker in markers.chain([tag.as_str()]) {
        assert_eq!(
            processes_left_with(marker),
            Vec::<String>::new(),
            "{marker}"
        );
    }
}

#[test]
fn sprt_decides_that_greedy_beats_random_prints_the_llr_as_it_goes_and_stores_its_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "sprt",
        "kingdomino",
        "builtin:greedy",
        "builtin:random",
        "--elo0",
        "0",
        "--elo1",
        "50",
        "--db",
        "s.sqlite",
    ];
    // stderr is a pipe, not a terminal: status lines instead of a bar.
    let out = run(dir.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("H1 accepted: the candidate is stronger"),
        "{text}"
    );
    let games: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("games "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a games line");
    let status = stderr(&out);
    let last = status.lines().last().unwrap_or_default().to_string();
    assert!(
        last.starts_with(&format!("sprt: {games}/100000 matches")) && last.contains("  LLR "),
        "{status}"
    );
    // Resuming the decided run decides at once; --quiet prints nothing on stderr.
    let mut quiet = args.to_vec();
    quiet.push("--quiet");
    let again = run(dir.path(), &quiet);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(stderr(&again), "");
    let table = stdout(&run(dir.path(), &["report", "--db", "s.sqlite"]));
    assert!(
        table.lines().next().unwrap().contains(&format!(
            ": {games} matches; the SPRT stopped the run: H1 accepted after {games} games (LLR "
        )),
        "{table}"
    );
    let listing = stdout(&run(dir.path(), &["report", "--db", "s.sqlite", "--list"]));
    assert!(
        listing.ends_with(&format!("{games} matches, SPRT: H1 after {games} games\n")),
        "{listing}"
    );
    let report = run(
        dir.path(),
        &["report", "--db", "s.sqlite", "--format", "csv"],
    );
    let csv = stdout(&report);
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0].join(","),
        "bot,command,games,wins,draws,losses,mean_score,mean_rank,p50_us,p99_us,faults,\
         weng_lin_rating,weng_lin_sigma,batch_elo,batch_elo_lower,batch_elo_upper,\
         elo_diff,elo_diff_lower,elo_diff_upper,los,late_calls"
    );
    assert_eq!(rows.len(), 3);
    let cell = |row: usize, col: usize| rows[row][col].parse::<f64>().unwrap();
    assert!(cell(1, 16) > 0.0, "greedy is stronger: {csv}");
    assert_eq!(cell(2, 16), -cell(1, 16));
    assert_eq!(cell(2, 17), -cell(1, 18), "bounds swap sides");
    assert!((cell(1, 19) + cell(2, 19) - 1.0).abs() < 1e-12, "{csv}");
}

/// `realm referee` behind a wrapper that logs every command line it gets (as JSON) and keeps
/// the last match's replay, so a test sees what `realm arena --referee` sends.
fn logging_referee(dir: &Path) -> String {
    let script = dir.join("referee.sh");
    std::fs::write(
        &script,
        format!(
            "python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' \"$@\" >> {log}\n\
             exec {realm} referee kingdomino \"$@\" --no-timeout --replay {replay}\n",
            log = dir.join("args.log").display(),
            realm = realm(),
            replay = dir.join("last.json").display(),
        ),
    )
    .unwrap();
    format!("sh {}", script.display())
}

fn logged_command_lines(dir: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(dir.join("args.log"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn an_external_referee_drives_the_arena() {
    let dir = tempfile::tempdir().unwrap();
    let referee = logging_referee(dir.path());
    // Bot processes never hear the match seed, so each gets its own: with the arena's --seed,
    // the six games are the same on every run (unseeded, random won one game in a CI run).
    let greedy = format!("{} bot kingdomino greedy --seed 1", realm());
    let random = format!("{} bot kingdomino random --seed 2", realm());
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "--referee",
            &referee,
            &greedy,
            &random,
            "--games",
            "6",
            "--seed",
            "5",
            "--quiet",
            "--db",
            "x.sqlite",
            "--format",
            "json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["bots"][0]["wins"], 6);
    assert_eq!(
        report["head_to_head"]["pentanomial"],
        serde_json::json!([0, 0, 0, 0, 3])
    );
    // Seeds are 31-bit, stored as sent, and shared by the two seat orders of a pair.
    let records = stored(&dir.path().join("x.sqlite"));
    for pair in records.chunks(2) {
        assert!(pair[0].seed < 1 << 31, "{}", pair[0].seed);
        assert_eq!(pair[0].seed, pair[1].seed);
    }
    let mut sent: Vec<String> = logged_command_lines(dir.path())
        .iter()
        .map(|words| {
            let d = words.iter().position(|w| w == "-d").expect("-d is sent");
            words[d + 1].clone()
        })
        .collect();
    sent.sort();
    let mut expected: Vec<String> = records.iter().map(|r| format!("seed={}", r.seed)).collect();
    expected.sort();
    assert_eq!(sent, expected);
}

#[test]
fn an_external_referee_gets_the_league_variant_and_options() {
    let dir = tempfile::tempdir().unwrap();
    let referee = logging_referee(dir.path());
    let greedy = format!("{} bot kingdomino greedy --league 2", realm());
    let random = format!("{} bot kingdomino random --league 2", realm());
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "--referee",
            &referee,
            &greedy,
            &random,
            "--games",
            "2",
            "--league",
            "2",
            "--variant",
            "duel",
            "--option",
            "invalid_put=discard",
            "--quiet",
            "--db",
            "x.sqlite",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let seed = stored(&dir.path().join("x.sqlite"))[0].seed;
    let words = &logged_command_lines(dir.path())[0];
    let d = words.iter().position(|w| w == "-d").unwrap();
    assert_eq!(
        words[d + 1],
        format!("seed={seed}\nleague=2\nvariant=duel\ninvalid_put=discard")
    );
    // `realm referee` understood all of it: its replay has the same spec.
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("last.json")).unwrap()).unwrap();
    assert_eq!(replay["spec"]["league"], 2);
    assert_eq!(replay["spec"]["variant"], "duel");
    assert_eq!(replay["spec"]["options"]["invalid_put"], "discard");
    assert_eq!(replay["spec"]["seed"], seed);
}

/// A referee that reads its mode from a file: `ok` prints a message, then 10 for the command
/// containing `strong` and 1 for the other; `odd` fails like a crashing Java referee on odd
/// seeds; `garbage` prints no score; `hang` never answers.
fn scripted_referee(dir: &Path) -> String {
    let script = dir.join("referee.sh");
    std::fs::write(
        &script,
        r#"mode=$(cat "$1"); shift
while [ $# -gt 0 ]; do
  case "$1" in -p1) p1=$2; shift 2;; -p2) p2=$2; shift 2;; -d) params=$2; shift 2;; *) shift;; esac
done
seed=$(printf '%s\n' "$params" | sed -n 's/^seed=//p')
score() { case "$1" in *strong*) echo 10;; *) echo 1;; esac; }
case "$mode" in
  odd) if [ $((seed % 2)) -eq 1 ]; then echo "Exception in thread main"; echo boom >&2; exit 1; fi ;;
  garbage) echo oops; exit 0 ;;
  hang) sleep 7791; exit 0 ;;
esac
echo "Loading map"
score "$p1"; score "$p2"
"#,
    )
    .unwrap();
    format!("sh {} {}", script.display(), dir.join("mode").display())
}

#[test]
fn matches_the_external_referee_fails_are_no_results_and_are_replayed_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let referee = scripted_referee(dir.path());
    let args = [
        "arena",
        "kingdomino",
        "--referee",
        &referee,
        "echo strong",
        "echo weak",
        "--games",
        "20",
        "--seed",
        "3",
        "--quiet",
        "--db",
        "r.sqlite",
        "--format",
        "json",
    ];
    std::fs::write(dir.path().join("mode"), "odd").unwrap();
    let out = run(dir.path(), &args);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let failed = report["referee_errors"]["count"].as_u64().unwrap();
    assert!(
        (2..20).contains(&failed),
        "seed 3 gives some odd seeds: {failed}"
    );
    assert_eq!(
        report["referee_errors"]["first"][0]["reason"],
        "referee exited (exit status: 1) after 0 of 2 scores; it printed \"Exception in thread \
         main\"; last stderr line: boom"
    );
    // Not draws, not games: only the played matches count, everywhere.
    assert_eq!(report["run"]["matches_played"], 20 - failed);
    assert_eq!(report["bots"][0]["games"], 20 - failed);
    assert_eq!(report["bots"][0]["draws"], 0);
    assert_eq!(
        report["head_to_head"]["wdl"],
        serde_json::json!({"wins": 20 - failed, "draws": 0, "losses": 0})
    );
    let warnings = stderr(&out);
    assert_eq!(
        warnings
            .lines()
            .filter(|l| l.starts_with("warning: match "))
            .count() as u64,
        failed.min(5),
        "{warnings}"
    );
    assert_eq!(
        warnings.lines().last().unwrap(),
        format!(
            "{failed} matches have no result (a failed referee, or a bot killed by an \
             interruption signal); no statistic counts them; run the same command again to \
             replay them"
        )
    );
    // The referee is fixed: running the same command plays exactly the failed matches.
    std::fs::write(dir.path().join("mode"), "ok").unwrap();
    let out = run(dir.path(), &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["referee_errors"], serde_json::Value::Null);
    assert_eq!(report["bots"][0]["wins"], 20);
    assert_eq!(stored(&dir.path().join("r.sqlite")).len(), 20);
}

#[test]
fn a_hung_referee_times_out_and_a_broken_one_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let referee = scripted_referee(dir.path());
    std::fs::write(dir.path().join("mode"), "hang").unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "--referee",
            &referee,
            "echo strong",
            "echo weak",
            "--games",
            "2",
            "--jobs",
            "2",
            "--referee-timeout",
            "0.5",
            "--quiet",
            "--db",
            "h.sqlite",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["referee_errors"]["count"], 2);
    assert_eq!(
        report["referee_errors"]["first"][0]["reason"],
        "referee printed 0 of 2 scores within 0.5 s"
    );
    assert_eq!(processes_left_with("sleep 7791"), Vec::<String>::new());

    std::fs::write(dir.path().join("mode"), "garbage").unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "--referee",
            &referee,
            "echo strong",
            "echo weak",
            "--games",
            "200",
            "--league",
            "3",
            "--quiet",
            "--db",
            "g.sqlite",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    let lines: Vec<&str> = text.lines().collect();
    let reason = "referee exited (exit status: 0) after 0 of 2 scores; it printed \"oops\"";
    assert_eq!(lines.len(), 7, "{text}");
    for line in &lines[..5] {
        assert!(line.starts_with("warning: match "), "{line}");
        assert!(
            line.ends_with(&format!(
                " has no result, its referee failed: {reason} (not counted; running the same \
                 command again replays it)"
            )),
            "{line}"
        );
    }
    assert_eq!(
        lines[5],
        "warning: more matches have no result; the report counts them"
    );
    assert_eq!(
        lines[6],
        format!(
            "error: the external referee failed the first 20 matches, stopping (first reason: \
             {reason})"
        )
    );
}

#[test]
fn the_report_shows_ratings_for_more_than_two_bots() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "builtin:reference",
            "--players",
            "3",
            "--games",
            "9",
            "--quiet",
            "--db",
            "m.sqlite",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Weng-Lin"), "{text}");
    assert!(text.contains("batch fit (Elo scale)"), "{text}");
    assert!(text.contains("pairwise score"), "{text}");
    let listing = stdout(&run(dir.path(), &["report", "--db", "m.sqlite", "--list"]));
    assert!(
        listing.contains("kingdomino") && listing.contains("9/9 matches"),
        "{listing}"
    );
    let csv = stdout(&run(
        dir.path(),
        &["report", "--db", "m.sqlite", "--format", "csv"],
    ));
    for row in csv.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        // Weng-Lin mu and sigma, batch Elo and its interval; no two-bot Elo difference.
        for (col, cell) in cells.iter().enumerate().take(16).skip(11) {
            assert!(cell.parse::<f64>().is_ok(), "column {col}: {row}");
        }
        assert_eq!(cells[16..], ["", "", "", "", "0"], "{row}");
    }
}

#[test]
fn a_game_count_short_of_whole_cycles_is_rounded_up_so_every_bot_plays_as_often() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            "builtin:greedy",
            "builtin:random",
            "builtin:reference",
            "--games",
            "10",
            "--quiet",
            "--db",
            "c.sqlite",
            "--format",
            "json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "note: --games 10 rounded up to 12: whole cycles of 6 matches (every pairing in every \
         seat order), so every bot plays as often in every seat\n"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    for bot in 0..3 {
        assert_eq!(report["bots"][bot]["games"], 8);
        for seat in 0..2 {
            assert_eq!(report["bots"][bot]["seats"][seat]["games"], 4);
        }
    }
}

#[test]
fn more_games_extend_the_run_and_reuse_the_matches_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let arena = |games: &str| {
        let out = run(
            dir.path(),
            &[
                "arena",
                "kingdomino",
                "builtin:greedy",
                "builtin:random",
                "--games",
                games,
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    arena("10");
    // Raw records: a replayed match would differ in its measured times.
    let first = stored(&dir.path().join("realm.sqlite"));
    assert_eq!(first.len(), 10);
    let report = arena("20");
    assert!(report.starts_with("run 1 "), "one run, extended:\n{report}");
    assert!(report.contains(": 20/20 matches"), "{report}");
    let store = Store::open(&dir.path().join("realm.sqlite")).unwrap();
    assert_eq!(store.runs().unwrap().len(), 1);
    let all = stored(&dir.path().join("realm.sqlite"));
    assert_eq!(all.len(), 20);
    assert_eq!(
        all[..10],
        first[..],
        "the first ten matches were kept, not replayed"
    );
    // Asking for fewer keeps the run as it is.
    assert!(arena("10").contains(": 20/20 matches"));
}

#[test]
fn bot_data_that_overflows_is_dropped_with_a_warning_and_the_store_stays_readable() {
    let dir = tempfile::tempdir().unwrap();
    let big = format!(
        "echo '[PDATA+] s = 1e308' >&2; echo '[PDATA+] s = 1e308' >&2; \
         echo '[PDATA] m = 1e308' >&2; echo '[PDATA+] n = 2' >&2; exec {} bot kingdomino greedy",
        realm()
    );
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            &big,
            "builtin:random",
            "--games",
            "2",
            "--no-timeout",
            "--quiet",
            "--db",
            "d.sqlite",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let warnings: Vec<String> = stderr(&out)
        .lines()
        .filter(|l| l.starts_with("warning: match"))
        .map(|l| l.split_once(", bot `").unwrap().1.to_string())
        .collect();
    assert_eq!(warnings.len(), 2, "{}", stderr(&out));
    for w in &warnings {
        assert!(
            w.ends_with("`: the `[PDATA+] s` sum overflowed; dropped"),
            "{w}"
        );
    }
    let report = run(
        dir.path(),
        &["report", "--db", "d.sqlite", "--format", "json"],
    );
    assert!(report.status.success(), "{}", stderr(&report));
    let json: serde_json::Value = serde_json::from_str(&stdout(&report)).unwrap();
    let data = json["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["command"].as_str().unwrap().contains("PDATA"))
        .unwrap()["data"]
        .clone();
    // The mean of two 1e308 is 1e308, though their sum overflows.
    assert_eq!(data, serde_json::json!({"m": 1e308, "n": 2.0}));
}

#[test]
fn a_store_deleted_while_the_arena_plays_is_an_error_not_a_finished_run() {
    let dir = tempfile::tempdir().unwrap();
    // The bot deletes the store before its first answer, so before any match is stored.
    let deleter = format!("rm -f d.sqlite; exec {} bot kingdomino greedy", realm());
    let out = run(
        dir.path(),
        &[
            "arena",
            "kingdomino",
            &deleter,
            "builtin:random",
            "--games",
            "2",
            "--no-timeout",
            "--quiet",
            "--db",
            "d.sqlite",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(
        stderr(&out).lines().last().unwrap(),
        "error: results store d.sqlite was deleted while realm was writing to it: the matches \
         stored since it was opened are lost"
    );
    assert_eq!(stdout(&out), "", "no report of matches that are lost");
}

/// `realm COMMAND GAME builtin:greedy builtin:random EXTRA...` in `dir`.
fn greedy_against_random(
    dir: &Path,
    command: &str,
    game: &str,
    extra: &[&str],
) -> std::process::Output {
    let bots = [command, game, "builtin:greedy", "builtin:random"];
    run(dir, &[&bots[..], extra].concat())
}

#[test]
fn a_finished_run_run_again_says_nothing_was_played() {
    let dir = tempfile::tempdir().unwrap();
    let arena = |extra: &[&str]| {
        let args = [&["--games", "4", "--db", "r.sqlite"][..], extra].concat();
        greedy_against_random(dir.path(), "arena", "kingdomino", &args)
    };
    let first = arena(&[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let again = arena(&[]);
    assert!(again.status.success());
    assert_eq!(
        stderr(&again),
        "run 1 is already complete (4 matches): nothing to play; the report follows\n"
    );
    assert_eq!(stdout(&again), stdout(&first));
    assert_eq!(
        stderr(&arena(&["--shard", "2/2"])),
        "shard 2/2 of run 1 is already complete (2 matches): nothing to play; the report follows\n"
    );
    let sprt = || {
        let args = ["--elo1", "100", "--db", "s.sqlite"];
        greedy_against_random(dir.path(), "sprt", "kingdomino", &args)
    };
    let first = sprt();
    assert!(first.status.success(), "{}", stderr(&first));
    let games = stored(&dir.path().join("s.sqlite")).len();
    assert_eq!(
        stderr(&sprt()),
        format!(
            "run 1 is already complete ({games} matches): nothing to play; the result follows\n"
        )
    );
}

#[test]
fn status_lines_end_with_the_whole_run_and_sprt_names_the_run_by_number() {
    let dir = tempfile::tempdir().unwrap();
    let out = greedy_against_random(dir.path(), "arena", "kingdomino", &["--games", "4"]);
    // stderr is a pipe: status lines, the last one said when the run ends.
    let status = stderr(&out);
    let last = status.lines().last().unwrap_or_default();
    assert!(last.starts_with("arena: 4/4 matches, "), "{status}");
    let out = greedy_against_random(dir.path(), "sprt", "kingdomino", &["--elo1", "100"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).lines().last(),
        Some("run 2 stored in realm.sqlite")
    );
    // One last line, not the same line twice (with only its rate changed).
    let status = stderr(&out);
    let without_rate = |line: &str| {
        let (head, rest) = line.split_once(", ").unwrap_or((line, ""));
        (
            head.to_string(),
            rest.split_once("  ").map(|(_, m)| m.to_string()),
        )
    };
    let lines: Vec<_> = status.lines().map(without_rate).collect();
    assert!(lines.windows(2).all(|w| w[0] != w[1]), "{status}");
}

#[test]
fn the_report_header_and_the_run_list_name_the_variant() {
    let dir = tempfile::tempdir().unwrap();
    let extra = ["--variant", "duo", "--games", "2", "--quiet"];
    let out = greedy_against_random(dir.path(), "arena", "blocking", &extra);
    assert!(out.status.success(), "{}", stderr(&out));
    let store = Store::open(&dir.path().join("realm.sqlite")).unwrap();
    let run_record = store.latest_run().unwrap().unwrap();
    assert_eq!(
        stdout(&out).lines().next().unwrap(),
        format!(
            "run 1 ({}), blocking (duo) 2 players, seed 1: 2/2 matches",
            run_record.key
        )
    );
    let list = run(dir.path(), &["report", "--list"]);
    assert_eq!(
        stdout(&list),
        format!(
            "   1  {}  {}  blocking (duo)       2/2 matches\n",
            run_record.key, run_record.created_at
        )
    );
}
