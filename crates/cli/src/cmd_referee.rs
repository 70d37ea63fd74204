//! `realm referee GAME -p1 CMD -p2 CMD ...`: the command line of a CodinGame SDK referee, so
//! realm's referees plug into cg-brutaltester, psyleague and cgarena. Prints one score per
//! player on its own line; a player at fault scores -1.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use realm_arena::tournament::game_parameter_list;
use realm_arena::{run_match, MatchOptions};

use crate::cmd_play::{
    check_named_replay_path, install_interrupt_handler, replay_destination, start_bots,
    stop_if_interrupted, write_replay,
};
use crate::options::{game, MatchFlags};

#[derive(Args)]
pub struct RefereeArgs {
    /// GAME -p1 CMD -p2 CMD [-p3 CMD -p4 CMD] [-d seed=N,league=L] [-seed N] [-league L]
    /// [-variant V] [-l replay.json]. `-d` takes KEY=VALUE entries separated by newlines (as
    /// `realm arena --referee` and Java Properties write them), commas or spaces; keys other
    /// than seed, league and variant are game options
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    words: Vec<String>,
}

/// The parsed SDK-style command line.
#[derive(Debug, Default, PartialEq)]
struct SdkCommandLine {
    game: String,
    players: Vec<String>,
    seed: Option<String>,
    league: Option<u32>,
    variant: Option<String>,
    options: Vec<String>,
    /// `-l`: the SDK's game-result JSON.
    log: Option<PathBuf>,
    /// realm's own: the match as a realm replay.
    replay: Option<PathBuf>,
    /// `-s`: show the match in realm's viewer afterwards (the SDK's "show" flag).
    show: bool,
    /// realm's own: no time limits (for tests and debugging).
    no_timeout: bool,
    /// realm's own: print scores shifted to be non-negative (`nonnegative`).
    nonnegative_scores: bool,
}

fn parse(words: &[String]) -> Result<SdkCommandLine> {
    let mut parsed = SdkCommandLine::default();
    let mut players: Vec<(usize, String)> = Vec::new();
    // True right after `-pN CMD`: words that are no flag of ours continue CMD, as
    // cg-brutaltester's replay hint writes player commands unquoted (`-p1 realm bot x greedy`).
    let mut in_player_command = false;
    let mut it = words.iter();
    while let Some(word) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .with_context(|| format!("{flag} needs a value"))
        };
        if let Some(n) = word
            .strip_prefix("-p")
            .and_then(|n| n.parse::<usize>().ok())
        {
            players.push((n, value(word)?));
            in_player_command = true;
            continue;
        }
        let continues_player = in_player_command && !parsed.game.is_empty();
        in_player_command = false;
        match word.as_str() {
            "-seed" | "--seed" => set_once(&mut parsed.seed, value(word)?, "seed")?,
            "-league" | "--league" => set_once(
                &mut parsed.league,
                value(word)?.parse().context("-league needs a number")?,
                "league",
            )?,
            "-variant" | "--variant" => set_once(&mut parsed.variant, value(word)?, "variant")?,
            "-l" | "--log" => parsed.log = Some(PathBuf::from(value(word)?)),
            "--no-timeout" => parsed.no_timeout = true,
            "--nonnegative-scores" => parsed.nonnegative_scores = true,
            "--replay" => parsed.replay = Some(PathBuf::from(value(word)?)),
            "-s" => parsed.show = true,
            "-d" => {
                for pair in value(word)?
                    .split([',', ' ', '\n', '\r'])
                    .filter(|p| !p.is_empty())
                {
                    match pair.split_once('=') {
                        Some(("seed", v)) => set_once(&mut parsed.seed, v.to_string(), "seed")?,
                        Some(("league", v)) => set_once(
                            &mut parsed.league,
                            v.parse().context("league=L needs a number")?,
                            "league",
                        )?,
                        Some(("variant", v)) => {
                            set_once(&mut parsed.variant, v.to_string(), "variant")?
                        }
                        Some(_) => parsed.options.push(pair.to_string()),
                        None => bail!("-d {pair}: expected KEY=VALUE"),
                    }
                }
            }
            _ if parsed.game.is_empty() && !word.starts_with('-') => parsed.game = word.clone(),
            _ if continues_player => {
                let (_, command) = players.last_mut().expect("a player was just given");
                command.push(' ');
                command.push_str(word);
                in_player_command = true;
            }
            _ => bail!("unexpected argument `{word}`"),
        }
    }
    if parsed.game.is_empty() {
        bail!("usage: realm referee GAME -p1 CMD -p2 CMD [-d seed=N] [-league L] [-l replay.json]");
    }
    players.sort();
    for (i, (n, _)) in players.iter().enumerate() {
        if *n != i + 1 {
            bail!("players must be -p1, -p2, ... without gaps");
        }
    }
    parsed.players = players.into_iter().map(|(_, cmd)| cmd).collect();
    Ok(parsed)
}

/// A setting given twice with different values is ambiguous: refuse it rather than pick one.
fn set_once<T: PartialEq + std::fmt::Display>(
    slot: &mut Option<T>,
    value: T,
    what: &str,
) -> Result<()> {
    match slot {
        Some(old) if *old != value => bail!("{what} given twice, as {old} and as {value}"),
        _ => *slot = Some(value),
    }
    Ok(())
}

/// `realm referee --help`: the SDK command line takes no clap flags, so its help is here.
pub const HELP: &str = "\
Behave like a CodinGame SDK referee, so realm's referees plug into cg-brutaltester, psyleague
and cgarena: play one match between the -pN commands and print one score per player, one per
line (a player at fault scores -1).

Usage: realm referee GAME -p1 CMD -p2 CMD [-p3 CMD -p4 CMD] [-d KEY=VALUE,...] [-seed N]
                     [-league L] [-variant V] [-l replay.json]

  -pN CMD          the command of player N (run with sh -c, as every bot); the words after
                   it that are no flag of realm referee's continue it, so cg-brutaltester's
                   replay hint, which writes commands unquoted (-p1 realm bot x greedy -p2 ...),
                   runs as printed; quote a command that holds one of these flags (-s, -d,
                   -l, -seed, --seed, ...): `realm bot ... --seed N` must be quoted
  -d KEY=VALUE     seed, league, variant and game options, separated by newlines (as Java
                   Properties and `realm arena --referee` write them), commas or spaces
  -seed N          the match seed (CodinGame's seeds may be negative)
  -league L        the league (default: the game's top league)
  -variant V       a variant of the game (`realm games` lists them)
  -l FILE          write the SDK's game-result JSON to FILE (scores, outputs, errors per
                   turn, failCause), as SDK referees do; its directory must exist
  -s               show the match in realm's viewer afterwards (prints a URL)
  --replay FILE    write the match as a realm replay (realm's own flag)
  --no-timeout     no time limits (realm's own flag, for debugging a bot)
  --nonnegative-scores
                   print the scores of the players not at fault shifted up by the match's
                   one offset, the lowest of them made 0 (order and ties kept), and -1 for
                   a player at fault (realm's own flag; see below)

After the scores, the game's parameters follow on one line (seed=N,league=L,variant=V and
options), which cg-brutaltester's replay hint passes back as `-d` (it prints them on the hint's
second line: join the two lines to replay the game). -d keys the game does not know are
ignored, as SDK referees ignore unknown properties; nothing is printed on stderr unless the
command itself is wrong (cg-brutaltester counts referee stderr as an error).

A setting given twice with different values (-d seed=7 -seed 8) is an error.

Scores are the game's own, and some are negative without any fault: Blokus Duo and Classic
score minus the squares left in hand (plus a bonus when none is), and Ice and Fire gives -1 to a player whose HQ was
captured. cg-brutaltester logs every negative score as an error (\"Negative score during game
N\") with a replay hint, although it ranks by score order alone; --nonnegative-scores gives it
scores it reads as a fault only where there was one, in the same order. The -l game result
keeps the printed scores in `scores`, the game's own in `trueScores` and each player's fault
in `faults` (null, or the fault's code), which docs/compat/sdk_play_game.py reads.

Examples:
  realm referee kingdomino -p1 \"python3 bot.py\" -p2 \"realm bot kingdomino greedy\" -d seed=7
  java -jar cg-brutaltester.jar -r \"realm referee ice-and-fire\" -p1 ./a -p2 ./b -t 2 -n 100
";

pub fn run(args: RefereeArgs) -> Result<ExitCode> {
    if args.words.iter().any(|w| w == "--help" || w == "-h") {
        crate::write_stdout(format_args!("{HELP}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let cmd = parse(&args.words)?;
    let game = game(&cmd.game)?;
    // Keys a game does not know are ignored, as SDK referees ignore unknown properties
    // (silently: cg-brutaltester counts any stderr of a referee as an error).
    let known = game.info().options;
    let options = cmd
        .options
        .into_iter()
        .filter(|pair| {
            pair.split_once('=')
                .is_some_and(|(k, _)| known.contains(&k.trim()))
        })
        .collect();
    let flags = MatchFlags {
        seed: cmd.seed,
        league: cmd.league,
        variant: cmd.variant,
        options,
    };
    let spec = flags.spec_quietly(game, cmd.players.len())?;
    for path in [&cmd.log, &cmd.replay].into_iter().flatten() {
        check_named_replay_path(path)?;
    }
    let (seats, players) = start_bots(&spec, &cmd.players)?;
    install_interrupt_handler();
    let result = run_match(
        &spec,
        players,
        game.new_referee(&spec)?,
        seats,
        MatchOptions {
            no_timeout: cmd.no_timeout,
            ..MatchOptions::default()
        },
    );
    stop_if_interrupted();
    let true_scores = sdk_scores(&result.replay);
    let scores = if cmd.nonnegative_scores {
        nonnegative(&true_scores, &result.replay.outcome.faults)
    } else {
        true_scores.clone()
    };
    let parameters = game_parameter_list(&spec, spec.seed);
    // The scores, then the game's parameters: cg-brutaltester keeps the lines after the scores
    // for its "replay this game" hint (`-d LINES`).
    for score in &scores {
        outln!("{score}")?;
    }
    // One line, commas between entries (which `-d` reads), so the hint is one shell word.
    outln!("{}", parameters.join(","))?;
    if let Some(log) = &cmd.log {
        let json = serde_json::to_vec(&sdk_game_result(
            &result.replay,
            &scores,
            &true_scores,
            &parameters,
        ))?;
        realm_arena::files::write_atomically(log, &json)
            .with_context(|| format!("cannot write game result {}", log.display()))?;
    }
    let replay_path = replay_destination(cmd.replay.as_deref(), cmd.show, &result.replay);
    if let Some((path, destination)) = &replay_path {
        write_replay(path, &result.replay, *destination)?;
        if cmd.show {
            return crate::cmd_serve::view(path, None);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One score per player as SDK referees print them: a player at fault scores at most -1.
fn sdk_scores(replay: &realm_core::Replay) -> Vec<i64> {
    let outcome = &replay.outcome;
    outcome
        .scores
        .iter()
        .zip(&outcome.faults)
        .map(|(&score, fault)| {
            if fault.is_some() {
                score.min(-1)
            } else {
                score
            }
        })
        .collect()
}

/// The scores shifted by one offset so that the lowest of the players not at fault is 0 (when it
/// was negative), and -1 for a player at fault: the order and ties of the players not at fault
/// are kept, and a negative score means a fault, as cg-brutaltester reads it.
fn nonnegative(scores: &[i64], faults: &[Option<realm_core::Fault>]) -> Vec<i64> {
    let lowest = scores
        .iter()
        .zip(faults)
        .filter(|(_, fault)| fault.is_none())
        .map(|(&score, _)| score)
        .min()
        .unwrap_or(0);
    let offset = (-lowest).max(0);
    scores
        .iter()
        .zip(faults)
        .map(|(&score, fault)| match fault {
            Some(_) => -1,
            None => score + offset,
        })
        .collect()
}

/// The CodinGame SDK's game-result JSON (what an SDK referee writes with `-l`), so scripts
/// written for SDK referees (psyleague's and cgarena's play scripts) read realm's unchanged:
/// per player index, one entry per turn in `outputs` and `errors` (the player's answer and
/// stderr on its turns, `null` on the others), `scores`, `summaries` (each turn's verdict),
/// `uinput` (the game parameters), `failCause` (`null`: realm's referee does not fail); and
/// realm's own `trueScores` (the game's scores when `scores` are shifted) and `faults` (each
/// player's fault code or null), since a negative score alone does not tell a fault.
fn sdk_game_result(
    replay: &realm_core::Replay,
    scores: &[i64],
    true_scores: &[i64],
    parameters: &[String],
) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    let n = scores.len();
    let mut outputs: Vec<Vec<Value>> = vec![Vec::new(); n];
    let mut errors: Vec<Vec<Value>> = vec![Vec::new(); n];
    let mut summaries = Vec::new();
    for turn in &replay.turns {
        for p in 0..n {
            let (output, error) = if p == turn.player {
                let stderr = (!turn.stderr.is_empty()).then(|| Value::from(turn.stderr.clone()));
                (
                    Value::from(turn.output.join("\n")),
                    stderr.unwrap_or(Value::Null),
                )
            } else {
                (Value::Null, Value::Null)
            };
            outputs[p].push(output);
            errors[p].push(error);
        }
        summaries.push(Value::from(turn.verdict.detail.clone()));
    }
    // SDK results key everything per player by the player's index as text.
    let by_player = |values: Vec<Value>| -> Map<String, Value> {
        values
            .into_iter()
            .enumerate()
            .map(|(p, value)| (p.to_string(), value))
            .collect()
    };
    let mut outputs = by_player(outputs.into_iter().map(Value::from).collect());
    outputs.insert("referee".into(), Value::from(Vec::<Value>::new()));
    let faults = replay
        .outcome
        .faults
        .iter()
        .map(|fault| json!(fault.as_ref().map(|f| f.kind.code())))
        .collect();
    json!({
        "scores": by_player(scores.iter().map(|s| json!(s)).collect()),
        "trueScores": by_player(true_scores.iter().map(|s| json!(s)).collect()),
        "faults": by_player(faults),
        "outputs": outputs,
        "errors": by_player(errors.into_iter().map(Value::from).collect()),
        "summaries": summaries,
        "uinput": parameters,
        "views": [],
        "tooltips": [],
        "agents": replay.players.iter().enumerate().map(|(i, p)| json!({"index": i, "name": p.name})).collect::<Vec<_>>(),
        "failCause": null,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_sdk_command_line_is_understood() {
        let parsed = parse(&words(&[
            "kingdomino",
            "-p2",
            "./b",
            "-p1",
            "python3 a.py",
            "-d",
            "seed=-5,invalid_put=discard",
            "-league",
            "2",
            "-l",
            "x.json",
        ]))
        .unwrap();
        assert_eq!(parsed.players, vec!["python3 a.py", "./b"]);
        assert_eq!(parsed.seed.as_deref(), Some("-5"));
        assert_eq!(parsed.league, Some(2));
        assert_eq!(parsed.options, vec!["invalid_put=discard"]);
        assert_eq!(parsed.log, Some(PathBuf::from("x.json")));
    }

    #[test]
    fn the_parameters_realm_arena_sends_are_understood() {
        let parsed = parse(&words(&[
            "kingdomino",
            "-p1",
            "a",
            "-p2",
            "b",
            "-d",
            "seed=2147483647\nleague=2\nvariant=duel\ninvalid_put=discard",
        ]))
        .unwrap();
        assert_eq!(parsed.seed.as_deref(), Some("2147483647"));
        assert_eq!(parsed.league, Some(2));
        assert_eq!(parsed.variant.as_deref(), Some("duel"));
        assert_eq!(parsed.options, vec!["invalid_put=discard"]);
    }

    #[test]
    fn unquoted_player_commands_run_until_the_next_flag_as_in_brutaltesters_hint() {
        let parsed = parse(&words(&[
            "kingdomino",
            "-p1",
            "realm",
            "bot",
            "x",
            "greedy",
            "-p2",
            "python3",
            "-u",
            "b.py",
            "-s",
            "-d",
            "seed=3",
        ]))
        .unwrap();
        assert_eq!(
            parsed.players,
            vec!["realm bot x greedy", "python3 -u b.py"]
        );
        assert!(parsed.show);
        assert_eq!(parsed.seed.as_deref(), Some("3"));
        // The game may still follow a player, as before.
        let parsed = parse(&words(&["-p1", "a", "kingdomino", "-p2", "b"])).unwrap();
        assert_eq!(parsed.game, "kingdomino");
        assert_eq!(parsed.players, vec!["a", "b"]);
    }

    #[test]
    fn nonnegative_scores_shift_the_players_not_at_fault_and_keep_ties() {
        let fault = Some(realm_core::Fault {
            kind: realm_core::FaultKind::Crashed,
            turn: 1,
            detail: String::new(),
        });
        let scores = [-40, -16, -40, -90];
        let faults = [None, None, None, fault];
        assert_eq!(nonnegative(&scores, &faults), vec![0, 24, 0, -1]);
        // Scores already non-negative stay as they are.
        assert_eq!(nonnegative(&[3, 0], &[None, None]), vec![3, 0]);
    }

    #[test]
    fn gaps_and_strays_are_errors() {
        assert!(parse(&words(&["kingdomino", "-p1", "a", "-p3", "b"])).is_err());
        // After a player's command a stray word would continue it; elsewhere it is an error.
        assert!(parse(&words(&["kingdomino", "--bogus", "-p1", "a"])).is_err());
        assert!(parse(&words(&["kingdomino", "-p1", "a", "-d", "seed=1", "b"])).is_err());
        assert!(parse(&words(&["-p1", "a"])).is_err());
    }
}
