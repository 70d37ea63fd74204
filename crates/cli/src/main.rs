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
mod options;

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
        None => cmd_play::run_default(),
        Some(Command::Games) => cmd_games::run(),
        Some(Command::Play(args)) => cmd_play::run(args),
        Some(Command::Bot(args)) => cmd_bot::run(args),
        Some(Command::Score(args)) => cmd_score::run(args),
        Some(Command::Arena(args)) => cmd_arena::run_arena(args),
        Some(Command::Sprt(args)) => cmd_arena::run_sprt(args),
        Some(Command::Report(args)) => cmd_report::run_report(args),
        Some(Command::Merge(args)) => cmd_report::run_merge(args),
        Some(Command::Referee(args)) => cmd_referee::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", one_line(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}
