//! `realm serve` and `realm view`: the local web viewer, bound to 127.0.0.1.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;
use realm_store::Store;
use realm_viewer::ServerConfig;

use crate::runs_source::StoreRuns;

#[derive(Args)]
pub struct ServeArgs {
    /// Results store whose runs to show, opened read-only (skipped if the file does not exist)
    #[arg(long, default_value = "realm.sqlite")]
    db: PathBuf,
    /// Folder of replays to list and serve
    #[arg(long, default_value = "replays")]
    replays: PathBuf,
    /// Port (default: a free one)
    #[arg(long)]
    port: Option<u16>,
}

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
    config.port = args.port;
    if args.db.exists() {
        let base_dir = std::path::absolute(&args.db)?
            .parent()
            .map(PathBuf::from)
            .unwrap_or_default();
        // Read-only: serving never writes the store, its WAL files or a migration.
        let store = Store::open_read_only(&args.db)?;
        config.runs = Some(Box::new(StoreRuns::new(store, base_dir)));
    }
    serve(config)
}

pub fn run_view(args: ViewArgs) -> Result<ExitCode> {
    view(&args.replay, args.port)
}

/// Serves one replay until interrupted.
pub fn view(replay: &Path, port: Option<u16>) -> Result<ExitCode> {
    if !replay.is_file() {
        bail!("no replay file at {}", replay.display());
    }
    let mut config = ServerConfig::single(replay);
    config.port = port;
    serve(config)
}

fn serve(config: ServerConfig) -> Result<ExitCode> {
    // SIGINT, SIGTERM and SIGHUP end the server as they end a match. A handler of its own, since
    // the disposition realm inherits may be "ignore": a script's background job ignores SIGINT.
    crate::cmd_play::install_interrupt_handler();
    let server = realm_viewer::start(config)?;
    outln!("realm viewer: {}  (Ctrl-C to stop)", server.url())?;
    server.join();
    Ok(ExitCode::SUCCESS)
}
