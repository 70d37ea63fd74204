//! `realm play`: one match, a short summary, and its replay on disk.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use realm_arena::{make_seats, run_match, unique_labels, Entrant, OutputLimits};
use realm_core::{Replay, ReplayPlayer};

use crate::catalog::Catalog;
use crate::options::{game, MatchFlags, TimeFlags};

#[derive(Args)]
pub struct PlayArgs {
    /// The game, e.g. kingdomino (see `realm games`)
    pub game: String,
    /// The bots, one per seat in seat order: `builtin:NAME` or a shell command
    #[arg(required = true, num_args = 1..)]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub setup: MatchFlags,
    #[command(flatten)]
    pub time: TimeFlags,
    /// Where to write the replay (default: replays/GAME-SEED.json)
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// Record response times in the replay (makes two runs of the same match differ)
    #[arg(long)]
    pub timings: bool,
    /// Serve the replay in the web viewer afterwards
    #[arg(long, conflicts_with = "json")]
    pub view: bool,
    /// Print `{"ranks": [...], "errors": [...]}` (psyleague's cmd_play_game) instead of a summary
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let game = game(&args.game)?;
    let spec = args.setup.spec(game, args.bots.len())?;
    let options = args.time.match_options(args.timings)?;
    let referee = game.new_referee(&spec)?;
    let (seats, players) = start_bots(&spec, &args.bots)?;
    install_interrupt_handler();
    let result = run_match(&spec, players, referee, seats, options);
    let path = args
        .replay
        .unwrap_or_else(|| default_replay_path(&result.replay));
    write_replay(&path, &result.replay)?;
    if args.json {
        println!("{}", psyleague_json(&result.replay));
    } else {
        print_summary(&result.replay, &path);
    }
    if args.view {
        return crate::cmd_serve::view(&path, None);
    }
    Ok(ExitCode::SUCCESS)
}

/// Starts one seat per bot argument (built-in or process) and names the players for the replay.
pub fn start_bots(
    spec: &realm_core::MatchSpec,
    bots: &[String],
) -> Result<(Vec<realm_arena::Seat>, Vec<ReplayPlayer>)> {
    let entrants: Vec<Entrant> = bots.iter().map(|b| Entrant::parse(b)).collect();
    let labels = unique_labels(&entrants);
    let seats = make_seats(
        &Catalog,
        spec,
        &entrants.iter().collect::<Vec<_>>(),
        OutputLimits::default(),
    )?;
    let players = entrants
        .iter()
        .zip(labels)
        .map(|(e, name)| ReplayPlayer {
            name,
            command: e.command(),
        })
        .collect();
    Ok((seats, players))
}

fn default_replay_path(replay: &Replay) -> PathBuf {
    let variant = replay
        .spec
        .variant
        .as_deref()
        .map(|v| format!("-{v}"))
        .unwrap_or_default();
    PathBuf::from("replays").join(format!(
        "{}{variant}-{}.json",
        replay.spec.game, replay.spec.seed
    ))
}

pub fn write_replay(path: &Path, replay: &Replay) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let json = serde_json::to_vec_pretty(replay)?;
    std::fs::write(path, json).with_context(|| format!("cannot write replay {}", path.display()))
}

/// psyleague's contract: 0-based ranks (0 = first) and whether each player erred.
fn psyleague_json(replay: &Replay) -> serde_json::Value {
    let outcome = &replay.outcome;
    serde_json::json!({
        "ranks": outcome.ranks.iter().map(|r| r - 1).collect::<Vec<_>>(),
        "errors": outcome.faults.iter().map(Option::is_some).collect::<Vec<_>>(),
    })
}

fn print_summary(replay: &Replay, path: &Path) {
    let spec = &replay.spec;
    let mut header = spec.game.clone();
    if let Some(v) = &spec.variant {
        header.push_str(&format!(" ({v})"));
    }
    if let Some(l) = spec.league {
        header.push_str(&format!(", league {l}"));
    }
    println!(
        "{header}, {} players, seed {}, {} calls",
        spec.n_players,
        spec.seed,
        replay.turns.len()
    );
    let outcome = &replay.outcome;
    let mut order: Vec<usize> = (0..outcome.ranks.len()).collect();
    order.sort_by_key(|&p| (outcome.ranks[p], p));
    println!("  rank  score  seat  player");
    for p in order {
        println!(
            "  {:>4}  {:>5}  {:>4}  {}",
            outcome.ranks[p], outcome.scores[p], p, replay.players[p].name
        );
    }
    for (p, fault) in outcome.faults.iter().enumerate() {
        if let Some(f) = fault {
            println!(
                "  fault: seat {p} ({}) {} in turn {}: {}",
                replay.players[p].name,
                f.kind.code(),
                f.turn,
                f.detail
            );
        }
    }
    let detail = if outcome.detail.is_empty() {
        String::new()
    } else {
        format!(" ({})", outcome.detail)
    };
    println!("end: {}{detail}", outcome.end.code());
    println!("replay: {}", path.display());
}

/// Ctrl-C kills every bot process group before realm exits (bots do not get the terminal's
/// SIGINT because each runs in its own group).
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        realm_arena::kill_all_bots();
        eprintln!("realm: interrupted");
        std::process::exit(130);
    });
}
