//! `realm play`: one match, a short summary, and its replay on disk.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use clap::Args;
use realm_arena::tournament::{add_to_data_sum, parse_data_line, DataKind, DataLine};
use realm_arena::{make_seats, run_match, unique_labels, Entrant, OutputLimits};
use realm_core::{Replay, ReplayPlayer};
use serde::Serialize;
use serde_json::Value;

use crate::human_play;
use crate::options::{game, MatchFlags, TimeFlags};
use realm_games::Catalog;

#[derive(Args)]
pub struct PlayArgs {
    /// The game, e.g. kingdomino (see `realm games`)
    pub game: String,
    /// The bots, one per seat in seat order: `builtin:NAME`, a shell command, or `human`: you,
    /// in the browser (realm serves the match on 127.0.0.1 and prints its URL)
    #[arg(required = true, num_args = 1..)]
    pub bots: Vec<String>,
    /// Seats to fill (default: one per bot); fewer bots than seats are repeated in order
    /// (`greedy random --players 4` seats greedy, random, greedy, random)
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    #[command(flatten)]
    pub setup: MatchFlags,
    #[command(flatten)]
    pub time: TimeFlags,
    /// Where to write the replay (default: replays/GAME-SEED.json; with --json, no replay
    /// unless this is given)
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// Record response times in the replay (makes two runs of the same match differ)
    #[arg(long)]
    pub timings: bool,
    /// Serve the replay in the web viewer afterwards
    #[arg(long, conflicts_with = "json")]
    pub view: bool,
    /// Print one line of JSON for psyleague's cmd_play_game and cgarena's cmd_play_match
    /// instead of a summary: `{"ranks":[...],"errors":[...],"test_data":{...},
    /// "player_data":[{...},...],"attributes":[...]}` with 0-based ranks, 1 for each player at
    /// fault (else 0), the seed and the bots' `[TDATA] key = value` lines, each player's
    /// `[PDATA]` (last value) and `[PDATA+]` (summed) lines, and every data line as
    /// `{name, player, turn, value}` (`[PDATA][TURN] key = value` sets the turn). Writes no
    /// replay unless --replay is given (league runs play thousands of games)
    #[arg(long)]
    pub json: bool,
    /// With a `human` seat: the port on 127.0.0.1 of the match's page (default: a free one)
    #[arg(long)]
    pub port: Option<u16>,
    /// With a `human` seat: resign for the person when the match's page has been closed for
    /// SECS seconds
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub abandon_after: u64,
}

pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let game = game(&args.game)?;
    let bots = seat_bots(&args.bots, args.players)?;
    let spec = args.setup.spec(game, bots.len())?;
    let options = args.time.match_options(args.timings)?;
    let referee = game.new_referee(&spec)?;
    if let Some(path) = &args.replay {
        check_named_replay_path(path)?;
    }
    install_interrupt_handler();
    let mut page = None;
    let (result, path) = if bots.iter().any(|b| human_play::is_human(b)) {
        let (result, path, served) = play_with_person(&args, &spec, &bots, options)?;
        page = Some(served);
        (result, path)
    } else {
        let (seats, players) = start_bots(&spec, &bots)?;
        let result = run_match(&spec, players, referee, seats, options);
        stop_if_interrupted();
        let destination = replay_destination(args.replay.as_deref(), !args.json, &result.replay);
        if let Some((path, destination)) = &destination {
            write_replay(path, &result.replay, *destination)?;
        }
        (result, destination.map(|(path, _)| path))
    };
    if args.json {
        let psyleague = psyleague_result(&result.replay);
        for why in &psyleague.dropped {
            errln!("warning: {why}; dropped");
        }
        outln!("{}", serde_json::to_string(&psyleague)?)?;
    } else {
        crate::write_stdout(format_args!("{}", summary(&result.replay, path.as_deref())))?;
    }
    if let Some((played, server)) = page {
        if played.watched() {
            errln!("the match is over; its page is served until it is closed");
        }
        played.wait_while_watched();
        server.shutdown();
    }
    match path {
        Some(path) if args.view => crate::cmd_serve::view(&path, None),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// A match's page and the server that serves it.
type ServedPage = (Arc<realm_viewer::PlayMatch>, realm_viewer::RunningServer);

/// Serves the match on 127.0.0.1 for the person's seat(s), prints its URL at once, plays it, and
/// returns the page and its server, to be kept until the page is closed.
fn play_with_person(
    args: &PlayArgs,
    spec: &realm_core::MatchSpec,
    bots: &[String],
    options: realm_arena::MatchOptions,
) -> Result<(realm_arena::MatchResult, Option<PathBuf>, ServedPage)> {
    let path = match &args.replay {
        Some(path) => Some((path.clone(), Destination::Named)),
        None if !args.json => Some((default_replay_path_of(spec), Destination::Default)),
        None => None,
    };
    let folder = path
        .as_ref()
        .and_then(|(p, _)| p.parent())
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let abandon_after = std::time::Duration::from_secs(args.abandon_after.max(1));
    let hall = realm_viewer::PlayHall::new(None, abandon_after);
    let prepared = human_play::prepare(spec, bots, &hall)?;
    let mut config = realm_viewer::ServerConfig::folder(folder);
    config.port = args.port;
    config.play = Some(hall);
    let server = realm_viewer::start(config)?;
    let url = format!("{}{}", server.base_url(), prepared.played.page_path());
    let note = format!(
        "play in the browser: {url}\n(a page closed for {} s resigns; Ctrl-C ends the match)",
        abandon_after.as_secs()
    );
    // stdout stays one JSON line with --json.
    if args.json {
        errln!("{note}");
    } else {
        outln!("{note}")?;
    }
    human_play::open_browser(&url);
    let played = prepared.played.clone();
    let href = path.as_ref().and_then(|(p, _)| human_play::replay_href(p));
    let result = prepared.play(options, path.as_ref().map(|(p, d)| (p.as_path(), *d)), href)?;
    stop_if_interrupted();
    Ok((result, path.map(|(p, _)| p), (played, server)))
}

/// The bot of each seat: the bots as given, repeated in order when `players` asks for more.
fn seat_bots(bots: &[String], players: Option<usize>) -> Result<Vec<String>> {
    let Some(n) = players else {
        return Ok(bots.to_vec());
    };
    if bots.len() > n {
        bail!(
            "{} bots cannot sit at {n} seats (--players {n})",
            bots.len()
        );
    }
    Ok(bots.iter().cycle().take(n).cloned().collect())
}

/// Starts one seat per bot argument (built-in or process) and names the players for the replay.
pub fn start_bots(
    spec: &realm_core::MatchSpec,
    bots: &[String],
) -> Result<(Vec<realm_arena::Seat>, Vec<ReplayPlayer>)> {
    let entrants = entrants_from_args(bots)?;
    let labels = unique_labels(&entrants);
    let seats = make_seats(
        &Catalog,
        spec,
        &entrants.iter().collect::<Vec<_>>(),
        OutputLimits::default(),
    )?;
    Ok((seats, replay_players(&entrants, labels)))
}

/// The players a replay names: each entrant's label and command as given.
pub fn replay_players(entrants: &[Entrant], labels: Vec<String>) -> Vec<ReplayPlayer> {
    entrants
        .iter()
        .zip(labels)
        .map(|(e, name)| ReplayPlayer {
            name,
            command: e.command(),
        })
        .collect()
}

/// The bots of the command line; an empty one is a usage error.
pub fn entrants_from_args(bots: &[String]) -> Result<Vec<Entrant>> {
    bots.iter()
        .map(|b| Entrant::from_arg(b).map_err(anyhow::Error::msg))
        .collect()
}

pub fn default_replay_path(replay: &Replay) -> PathBuf {
    default_replay_path_of(&replay.spec)
}

/// `replays/GAME[-VARIANT]-SEED.json`.
fn default_replay_path_of(spec: &realm_core::MatchSpec) -> PathBuf {
    PathBuf::from("replays").join(default_replay_name(spec))
}

/// `GAME[-VARIANT]-SEED.json`.
pub fn default_replay_name(spec: &realm_core::MatchSpec) -> String {
    let variant = spec
        .variant
        .as_deref()
        .map(|v| format!("-{v}"))
        .unwrap_or_default();
    format!("{}{variant}-{}.json", spec.game, spec.seed)
}

/// Where a file realm writes goes: a path the user named, whose directory must exist (realm
/// creates nothing the user did not name), or realm's own default, whose folder realm creates.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Destination {
    Named,
    Default,
}

/// Where a match's replay goes: the path the user named, else realm's default path when one is
/// wanted, else nowhere.
pub fn replay_destination(
    named: Option<&Path>,
    default_wanted: bool,
    replay: &Replay,
) -> Option<(PathBuf, Destination)> {
    match (named, default_wanted) {
        (Some(path), _) => Some((path.to_path_buf(), Destination::Named)),
        (None, true) => Some((default_replay_path(replay), Destination::Default)),
        (None, false) => None,
    }
}

/// A replay path the user named must be in a directory that exists: checked before the match,
/// so a typo costs no game.
pub fn check_named_replay_path(path: &Path) -> Result<()> {
    match missing_parent(path) {
        Some(dir) => bail!(
            "cannot write replay {}: no directory {}",
            path.display(),
            dir.display()
        ),
        None => Ok(()),
    }
}

/// The folder `path` would go into, when that folder does not exist (realm creates only the
/// last component of a path the user named, never the folders above it).
pub fn missing_parent(path: &Path) -> Option<&Path> {
    path.parent()
        .filter(|dir| !dir.as_os_str().is_empty() && !dir.is_dir())
}

/// Writes the replay whole or not at all (see `write_atomically`).
pub fn write_replay(path: &Path, replay: &Replay, destination: Destination) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    match (dir, destination) {
        (Some(dir), Destination::Default) => std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create {}", dir.display()))?,
        (_, Destination::Named) => check_named_replay_path(path)?,
        _ => {}
    }
    let json = serde_json::to_vec_pretty(replay)?;
    realm_arena::files::write_atomically(path, &json)
        .with_context(|| format!("cannot write replay {}", path.display()))
}

/// What psyleague's `cmd_play_game` prints, in this key order.
#[derive(Debug, PartialEq, Serialize)]
struct PsyleagueResult {
    /// 0-based (0 = first), equal for a draw, as trueskill takes them.
    ranks: Vec<u32>,
    /// 1 for a player at fault, else 0 (cgarena reads integers; psyleague sums them).
    errors: Vec<u8>,
    test_data: BTreeMap<String, Value>,
    player_data: Vec<BTreeMap<String, Value>>,
    /// Every data line as cgarena reads it.
    attributes: Vec<Attribute>,
    /// Why a `[PDATA+]` key is missing from `player_data` (see `add_to_data_sum`).
    #[serde(skip)]
    dropped: Vec<String>,
}

/// One `[TDATA]`/`[PDATA]` line for cgarena: `player` is `None` for test data, `turn` is set by
/// the per-turn form, and the value stays text (cgarena parses it).
#[derive(Debug, PartialEq, Serialize)]
struct Attribute {
    name: String,
    player: Option<usize>,
    turn: Option<u32>,
    value: String,
}

fn psyleague_result(replay: &Replay) -> PsyleagueResult {
    let outcome = &replay.outcome;
    let mut test_data = BTreeMap::from([("seed".to_string(), Value::from(replay.spec.seed))]);
    let mut player_data = vec![BTreeMap::new(); outcome.ranks.len()];
    let mut attributes = Vec::new();
    let mut overflowed = BTreeSet::new();
    let mut dropped = Vec::new();
    for turn in &replay.turns {
        for line in turn.stderr.lines().filter_map(parse_data_line) {
            let DataLine {
                kind, key, value, ..
            } = line;
            attributes.push(Attribute {
                name: key.to_string(),
                player: (kind != DataKind::Test).then_some(turn.player),
                turn: line.turn,
                value: value.to_string(),
            });
            let (into, value) = match kind {
                DataKind::Test => (&mut test_data, data_value(value)),
                DataKind::Player => (&mut player_data[turn.player], data_value(value)),
                DataKind::PlayerSum => {
                    let into = &mut player_data[turn.player];
                    if overflowed.contains(&(turn.player, key)) {
                        continue;
                    }
                    let sum = into.get(key).and_then(Value::as_f64).unwrap_or(0.0);
                    match add_to_data_sum(sum, value.parse::<f64>().unwrap_or(0.0)) {
                        Some(sum) => (into, Value::from(sum)),
                        // JSON has no infinity (serde would print `null`): the key goes.
                        None => {
                            into.remove(key);
                            overflowed.insert((turn.player, key));
                            dropped.push(format!(
                                "player {}: the `[PDATA+] {key}` sum is not a finite number",
                                turn.player
                            ));
                            continue;
                        }
                    }
                }
            };
            into.insert(key.to_string(), value);
        }
    }
    PsyleagueResult {
        ranks: outcome.ranks.iter().map(|r| r - 1).collect(),
        errors: outcome
            .faults
            .iter()
            .map(|f| u8::from(f.is_some()))
            .collect(),
        test_data,
        player_data,
        attributes,
        dropped,
    }
}

/// A data value as JSON: an integer or a number when it reads as one, else the text.
fn data_value(text: &str) -> Value {
    if let Ok(i) = text.parse::<i64>() {
        return Value::from(i);
    }
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() => Value::from(f),
        _ => Value::from(text),
    }
}

/// The match summary: header, one row per player (with the game's result figures when it
/// reports any), faults, end reason and the replay's path.
fn summary(replay: &Replay, path: Option<&Path>) -> String {
    let mut out = String::new();
    let spec = &replay.spec;
    let mut header = spec.game.clone();
    if let Some(v) = &spec.variant {
        header.push_str(&format!(" ({v})"));
    }
    if let Some(l) = spec.league {
        header.push_str(&format!(", league {l}"));
    }
    let _ = writeln!(
        out,
        "{header}, {} players, seed {}, {} calls",
        spec.n_players,
        spec.seed,
        replay.turns.len()
    );
    let outcome = &replay.outcome;
    let mut order: Vec<usize> = (0..outcome.ranks.len()).collect();
    order.sort_by_key(|&p| (outcome.ranks[p], p));
    let widths: Vec<usize> = outcome
        .stats
        .iter()
        .map(|s| {
            let widest = s.values.iter().map(|v| v.to_string().len()).max();
            s.name.len().max(widest.unwrap_or(0))
        })
        .collect();
    let mut head = "  rank  score  seat".to_string();
    for (stat, w) in outcome.stats.iter().zip(&widths) {
        head.push_str(&format!("  {:>w$}", stat.name));
    }
    let _ = writeln!(out, "{head}  player");
    for p in order {
        let mut row = format!(
            "  {:>4}  {:>5}  {:>4}",
            outcome.ranks[p], outcome.scores[p], p
        );
        for (stat, w) in outcome.stats.iter().zip(&widths) {
            let value = stat.values.get(p).map(i64::to_string).unwrap_or_default();
            row.push_str(&format!("  {value:>w$}"));
        }
        let _ = writeln!(out, "{row}  {}", replay.players[p].name);
    }
    for (p, fault) in outcome.faults.iter().enumerate() {
        if let Some(f) = fault {
            let _ = writeln!(
                out,
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
    let _ = writeln!(out, "end: {}{detail}", outcome.end.code());
    if let Some(path) = path {
        let _ = writeln!(out, "replay: {}", path.display());
    }
    out
}

/// Set by the interrupt handler before it kills the bots.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Ctrl-C (or SIGTERM, SIGHUP) kills every bot process group before realm exits (bots do not
/// get the terminal's SIGINT because each runs in its own group).
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
        realm_arena::kill_all_bots();
        errln!("realm: interrupted");
        std::process::exit(130);
    });
}

/// Called when a match returns: if an interrupt killed its bots, the match is not a result to
/// report, and the handler is about to exit the process, so this waits for it.
pub fn stop_if_interrupted() {
    while INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::park();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewer_bots_than_seats_are_repeated_in_order() {
        let bots = vec!["builtin:greedy".to_string(), "builtin:random".to_string()];
        assert_eq!(
            seat_bots(&bots, Some(4)).unwrap(),
            [
                "builtin:greedy",
                "builtin:random",
                "builtin:greedy",
                "builtin:random"
            ]
        );
        assert_eq!(seat_bots(&bots, None).unwrap(), bots);
        assert_eq!(
            seat_bots(&bots, Some(1)).unwrap_err().to_string(),
            "2 bots cannot sit at 1 seats (--players 1)"
        );
    }

    #[test]
    fn data_values_are_numbers_when_they_read_as_numbers() {
        assert_eq!(data_value("12"), Value::from(12));
        assert_eq!(data_value("0.5"), Value::from(0.5));
        assert_eq!(data_value("deep"), Value::from("deep"));
        assert_eq!(data_value("NaN"), Value::from("NaN"));
    }

    #[test]
    fn a_pdata_sum_that_overflows_is_dropped_not_printed_as_null() {
        let game = crate::options::game("kingdomino").unwrap();
        let spec = realm_core::MatchSpec::new("kingdomino", 2, 3);
        let bots = ["builtin:random".to_string(), "builtin:random".to_string()];
        let (seats, players) = start_bots(&spec, &bots).unwrap();
        let referee = game.new_referee(&spec).unwrap();
        let mut replay = run_match(&spec, players, referee, seats, Default::default()).replay;
        let stderr = "[PDATA+] s = 1e308\n[PDATA+] t = 1e999\n[PDATA+] u = 2\n";
        let mut turns = replay.turns.iter_mut().filter(|t| t.player == 0);
        turns.next().unwrap().stderr = stderr.into();
        turns.next().unwrap().stderr = stderr.into();
        turns.next().unwrap().stderr = "[PDATA+] s = 1\n".into();
        let result = psyleague_result(&replay);
        let json = serde_json::to_string(&result.player_data).unwrap();
        assert_eq!(json, r#"[{"u":4.0},{}]"#);
        assert_eq!(
            result.dropped,
            [
                "player 0: the `[PDATA+] t` sum is not a finite number",
                "player 0: the `[PDATA+] s` sum is not a finite number"
            ]
        );
    }
}
