//! realm's replay viewer: a small read-only HTTP server on 127.0.0.1 that lists the replays of
//! a folder (and, through `RunSource`, the runs of a results store) and draws any replay turn
//! by turn in the browser, with each call's input, output, stderr and verdict beside the board.
//!
//! Everything the pages load is embedded (`assets`), so the viewer works offline and building
//! realm needs no JavaScript tooling. Each game is drawn by one ES module,
//! `assets/renderers/<slug>.js`; the page picks it by the replay's game slug.
//!
//! **Boundary**: the server answers only GET and HEAD, serves only its embedded assets and
//! `.json` files inside the configured replay folder (or the one file given to `realm view`, or
//! files a `RunSource` names), and answers anything else with 404. It never writes. The one
//! exception is `/play` when `ServerConfig::play` is set: POSTs that carry a match's token play
//! a person's seat (`play`), never touching a file.
//! It does not print: the binary prints `RunningServer::url`.
//!
//! ```no_run
//! let server = realm_viewer::start(realm_viewer::ServerConfig::folder("replays")).unwrap();
//! println!("{}", server.url());
//! server.join();
//! ```

mod assets;
mod html;
mod http;
mod listing;
mod path;
pub mod play;
mod routes;
mod runs;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

pub use listing::{ReplayEntry, ReplaySummary};
pub use play::{MatchInfo, MatchStarter, PlayHall, PlayMatch};
pub use runs::{
    replay_neighbours_by_listing, replay_neighbours_in, BotDetails, LeaderRow, MatchFilter,
    MatchRow, PairRecord, ResultFilter, RunDetail, RunSource, RunSummary, SeatRecord, SeatResult,
    SourceError,
};

use routes::{Replays, Site};

/// What to serve and where.
pub struct ServerConfig {
    /// The folder whose `.json` files are listed and served (with sub-folders). A folder that
    /// does not exist yet is shown as empty.
    pub replays_dir: PathBuf,
    /// The port on 127.0.0.1; `None` or `Some(0)` picks a free one.
    pub port: Option<u16>,
    /// When `port` is taken, serve on a free one instead of failing (`RunningServer::taken_port`
    /// then names the port that was taken).
    pub fall_back_to_free_port: bool,
    /// Serve only this replay file (`realm view FILE`); `replays_dir` is then not listed.
    pub single_replay: Option<PathBuf>,
    /// The results store behind the runs pages; without it those pages are 404.
    pub runs: Option<Box<dyn RunSource>>,
    /// Matches with a person's seat (`/play/...`); without it those pages are 404.
    pub play: Option<Arc<PlayHall>>,
}

impl ServerConfig {
    /// Serves a replay folder on a free port, without runs.
    pub fn folder(replays_dir: impl Into<PathBuf>) -> Self {
        ServerConfig {
            replays_dir: replays_dir.into(),
            port: None,
            fall_back_to_free_port: false,
            single_replay: None,
            runs: None,
            play: None,
        }
    }

    /// Serves one replay file on a free port.
    pub fn single(replay: impl Into<PathBuf>) -> Self {
        let replay = replay.into();
        ServerConfig {
            replays_dir: replay.parent().map(Path::to_path_buf).unwrap_or_default(),
            port: None,
            fall_back_to_free_port: false,
            single_replay: Some(replay),
            runs: None,
            play: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ViewerError {
    #[error("cannot listen on 127.0.0.1:{port}: {reason}")]
    Bind { port: u16, reason: String },
    #[error("{} is not a folder", path.display())]
    NotAFolder { path: PathBuf },
    #[error("cannot open replay {}: {source}", path.display())]
    Replay {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A server answering on its own threads until `shutdown`.
pub struct RunningServer {
    port: u16,
    /// The port asked for, when it was taken and the server fell back to a free one.
    taken_port: Option<(u16, String)>,
    start_path: String,
    stop: Arc<AtomicBool>,
    acceptor: JoinHandle<()>,
    /// Connections being served right now.
    live: Arc<std::sync::atomic::AtomicUsize>,
}

impl RunningServer {
    /// The URL to open: the replay page with `single_replay`, else the index.
    pub fn url(&self) -> String {
        format!("{}{}", self.base_url(), self.start_path)
    }

    /// `http://127.0.0.1:PORT/`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port asked for and why it could not be had, when `fall_back_to_free_port` moved the
    /// server to a free port.
    pub fn taken_port(&self) -> Option<(u16, &str)> {
        self.taken_port.as_ref().map(|(p, why)| (*p, why.as_str()))
    }

    /// Blocks until the server stops (for the binary: until the process is interrupted).
    pub fn join(self) {
        let _ = self.acceptor.join();
    }

    /// Stops accepting requests, lets the ones in progress finish (for a few seconds at most),
    /// and returns once the port is closed (so a test can start another server on it at once).
    pub fn shutdown(self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the blocked accept, which then sees the flag and drops the listener.
        let _ = std::net::TcpStream::connect(("127.0.0.1", self.port));
        let _ = self.acceptor.join();
        for _ in 0..500 {
            if self.live.load(Ordering::SeqCst) == 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

/// Binds 127.0.0.1 and starts answering on background threads.
pub fn start(config: ServerConfig) -> Result<RunningServer, ViewerError> {
    let replays = match &config.single_replay {
        Some(file) => {
            let file = file.canonicalize().map_err(|source| ViewerError::Replay {
                path: file.clone(),
                source,
            })?;
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
            let href = path::encode_segment(name.as_deref().unwrap_or("replay.json"));
            Replays::Single { file, href }
        }
        None => {
            let dir = std::path::absolute(&config.replays_dir).unwrap_or(config.replays_dir);
            if dir.exists() && !dir.is_dir() {
                return Err(ViewerError::NotAFolder { path: dir });
            }
            Replays::Folder(dir)
        }
    };
    let start_path = match &replays {
        Replays::Single { href, .. } => format!("replay/{href}"),
        Replays::Folder(_) => String::new(),
    };
    let port = config.port.unwrap_or(0);
    let bind_error = |e: std::io::Error| ViewerError::Bind {
        port,
        reason: e.to_string(),
    };
    let mut taken_port = None;
    let listener = match std::net::TcpListener::bind(("127.0.0.1", port)) {
        Ok(listener) => listener,
        Err(e) if config.fall_back_to_free_port && port != 0 => {
            taken_port = Some((port, e.to_string()));
            std::net::TcpListener::bind(("127.0.0.1", 0)).map_err(bind_error)?
        }
        Err(e) => return Err(bind_error(e)),
    };
    let port = listener.local_addr().map_err(bind_error)?.port();
    let has_runs = config.runs.is_some();
    let site = Site {
        replays,
        runs: config.runs,
        cache: listing::SummaryCache::default(),
    };
    let hall = config.play;
    let play_form = hall.as_ref().is_some_and(|h| h.has_form());
    let stop = Arc::new(AtomicBool::new(false));
    let handler: Arc<http::Handler> = Arc::new(move |request: &http::Request| {
        let mut reply = if !host_allowed(request.host.as_deref()) {
            site.handle("GET", "/-/wrong-host")
        } else if let Some(reply) = play_reply(hall.as_ref(), request, has_runs) {
            reply
        } else {
            site.handle(&request.method, &request.target)
        };
        if play_form && reply.content_type.starts_with("text/html") {
            reply.body = html::with_play_link(reply.body);
        }
        to_answer(reply)
    });
    let (acceptor, live) = http::spawn_acceptor(listener, stop.clone(), handler);
    Ok(RunningServer {
        port,
        taken_port,
        start_path,
        stop,
        acceptor,
        live,
    })
}

/// The answer of a `/play` request when this server plays matches. A request from a page of
/// another origin (its `Origin` field is not loopback) is refused.
fn play_reply(
    hall: Option<&Arc<PlayHall>>,
    request: &http::Request,
    has_runs: bool,
) -> Option<routes::Reply> {
    let hall = hall?;
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let rest = path.strip_prefix("/play")?;
    if !(rest.is_empty() || rest.starts_with('/')) {
        return None;
    }
    let foreign = request
        .header("origin")
        .is_some_and(|origin| !host_allowed(origin.split("://").nth(1)));
    if foreign {
        return Some(routes::Reply::html(
            403,
            html::error_page(403, "another site's page cannot play here", has_runs),
        ));
    }
    Some(play::handle(
        hall,
        &play::PlayRequest {
            method: &request.method,
            rest,
            query,
            token: request.header(play::TOKEN_HEADER),
            from_script: request.header("x-realm-play") == Some("1"),
            has_runs,
        },
    ))
}

/// Only loopback host names: a web page that rebinds its own domain to 127.0.0.1 would send
/// its domain here, and must not read the replays (DNS rebinding). The port is not checked so
/// that an SSH tunnel on another port still works.
fn host_allowed(host: Option<&str>) -> bool {
    let Some(host) = host.map(str::to_ascii_lowercase) else {
        // HTTP/1.0 clients may omit it; they cannot be a rebinding browser.
        return true;
    };
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    matches!(name, "127.0.0.1" | "localhost" | "::1")
}

fn to_answer(reply: routes::Reply) -> http::Answer {
    let mut headers = vec![
        ("Content-Type", reply.content_type.to_string()),
        ("X-Content-Type-Options", "nosniff".to_string()),
        ("Referrer-Policy", "no-referrer".to_string()),
        (
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"
                .to_string(),
        ),
        (
            "Cache-Control",
            if reply.cacheable {
                "max-age=300"
            } else {
                "no-store"
            }
            .to_string(),
        ),
    ];
    if reply.allow {
        headers.push(("Allow", "GET, HEAD".to_string()));
    }
    http::Answer {
        status: reply.status,
        headers,
        body: reply.body,
    }
}
