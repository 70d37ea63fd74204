//! The report of a run, computed from the results store: per-bot results, faults, response
//! times, bot-reported data, per-seat results, the pairwise matrix, and the statistics that
//! decide (Elo from paired games for two bots; Weng-Lin and a batch Bradley-Terry/Plackett-Luce
//! fit for more). Pure data with `Serialize`; the CLI chooses the layout.

use std::collections::{BTreeMap, HashMap};

use realm_stats::{
    percentiles, BatchConfig, BatchRating, ChoiceData, EloEstimate, GameResult, Pentanomial,
    Percentiles, Placing, Tally, Wdl, WengLinEntry, WengLinTable,
};
use realm_store::{BotRecord, MatchErrorRecord, MatchRecord, RunRecord};
use serde::{Deserialize, Serialize};

/// Failed matches listed by reason in a report; the rest are only counted.
const ERRORS_LISTED: usize = 3;

#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    pub run: RunSummary,
    pub bots: Vec<BotReport>,
    /// `pairwise[a][b]`: bot a's score fraction against bot b (wins + draws/2), `None` if they never met.
    pub pairwise: Vec<Vec<Option<f64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<HeadToHead>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weng_lin: Vec<WengLinEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub batch_fit: Vec<BatchRating>,
    /// Matches the external referee failed to play: in no statistic above.
    #[serde(skip_serializing_if = "MatchErrors::is_empty")]
    pub referee_errors: MatchErrors,
}

/// Matches that have no result because their external referee failed.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MatchErrors {
    pub count: u64,
    /// The first few, by match index, with their reasons.
    pub first: Vec<MatchErrorRecord>,
}

impl MatchErrors {
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// How an SPRT run ended, stored with the run (`Store::set_verdict`) so that reports can say
/// that the test stopped it rather than show it as unfinished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtVerdict {
    /// `H0` (not stronger by elo1) or `H1` (stronger by elo0).
    pub decision: String,
    /// Games played when it decided.
    pub games: u64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}
#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    pub id: i64,
    pub key: String,
    pub kind: String,
    pub game: String,
    pub variant: Option<String>,
    pub league: Option<i64>,
    pub n_players: usize,
    pub seed: u64,
    pub matches_played: u64,
    pub matches_scheduled: u64,
    /// Set when an SPRT decided before the scheduled end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtVerdict>,
}

#[derive(Clone, Debug, Serialize)]
pub struct BotReport {
    pub name: String,
    pub command: String,
    pub hash: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub mean_score: Option<f64>,
    pub mean_rank: Option<f64>,
    /// Fault code -> count.
    pub faults: BTreeMap<String, u64>,
    /// Answers recorded after the game's limit but within `--time-margin`: accepted, counted.
    pub late_calls: u64,
    pub response_us: Option<Percentiles>,
    /// Mean of each `[TDATA]`/`[PDATA]` key over the matches that reported it.
    pub data: BTreeMap<String, f64>,
    /// Results by seat (seat 0 first).
    pub seats: Vec<SeatReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatReport {
    pub seat: usize,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub mean_score: Option<f64>,
}

/// Bot 0 against bot 1 in a two-bot run.
#[derive(Clone, Debug, Serialize)]
pub struct HeadToHead {
    pub wdl: Wdl,
    pub elo: Option<EloEstimate>,
    /// Pairs of games on the same seed with seats swapped, as fastchess counts them.
    pub pentanomial: [u64; 5],
    pub elo_pentanomial: Option<EloEstimate>,
}

impl RunReport {
    /// Builds the report; `group_size` is how many consecutive match indices share one seed.
    pub fn build(
        run: &RunRecord,
        bots: &[BotRecord],
        matches: &[MatchRecord],
        group_size: u64,
    ) -> RunReport {
        let n_bots = bots.len();
        let mut tally = Tally::new(n_bots);
        let mut weng_lin = WengLinTable::new(n_bots);
        let mut faults = vec![BTreeMap::new(); n_bots];
        let mut late_calls = vec![0; n_bots];
        let mut times: Vec<Vec<u64>> = vec![Vec::new(); n_bots];
        let mut data_values: Vec<BTreeMap<String, Vec<f64>>> = vec![BTreeMap::new(); n_bots];
        let mut choices = ChoiceData::new(n_bots);
        for m in matches {
            let placings = placings(m);
            // A malformed record (impossible from realm's own writer) is skipped, not fatal.
            if tally.add_match(&placings).is_err() {
                continue;
            }
            let _ = weng_lin.update(&placings);
            let _ = choices.add_ranking(&placings);
            for (seat, &bot) in m.seats.iter().enumerate() {
                if let Some(Some((code, _))) = m.faults.get(seat) {
                    *faults[bot].entry(code.clone()).or_insert(0) += 1;
                }
                times[bot].extend(m.times_us.get(seat).into_iter().flatten());
                late_calls[bot] += m.late_calls.get(seat).copied().unwrap_or(0);
                for (key, value) in m.data.get(seat).into_iter().flatten() {
                    data_values[bot]
                        .entry(key.clone())
                        .or_default()
                        .push(*value);
                }
            }
        }
        let bots_report = bots
            .iter()
            .enumerate()
            .map(|(b, bot)| {
                let t = tally.bot(b);
                BotReport {
                    name: bot.name.clone(),
                    command: bot.command.clone(),
                    hash: bot.hash.clone(),
                    games: t.games,
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                    mean_score: t.mean_score(),
                    mean_rank: t.mean_rank(),
                    faults: faults[b].clone(),
                    late_calls: late_calls[b],
                    response_us: percentiles(&times[b]),
                    data: data_values[b]
                        .iter()
                        .filter_map(|(k, values)| Some((k.clone(), finite_mean(values)?)))
                        .collect(),
                    seats: tally
                        .seats(b)
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| s.games > 0)
                        .map(|(seat, s)| SeatReport {
                            seat,
                            games: s.games,
                            wins: s.wins,
                            draws: s.draws,
                            losses: s.losses,
                            mean_score: s.mean_score(),
                        })
                        .collect(),
                }
            })
            .collect();
        let pairwise = (0..n_bots)
            .map(|a| {
                (0..n_bots)
                    .map(|b| if a == b { None } else { tally.pair_score(a, b) })
                    .collect()
            })
            .collect();
        let head_to_head = (n_bots == 2).then(|| HeadToHead::from_matches(matches, group_size));
        let (weng_lin, batch_fit) = if n_bots > 2 {
            (
                weng_lin.entries(),
                choices
                    .fit(&BatchConfig::default())
                    .map(|f| f.ratings)
                    .unwrap_or_default(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        RunReport {
            run: RunSummary {
                id: run.id,
                key: run.key.clone(),
                kind: run.kind.clone(),
                game: run.game.clone(),
                variant: run.variant.clone(),
                league: run.league,
                n_players: run.n_players,
                seed: run.seed,
                matches_played: matches.len() as u64,
                matches_scheduled: run.n_matches,
                sprt: None,
            },
            bots: bots_report,
            pairwise,
            head_to_head,
            weng_lin,
            batch_fit,
            referee_errors: MatchErrors::default(),
        }
    }

    /// Adds the run's failed matches (`Store::match_errors`), which no statistic counts.
    pub fn with_match_errors(mut self, errors: &[MatchErrorRecord]) -> RunReport {
        self.referee_errors = MatchErrors {
            count: errors.len() as u64,
            first: errors.iter().take(ERRORS_LISTED).cloned().collect(),
        };
        self
    }

    /// Adds the stored verdict of the run (`Store::verdict`); text that is not an SPRT verdict
    /// is ignored.
    pub fn with_verdict(mut self, verdict: Option<&str>) -> RunReport {
        self.run.sprt = verdict.and_then(|v| serde_json::from_str(v).ok());
        self
    }
}

impl HeadToHead {
    /// Bot 0's results against bot 1; complete groups of `group_size` matches form the pairs.
    pub fn from_matches(matches: &[MatchRecord], group_size: u64) -> HeadToHead {
        let mut tally = HeadToHeadTally::new(group_size);
        matches.iter().for_each(|m| tally.add(m));
        tally.summary()
    }

    pub fn pentanomial(&self) -> Pentanomial {
        Pentanomial::from_counts(self.pentanomial)
    }
}

/// Bot 0's results against bot 1, one match at a time, so a live display costs O(1) per match
/// instead of re-reading every match so far.
#[derive(Clone, Debug)]
pub struct HeadToHeadTally {
    group_size: u64,
    wdl: Wdl,
    penta: Pentanomial,
    /// Groups (seeds) with one result so far, waiting for the swapped-seat game.
    open: HashMap<u64, GameResult>,
}

impl HeadToHeadTally {
    /// Pairs are formed only when a seed is played in exactly two seat arrangements.
    pub fn new(group_size: u64) -> Self {
        HeadToHeadTally {
            group_size,
            wdl: Wdl::default(),
            penta: Pentanomial::default(),
            open: HashMap::new(),
        }
    }

    pub fn add(&mut self, m: &MatchRecord) {
        let Some(result) = result_of_bot0(m) else {
            return;
        };
        self.wdl.add(result);
        if self.group_size != 2 {
            return;
        }
        let group = m.match_idx / 2;
        match self.open.remove(&group) {
            Some(first) => self.penta.add_pair(first, result),
            None => {
                self.open.insert(group, result);
            }
        }
    }

    pub fn summary(&self) -> HeadToHead {
        HeadToHead {
            wdl: self.wdl,
            elo: self.wdl.elo().ok(),
            pentanomial: self.penta.counts(),
            elo_pentanomial: self.penta.elo().ok(),
        }
    }
}

/// Bot 0's result in a two-player match between bots 0 and 1.
fn result_of_bot0(m: &MatchRecord) -> Option<GameResult> {
    let seat0 = m.seats.iter().position(|&b| b == 0)?;
    let seat1 = m.seats.iter().position(|&b| b == 1)?;
    let (r0, r1) = (m.ranks[seat0], m.ranks[seat1]);
    Some(match r0.cmp(&r1) {
        std::cmp::Ordering::Less => GameResult::Win,
        std::cmp::Ordering::Equal => GameResult::Draw,
        std::cmp::Ordering::Greater => GameResult::Loss,
    })
}

/// The placings of a stored match, as the rating tables take them.
pub fn placings(m: &MatchRecord) -> Vec<Placing> {
    m.seats
        .iter()
        .enumerate()
        .map(|(seat, &bot)| Placing {
            bot,
            rank: m.ranks[seat],
            score: m.scores[seat] as f64,
        })
        .collect()
}

/// The mean of finite values, even where their sum overflows (two values of 1e308); `None` for
/// none, or a non-finite value (never stored, but JSON would print it as `null`).
fn finite_mean(values: &[f64]) -> Option<f64> {
    let n = values.len() as f64;
    let sum: f64 = values.iter().sum();
    let mean = if sum.is_finite() {
        sum / n
    } else {
        values.iter().map(|v| v / n).sum()
    };
    mean.is_finite().then_some(mean)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(idx: u64, seats: [usize; 2], ranks: [u32; 2], fault: Option<&str>) -> MatchRecord {
        MatchRecord {
            match_idx: idx,
            seed: idx / 2,
            seats: seats.to_vec(),
            scores: ranks.iter().map(|&r| 10 - r as i64).collect(),
            ranks: ranks.to_vec(),
            end_reason: "finished".into(),
            detail: String::new(),
            faults: vec![fault.map(|f| (f.to_string(), "why".to_string())), None],
            n_calls: 4,
            duration_ms: 1,
            replay_path: None,
            times_us: vec![vec![100, 300], vec![200]],
            data: vec![
                BTreeMap::from([("nodes".to_string(), 10.0)]),
                BTreeMap::new(),
            ],
            late_calls: vec![1, 0],
        }
    }

    #[test]
    fn two_bots_get_paired_statistics_per_seed() {
        // Seed 0: bot 0 wins in both seat orders. Seed 1: each bot wins once. Seed 2: unpaired.
        let matches = vec![
            record(0, [0, 1], [1, 2], None),
            record(1, [1, 0], [2, 1], None),
            record(2, [0, 1], [1, 2], None),
            record(3, [1, 0], [1, 2], Some("timeout")),
            record(4, [0, 1], [1, 1], None),
        ];
        let head = HeadToHead::from_matches(&matches, 2);
        assert_eq!((head.wdl.wins, head.wdl.draws, head.wdl.losses), (3, 1, 1));
        assert_eq!(head.pentanomial, [0, 0, 1, 0, 1]);
        let run = RunRecord {
            id: 1,
            key: "k".into(),
            kind: "arena".into(),
            created_at: String::new(),
            game: "kingdomino".into(),
            variant: None,
            league: None,
            n_players: 2,
            seed: 1,
            n_matches: 6,
            config: "{}".into(),
        };
        let bots = vec![
            BotRecord {
                name: "a".into(),
                command: "a".into(),
                hash: String::new(),
            },
            BotRecord {
                name: "b".into(),
                command: "b".into(),
                hash: String::new(),
            },
        ];
        let report = RunReport::build(&run, &bots, &matches, 2);
        assert_eq!(report.bots[0].games, 5);
        assert_eq!(
            report.bots[1].faults,
            BTreeMap::from([("timeout".to_string(), 1)])
        );
        assert_eq!(report.bots[0].seats[1].wins, 1);
        // Each record has one late call in seat 0: bot 0 sat there three times, bot 1 twice.
        assert_eq!(
            (report.bots[0].late_calls, report.bots[1].late_calls),
            (3, 2)
        );
        assert_eq!(report.bots[0].data["nodes"], 10.0);
        assert_eq!(report.bots[0].response_us.as_ref().unwrap().max, 300);
        assert_eq!(report.pairwise[0][1], Some(0.7));
        assert_eq!(report.run.matches_played, 5);
        let failed: Vec<MatchErrorRecord> = (5..10)
            .map(|i| MatchErrorRecord {
                match_idx: i,
                seed: 1,
                seats: vec![0, 1],
                reason: format!("referee ended ({i})"),
            })
            .collect();
        let verdict = r#"{"decision":"H1","games":5,"llr":3.0,"lower":-2.94,"upper":2.94,
            "elo0":0.0,"elo1":10.0,"alpha":0.05,"beta":0.05}"#;
        let report = report
            .with_match_errors(&failed)
            .with_verdict(Some(verdict));
        assert_eq!(report.referee_errors.count, 5);
        assert_eq!(report.referee_errors.first, failed[..3].to_vec());
        assert_eq!(report.bots[0].games, 5, "failed matches are not games");
        assert_eq!(report.run.sprt.as_ref().unwrap().decision, "H1");
    }

    #[test]
    fn data_means_stay_finite_when_their_sum_overflows() {
        assert_eq!(finite_mean(&[1e308, 1e308]), Some(1e308));
        assert_eq!(finite_mean(&[1.0, 2.0]), Some(1.5));
        assert_eq!(finite_mean(&[f64::INFINITY]), None);
        assert_eq!(finite_mean(&[]), None);
    }
}
