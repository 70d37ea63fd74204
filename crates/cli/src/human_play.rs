//! Matches with a person's seat, played in the browser (`realm play GAME human BOT`, and the
//! Play page of `realm serve`): the seat `human` answers through a `realm_viewer::PlayMatch`,
//! the other seats are bots as in any match, and the match is judged by the game's table (the
//! referee with its position), so the page offers exactly the referee's legal actions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Result};
use realm_arena::{
    make_seat, run_table_match, unique_labels, HumanSeat, MatchOptions, MatchResult, OutputLimits,
    Seat,
};
use realm_core::{Engine, FaultKind, MatchSpec, ReplayPlayer, Request};
use realm_games::{Catalog, GameKind};
use realm_viewer::{MatchInfo, MatchStarter, PlayHall, PlayMatch};
use serde_json::{json, Value};

use crate::cmd_play::{write_replay, Destination};
use crate::options::MatchFlags;

/// The seat argument that stands for the person at the keyboard.
pub const HUMAN: &str = "human";

pub fn is_human(arg: &str) -> bool {
    arg == HUMAN
}

/// A person's seat: the page of the match chooses the answer.
struct PageSeat(Arc<PlayMatch>);

impl HumanSeat for PageSeat {
    fn answer(
        &mut self,
        request: &Request,
        position: Box<dyn Engine>,
        frame: &Value,
    ) -> Result<Vec<String>, (FaultKind, String)> {
        self.0.ask(request, position, frame)
    }
}

/// A match ready to play: its page's side and its seats.
pub struct HumanMatch {
    pub played: Arc<PlayMatch>,
    spec: MatchSpec,
    players: Vec<ReplayPlayer>,
    seats: Vec<Seat>,
}

/// Opens a match in `hall` where every `human` of `bots` is the person and the others are bots
/// (built-in or commands, started now, seeded as the arena seeds them).
pub fn prepare(spec: &MatchSpec, bots: &[String], hall: &PlayHall) -> Result<HumanMatch> {
    let entrants = crate::cmd_play::entrants_from_args(bots)?;
    let labels = unique_labels(&entrants);
    let humans: Vec<usize> = (0..bots.len()).filter(|&i| is_human(&bots[i])).collect();
    let played = hall.open(MatchInfo {
        spec: spec.clone(),
        names: labels.clone(),
        humans: humans.clone(),
    });
    let mut seats = Vec::new();
    for (i, entrant) in entrants.iter().enumerate() {
        seats.push(if humans.contains(&i) {
            Seat::Human(Box::new(PageSeat(played.clone())))
        } else {
            make_seat(&Catalog, spec, i, entrant, OutputLimits::default())?
        });
    }
    let players = crate::cmd_play::replay_players(&entrants, labels);
    Ok(HumanMatch {
        played,
        spec: spec.clone(),
        players,
        seats,
    })
}

impl HumanMatch {
    /// Plays to the end (blocking on the person's calls), writes the replay to `replay` and
    /// shows the ending on the page, with the replay at `replay_href` on the same server.
    pub fn play(
        self,
        options: MatchOptions,
        replay: Option<(&Path, Destination)>,
        replay_href: Option<String>,
    ) -> Result<MatchResult> {
        let table = realm_games::new_table(&self.spec)?;
        let result = run_table_match(&self.spec, self.players, table, self.seats, options);
        let written = match replay {
            Some((path, destination)) => write_replay(path, &result.replay, destination).map(Some),
            None => Ok(None),
        };
        let replay_ref = &result.replay;
        let frame = replay_ref
            .turns
            .last()
            .map_or(&replay_ref.initial_frame, |t| &t.frame);
        let href = written.as_ref().ok().and_then(|w| w.and(replay_href));
        self.played.finish(frame, &replay_ref.outcome, href);
        written?;
        Ok(result)
    }
}

/// The URL path of a replay file served from its folder (`/replay/<file name>`).
pub fn replay_href(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let encoded: String = name
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    Some(format!("/replay/{encoded}"))
}

/// Opens `url` in the person's browser, only where one is set up ($BROWSER, or a display for
/// xdg-open); never in tests, which set neither.
pub fn open_browser(url: &str) {
    let browser = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty());
    let program = match browser {
        Some(b) => b,
        None if std::env::var_os("DISPLAY").is_some() => "xdg-open".to_string(),
        None => return,
    };
    let _ = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

/// `realm serve`'s Play page: matches from a form, their replays written to the served folder.
pub struct FormStarter {
    pub replays_dir: PathBuf,
    /// Whether the form may name a command as the opponent (`realm serve --play-commands`):
    /// anyone who can reach 127.0.0.1 could otherwise run programs as this user.
    pub commands_allowed: bool,
}

impl MatchStarter for FormStarter {
    fn catalog(&self) -> Value {
        let games: Vec<Value> = GameKind::ALL
            .iter()
            .filter(|g| g.is_playable())
            .map(|g| {
                let info = g.info();
                json!({
                    "slug": info.slug,
                    "title": info.title,
                    "variants": info.variants.iter().map(|v| json!({
                        "name": v.name.unwrap_or("standard"),
                        "players": v.players,
                        "summary": v.summary,
                    })).collect::<Vec<_>>(),
                    "leagues": info.leagues,
                    "default_league": info.default_league,
                    "bots": info.bots,
                })
            })
            .collect();
        json!({"games": games, "commands": self.commands_allowed})
    }

    fn start(
        &self,
        form: &BTreeMap<String, String>,
        hall: &Arc<PlayHall>,
    ) -> Result<Arc<PlayMatch>, String> {
        self.start_match(form, hall).map_err(|e| e.to_string())
    }
}

impl FormStarter {
    fn start_match(
        &self,
        form: &BTreeMap<String, String>,
        hall: &Arc<PlayHall>,
    ) -> Result<Arc<PlayMatch>> {
        let field = |key: &str| form.get(key).map(|v| v.trim()).filter(|v| !v.is_empty());
        let game = crate::options::game(field("game").unwrap_or(""))?;
        let flags = MatchFlags {
            seed: field("seed").map(str::to_string),
            league: field("league").map(str::parse).transpose()?,
            variant: field("variant").map(str::to_string),
            options: Vec::new(),
        };
        let variant = flags.variant.as_deref().filter(|v| *v != "standard");
        let players = match field("players") {
            Some(n) => n.parse()?,
            None => game.default_players(variant),
        };
        let opponent = field("opponent").unwrap_or("builtin:greedy");
        if !opponent.starts_with("builtin:") && !self.commands_allowed {
            bail!("commands as opponents need `realm serve --play-commands`");
        }
        let seat: usize = field("seat").map(str::parse).transpose()?.unwrap_or(0);
        if seat >= players {
            bail!("seat {seat} does not exist with {players} players");
        }
        let bots: Vec<String> = (0..players)
            .map(|i| if i == seat { HUMAN } else { opponent }.to_string())
            .collect();
        let spec = flags.spec_quietly(game, players)?;
        let prepared = prepare(&spec, &bots, hall)?;
        let played = prepared.played.clone();
        let file = crate::cmd_play::default_replay_name(&spec);
        let path = self.replays_dir.join(&file);
        let href = replay_href(&path);
        std::thread::spawn(move || {
            let played = prepared.played.clone();
            if let Err(e) = prepared.play(
                MatchOptions::default(),
                Some((&path, Destination::Default)),
                href,
            ) {
                errln!("match {} of the Play page: {e:#}", played.id());
            }
        });
        Ok(played)
    }
}
