//! The `realm` binary: parses the command line, calls into the library crates, prints, and
//! chooses the exit code. No game rules and no match logic live here.

mod catalog;
mod cmd_arena;
mod cmd_bot;
mod cmd_games;
mod cmd_play;
mod cmd_referee;
mod cmd_report;
mod cmd_score;
mod cmd_serve;
mod options;
mod runs_source;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// realm: referee CodinGame-style territory games, run bots against each other, rate them.
#[derive(Parser)]
#[command(name = "realm", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// List the games with their variants, leagues, player counts and built-in bots
    Games,
    /// Play one match and write its replay
    Play(cmd_play::PlayArgs),
    /// Run a built-in bot as a stdin/stdout process (plug it into any other tool)
    Bot(cmd_bot::BotArgs),
    /// Score a finished board (Kingdom Builder)
    Score(cmd_score::ScoreArgs),
    /// Play many matches in parallel into the results store and report who is stronger
    Arena(cmd_arena::ArenaArgs),
    /// Play paired games until a sequential probability ratio test decides
    Sprt(cmd_arena::SprtArgs),
    /// Print the report of a stored run
    Report(cmd_report::ReportArgs),
    /// Merge results stores (shards of one run, or different runs) into one
    Merge(cmd_report::MergeArgs),
    /// Serve the web viewer for the results store and a replay folder
    Serve(cmd_serve::ServeArgs),
    /// Serve the web viewer for one replay
    View(cmd_serve::ViewArgs),
    /// Behave like a CodinGame SDK referee (cg-brutaltester, psyleague, cgarena)
    #[command(disable_help_flag = true)]
    Referee(cmd_referee::RefereeArgs),
}

fn main() -> ExitCode {
    realm_arena::become_subreaper();
    let cli = match Cli::try_parse() {
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
        Some(Command::Merge(args)) => cmd_report::run_merge(args),
        Some(Command::Referee(args)) => cmd_referee::run(args),
        Some(Command::Serve(args)) => cmd_serve::run_serve(args),
        Some(Command::View(args)) => cmd_serve::run_view(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
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
    println!(
        "realm: no command given, so here is a small Kingdomino tournament of the built-in bots"
    );
    println!(
        "(`realm --help` lists the commands; `realm serve` then shows every match in a browser)\n"
    );
    match Cli::try_parse_from(DEFAULT_JOB).map(|cli| cli.command) {
        Ok(Some(Command::Arena(args))) => cmd_arena::run_arena(args),
        _ => unreachable!("the default job parses"),
    }
}

fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}
