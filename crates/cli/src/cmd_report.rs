//! `realm report` and `realm merge`, and the table/JSON/CSV layouts of a run report.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use realm_arena::report::{HeadToHead, RunReport, SprtVerdict};
use realm_stats::{EloEstimate, Wdl};
use realm_store::{RunRecord, Store};

use crate::completeness;

#[derive(Clone, Copy, ValueEnum)]
pub enum ReportFormat {
    Table,
    Json,
    Csv,
}

/// The examples of `realm report -h`, and the start of `--help` (`concat!` needs a literal).
macro_rules! report_examples {
    () => {
        "Examples:
  realm report
  realm report --list
  realm report --run 3 --format json
  realm report --run 3 --format csv > results.csv"
    };
}

const REPORT_EXAMPLES: &str = report_examples!();

/// What the CSV layout holds, for `realm report --help`, after the examples.
const CSV_COLUMNS: &str = concat!(
    report_examples!(),
    "

CSV layout (--format csv): one row per bot, with the columns
  bot, command                  the bot's label and command
  games, wins, draws, losses    results, as in the table
  mean_score, mean_rank         means over the bot's games
  p50_us, p99_us                response-time percentiles in microseconds
  faults                        CODE:COUNT pairs separated by ';'
  weng_lin_rating, weng_lin_sigma
                                Weng-Lin (OpenSkill) mu and sigma (runs of 3+ bots)
  batch_elo, batch_elo_lower, batch_elo_upper
                                the batch Bradley-Terry/Plackett-Luce fit on the Elo scale with
                                its 95% interval (runs of 3+ bots)
  elo_diff, elo_diff_lower, elo_diff_upper, los
                                two-bot runs: this bot's Elo difference against the other
                                (paired pentanomial model when seeds are paired) with its 95%
                                interval and the likelihood of superiority (0..1)
  late_calls                    answers accepted after the limit, within --time-margin
A cell is empty when the figure does not apply or is undefined (no games, every game won);
an interval bound that is unbounded is written inf or -inf. JSON (--format json) holds all of
this and more (pairwise matrix, per-seat results, pentanomial counts, bot data, matches without a result),
with null for unbounded values."
);

#[derive(Args)]
#[command(after_help = REPORT_EXAMPLES, after_long_help = CSV_COLUMNS)]
pub struct ReportArgs {
    /// Results store
    #[arg(long, default_value = "realm.sqlite")]
    db: PathBuf,
    /// Run id or key (default: the newest run)
    #[arg(long)]
    run: Option<String>,
    /// List the runs instead of reporting one
    #[arg(long)]
    list: bool,
    /// Layout; `--help` describes the CSV columns
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    format: ReportFormat,
    /// Exit with status 3 when the run is missing matches (a shard that never ran, say)
    #[arg(long)]
    require_complete: bool,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Stores to merge (shards of one run, or any runs)
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// The store to merge into (created if missing)
    #[arg(long)]
    into: PathBuf,
    /// Exit with status 3 when a merged run is missing matches (a shard that never ran, say)
    #[arg(long)]
    require_complete: bool,
}

pub fn run_report(args: ReportArgs) -> Result<ExitCode> {
    if !args.db.exists() {
        bail!("no results store at {}", args.db.display());
    }
    let store = open_to_read(&args.db)?;
    if args.list {
        let mut text = String::new();
        for run in store.runs()? {
            let _ = writeln!(
                text,
                "{:>4}  {}  {}  {:<20} {}",
                run.id,
                run.key,
                run.created_at,
                game_label(&run.game, run.variant.as_deref()),
                progress_text(&store, &run)?
            );
        }
        crate::write_stdout(format_args!("{text}"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let run = match args.run {
        Some(run) => store.run(&run)?,
        None => match store.latest_run()? {
            Some(run) => run,
            None => bail!("{} holds no runs yet", args.db.display()),
        },
    };
    print_report(&store, &run.key, args.format)?;
    for warning in completeness::content_splits(&store)? {
        errln!("warning: {warning}");
    }
    complete_or_exit(&store, &[run], args.require_complete)
}

/// Opens a store only to read it, writing nothing (not even WAL files), so a store in a
/// read-only folder can be read. A store the read-only open refuses (an older schema to upgrade,
/// a file that is no store) goes through the ordinary open, which upgrades or says what is wrong.
pub fn open_to_read(db: &Path) -> Result<Store> {
    match Store::open_read_only(db) {
        Ok(store) => Ok(store),
        Err(_) => Ok(Store::open(db)?),
    }
}

/// Says loudly which of `runs` miss matches; exit status 3 for that when `required`.
fn complete_or_exit(store: &Store, runs: &[RunRecord], required: bool) -> Result<ExitCode> {
    let mut incomplete = false;
    for run in runs {
        if let Some(why) = completeness::incompleteness(store, run)? {
            let level = if required { "error" } else { "warning" };
            errln!("{level}: {why}");
            incomplete = true;
        }
    }
    Ok(if incomplete && required {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// The game as a run plays it: `kingdomino`, or `blocking (duo)` with a variant.
pub fn game_label(game: &str, variant: Option<&str>) -> String {
    match variant {
        Some(variant) => format!("{game} ({variant})"),
        None => game.to_string(),
    }
}

/// `9/9 matches`, or how an SPRT stopped the run, plus any failed matches.
fn progress_text(store: &Store, run: &RunRecord) -> Result<String> {
    let played = store.done_matches(run.id)?.len();
    let verdict = store
        .verdict(run.id)?
        .and_then(|v| serde_json::from_str::<SprtVerdict>(&v).ok());
    let mut text = match verdict {
        Some(v) => format!(
            "{played} matches, SPRT: {} after {} games",
            v.decision, v.games
        ),
        None => format!("{played}/{} matches", run.n_matches),
    };
    let failed = store.match_errors(run.id)?.len();
    if failed > 0 {
        text.push_str(&format!(", {failed} without a result"));
    }
    Ok(text)
}

pub fn run_merge(args: MergeArgs) -> Result<ExitCode> {
    // An existing output is checked first (another application's database is refused
    // untouched); every source is then opened, and so checked, before a new output is created.
    let existing = match args.into.exists() {
        true => Some(Store::open(&args.into)?),
        false => None,
    };
    let sources = args
        .sources
        .iter()
        .map(|path| open_source(path))
        .collect::<Result<Vec<_>>>()?;
    let created = existing.is_none();
    let merged = merge_into(existing, &args.into, &sources);
    if merged.is_err() && created {
        remove_store_files(&args.into);
    }
    let (into, added) = merged?;
    let mut keys = std::collections::BTreeSet::new();
    for ((path, source), added) in args.sources.iter().zip(&sources).zip(added) {
        outln!("{}: {added} matches added", path.display())?;
        keys.extend(source.runs()?.into_iter().map(|r| r.key));
    }
    for warning in completeness::content_splits(&into)? {
        errln!("warning: {warning}");
    }
    let merged: Vec<RunRecord> = into
        .runs()?
        .into_iter()
        .filter(|r| keys.contains(&r.key))
        .collect();
    complete_or_exit(&into, &merged, args.require_complete)
}

fn open_source(path: &Path) -> Result<Store> {
    if !path.exists() {
        bail!("no results store at {}", path.display());
    }
    Ok(Store::open_read_only(path)?)
}

/// Merges `sources` into the `existing` store, or one created at `path`, all in one
/// transaction, so a merge that fails leaves an existing store as it was.
fn merge_into(
    existing: Option<Store>,
    path: &Path,
    sources: &[Store],
) -> Result<(Store, Vec<usize>)> {
    let mut into = match existing {
        Some(store) => store,
        None => Store::open(path)?,
    };
    let added = into.merge_all(&sources.iter().collect::<Vec<_>>())?;
    Ok((into, added))
}

/// Removes a store this merge created and could not fill, with its journal files.
fn remove_store_files(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

/// Builds the report of run `key` from the store, failed matches and SPRT verdict included.
pub fn load_report(store: &Store, key: &str) -> Result<RunReport> {
    let run = store.run(key)?;
    let bots = store.run_bots(run.id)?;
    let matches = store.matches(run.id)?;
    let config: serde_json::Value = serde_json::from_str(&run.config).unwrap_or_default();
    let group_size = config["group_size"].as_u64().unwrap_or(2);
    Ok(RunReport::build(&run, &bots, &matches, group_size)
        .with_match_errors(&store.match_errors(run.id)?)
        .with_verdict(store.verdict(run.id)?.as_deref()))
}

/// Builds the report of run `key` and prints it in `format`.
pub fn print_report(store: &Store, key: &str, format: ReportFormat) -> Result<()> {
    let report = load_report(store, key)?;
    let text = match format {
        ReportFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        ReportFormat::Csv => csv_text(&report),
        ReportFormat::Table => table_text(&report),
    };
    crate::write_stdout(format_args!("{text}"))?;
    Ok(())
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map(|v| format!("{v:.digits$}"))
        .unwrap_or_else(|| "-".into())
}

/// An Elo difference as people read it: `+12.3 ± 4.5 (95%)`; the interval written out when one
/// end is unbounded; `+inf (all 12 games won)` when there is nothing finite to say.
pub fn elo_text(wdl: &Wdl, estimate: Option<&EloEstimate>) -> String {
    let games = wdl.games();
    match estimate {
        _ if games > 0 && wdl.wins == games => format!("+inf (all {games} games won)"),
        _ if games > 0 && wdl.losses == games => format!("-inf (all {games} games lost)"),
        Some(e) if e.elo_error.is_finite() => {
            format!("{:+.1} ± {:.1} (95%)", e.elo, e.elo_error)
        }
        Some(e) => format!(
            "{:+.1}, 95% interval [{:+.1}, {:+.1}]",
            e.elo, e.elo_lower, e.elo_upper
        ),
        None => "undefined (no games)".to_string(),
    }
}

/// The estimate a head-to-head is judged by: paired (pentanomial) when there are pairs.
fn best_estimate(h: &HeadToHead) -> Option<&EloEstimate> {
    h.elo_pentanomial.as_ref().or(h.elo.as_ref())
}

fn table_text(r: &RunReport) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_table(&mut out, r);
    out
}

fn write_table(out: &mut String, r: &RunReport) -> std::fmt::Result {
    let run = &r.run;
    let extent = match &run.sprt {
        Some(v) => format!(
            "{} matches; the SPRT stopped the run: {}",
            run.matches_played,
            verdict_text(v)
        ),
        None => format!("{}/{} matches", run.matches_played, run.matches_scheduled),
    };
    writeln!(
        out,
        "run {} ({}), {} {} players, seed {}: {extent}",
        run.id,
        run.key,
        game_label(&run.game, run.variant.as_deref()),
        run.n_players,
        run.seed
    )?;
    if !r.referee_errors.is_empty() {
        let errors = &r.referee_errors;
        writeln!(out)?;
        writeln!(
            out,
            "no result: {} matches (a failed referee, or a bot killed by an interruption \
             signal) are counted nowhere below (run the same command again to replay them)",
            errors.count
        )?;
        for e in &errors.first {
            writeln!(
                out,
                "  match {} (seed {}): {}",
                e.match_idx, e.seed, e.reason
            )?;
        }
        if errors.count > errors.first.len() as u64 {
            writeln!(
                out,
                "  and {} more",
                errors.count - errors.first.len() as u64
            )?;
        }
    }
    // Bot names are commands as often as not: the name column fits the longest.
    let w = r
        .bots
        .iter()
        .map(|b| b.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(24);
    let (w2, w3) = (w, w - 3);
    writeln!(out)?;
    writeln!(
        out,
        "{:<w$} {:>6} {:>6} {:>6} {:>6} {:>9} {:>6} {:>8} {:>8}  faults",
        "bot", "games", "wins", "draws", "losses", "score", "rank", "p50 ms", "p99 ms"
    )?;
    for b in &r.bots {
        let faults: Vec<String> = b.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let (p50, p99) = b
            .response_us
            .as_ref()
            .map(|p| (p.p50 as f64 / 1000.0, p.p99 as f64 / 1000.0))
            .unzip();
        writeln!(
            out,
            "{:<w$} {:>6} {:>6} {:>6} {:>6} {:>9} {:>6} {:>8} {:>8}  {}",
            b.name,
            b.games,
            b.wins,
            b.draws,
            b.losses,
            opt(b.mean_score, 2),
            opt(b.mean_rank, 2),
            opt(p50, 2),
            opt(p99, 2),
            if faults.is_empty() {
                "-".to_string()
            } else {
                faults.join(", ")
            }
        )?;
    }
    let late: Vec<String> = r
        .bots
        .iter()
        .filter(|b| b.late_calls > 0)
        .map(|b| format!("{} {}", b.name, b.late_calls))
        .collect();
    if !late.is_empty() {
        writeln!(
            out,
            "late answers accepted within --time-margin: {}",
            late.join(", ")
        )?;
    }
    if r.bots.iter().any(|b| !b.data.is_empty()) {
        writeln!(out)?;
        for b in r.bots.iter().filter(|b| !b.data.is_empty()) {
            let data: Vec<String> = b
                .data
                .iter()
                .map(|(k, v)| format!("{k} = {v:.3}"))
                .collect();
            writeln!(out, "{:<w$} {}", b.name, data.join(", "))?;
        }
    }
    writeln!(out)?;
    writeln!(out, "by seat (wins-draws-losses, mean score):")?;
    for b in &r.bots {
        let seats: Vec<String> = b
            .seats
            .iter()
            .map(|s| {
                format!(
                    "seat {}: {}-{}-{} {}",
                    s.seat,
                    s.wins,
                    s.draws,
                    s.losses,
                    opt(s.mean_score, 1)
                )
            })
            .collect();
        writeln!(out, "  {:<w2$} {}", b.name, seats.join("   "))?;
    }
    if r.bots.len() > 2 {
        writeln!(out)?;
        writeln!(out, "pairwise score (row against column):")?;
        write!(out, "  {:<w2$}", "")?;
        for i in 0..r.bots.len() {
            write!(out, " {:>6}", format!("#{i}"))?;
        }
        writeln!(out)?;
        for (i, row) in r.pairwise.iter().enumerate() {
            write!(out, "  #{i} {:<w3$}", r.bots[i].name)?;
            for cell in row {
                write!(out, " {:>6}", opt(*cell, 3))?;
            }
            writeln!(out)?;
        }
    }
    if let Some(h) = &r.head_to_head {
        writeln!(out)?;
        let (a, b) = (&r.bots[0].name, &r.bots[1].name);
        writeln!(
            out,
            "{a} vs {b}: {}-{}-{} (W-D-L), pentanomial {:?}",
            h.wdl.wins, h.wdl.draws, h.wdl.losses, h.pentanomial
        )?;
        let estimate = best_estimate(h);
        let los = estimate
            .map(|e| format!(", LOS {:.1}%", e.los * 100.0))
            .unwrap_or_default();
        writeln!(out, "Elo difference {}{los}", elo_text(&h.wdl, estimate))?;
    }
    if !r.weng_lin.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{:<w$} {:>9} {:>9} {:>12}",
            "Weng-Lin", "rating", "sigma", "rating-3σ"
        )?;
        for e in &r.weng_lin {
            writeln!(
                out,
                "{:<w$} {:>9.2} {:>9.2} {:>12.2}",
                r.bots[e.bot].name, e.rating, e.uncertainty, e.conservative
            )?;
        }
    }
    if !r.batch_fit.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{:<w$} {:>9} {:>18}",
            "batch fit (Elo scale)", "rating", "95% interval"
        )?;
        for e in &r.batch_fit {
            writeln!(
                out,
                "{:<w$} {:>9.1} {:>18}",
                r.bots[e.bot].name,
                e.elo,
                format!("[{:.1}, {:.1}]", e.lower, e.upper)
            )?;
        }
    }
    Ok(())
}

/// `H1 accepted after 152 games (LLR 2.97, bounds [-2.94, 2.94]; elo0 0, elo1 10)`.
pub fn verdict_text(v: &SprtVerdict) -> String {
    format!(
        "{} accepted after {} games (LLR {:.2}, bounds [{:.2}, {:.2}]; elo0 {}, elo1 {})",
        v.decision, v.games, v.llr, v.lower, v.upper, v.elo0, v.elo1
    )
}

fn csv_text(r: &RunReport) -> String {
    let mut out = String::from(
        "bot,command,games,wins,draws,losses,mean_score,mean_rank,p50_us,p99_us,faults,\
         weng_lin_rating,weng_lin_sigma,batch_elo,batch_elo_lower,batch_elo_upper,\
         elo_diff,elo_diff_lower,elo_diff_upper,los,late_calls\n",
    );
    let num = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    // Bot 0's estimate against bot 1; bot 1's row shows the same seen from the other side.
    let head = r.head_to_head.as_ref().and_then(best_estimate);
    for (i, b) in r.bots.iter().enumerate() {
        let faults: Vec<String> = b.faults.iter().map(|(k, n)| format!("{k}:{n}")).collect();
        let (p50, p99) = b
            .response_us
            .as_ref()
            .map(|p| (p.p50.to_string(), p.p99.to_string()))
            .unwrap_or_default();
        let wl = r.weng_lin.iter().find(|e| e.bot == i);
        let fit = r.batch_fit.iter().find(|e| e.bot == i);
        let elo = head.map(|e| match i {
            0 => (e.elo, e.elo_lower, e.elo_upper, e.los),
            _ => (-e.elo, -e.elo_upper, -e.elo_lower, 1.0 - e.los),
        });
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv(&b.name),
            csv(&b.command),
            b.games,
            b.wins,
            b.draws,
            b.losses,
            num(b.mean_score),
            num(b.mean_rank),
            p50,
            p99,
            csv(&faults.join(";")),
            num(wl.map(|e| e.rating)),
            num(wl.map(|e| e.uncertainty)),
            num(fit.map(|e| e.elo)),
            num(fit.map(|e| e.lower)),
            num(fit.map(|e| e.upper)),
            num(elo.map(|e| e.0)),
            num(elo.map(|e| e.1)),
            num(elo.map(|e| e.2)),
            num(elo.map(|e| e.3)),
            b.late_calls,
        );
    }
    out
}

pub(crate) fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_told_meaningfully_at_the_extremes() {
        assert_eq!(
            elo_text(&Wdl::new(12, 0, 0), None),
            "+inf (all 12 games won)"
        );
        assert_eq!(
            elo_text(&Wdl::new(0, 0, 3), None),
            "-inf (all 3 games lost)"
        );
        let one_loss = Wdl::new(5, 0, 1);
        let e = one_loss.elo().unwrap();
        assert!(e.elo_upper.is_infinite());
        assert_eq!(
            elo_text(&one_loss, Some(&e)),
            format!("{:+.1}, 95% interval [{:+.1}, +inf]", e.elo, e.elo_lower)
        );
        let even = Wdl::new(30, 10, 20);
        let e = even.elo().unwrap();
        assert_eq!(
            elo_text(&even, Some(&e)),
            format!("{:+.1} ± {:.1} (95%)", e.elo, e.elo_error)
        );
        assert_eq!(elo_text(&Wdl::default(), None), "undefined (no games)");
    }

    #[test]
    fn csv_fields_are_quoted_only_when_needed() {
        assert_eq!(csv("python3 bot.py"), "python3 bot.py");
        assert_eq!(csv("a,b \"c\""), "\"a,b \"\"c\"\"\"");
    }
}
