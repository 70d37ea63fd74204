//! Arena throughput and realm's own overhead, with real processes: Kingdomino 2-player matches
//! between two trivial compiled bots (`realm bot kingdomino random`, a Rust binary) on 2 jobs,
//! one in-process match for comparison, and realm's time per call that is not spent waiting
//! for a bot (printed after the criterion figures).
//!
//! `cargo bench -p realm-cli --bench arena`

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use realm_arena::{
    make_seats, run_match, Entrant, GameCatalog, KeepReplays, MatchOptions, OutputLimits, Schedule,
    Tournament,
};
use realm_core::{MatchSpec, ReplayPlayer};
use realm_store::Store;

// The binary's own adapter, so the benchmark measures what `realm` runs.
use realm_games::Catalog;

fn trivial_bot() -> Entrant {
    Entrant::Command(format!(
        "{} bot kingdomino random",
        env!("CARGO_BIN_EXE_realm")
    ))
}

fn tournament(n_matches: u64, replay_dir: std::path::PathBuf) -> Tournament {
    Tournament {
        template: MatchSpec::new("kingdomino", 2, 0),
        entrants: vec![trivial_bot(), trivial_bot()],
        labels: vec!["a".into(), "b".into()],
        schedule: Schedule::new(2, 2, n_matches, 1, false),
        jobs: 2,
        options: MatchOptions::default(),
        limits: OutputLimits::default(),
        keep_replays: KeepReplays::None,
        replay_dir,
        external_referee: None,
        external_args: String::new(),
        external_timeout: Duration::from_secs(60),
    }
}

fn arena_throughput(c: &mut Criterion) {
    // As `realm` itself does at start-up: the processes a bot leaves behind (with PID
    // namespaces, the namespace's init) are then reaped here at once instead of lingering
    // as another parent's zombies until `reap_group` gives up on them.
    realm_arena::become_subreaper();
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("arena");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    const MATCHES: u64 = 20;
    group.throughput(Throughput::Elements(MATCHES));
    let mut run = 0;
    group.bench_function("kingdomino_2p_process_bots_2_jobs_20_matches", |b| {
        b.iter(|| {
            run += 1;
            let mut store = Store::open(&dir.path().join(format!("b{run}.sqlite"))).unwrap();
            let t = tournament(MATCHES, dir.path().to_path_buf());
            let record = realm_store::RunRecord {
                id: 0,
                key: format!("bench{run}"),
                kind: "arena".into(),
                created_at: String::new(),
                game: "kingdomino".into(),
                variant: None,
                league: None,
                n_players: 2,
                seed: 1,
                n_matches: MATCHES,
                config: "{}".into(),
            };
            let run_id = store.ensure_run(&record, &[]).unwrap();
            let indices: Vec<u64> = (0..MATCHES).collect();
            let stop = std::sync::atomic::AtomicBool::new(false);
            t.run(&Catalog, &mut store, run_id, &indices, &stop, |_| {})
                .unwrap()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("match");
    group.bench_function("kingdomino_2p_builtin_random_in_process", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let spec = MatchSpec::new("kingdomino", 2, seed);
            let random = Entrant::Builtin("random".into());
            let seats = make_seats(
                &Catalog,
                &spec,
                &[&random, &random],
                OutputLimits::default(),
            )
            .unwrap();
            let players = vec![
                ReplayPlayer {
                    name: "a".into(),
                    command: String::new()
                };
                2
            ];
            run_match(
                &spec,
                players,
                Catalog.referee(&spec).unwrap(),
                seats,
                MatchOptions::default(),
            )
        })
    });
    // What a user waits for: the whole `realm play` command, realm's own start-up included,
    // with two trivial compiled bots as processes.
    group.sample_size(20);
    group.bench_function("realm_play_kingdomino_2_process_bots", |b| {
        let replay = dir.path().join("play.json");
        let bot = format!("{} bot kingdomino random", env!("CARGO_BIN_EXE_realm"));
        b.iter(|| {
            let status = std::process::Command::new(env!("CARGO_BIN_EXE_realm"))
                .args(["play", "kingdomino", &bot, &bot, "--seed", "1", "--replay"])
                .arg(&replay)
                .stdout(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success());
        })
    });
    group.finish();
    report_overhead();
}

/// realm's own time per call with process bots: the match loop's wall time (referee, frames,
/// writing input, framing answers) minus the time spent waiting for the bots, per call.
/// Process start-up and shutdown are outside the loop and reported separately.
fn report_overhead() {
    let (mut loop_time, mut waiting, mut setup, mut calls) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO, 0u64);
    let bot = trivial_bot();
    const MATCHES: u64 = 50;
    for seed in 0..MATCHES {
        let spec = MatchSpec::new("kingdomino", 2, seed);
        let started = Instant::now();
        let mut seats =
            make_seats(&Catalog, &spec, &[&bot, &bot], OutputLimits::default()).unwrap();
        let mut referee = Catalog.referee(&spec).unwrap();
        setup += started.elapsed();
        let started = Instant::now();
        while let Some(request) = referee.next_request() {
            let report = seats[request.player].call(
                &request.lines,
                request.expected_lines,
                Some(request.time_limit),
            );
            waiting += report.elapsed;
            referee.answer(request.player, &report.answer.unwrap());
            std::hint::black_box(referee.frame());
            calls += 1;
        }
        loop_time += started.elapsed();
        let started = Instant::now();
        seats.iter_mut().for_each(|s| s.stop());
        setup += started.elapsed();
    }
    let per_call = |d: Duration| d.as_secs_f64() * 1e6 / calls as f64;
    eprintln!(
        "realm overhead per call: {:.1} µs (bot answer latency {:.1} µs per call; {calls} calls); \
         starting and stopping two bot processes: {:.2} ms per match",
        per_call(loop_time.saturating_sub(waiting)),
        per_call(waiting),
        setup.as_secs_f64() * 1e3 / MATCHES as f64,
    );
}

criterion_group!(benches, arena_throughput);
criterion_main!(benches);
