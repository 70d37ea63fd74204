//! The seam between the viewer and a results store: `RunSource` answers the runs pages (the
//! list of runs, one run's leaderboard and pairwise matrix, its matches with filters, and the
//! replay file of one match). The viewer never opens a database itself; the binary passes an
//! implementation backed by `realm-store`.
//!
//! The data types here are the viewer's own wire types, kept small and serializable so the same
//! values also feed the `/api/runs...` JSON routes.

use std::error::Error;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// What a run source returns on failure; the viewer shows it as a 500 page.
pub type SourceError = Box<dyn Error + Send + Sync>;

/// Read-only access to stored runs. Implementations must be cheap to call per request (the
/// viewer calls them on every page view) and safe to share between the server's threads.
pub trait RunSource: Send + Sync {
    /// Every run, newest first.
    fn runs(&self) -> Result<Vec<RunSummary>, SourceError>;

    /// One run with its leaderboard and pairwise matrix, or `None` if there is no such run.
    fn run(&self, run_id: i64) -> Result<Option<RunDetail>, SourceError>;

    /// The matches of a run that pass `filter` (the source may use `MatchFilter::accepts`),
    /// in the order to show them: the first `filter.offset` of them skipped (paging), then at
    /// most `filter.limit`.
    fn matches(&self, run_id: i64, filter: &MatchFilter) -> Result<Vec<MatchRow>, SourceError>;

    /// Where the kept replay of a match is, or `None` if it was not kept. The path comes from
    /// the store, not from the URL, so it may lie outside the replay folder.
    fn replay_file(&self, run_id: i64, match_id: i64) -> Result<Option<PathBuf>, SourceError>;

    /// The nearest matches before and after `match_id` that pass `filter` (its paging
    /// ignored) and kept a replay, however far away. This default reads the filtered list
    /// once; a store may answer from an index instead.
    fn replay_neighbours(
        &self,
        run_id: i64,
        match_id: i64,
        filter: &MatchFilter,
    ) -> Result<(Option<i64>, Option<i64>), SourceError> {
        replay_neighbours_by_listing(self, run_id, match_id, filter)
    }
}

/// `RunSource::replay_neighbours` by reading the filtered list once (its paging ignored): the
/// default, and what a source with an index still does when a filter applies.
pub fn replay_neighbours_by_listing<S: RunSource + ?Sized>(
    source: &S,
    run_id: i64,
    match_id: i64,
    filter: &MatchFilter,
) -> Result<(Option<i64>, Option<i64>), SourceError> {
    let every = MatchFilter {
        offset: 0,
        limit: usize::MAX,
        ..filter.clone()
    };
    Ok(replay_neighbours_in(
        &source.matches(run_id, &every)?,
        match_id,
    ))
}

/// The nearest rows before and after `match_id` that kept a replay.
pub fn replay_neighbours_in(rows: &[MatchRow], match_id: i64) -> (Option<i64>, Option<i64>) {
    let kept = || rows.iter().filter(|m| m.has_replay).map(|m| m.id);
    (
        kept().filter(|&id| id < match_id).max(),
        kept().filter(|&id| id > match_id).min(),
    )
}

/// One line of the runs list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub id: i64,
    /// A human label, e.g. the command line or a name given with `--name`.
    pub label: String,
    /// The game slug, plus variant and league when set, e.g. `blocking duo`.
    pub game: String,
    /// When the run started, as text (the store's own format).
    pub started: String,
    pub n_bots: usize,
    pub n_matches_done: u64,
    pub n_matches_planned: u64,
    /// `running`, `interrupted`, `complete`, an SPRT decision; a league is `running` or `idle`.
    pub status: String,
    /// When the run last started, resumed or stored a match, as text, if known.
    #[serde(default)]
    pub last_activity: Option<String>,
}

/// One run in full: the summary, the leaderboard and the pairwise matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunDetail {
    pub summary: RunSummary,
    /// Best first.
    pub leaderboard: Vec<LeaderRow>,
    /// The matrix's bot names, in row and column order.
    pub bots: Vec<String>,
    /// `pairwise[i][j]` is bot i's record against bot j; `None` where they never met
    /// (always on the diagonal).
    pub pairwise: Vec<Vec<Option<PairRecord>>>,
    /// The fault codes that occur in the run's matches, sorted (the matches page offers them
    /// as the fault filter's choices).
    #[serde(default)]
    pub fault_codes: Vec<String>,
}

/// One bot's line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderRow {
    pub rank: u32,
    pub bot: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// A rating (Elo, TrueSkill mean, ...) if the run computes one.
    pub rating: Option<f64>,
    /// Its error bar (e.g. a 95% half-width).
    pub rating_error: Option<f64>,
    pub faults: u64,
    /// What `realm report` adds per bot; empty where the source does not compute it.
    #[serde(default)]
    pub details: BotDetails,
}

/// A bot's response times, faults by kind, results per seat and `[PDATA]` averages (what
/// `realm report` prints), and in a league its status, note, version and P(better than next).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BotDetails {
    /// Median and 99th percentile response time in microseconds.
    pub response_p50_us: Option<u64>,
    pub response_p99_us: Option<u64>,
    /// Fault code → count.
    pub fault_kinds: std::collections::BTreeMap<String, u64>,
    /// Results by seat, seat order.
    pub seats: Vec<SeatRecord>,
    /// `[PDATA]`/`[TDATA]` key → average over the bot's matches.
    pub data: std::collections::BTreeMap<String, f64>,
    /// A league entrant's status (`active`, `retired`, `pending`, ...).
    pub status: Option<String>,
    /// The note given when it was added.
    pub note: Option<String>,
    /// Its command and the content hash of the files it names.
    pub version: Option<String>,
    /// Probability that it is better than the next bot down.
    pub p_better_than_next: Option<f64>,
}

/// A bot's results in one seat.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub seat: usize,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Bot i's record against bot j.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairRecord {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl PairRecord {
    /// Points per game (win 1, draw 1/2), or `None` before any game.
    pub fn score_rate(&self) -> Option<f64> {
        let games = self.wins + self.draws + self.losses;
        (games > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / games as f64)
    }
}

/// One match of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRow {
    pub id: i64,
    pub seed: u64,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatResult>,
    /// The end reason code (`finished`, `turn_limit`, a fault code, ...).
    pub end: String,
    pub turns: Option<u32>,
    pub duration_ms: Option<u64>,
    /// True when a replay was kept (the page then links to it).
    pub has_replay: bool,
    /// True when the store names a kept replay whose file is gone (moved or deleted).
    #[serde(default)]
    pub replay_missing: bool,
}

/// One seat of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatResult {
    pub bot: String,
    pub score: i64,
    /// 1-based; equal ranks are a draw.
    pub rank: u32,
    /// The fault code if this seat faulted.
    pub fault: Option<String>,
}

/// Which matches of a run to show. Every field narrows the list; the defaults show all.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchFilter {
    /// Only matches this bot played in.
    pub bot: Option<String>,
    pub seed: Option<u64>,
    pub result: Option<ResultFilter>,
    /// Only matches with a fault; `Some("any")` for any fault kind, else a fault code.
    pub fault: Option<String>,
    /// How many accepted matches to skip before the first row returned (the page's start).
    pub offset: usize,
    /// The most rows to return (a page holds `MatchFilter::PAGE_ROWS`).
    pub limit: usize,
}

/// A result. `Win` and `Loss` are seen from `MatchFilter::bot` and mean nothing without one
/// (they are then ignored); `Draw` and `Decisive` are about the match, `Draw` from the bot's
/// seat when a bot is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultFilter {
    /// The bot ranked first alone.
    Win,
    /// The bot shared first place (without a bot: first place was shared).
    Draw,
    /// The bot did not rank first.
    Loss,
    /// One player ranked first alone, whoever it was.
    Decisive,
}

impl ResultFilter {
    pub const ALL: [ResultFilter; 4] = [
        ResultFilter::Win,
        ResultFilter::Draw,
        ResultFilter::Loss,
        ResultFilter::Decisive,
    ];

    pub fn code(self) -> &'static str {
        match self {
            ResultFilter::Win => "win",
            ResultFilter::Draw => "draw",
            ResultFilter::Loss => "loss",
            ResultFilter::Decisive => "decisive",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.code() == code)
    }

    /// True for the results that are seen from a chosen bot.
    pub fn needs_bot(self) -> bool {
        matches!(self, ResultFilter::Win | ResultFilter::Loss)
    }
}

impl MatchFilter {
    /// The match rows one page shows.
    pub const PAGE_ROWS: usize = 1000;

    /// Builds a filter from a URL query string (`bot=a&seed=3&result=win&fault=any&page=2`);
    /// unknown keys and empty or unparsable values are ignored, so a half-filled form still
    /// works. `page` is 1-based and sets `offset`.
    pub fn from_query(query: &str) -> Self {
        let mut filter = MatchFilter {
            limit: Self::PAGE_ROWS,
            ..MatchFilter::default()
        };
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let Some(value) = crate::path::percent_decode(&value.replace('+', " ")) else {
                continue;
            };
            let value = value.trim();
            if value.is_empty() {
                continue;
            }
            match key {
                "bot" => filter.bot = Some(value.to_string()),
                "seed" => filter.seed = value.parse().ok(),
                "result" => filter.result = ResultFilter::parse(value),
                "fault" => filter.fault = Some(value.to_string()),
                "page" => {
                    let page = value.parse::<usize>().unwrap_or(1).max(1);
                    filter.offset = (page - 1).saturating_mul(Self::PAGE_ROWS);
                }
                _ => {}
            }
        }
        filter
    }

    /// The 1-based page `offset` starts.
    pub fn page(&self) -> usize {
        self.offset / Self::PAGE_ROWS + 1
    }

    /// The query string of this filter on `page` (without `?`), for links that keep it.
    pub fn to_query(&self, page: usize) -> String {
        let mut parts = Vec::new();
        if let Some(bot) = &self.bot {
            parts.push(format!("bot={}", crate::path::encode_segment(bot)));
        }
        if let Some(seed) = self.seed {
            parts.push(format!("seed={seed}"));
        }
        if let Some(result) = self.result {
            parts.push(format!("result={}", result.code()));
        }
        if let Some(fault) = &self.fault {
            parts.push(format!("fault={}", crate::path::encode_segment(fault)));
        }
        if page > 1 {
            parts.push(format!("page={page}"));
        }
        parts.join("&")
    }

    /// True when the filter narrows nothing (paging aside): every match passes.
    pub fn passes_all(&self) -> bool {
        self.bot.is_none() && self.seed.is_none() && self.fault.is_none() && {
            self.result.is_none() || self.ignores_result()
        }
    }

    /// The filter in words for a match page's links ("loss of bot greedy, fault crashed"),
    /// empty when it narrows nothing.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match (self.result, &self.bot) {
            (Some(r), Some(bot)) => parts.push(format!("{} of {bot}", r.code())),
            (None, Some(bot)) => parts.push(format!("with {bot}")),
            (Some(r), None) if !r.needs_bot() => parts.push(r.code().to_string()),
            _ => {}
        }
        if let Some(seed) = self.seed {
            parts.push(format!("seed {seed}"));
        }
        match self.fault.as_deref() {
            Some("any") => parts.push("with a fault".to_string()),
            Some(code) => parts.push(format!("fault {code}")),
            None => {}
        }
        parts.join(", ")
    }

    /// True when a result that needs a bot was asked for without one, and so is ignored.
    pub fn ignores_result(&self) -> bool {
        self.bot.is_none() && self.result.is_some_and(ResultFilter::needs_bot)
    }

    /// The in-memory meaning of the filter (everything but `limit`), for sources that filter
    /// after loading and for checking a SQL translation against.
    pub fn accepts(&self, row: &MatchRow) -> bool {
        let seats: Vec<&SeatResult> = match &self.bot {
            Some(bot) => row.seats.iter().filter(|s| &s.bot == bot).collect(),
            None => row.seats.iter().collect(),
        };
        if seats.is_empty() || self.seed.is_some_and(|seed| seed != row.seed) {
            return false;
        }
        let n_first = row.seats.iter().filter(|s| s.rank == 1).count();
        let result_ok = match (self.result, self.bot.is_some()) {
            (None, _) => true,
            (Some(ResultFilter::Win), true) => seats.iter().any(|s| s.rank == 1 && n_first == 1),
            (Some(ResultFilter::Draw), true) => seats.iter().any(|s| s.rank == 1 && n_first > 1),
            (Some(ResultFilter::Loss), true) => seats.iter().any(|s| s.rank != 1),
            (Some(ResultFilter::Draw), false) => n_first > 1,
            (Some(ResultFilter::Decisive), _) => n_first == 1,
            // Win and loss of nobody in particular: see `ignores_result`.
            (Some(ResultFilter::Win | ResultFilter::Loss), false) => true,
        };
        let fault_ok = match self.fault.as_deref() {
            None => true,
            Some("any") => seats.iter().any(|s| s.fault.is_some()),
            Some(code) => seats.iter().any(|s| s.fault.as_deref() == Some(code)),
        };
        result_ok && fault_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seed: u64, seats: &[(&str, u32, Option<&str>)]) -> MatchRow {
        MatchRow {
            id: 1,
            seed,
            seats: seats
                .iter()
                .map(|&(bot, rank, fault)| SeatResult {
                    bot: bot.to_string(),
                    score: 0,
                    rank,
                    fault: fault.map(str::to_string),
                })
                .collect(),
            end: "finished".into(),
            turns: None,
            duration_ms: None,
            has_replay: false,
            replay_missing: false,
        }
    }

    #[test]
    fn query_parsing_ignores_blanks_and_junk() {
        let f = MatchFilter::from_query("bot=my+bot&seed=42&result=win&fault=&zzz=1");
        assert_eq!(f.bot.as_deref(), Some("my bot"));
        assert_eq!(f.seed, Some(42));
        assert_eq!(f.result, Some(ResultFilter::Win));
        assert_eq!(f.fault, None);
        assert_eq!((f.offset, f.limit), (0, MatchFilter::PAGE_ROWS));
        assert_eq!(MatchFilter::from_query("seed=x").seed, None);
        let paged = MatchFilter::from_query("page=3&result=decisive");
        assert_eq!(paged.offset, 2 * MatchFilter::PAGE_ROWS);
        assert_eq!(paged.page(), 3);
        assert_eq!(paged.result, Some(ResultFilter::Decisive));
        assert_eq!(MatchFilter::from_query("page=0").offset, 0);
        assert_eq!(MatchFilter::from_query("page=x").offset, 0);
    }

    #[test]
    fn links_keep_the_filter() {
        let f = MatchFilter::from_query("bot=my+bot%26co&seed=4&result=loss&fault=any&page=2");
        assert_eq!(
            f.to_query(3),
            "bot=my%20bot%26co&seed=4&result=loss&fault=any&page=3"
        );
        assert_eq!(MatchFilter::from_query(&f.to_query(3)).bot, f.bot);
        assert_eq!(MatchFilter::from_query("").to_query(1), "");
    }

    #[test]
    fn results_are_seen_from_the_chosen_bot() {
        let won = row(7, &[("a", 1, None), ("b", 2, Some("timeout"))]);
        let drawn = row(8, &[("a", 1, None), ("b", 1, None)]);
        let f = |q: &str| MatchFilter::from_query(q);
        assert!(f("bot=a&result=win").accepts(&won));
        assert!(!f("bot=b&result=win").accepts(&won));
        assert!(f("bot=b&result=loss").accepts(&won));
        assert!(f("bot=b&result=draw").accepts(&drawn));
        assert!(!f("bot=a&result=draw").accepts(&won));
        assert!(f("result=draw").accepts(&drawn) && !f("result=draw").accepts(&won));
        assert!(f("result=decisive").accepts(&won) && !f("result=decisive").accepts(&drawn));
        assert!(
            f("bot=b&result=decisive").accepts(&won),
            "decisive is about the match"
        );
        // Win and loss need a bot: without one they filter nothing, and say so.
        for q in ["result=win", "result=loss"] {
            assert!(f(q).accepts(&won) && f(q).accepts(&drawn), "{q}");
            assert!(f(q).ignores_result(), "{q}");
        }
        assert!(!f("bot=a&result=win").ignores_result() && !f("result=draw").ignores_result());
        assert!(!f("bot=c").accepts(&won));
        assert!(f("seed=7").accepts(&won) && !f("seed=7").accepts(&drawn));
        assert!(f("fault=any").accepts(&won) && !f("fault=any").accepts(&drawn));
        assert!(f("fault=timeout").accepts(&won) && !f("fault=crashed").accepts(&won));
        assert!(!f("bot=a&fault=any").accepts(&won), "a did not fault");
    }

    #[test]
    fn score_rate_counts_draws_as_half() {
        let r = PairRecord {
            wins: 3,
            draws: 2,
            losses: 5,
        };
        assert_eq!(r.score_rate(), Some(0.4));
        let none = PairRecord {
            wins: 0,
            draws: 0,
            losses: 0,
        };
        assert_eq!(none.score_rate(), None);
    }
}
