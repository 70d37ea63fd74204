//! `realm score kingdom-builder FILE`: scores a finished board, and with `--replay` or `--view`
//! writes it as a one-frame replay that the web viewer draws.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use realm_kingdom_builder::{
    format_table, parse::MAX_BOARD_BYTES, score_bytes, score_replay, LordsRule, ScoreFormat,
    ScoreOptions,
};

use crate::cmd_play::{write_replay, Destination};

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
    /// Also write the scored board as a one-frame replay (for `realm view`)
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Write the replay (default: replays/kingdom-builder-BOARD.json) and serve it in the web
    /// viewer
    #[arg(long)]
    view: bool,
}

pub fn run(args: ScoreArgs) -> Result<ExitCode> {
    if args.game != "kingdom-builder" {
        bail!(
            "only kingdom-builder has a board scorer, not `{}`",
            args.game
        );
    }
    let from_stdin = args.board.as_os_str() == "-";
    let bytes = if from_stdin {
        read_capped(std::io::stdin()).context("reading the board from stdin")?
    } else {
        std::fs::File::open(&args.board)
            .and_then(read_capped)
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
        cards: args.cards.clone(),
        players: args.players,
        lords_zero: args.lords_zero,
        format,
    };
    let (board, table) = score_bytes(&bytes, &options).map_err(|e| {
        // Only what is wrong inside the board is located in a file; option errors stand alone.
        if e.is_about_board() {
            let name = if from_stdin {
                "stdin".to_string()
            } else {
                args.board.display().to_string()
            };
            anyhow::anyhow!("{name}: {e}")
        } else {
            anyhow::anyhow!("{e}")
        }
    })?;
    crate::write_stdout(format_args!("{}", format_table(&table, format)))?;

    let destination = match (&args.replay, args.view) {
        (Some(path), _) => Some((path.clone(), Destination::Named)),
        (None, true) => Some((
            default_replay_path(&args.board, from_stdin),
            Destination::Default,
        )),
        (None, false) => None,
    };
    let Some((replay_path, destination)) = destination else {
        return Ok(ExitCode::SUCCESS);
    };
    let lords = if args.lords_zero {
        LordsRule::ZeroCountsRank
    } else {
        LordsRule::NonZeroCounts
    };
    write_replay(
        &replay_path,
        &score_replay(&board, &table, lords),
        destination,
    )?;
    if args.view {
        return crate::cmd_serve::view(&replay_path, None);
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads at most one byte past the board size cap: enough for the parser to say where the cap
/// was crossed, however long the input (`yes . | realm score kingdom-builder -`) goes on.
fn read_capped(input: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input
        .take(MAX_BOARD_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `replays/kingdom-builder-STEM.json`, named after the board file (`stdin` for `-`).
fn default_replay_path(board: &Path, from_stdin: bool) -> PathBuf {
    let stem = match board.file_stem() {
        Some(stem) if !from_stdin => stem.to_string_lossy().into_owned(),
        _ => "stdin".to_string(),
    };
    PathBuf::from("replays").join(format!("kingdom-builder-{stem}.json"))
}
