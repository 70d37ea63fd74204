//! Flags shared by several commands (match setup, time control) and their conversion to the
//! library types, plus one-line reporting of command-line errors.

use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use realm_arena::MatchOptions;
use realm_core::MatchSpec;
use realm_games::GameKind;

/// How the match is set up.
#[derive(Args, Clone, Debug)]
pub struct MatchFlags {
    /// Seed (unsigned, or negative for games with signed seeds). `play`: drawn at random if
    /// omitted; `arena`/`sprt`: the run's seed stream, 1 if omitted (so a rerun resumes)
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<String>,
    /// League (default: the game's full rules)
    #[arg(long)]
    pub league: Option<u32>,
    /// Variant, e.g. `duo`, `classic`, `duel`
    #[arg(long)]
    pub variant: Option<String>,
    /// Game option KEY=VALUE (repeatable), e.g. `invalid_put=discard`
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// The largest `--time-scale`: a 1 s limit becomes about 17 minutes. Beyond that, `--no-timeout`
/// says what is meant (a project choice; it also keeps every scaled limit far from overflow).
pub const MAX_TIME_SCALE: f64 = 1000.0;

/// How time is controlled.
#[derive(Args, Clone, Copy, Debug)]
pub struct TimeFlags {
    /// Multiply every time limit by X (0 < X <= 1000)
    #[arg(
        long,
        value_name = "X",
        default_value_t = 1.0,
        allow_negative_numbers = true
    )]
    pub time_scale: f64,
    /// No time limits at all (for stepping through a bot in a debugger)
    #[arg(long)]
    pub no_timeout: bool,
    /// Forgive answers up to MS milliseconds over each limit (fastchess's timemargin); the
    /// report counts them as late answers. The time judged is always the time recorded
    #[arg(long, value_name = "MS", default_value_t = 0, allow_negative_numbers = true,
          value_parser = zero_or_more::<u64>)]
    pub time_margin: u64,
}

impl TimeFlags {
    pub fn match_options(self, timings: bool) -> Result<MatchOptions> {
        if !(self.time_scale.is_finite() && self.time_scale > 0.0) {
            bail!(
                "--time-scale must be a positive number, not {}",
                self.time_scale
            );
        }
        if self.time_scale > MAX_TIME_SCALE {
            bail!("--time-scale must be at most {MAX_TIME_SCALE} (use --no-timeout for no limits)");
        }
        Ok(MatchOptions {
            time_scale: self.time_scale,
            no_timeout: self.no_timeout,
            timings,
            time_margin: std::time::Duration::from_millis(self.time_margin),
        })
    }
}

impl MatchFlags {
    /// The match spec, validated against the game; a negative seed is said on stderr.
    pub fn spec(&self, game: GameKind, n_players: usize) -> Result<MatchSpec> {
        if let Some(text) = &self.seed {
            note_negative_seed(text);
        }
        self.spec_quietly(game, n_players)
    }

    /// `spec` without a word on stderr (`realm referee`: cg-brutaltester counts referee stderr
    /// as an error, and CodinGame seeds are often negative).
    pub fn spec_quietly(&self, game: GameKind, n_players: usize) -> Result<MatchSpec> {
        let seed = match &self.seed {
            Some(text) => parse_seed(text)?,
            None => random_seed(),
        };
        let mut spec = self.unchecked_spec(game.slug(), n_players, seed)?;
        spec.variant = spec.variant.filter(|v| v != "standard");
        game.info().validate(&spec)?;
        Ok(spec)
    }

    /// The match spec as the flags give it, without validation against a game (for external
    /// referees, which realm may not know).
    pub fn unchecked_spec(
        &self,
        game_slug: &str,
        n_players: usize,
        seed: u64,
    ) -> Result<MatchSpec> {
        let mut spec = MatchSpec::new(game_slug, n_players, seed);
        spec.variant = self.variant.clone();
        spec.league = self.league;
        for option in &self.options {
            let (key, value) = option
                .split_once('=')
                .with_context(|| format!("--option {option}: expected KEY=VALUE"))?;
            spec.options
                .insert(key.trim().to_string(), value.trim().to_string());
        }
        Ok(spec)
    }
}

/// Parses a seed: any u64, or a negative i64 (kept as its two's-complement bits).
pub fn parse_seed(text: &str) -> Result<u64> {
    let text = text.trim();
    if let Ok(v) = text.parse::<u64>() {
        return Ok(v);
    }
    match text.parse::<i64>() {
        Ok(v) => Ok(v as u64),
        Err(_) => bail!(
            "seed `{text}` is not a 64-bit integer (0 to {}, or negative down to {})",
            u64::MAX,
            i64::MIN
        ),
    }
}

/// Negative seeds are CodinGame's (Java longs): the same 64 bits, said out loud.
pub fn note_negative_seed(text: &str) {
    if let Ok(v) = text.trim().parse::<i64>() {
        if v < 0 {
            errln!(
                "note: seed {v} is used as {} (the same 64 bits, as replays record it)",
                v as u64
            );
        }
    }
}

/// A fresh seed from the OS-seeded hasher, so unseeded runs differ.
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    h.finish() >> 1
}

/// clap's parser of a count that must be at least 1 (`--games`, `--jobs`): 0 would play
/// nothing or never start, so it is refused rather than read as something else. Flags using
/// it take `allow_negative_numbers`, so that `-1` reaches it instead of being read as a flag.
pub fn at_least_one<T: TryFrom<u64>>(text: &str) -> Result<T, String> {
    whole_number(text, 1)
}

/// clap's parser of a whole number that may be 0 (`--time-margin`).
pub fn zero_or_more<T: TryFrom<u64>>(text: &str) -> Result<T, String> {
    whole_number(text, 0)
}

fn whole_number<T: TryFrom<u64>>(text: &str, min: u64) -> Result<T, String> {
    let expected = match min {
        0 => "expected a whole number, 0 or more".to_string(),
        _ => format!("expected a whole number of at least {min}"),
    };
    match text.trim().parse::<i128>() {
        Ok(n) if n >= i128::from(min) => u64::try_from(n)
            .ok()
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| "too large a number".to_string()),
        _ => Err(expected),
    }
}

/// Finds a game by slug.
pub fn game(slug: &str) -> Result<GameKind> {
    Ok(GameKind::from_slug(slug)?)
}

/// Prints clap's help or version as usual, and any parse error as one line; exit code 2.
pub fn clap_failure(e: clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        // clap lists the missing arguments on the lines after its first, which is all we keep.
        ErrorKind::MissingRequiredArgument => {
            let names = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(names)) => names.clone(),
                Some(ContextValue::String(name)) => vec![name.clone()],
                _ => Vec::new(),
            };
            let noun = if names.len() == 1 {
                "argument"
            } else {
                "arguments"
            };
            errln!(
                "error: missing required {noun} {} (see --help)",
                names.join(", ")
            );
            ExitCode::from(2)
        }
        _ => {
            let rendered = e.render().to_string();
            let first = rendered
                .lines()
                .next()
                .unwrap_or("invalid arguments")
                .trim();
            errln!("{first} (see --help)");
            ExitCode::from(2)
        }
    }
}

/// `realm arena GAME -p1 CMD -p2 CMD ...` (cg-brutaltester's form) as `realm arena GAME CMD CMD
/// ...`: the `-pN` pairs become positional bots in N's order, right after the game. Only for
/// `arena` and `sprt`; other commands (`referee` reads its own `-pN`) are left as they are.
pub fn players_as_positionals(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let is_run = args.get(1).is_some_and(|c| c == "arena" || c == "sprt");
    if !is_run {
        return args;
    }
    let mut rest = Vec::with_capacity(args.len());
    let mut players: Vec<(u32, std::ffi::OsString)> = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let seat = arg
            .to_str()
            .and_then(|a| a.strip_prefix("-p"))
            .and_then(|n| n.parse::<u32>().ok());
        match (seat, it.len()) {
            (Some(n), 1..) => players.push((n, it.next().unwrap_or_default())),
            _ => rest.push(arg),
        }
    }
    if players.is_empty() {
        return rest;
    }
    players.sort_by_key(|(n, _)| *n);
    // After `realm`, the command and the game.
    let at = rest.len().min(3);
    rest.splice(at..at, players.into_iter().map(|(_, cmd)| cmd));
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(words: &[&str]) -> Vec<std::ffi::OsString> {
        words.iter().map(Into::into).collect()
    }

    #[test]
    fn brutaltester_style_players_become_positional_bots_in_seat_order() {
        assert_eq!(
            players_as_positionals(os(&[
                "realm",
                "arena",
                "kingdomino",
                "-p2",
                "./b",
                "--games",
                "4",
                "-p1",
                "./a x"
            ])),
            os(&[
                "realm",
                "arena",
                "kingdomino",
                "./a x",
                "./b",
                "--games",
                "4"
            ])
        );
        let referee = os(&["realm", "referee", "kingdomino", "-p1", "a", "-p2", "b"]);
        assert_eq!(players_as_positionals(referee.clone()), referee);
    }
}
