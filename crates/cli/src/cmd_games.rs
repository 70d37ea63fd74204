//! `realm games`: what realm can play, straight from each game's description.

use std::process::ExitCode;

use anyhow::Result;
use realm_games::GameKind;

pub fn run() -> Result<ExitCode> {
    for game in GameKind::ALL {
        let info = game.info();
        outln!("{}  ({})", info.slug, info.title)?;
        for v in info.variants {
            let players: Vec<String> = v.players.iter().map(|p| p.to_string()).collect();
            outln!(
                "  variant {:<9} players {:<7} {}",
                v.name.unwrap_or("standard"),
                players.join(","),
                v.summary
            )?;
        }
        let leagues: Vec<String> = info.leagues.iter().map(|l| l.to_string()).collect();
        let higher = if info.higher_leagues_play_top {
            ", higher ones play as the top league"
        } else {
            ""
        };
        outln!(
            "  leagues {} (default {}{higher})",
            leagues.join(","),
            info.default_league
        )?;
        if !info.options.is_empty() {
            outln!("  options {}", info.options.join(", "))?;
        }
        if info.bots.is_empty() {
            outln!(
                "  {}",
                if game.is_playable() {
                    "no built-in bots"
                } else {
                    "scoring only: realm score"
                }
            )?;
        } else {
            let bots: Vec<String> = info.bots.iter().map(|b| format!("builtin:{b}")).collect();
            outln!("  bots    {}", bots.join(", "))?;
        }
    }
    if GameKind::ALL
        .iter()
        .any(|g| g.info().bots.contains(&"mcts"))
    {
        outln!("\n{}", realm_search::OPTIONS_HELP)?;
    }
    if GameKind::IceAndFire.info().bots.contains(&"strong") {
        outln!("{}", realm_games::STRONG_OPTIONS_HELP)?;
    }
    Ok(ExitCode::SUCCESS)
}
