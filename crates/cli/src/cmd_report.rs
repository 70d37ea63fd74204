//! `realm report` and `realm merge`, and the table/JSON/CSV layouts of a run report.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use realm_arena::report::RunReport;
use realm_store::Store;

#[derive(Clone, Copy, ValueEnum)]
pub enum ReportFormat {
    Table,
    Json,
    Csv,
}

#[derive(Args)]
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
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    format: ReportFormat,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Stores to merge (shards of one run, or any runs)
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// The store to merge into (created if missing)
    #[arg(long)]
    into: PathBuf,
}

pub fn run_report(args: ReportArgs) -> Result<ExitCode> {
    if !args.db.exists() {
        bail!("no results store at {}", args.db.display());
    }
    let store = Store::open(&args.db)?;
    if args.list {
        for run in store.runs()? {
            let played = store.done_matches(run.id)?.len();
            println!(
                "{:>4}  {}  {}  {:<14} {}/{} matches",
                run.id, run.key, run.created_at, run.game, played, run.n_matches
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let key = match args.run {
        Some(run) => store.run(&run)?.key,
        None => match store.latest_run()? {
            Some(run) => run.key,
            None => bail!("{} holds no runs yet", args.db.display()),
        },
    };
    print_report(&store, &key, args.format)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_merge(args: MergeArgs) -> Result<ExitCode> {
    let mut into = Store::open(&args.into)?;
    for source in &args.sources {
        if !source.exists() {
            bail!("no results store at {}", source.display());
        }
        let added = into.merge_from(&Store::open(source)?)?;
        println!("{}: {added} matches added", source.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Builds the report of run `key` and prints it in `format`.
pub fn print_report(store: &Store, key: &str, format: ReportFormat) -> Result<()> {
    let run = store.run(key)?;
    let bots = store.run_bots(run.id)?;
    let matches = store.matches(run.id)?;
    let config: serde_json::Value = serde_json::from_str(&run.config).unwrap_or_default();
    let group_size = config["group_size"].as_u64().unwrap_or(2);
    let report = RunReport::build(&run, &bots, &matches, group_size);
    match format {
        ReportFormat::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        ReportFormat::Csv => print_csv(&report),
        ReportFormat::Table => print_table(&report),
    }
    Ok(())
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map(|v| format!("{v:.digits$}"))
        .unwrap_or_else(|| "-".into())
}

fn print_table(r: &RunReport) {
    let run = &r.run;
    println!(
        "run {} ({}), {} {}players, seed {}: {}/{} matches",
        run.id,
        run.key,
        run.game,
        run.n_players.to_string() + " ",
        run.seed,
        run.matches_played,
        run.matches_scheduled
    );
    println!();
    println!(
        "{:<24} {:>6} {:>6} {:>6} {:>6} {:>9} {:>6} {:>8} {:>8}  faults",
        "bot", "games", "wins", "draws", "losses", "score", "rank", "p50 ms", "p99 ms"
    );
    for b in &r.bots {
        let faults: Vec<String> = b.faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let (p50, p99) = b
            .response_us
            .as_ref()
            .map(|p| (p.p50 as f64 / 1000.0, p.p99 as f64 / 1000.0))
            .unzip();
        println!(
            "{:<24} {:>6} {:>6} {:>6} {:>6} {:>9} {:>6} {:>8} {:>8}  {}",
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
        );
    }
    if r.bots.iter().any(|b| !b.data.is_empty()) {
        println!();
        for b in r.bots.iter().filter(|b| !b.data.is_empty()) {
            let data: Vec<String> = b
                .data
                .iter()
                .map(|(k, v)| format!("{k} = {v:.3}"))
                .collect();
            println!("{:<24} {}", b.name, data.join(", "));
        }
    }
    println!();
    println!("by seat (wins-draws-losses, mean score):");
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
        println!("  {:<22} {}", b.name, seats.join("   "));
    }
    if r.bots.len() > 2 {
        println!();
        println!("pairwise score (row against column):");
        print!("  {:<22}", "");
        for i in 0..r.bots.len() {
            print!(" {:>6}", format!("#{i}"));
        }
        println!();
        for (i, row) in r.pairwise.iter().enumerate() {
            print!("  #{i} {:<19}", r.bots[i].name);
            for cell in row {
                print!(" {:>6}", opt(*cell, 3));
            }
            println!();
        }
    }
    if let Some(h) = &r.head_to_head {
        println!();
        let (a, b) = (&r.bots[0].name, &r.bots[1].name);
        println!(
            "{a} vs {b}: {}-{}-{} (W-D-L), pentanomial {:?}",
            h.wdl.wins, h.wdl.draws, h.wdl.losses, h.pentanomial
        );
        if let Some(e) = h.elo_pentanomial.as_ref().or(h.elo.as_ref()) {
            println!(
                "Elo difference {:+.1} ± {:.1} (95%), LOS {:.1}%",
                e.elo,
                e.elo_error,
                e.los * 100.0
            );
        } else {
            println!("Elo difference: not enough information (all games won or lost)");
        }
    }
    if !r.weng_lin.is_empty() {
        println!();
        println!(
            "{:<24} {:>9} {:>9} {:>12}",
            "Weng-Lin", "rating", "sigma", "rating-3σ"
        );
        for e in &r.weng_lin {
            println!(
                "{:<24} {:>9.2} {:>9.2} {:>12.2}",
                r.bots[e.bot].name, e.rating, e.uncertainty, e.conservative
            );
        }
    }
    if !r.batch_fit.is_empty() {
        println!();
        println!(
            "{:<24} {:>9} {:>18}",
            "batch fit (Elo scale)", "rating", "95% interval"
        );
        for e in &r.batch_fit {
            println!(
                "{:<24} {:>9.1} {:>18}",
                r.bots[e.bot].name,
                e.elo,
                format!("[{:.1}, {:.1}]", e.lower, e.upper)
            );
        }
    }
}

fn print_csv(r: &RunReport) {
    println!("bot,command,games,wins,draws,losses,mean_score,mean_rank,p50_us,p99_us,faults");
    for b in &r.bots {
        let faults: Vec<String> = b.faults.iter().map(|(k, n)| format!("{k}:{n}")).collect();
        let (p50, p99) = b
            .response_us
            .as_ref()
            .map(|p| (p.p50.to_string(), p.p99.to_string()))
            .unwrap_or_default();
        println!(
            "{},{},{},{},{},{},{},{},{},{},{}",
            csv(&b.name),
            csv(&b.command),
            b.games,
            b.wins,
            b.draws,
            b.losses,
            opt(b.mean_score, 4),
            opt(b.mean_rank, 4),
            p50,
            p99,
            csv(&faults.join(";"))
        );
    }
}

fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}
