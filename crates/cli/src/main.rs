//! The `realm` binary: parses the command line, calls into the library crates, prints, and
//! chooses the exit code. No game rules and no match logic live here.
//!
//! Everything printed to stdout goes through `outln!`, which returns the write error instead of
//! panicking, so `realm report | head` ends quietly when the reader closes the pipe. SIGPIPE
//! stays ignored (Rust's default): realm writes to bot pipes and must survive a bot that exits.

/// `println!` that returns `std::io::Result<()>` instead of panicking on a closed stdout.
macro_rules! outln {
    () => {
        $crate::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that ignores a failed write (`2>/dev/full`, a closed terminal) instead of
/// panicking: a message that cannot be shown must not end a run.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::write_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod cmd_arena;
mod cmd_bot;
mod cmd_games;
mod cmd_league;
mod cmd_play;
mod cmd_referee;
mod cmd_report;
mod cmd_score;
mod cmd_serve;
mod completeness;
mod human_play;
mod live;
mod options;
mod runs_source;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// realm: referee CodinGame-style territory games, run bots against each other, rate them.
#[derive(Parser)]
#[command(
    name = "realm",
    version,
    about = "Referee CodinGame-style territory games (Kingdomino, Blocking/Blokus, A Code of Ice \
             and Fire, Carcassonne, Kingdom Builder scoring), play bots against each other, \
             rate them and watch the games in a browser.\n\n\
             Without a command, realm plays a small Kingdomino tournament of its built-in bots.",
    after_help = "Examples:\n  \
        realm games\n  \
        realm play kingdomino builtin:greedy \"python3 mybot.py\" --view\n  \
        realm arena ice-and-fire ./v2 ./v1 --games 2000 --jobs 2\n  \
        realm serve\n\n\
        A bot is builtin:NAME or a shell command speaking the game's protocol on stdin/stdout \
        (see crates/<game>/PROTOCOL.md). `realm COMMAND --help` tells more."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// List the games with their variants, leagues, player counts and built-in bots
    #[command(after_help = "Example:\n  realm games")]
    Games,
    /// Play one match and write its replay
    #[command(
        after_help = "Examples:\n  realm play kingdomino builtin:greedy \"python3 mybot.py\"\n  realm play blocking builtin:mcts builtin:greedy --variant duo --view\n  realm play carcassonne builtin:greedy builtin:random --players 4 --seed 7\n  realm play ice-and-fire ./mybot builtin:greedy --league 2 --replay game.json"
    )]
    Play(cmd_play::PlayArgs),
    /// Run a built-in bot as a stdin/stdout process (plug it into any other tool)
    #[command(
        after_help = "Examples:\n  realm bot kingdomino greedy\n  realm bot blocking mcts:ms=100 --seed 3\n  realm arena ice-and-fire ./mybot \"realm bot ice-and-fire greedy\""
    )]
    Bot(cmd_bot::BotArgs),
    /// Score a finished board (Kingdom Builder)
    #[command(
        after_help = "Examples:\n  realm score kingdom-builder board.txt --cards 1,3,7 --detail\n  realm score kingdom-builder board.txt --cards fishermen,lords,hermits --view"
    )]
    Score(cmd_score::ScoreArgs),
    /// Play many matches in parallel into the results store and report who is stronger
    Arena(cmd_arena::ArenaArgs),
    /// Play paired games until a sequential probability ratio test decides
    Sprt(cmd_arena::SprtArgs),
    /// Print the report of a stored run
    Report(cmd_report::ReportArgs),
    /// A living league of bot versions: add bots any time, run, watch the leaderboard
    League(cmd_league::LeagueArgs),
    /// Merge results stores (shards of one run, or different runs) into one
    #[command(
        after_help = "Examples:\n  realm merge --into all.sqlite shard1.sqlite shard2.sqlite\n  realm merge --into all.sqlite shard*.sqlite --require-complete"
    )]
    Merge(cmd_report::MergeArgs),
    /// Serve the web viewer for the results store and a replay folder
    #[command(after_help = "Examples:\n  realm serve\n  realm serve --db runs.sqlite --port 8080")]
    Serve(cmd_serve::ServeArgs),
    /// Serve the web viewer for one replay
    #[command(after_help = "Examples:\n  realm view replays/kingdomino-7.json")]
    View(cmd_serve::ViewArgs),
    /// Behave like a CodinGame SDK referee (cg-brutaltester, psyleague, cgarena)
    #[command(disable_help_flag = true)]
    Referee(cmd_referee::RefereeArgs),
}

fn main() -> ExitCode {
    realm_arena::become_subreaper();
    let args = options::players_as_positionals(std::env::args_os().collect());
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return options::clap_failure(e),
    };
    let result = match cli.command {
        None => run_default(),
        Some(Command::Games) => cmd_games::run(),
        Some(Command::Play(args)) => cmd_play::run(args),
        Some(Command::Bot(args)) => cmd_bot::run(args),
        Some(Command::Score(args)) => cmd_score::run(args),
        Some(Command::Arena(args)) => cmd_arena::run_arena(args),
        Some(Command::Sprt(args)) => cmd_arena::run_sprt(args),
        Some(Command::Report(args)) => cmd_report::run_report(args),
        Some(Command::League(args)) => cmd_league::run(args),
        Some(Command::Merge(args)) => cmd_report::run_merge(args),
        Some(Command::Referee(args)) => cmd_referee::run(args),
        Some(Command::Serve(args)) => cmd_serve::run_serve(args),
        Some(Command::View(args)) => cmd_serve::run_view(args),
    };
    match result {
        Ok(code) => code,
        // The reader of our output went away (`realm report | head`): a normal, quiet end.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let message = one_line(&error_message(&e));
            match deleted_current_folder() {
                // Relative paths all fail then, most with a bare "No such file or directory".
                Some(folder) => errln!("error: {folder} no longer exists: {message}"),
                None => errln!("error: {message}"),
            }
            ExitCode::from(2)
        }
    }
}

/// Writes to stdout; the error (a closed pipe, say) is the caller's to return.
fn write_stdout(args: std::fmt::Arguments) -> std::io::Result<()> {
    use std::io::Write;
    std::io::stdout().lock().write_fmt(args)
}

/// Writes to stderr, ignoring failure (see `errln!`).
fn write_stderr(args: std::fmt::Arguments) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// True when `e` comes from writing to a pipe whose reader has gone.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// "the current folder PATH" when the folder realm runs in has been deleted (PATH as /proc
/// remembers it, where it can be read), else `None`.
fn deleted_current_folder() -> Option<String> {
    let error = std::env::current_dir().err()?;
    if error.kind() != std::io::ErrorKind::NotFound {
        return None;
    }
    let path = std::fs::read_link("/proc/self/cwd").ok().map(|path| {
        let path = path.to_string_lossy().into_owned();
        path.strip_suffix(" (deleted)").unwrap_or(&path).to_string()
    });
    Some(match path {
        Some(path) => format!("the current folder {path}"),
        None => "the current folder".to_string(),
    })
}

/// `realm` with no command: realm's main job on embedded defaults, a small tournament of
/// Kingdomino's built-in bots into `realm.sqlite`, with every replay kept for the viewer.
const DEFAULT_JOB: &[&str] = &[
    "realm",
    "arena",
    "kingdomino",
    "builtin:greedy",
    "builtin:random",
    "builtin:reference",
    "--games",
    "60",
    "--keep-replays",
    "all",
];

fn run_default() -> anyhow::Result<ExitCode> {
    outln!(
        "realm: no command given, so here is a small Kingdomino tournament of the built-in bots"
    )?;
    // Said before anything is written: the demo writes into the current folder.
    let here = std::env::current_dir().unwrap_or_default();
    outln!(
        "It writes its results to {} and its replays under {} (about 5 MB);",
        here.join("realm.sqlite").display(),
        here.join("replays").display()
    )?;
    outln!("run it from another folder to keep them elsewhere.")?;
    outln!(
        "(`realm --help` lists the commands; `realm serve` then shows every match in a browser)\n"
    )?;
    match Cli::try_parse_from(DEFAULT_JOB).map(|cli| cli.command) {
        Ok(Some(Command::Arena(args))) => cmd_arena::run_arena(args),
        _ => unreachable!("the default job parses"),
    }
}

/// The error and its causes, each said once: a cause whose text (or its last part, after
/// SQLite's "Error code N: ") is already in the message adds nothing and is left out.
fn error_message(e: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        let last_part = text.rsplit(": ").next().unwrap_or(&text);
        if message.contains(&text) || message.contains(last_part) {
            continue;
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&text);
    }
    message
}

fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}
