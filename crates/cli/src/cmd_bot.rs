//! `realm bot GAME NAME`: a built-in bot as a process speaking the game's protocol on
//! stdin/stdout, so it can play in any other runner (or against realm itself).

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use realm_core::{BotError, Input};

use crate::options::{game, parse_seed, random_seed};

#[derive(Args)]
pub struct BotArgs {
    /// The game, e.g. kingdomino
    game: String,
    /// The built-in bot, e.g. greedy
    name: String,
    /// Seed of the bot's own randomness. A bot process never hears the referee's seed, so
    /// without --seed it draws a fresh one from the OS and prints it on stderr
    /// (`realm bot: seed N`): two unseeded processes play different games, and --seed N
    /// replays one. `realm arena --referee` passes each built-in bot a seed derived from the
    /// match seed and its seat, so those matches repeat
    #[arg(long, allow_hyphen_values = true)]
    seed: Option<String>,
    /// The league the bot plays in, as in `realm play --league` (default: the full rules)
    #[arg(long)]
    league: Option<u32>,
}

struct StdinLines<R: BufRead>(R);

impl<R: BufRead> Input for StdinLines<R> {
    fn next_line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.0.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let trimmed = line.trim_end_matches(['\n', '\r']).len();
                line.truncate(trimmed);
                Some(line)
            }
        }
    }
}

pub fn run(args: BotArgs) -> Result<ExitCode> {
    let seed = match &args.seed {
        Some(text) => parse_seed(text)?,
        None => random_seed(),
    };
    let mut bot =
        game(&args.game)?.new_bot(args.name.trim_start_matches("builtin:"), seed, args.league)?;
    if args.seed.is_none() {
        // Said once the bot exists, so a wrong name or option stays a one-line error.
        errln!("realm bot: seed {seed} (--seed {seed} plays this game again)");
    }
    let mut input = StdinLines(std::io::stdin().lock());
    let mut out = std::io::stdout().lock();
    loop {
        match bot.play_turn(&mut input) {
            Ok(lines) => {
                // A referee that closed our stdout ended the match: main exits quietly.
                for line in lines {
                    writeln!(out, "{line}")?;
                }
                out.flush()?;
            }
            // The referee closing our input is the normal end of a match.
            Err(BotError::EndOfInput) => return Ok(ExitCode::SUCCESS),
            Err(e) => anyhow::bail!("{e}"),
        }
    }
}
