//! `realm arena` and `realm sprt`: many matches in parallel into the results store, with a live
//! progress bar, resumable after any interruption, then the report.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use realm_arena::report::{HeadToHead, HeadToHeadTally};
use realm_arena::{unique_labels, Entrant, KeepReplays, OutputLimits, Schedule, Tournament};
use realm_stats::{Sprt, SprtConfig, SprtDecision, SprtModel};
use realm_store::{BotRecord, RunRecord, Store};
use serde_json::json;

use crate::catalog::Catalog;
use crate::cmd_report::{print_report, ReportFormat};
use crate::options::{game, parse_seed, MatchFlags, TimeFlags};

#[derive(Args)]
pub struct RunFlags {
    /// Parallel matches (default: cores / players per match, at least 1)
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Players per match (default: the game's smallest count)
    #[arg(long)]
    players: Option<usize>,
    /// Play every permutation of seats for each seed, not just rotations
    #[arg(long)]
    permute: bool,
    /// Results store
    #[arg(long, default_value = "realm.sqlite")]
    db: PathBuf,
    /// Which replays to keep on disk
    #[arg(long, value_enum, default_value_t = Keep::Faults)]
    keep_replays: Keep,
    /// Where kept replays go (default: replays/run-KEY/)
    #[arg(long)]
    replay_dir: Option<PathBuf>,
    /// Run only shard K of N (1-based), e.g. 2/8; merge shards with `realm merge`
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Drive an external CodinGame-SDK-style referee instead of realm's own (GAME is then a label)
    #[arg(long, value_name = "CMD")]
    referee: Option<String>,
    /// No progress bar
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    time: TimeFlags,
    #[command(flatten)]
    setup: MatchFlags,
}

#[derive(Args)]
pub struct ArenaArgs {
    /// The game, e.g. kingdomino
    game: String,
    /// Two or more bots: `builtin:NAME` or shell commands
    #[arg(required = true, num_args = 2..)]
    bots: Vec<String>,
    /// Matches to play (rounded up to whole seat rotations)
    #[arg(long, short = 'n', default_value_t = 100)]
    games: u64,
    /// Report layout
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    format: ReportFormat,
    #[command(flatten)]
    run: RunFlags,
}

#[derive(Args)]
pub struct SprtArgs {
    game: String,
    /// The bot under test
    candidate: String,
    /// The bot to beat
    baseline: String,
    /// Elo difference of the null hypothesis
    #[arg(long, allow_hyphen_values = true, default_value_t = 0.0)]
    elo0: f64,
    /// Elo difference of the alternative hypothesis
    #[arg(long, allow_hyphen_values = true, default_value_t = 10.0)]
    elo1: f64,
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Give up (no decision) after this many games
    #[arg(long, default_value_t = 100_000)]
    max_games: u64,
    #[command(flatten)]
    run: RunFlags,
}

#[derive(Clone, Copy, ValueEnum)]
enum Keep {
    All,
    Faults,
    None,
}

/// Everything fixed about a run before it starts.
struct Prepared {
    tournament: Tournament,
    run: RunRecord,
    bots: Vec<BotRecord>,
    shard: Option<(u64, u64)>,
    quiet: bool,
    db: PathBuf,
}

fn prepare(
    game_slug: &str,
    bot_args: &[String],
    n_matches: u64,
    kind: &str,
    flags: &RunFlags,
) -> Result<Prepared> {
    let entrants: Vec<Entrant> = bot_args.iter().map(|b| Entrant::parse(b)).collect();
    let labels = unique_labels(&entrants);
    let (template, n_seats) = if flags.referee.is_some() {
        if entrants.iter().any(|e| matches!(e, Entrant::Builtin(_))) {
            bail!("built-in bots cannot play under an external referee; use `realm bot GAME NAME` as a command");
        }
        let n = flags.players.unwrap_or(2);
        (realm_core::MatchSpec::new(game_slug, n, 0), n)
    } else {
        let game = game(game_slug)?;
        let n = flags
            .players
            .unwrap_or(game.info().variant(flags.setup.variant.as_deref())?.players[0]);
        // Validates game, variant, league and options; the seed comes from the schedule.
        let template = flags.setup.spec(game, n)?;
        for e in &entrants {
            if let Entrant::Builtin(name) = e {
                game.new_bot(name, 0, template.league)?;
            }
        }
        (template, n)
    };
    if entrants.len() < n_seats {
        bail!("{} bots cannot fill {n_seats} seats", entrants.len());
    }
    let run_seed = match &flags.setup.seed {
        Some(s) => parse_seed(s)?,
        // A fixed default, so running the same command again resumes the same run.
        None => 1,
    };
    let schedule = Schedule::new(entrants.len(), n_seats, n_matches, run_seed, flags.permute);
    let bots: Vec<BotRecord> = entrants
        .iter()
        .zip(&labels)
        .map(|(e, label)| BotRecord {
            name: label.clone(),
            command: e.command(),
            hash: e.content_hash(),
        })
        .collect();
    let config = json!({
        "kind": kind,
        "game": template.game, "variant": template.variant, "league": template.league,
        "options": template.options, "n_players": n_seats,
        "bots": bots.iter().map(|b| json!([b.command, b.hash])).collect::<Vec<_>>(),
        "matches": schedule.n_matches(), "seed": run_seed, "permute": flags.permute,
        "referee": flags.referee, "group_size": schedule.group_size(),
    });
    let key = short_hash(&config.to_string());
    let run = RunRecord {
        id: 0,
        key: key.clone(),
        kind: kind.to_string(),
        created_at: now_utc(),
        game: template.game.clone(),
        variant: template.variant.clone(),
        league: template.league.map(i64::from),
        n_players: n_seats,
        seed: run_seed,
        n_matches: schedule.n_matches(),
        config: config.to_string(),
    };
    let jobs = flags.jobs.unwrap_or_else(|| {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        (cores / n_seats).max(1)
    });
    let keep_replays = match flags.keep_replays {
        Keep::All => KeepReplays::All,
        Keep::Faults => KeepReplays::Faults,
        Keep::None => KeepReplays::None,
    };
    let tournament = Tournament {
        template,
        entrants,
        labels,
        schedule,
        jobs,
        options: flags.time.match_options(false)?,
        limits: OutputLimits::default(),
        keep_replays,
        // Absolute, so the paths in the store still lead to the replays from any directory
        // (`realm serve` is often started elsewhere).
        replay_dir: std::path::absolute(
            flags
                .replay_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("replays").join(format!("run-{key}"))),
        )?,
        external_referee: flags.referee.clone(),
        external_timeout: Duration::from_secs(600),
    };
    let shard = flags.shard.as_deref().map(parse_shard).transpose()?;
    Ok(Prepared {
        tournament,
        run,
        bots,
        shard,
        quiet: flags.quiet,
        db: flags.db.clone(),
    })
}

fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok((k, n)),
        _ => bail!("--shard {text}: expected K/N with 1 <= K <= N"),
    }
}

/// Ctrl-C asks the run to stop: bots are killed, matches in flight are dropped, the store keeps
/// everything finished, and the same command resumes.
fn stop_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = Arc::clone(&stop);
    let _ = ctrlc::set_handler(move || {
        handler_stop.store(true, Ordering::SeqCst);
        realm_arena::kill_all_bots();
    });
    stop
}

fn progress_bar(total: u64, done: u64, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(total),
        if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} matches  {per_sec}  ETA {eta}  {msg}")
            .expect("valid template"),
    );
    bar.set_position(done);
    bar
}

fn live_message(head: &HeadToHead) -> String {
    let w = head.wdl;
    let mut msg = format!("{}-{}-{}", w.wins, w.draws, w.losses);
    if let Some(e) = &head.elo_pentanomial.or(head.elo) {
        msg.push_str(&format!("  Elo {:+.1} ± {:.1}", e.elo, e.elo_error));
    }
    msg
}

pub fn run_arena(args: ArenaArgs) -> Result<ExitCode> {
    let prepared = prepare(&args.game, &args.bots, args.games, "arena", &args.run)?;
    let mut store = Store::open(&prepared.db)?;
    let run_id = store.ensure_run(&prepared.run, &prepared.bots)?;
    let schedule = &prepared.tournament.schedule;
    let wanted: Vec<u64> = match prepared.shard {
        Some((k, n)) => schedule.shard(k, n).collect(),
        None => (0..schedule.n_matches()).collect(),
    };
    let done: std::collections::BTreeSet<u64> = store.done_matches(run_id)?.into_iter().collect();
    let todo: Vec<u64> = wanted
        .iter()
        .copied()
        .filter(|i| !done.contains(i))
        .collect();
    let stop = stop_flag();
    let bar = progress_bar(
        wanted.len() as u64,
        (wanted.len() - todo.len()) as u64,
        prepared.quiet,
    );
    let group_size = schedule.group_size();
    let two_bots = prepared.bots.len() == 2;
    let mut live = HeadToHeadTally::new(group_size);
    if two_bots {
        store.matches(run_id)?.iter().for_each(|m| live.add(m));
    }
    prepared
        .tournament
        .run(&Catalog, &mut store, run_id, &todo, &stop, |record| {
            bar.inc(1);
            if two_bots {
                live.add(record);
                bar.set_message(live_message(&live.summary()));
            }
        })?;
    bar.finish_and_clear();
    if stop.load(Ordering::SeqCst) {
        eprintln!(
            "interrupted: finished matches are stored in {}; run the same command to resume",
            prepared.db.display()
        );
        return Ok(ExitCode::from(130));
    }
    print_report(&store, &prepared.run.key, args.format)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_sprt(args: SprtArgs) -> Result<ExitCode> {
    let sprt = Sprt::new(SprtConfig {
        elo0: args.elo0,
        elo1: args.elo1,
        alpha: args.alpha,
        beta: args.beta,
        model: SprtModel::Normalized,
    })?;
    let bots = [args.candidate.clone(), args.baseline.clone()];
    let mut prepared = prepare(&args.game, &bots, args.max_games, "sprt", &args.run)?;
    if prepared.tournament.schedule.n_seats != 2 {
        bail!("sprt compares two bots in two-player matches");
    }
    let mut store = Store::open(&prepared.db)?;
    let run_id = store.ensure_run(&prepared.run, &prepared.bots)?;
    let stop = stop_flag();
    let group_size = prepared.tournament.schedule.group_size();
    let batch_groups = (prepared.tournament.jobs as u64 * 2).max(2);
    let total_groups = prepared.tournament.schedule.n_groups();
    let mut records = store.matches(run_id)?;
    let bar = progress_bar(
        prepared.tournament.schedule.n_matches(),
        records.len() as u64,
        prepared.quiet,
    );
    let mut next_group = 0;
    let status = loop {
        let head = HeadToHead::from_matches(&records, group_size);
        let status = sprt.status_pentanomial(&head.pentanomial()).ok();
        if let Some(s) = &status {
            bar.set_message(format!(
                "{}  LLR {:.2} [{:.2}, {:.2}]",
                live_message(&head),
                s.llr,
                s.lower,
                s.upper
            ));
            if s.decision != SprtDecision::Continue {
                break status;
            }
        }
        if next_group >= total_groups || stop.load(Ordering::SeqCst) {
            break status;
        }
        let groups = next_group..(next_group + batch_groups).min(total_groups);
        next_group = groups.end;
        let done: std::collections::BTreeSet<u64> = records.iter().map(|m| m.match_idx).collect();
        let todo: Vec<u64> = groups
            .flat_map(|g| g * group_size..(g + 1) * group_size)
            .filter(|i| !done.contains(i))
            .collect();
        prepared
            .tournament
            .run(&Catalog, &mut store, run_id, &todo, &stop, |record| {
                bar.inc(1);
                records.push(record.clone());
            })?;
        prepared.tournament.jobs = prepared.tournament.jobs.max(1);
    };
    bar.finish_and_clear();
    if stop.load(Ordering::SeqCst) {
        eprintln!(
            "interrupted: finished matches are stored in {}; run the same command to resume",
            prepared.db.display()
        );
        return Ok(ExitCode::from(130));
    }
    let head = HeadToHead::from_matches(&records, group_size);
    println!(
        "SPRT {} vs {}: elo0 {} elo1 {} alpha {} beta {}",
        bots[0], bots[1], args.elo0, args.elo1, args.alpha, args.beta
    );
    println!(
        "games {}  W-D-L {}-{}-{}  pentanomial {:?}",
        records.len(),
        head.wdl.wins,
        head.wdl.draws,
        head.wdl.losses,
        head.pentanomial
    );
    if let Some(e) = &head.elo_pentanomial {
        println!(
            "Elo {:+.2} ± {:.2} (95%), LOS {:.1}%",
            e.elo,
            e.elo_error,
            e.los * 100.0
        );
    }
    match status {
        Some(s) => {
            println!("LLR {:.3} (bounds {:.3}, {:.3})", s.llr, s.lower, s.upper);
            let verdict = match s.decision {
                SprtDecision::AcceptH1 => "H1 accepted: the candidate is stronger",
                SprtDecision::AcceptH0 => "H0 accepted: the candidate is not stronger",
                SprtDecision::Continue => "no decision within --max-games",
            };
            println!("{verdict}");
        }
        None => println!("no decision: not enough games to compute the LLR"),
    }
    println!(
        "run {} stored in {}",
        prepared.run.key,
        prepared.db.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn short_hash(text: &str) -> String {
    // FNV-1a: a stable, dependency-free digest; the key only needs to tell configurations apart.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Howard Hinnant's days-to-civil-date algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (era * 400 + yoe + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
    }

    #[test]
    fn shards_are_checked() {
        assert_eq!(parse_shard("2/8").unwrap(), (2, 8));
        assert!(parse_shard("0/8").is_err());
        assert!(parse_shard("9/8").is_err());
        assert!(parse_shard("x").is_err());
    }
}
