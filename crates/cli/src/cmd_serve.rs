//! `realm serve` and `realm view`: the local web viewer, bound to 127.0.0.1.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;
use realm_core::REPLAY_FORMAT_VERSION;
use realm_store::Store;
use realm_viewer::{RunSource, ServerConfig};
use serde::Deserialize;

use crate::runs_source::StoreRuns;

#[derive(Args)]
pub struct ServeArgs {
    /// Results store whose runs to show, opened read-only (default: realm.sqlite, when it
    /// exists)
    #[arg(long)]
    db: Option<PathBuf>,
    /// Folder of replays to list and serve
    #[arg(long, default_value = "replays")]
    replays: PathBuf,
    /// Port on 127.0.0.1; 0 picks a free one [default: 7459, or a free one when 7459 is
    /// taken, which realm says; a fixed port keeps `#step=N` links working across restarts]
    #[arg(long)]
    port: Option<u16>,
    /// Let the Play page name a command as the opponent (otherwise built-in bots only: anyone
    /// who can reach 127.0.0.1 could run programs as you through the form)
    #[arg(long)]
    play_commands: bool,
}

/// `realm serve`'s port unless `--port` says otherwise: fixed, so links survive a restart;
/// away from the usual development ports (3000, 5000, 8000, 8080, 8888, ...).
pub const DEFAULT_PORT: u16 = 7459;

#[derive(Args)]
pub struct ViewArgs {
    /// The replay to show
    replay: PathBuf,
    /// Port (default: a free one)
    #[arg(long)]
    port: Option<u16>,
}

pub fn run_serve(args: ServeArgs) -> Result<ExitCode> {
    let mut config = ServerConfig::folder(&args.replays);
    config.port = Some(args.port.unwrap_or(DEFAULT_PORT));
    config.fall_back_to_free_port = args.port.is_none();
    let starter = crate::human_play::FormStarter {
        replays_dir: args.replays.clone(),
        commands_allowed: args.play_commands,
    };
    config.play = Some(realm_viewer::PlayHall::new(
        Some(Box::new(starter)),
        PLAY_ABANDON_AFTER,
    ));
    config.runs = match &args.db {
        Some(db) if !db.exists() => bail!("no results store at {}", db.display()),
        Some(db) => Some(store_runs(db)?),
        // The default store may not exist yet: realm serves the replays and says so.
        None if !Path::new(DEFAULT_DB).exists() => {
            errln!("no results store at {DEFAULT_DB} yet: no runs to show, only replays");
            None
        }
        None => Some(store_runs(Path::new(DEFAULT_DB))?),
    };
    serve(config)
}

/// How long a Play page may be closed before its seat resigns.
const PLAY_ABANDON_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// The store `realm serve` shows when `--db` is not given.
const DEFAULT_DB: &str = "realm.sqlite";

/// The runs pages' source: the store at `db`, opened read-only (serving never writes the store,
/// its WAL files or a migration).
fn store_runs(db: &Path) -> Result<Box<dyn RunSource>> {
    let base_dir = std::path::absolute(db)?
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default();
    let store = Store::open_read_only(db)?;
    Ok(Box::new(StoreRuns::new(store, base_dir)))
}

pub fn run_view(args: ViewArgs) -> Result<ExitCode> {
    view(&args.replay, args.port)
}

/// Serves one replay until interrupted.
pub fn view(replay: &Path, port: Option<u16>) -> Result<ExitCode> {
    if !replay.is_file() {
        bail!("no replay file at {}", replay.display());
    }
    if let Some(newer) = newer_format_version(replay) {
        errln!(
            "warning: {} is replay format {newer}, newer than this realm's \
             {REPLAY_FORMAT_VERSION}; the viewer may show it wrongly",
            replay.display()
        );
    }
    let mut config = ServerConfig::single(replay);
    config.port = port;
    serve(config)
}

/// The replay's `format_version` when it is newer than this realm writes (and so reads). A
/// file that is no replay says nothing here: the viewer shows what it makes of it.
fn newer_format_version(replay: &Path) -> Option<u32> {
    #[derive(Deserialize)]
    struct Header {
        format_version: u32,
    }
    let file = std::io::BufReader::new(std::fs::File::open(replay).ok()?);
    let header: Header = serde_json::from_reader(file).ok()?;
    (header.format_version > REPLAY_FORMAT_VERSION).then_some(header.format_version)
}

fn serve(config: ServerConfig) -> Result<ExitCode> {
    let play = config.play.is_some();
    // SIGINT, SIGTERM and SIGHUP end the server as they end a match. A handler of its own, since
    // the disposition realm inherits may be "ignore": a script's background job ignores SIGINT.
    crate::cmd_play::install_interrupt_handler();
    let server = realm_viewer::start(config)?;
    if let Some((port, why)) = server.taken_port() {
        errln!(
            "port {port} is taken ({why}): serving on port {} instead (--port chooses one)",
            server.port()
        );
    }
    outln!("realm viewer: {}  (Ctrl-C to stop)", server.url())?;
    if play {
        outln!("play against a bot: {}play", server.base_url())?;
    }
    server.join();
    Ok(ExitCode::SUCCESS)
}
