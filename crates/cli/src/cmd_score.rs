//! `realm score kingdom-builder FILE`: scores a finished board.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use realm_kingdom_builder::{run_scorer, ScoreFormat, ScoreOptions};

#[derive(Args)]
pub struct ScoreArgs {
    /// The game (only kingdom-builder has a scorer)
    game: String,
    /// The board file, or `-` for stdin
    board: PathBuf,
    /// Scoring cards by number or name, comma-separated (the castle score is always included)
    #[arg(long)]
    cards: Option<String>,
    /// Number of players (default: the highest digit on the board)
    #[arg(long)]
    players: Option<usize>,
    /// Lords variant: players with no settlement in a quadrant still take part
    #[arg(long)]
    lords_zero: bool,
    /// One line per card before the totals
    #[arg(long, conflicts_with = "json")]
    detail: bool,
    /// Every per-card value and the totals as JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: ScoreArgs) -> Result<ExitCode> {
    if args.game != "kingdom-builder" {
        bail!(
            "only kingdom-builder has a board scorer, not `{}`",
            args.game
        );
    }
    let text = if args.board.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading the board from stdin")?;
        text
    } else {
        std::fs::read_to_string(&args.board)
            .with_context(|| format!("cannot read {}", args.board.display()))?
    };
    let format = if args.json {
        ScoreFormat::Json
    } else if args.detail {
        ScoreFormat::Detail
    } else {
        ScoreFormat::Totals
    };
    let options = ScoreOptions {
        cards: args.cards,
        players: args.players,
        lords_zero: args.lords_zero,
        format,
    };
    let output = run_scorer(&text, &options)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.board.display()))?;
    print!("{output}");
    Ok(ExitCode::SUCCESS)
}
