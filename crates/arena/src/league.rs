//! A league's matchmaking: which bots play next, chosen from the results so far, so that new
//! and uncertain bots get games first and decided pairs few. Every chosen group plays one seed
//! in every seat arrangement, as a scheduled run does. Pure bookkeeping: no processes, no store.

use std::collections::{HashMap, VecDeque};

use realm_core::SplitMix64;
use realm_stats::{normal_cdf, BatchConfig, ChoiceData};
use realm_store::MatchRecord;

use crate::report::placings;
use crate::schedule::ScheduledMatch;

/// Games a new bot gets before the uncertainty of its place decides its share.
pub const NEWCOMER_GAMES: u64 = 20;
/// Matches between two refits of the ratings, at least; a grown league refits after every 5%
/// more matches, so the fit's cost stays a small share of a fast game's.
const REFIT_EVERY: u64 = 16;
/// A pair whose order is this sure (either way) is decided.
pub const DECIDED: f64 = 0.95;

pub struct Matchmaker {
    n_seats: usize,
    seed: u64,
    next_group: u64,
    next_idx: u64,
    active: Vec<usize>,
    /// Games per entrant, counting matches handed out but not yet recorded.
    games: Vec<u64>,
    pair_games: HashMap<(usize, usize), u64>,
    choices: ChoiceData,
    /// Elo and its standard error per entrant, from the last fit.
    ratings: Vec<Option<(f64, f64)>>,
    /// `p_better` of every ordered pair (row-major), computed at each fit: matchmaking asks
    /// for it hundreds of times per group.
    p: Vec<f64>,
    since_fit: u64,
    recorded: u64,
    queue: VecDeque<ScheduledMatch>,
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

impl Matchmaker {
    /// A matchmaker over `n_entrants` entrants of which `active` may be scheduled, knowing
    /// the stored `matches`; match indices continue from `next_idx`, group seeds come from
    /// `seed` and the groups scheduled so far (`next_group`).
    pub fn new(
        n_entrants: usize,
        n_seats: usize,
        active: Vec<usize>,
        seed: u64,
        next_idx: u64,
        matches: &[MatchRecord],
    ) -> Matchmaker {
        let mut mm = Matchmaker {
            n_seats,
            seed,
            next_group: next_idx,
            next_idx,
            active,
            games: vec![0; n_entrants],
            pair_games: HashMap::new(),
            choices: ChoiceData::new(n_entrants),
            ratings: vec![None; n_entrants],
            p: vec![0.5; n_entrants * n_entrants],
            since_fit: 0,
            recorded: 0,
            queue: VecDeque::new(),
        };
        for m in matches {
            mm.count(&m.seats);
            mm.add_result(m);
        }
        mm.refit();
        mm
    }

    fn count(&mut self, seats: &[usize]) {
        for (i, &a) in seats.iter().enumerate() {
            if let Some(g) = self.games.get_mut(a) {
                *g += 1;
            }
            for &b in &seats[i + 1..] {
                if a != b {
                    *self.pair_games.entry(key(a, b)).or_insert(0) += 1;
                }
            }
        }
    }

    fn add_result(&mut self, m: &MatchRecord) {
        let _ = self.choices.add_ranking(&placings(m));
        self.since_fit += 1;
        self.recorded += 1;
    }

    fn refit(&mut self) {
        self.since_fit = 0;
        if let Ok(fit) = self.choices.fit(&BatchConfig::default()) {
            for r in fit.ratings {
                self.ratings[r.bot] = r.std_error.is_finite().then_some((r.elo, r.std_error));
            }
        }
        let n = self.ratings.len();
        for a in 0..n {
            for b in 0..n {
                self.p[a * n + b] = match (self.ratings[a], self.ratings[b]) {
                    (Some((ra, ea)), Some((rb, eb))) => {
                        normal_cdf((ra - rb) / (ea * ea + eb * eb).sqrt().max(1e-9))
                    }
                    _ => 0.5,
                };
            }
        }
    }

    /// Takes a finished match into account.
    pub fn record(&mut self, m: &MatchRecord) {
        self.add_result(m);
        if self.since_fit >= REFIT_EVERY.max(self.recorded / 20) {
            self.refit();
        }
    }

    /// Probability that `a` is better than `b` by the current ratings (0.5 when unknown).
    pub fn p_better(&self, a: usize, b: usize) -> f64 {
        self.p[a * self.ratings.len() + b]
    }

    fn pair_priority(&self, a: usize, b: usize) -> f64 {
        let u = 1.0 - (2.0 * self.p_better(a, b) - 1.0).abs();
        let played = self.pair_games.get(&key(a, b)).copied().unwrap_or(0) as f64;
        // Decided pairs keep a trickle of games, so a changed bot is noticed.
        (u + 0.05) / (1.0 + played)
    }

    /// The bots of the next group: the bot with the fewest games while any is new, else the
    /// most uncertain pair; the other seats go to the opponents it is least sure against.
    fn choose_group(&self) -> Option<Vec<usize>> {
        if self.active.len() < self.n_seats {
            return None;
        }
        let fewest = *self.active.iter().min_by_key(|&&b| (self.games[b], b))?;
        let focus = if self.games[fewest] < NEWCOMER_GAMES {
            fewest
        } else {
            // The bot in the most uncertain pair.
            let mut best = (f64::MIN, fewest);
            for (i, &a) in self.active.iter().enumerate() {
                for &b in &self.active[i + 1..] {
                    let p = self.pair_priority(a, b);
                    if p > best.0 {
                        best = (p, if self.games[a] <= self.games[b] { a } else { b });
                    }
                }
            }
            best.1
        };
        let mut others: Vec<usize> = self
            .active
            .iter()
            .copied()
            .filter(|&b| b != focus)
            .collect();
        others.sort_by(|&x, &y| {
            self.pair_priority(focus, y)
                .total_cmp(&self.pair_priority(focus, x))
                .then(x.cmp(&y))
        });
        let mut group = vec![focus];
        group.extend(others.into_iter().take(self.n_seats - 1));
        Some(group)
    }

    /// The next match to play, or `None` when fewer bots than seats are active.
    pub fn next_match(&mut self) -> Option<ScheduledMatch> {
        if self.queue.is_empty() {
            let group = self.choose_group()?;
            let seed = SplitMix64::new(self.seed ^ self.next_group.wrapping_mul(0x9E37_79B9))
                .next_u64()
                & 0x7FFF_FFFF;
            let n = group.len();
            // Both orders for two seats, every rotation for more: each seat once per bot.
            for shift in 0..n {
                let seats: Vec<usize> = (0..n).map(|s| group[(s + shift) % n]).collect();
                self.queue.push_back(ScheduledMatch {
                    index: self.next_idx,
                    group: self.next_group,
                    seed,
                    seats,
                });
                self.next_idx += 1;
            }
            self.next_group += 1;
        }
        let m = self.queue.pop_front()?;
        self.count(&m.seats);
        Some(m)
    }

    /// Elo and standard error of entrant `b` from the last fit, if it has one.
    pub fn rating(&self, b: usize) -> Option<(f64, f64)> {
        self.ratings[b]
    }

    /// Games of entrant `b` (handed out included).
    pub fn games(&self, b: usize) -> u64 {
        self.games[b]
    }

    /// True when every active bot has its newcomer games and every two bots adjacent in the
    /// rating order are decided.
    pub fn is_stable(&self) -> bool {
        if self.active.iter().any(|&b| self.games[b] < NEWCOMER_GAMES) {
            return false;
        }
        let mut order: Vec<usize> = self.active.clone();
        order.sort_by(|&a, &b| {
            let ra = self.ratings[a].map_or(0.0, |r| r.0);
            let rb = self.ratings[b].map_or(0.0, |r| r.0);
            rb.total_cmp(&ra)
        });
        order
            .windows(2)
            .all(|w| self.p_better(w[0], w[1]) >= DECIDED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(idx: u64, seats: Vec<usize>, winner_first: bool) -> MatchRecord {
        let ranks = if winner_first { vec![1, 2] } else { vec![2, 1] };
        MatchRecord {
            match_idx: idx,
            seed: 1,
            seats,
            scores: vec![1, 0],
            ranks,
            end_reason: "finished".into(),
            detail: String::new(),
            faults: vec![None, None],
            n_calls: 1,
            duration_ms: 1,
            replay_path: None,
            times_us: vec![vec![], vec![]],
            data: vec![Default::default(), Default::default()],
            late_calls: vec![],
        }
    }

    #[test]
    fn a_group_plays_one_seed_in_both_seat_orders_with_fresh_indices() {
        let mut mm = Matchmaker::new(3, 2, vec![0, 1, 2], 7, 10, &[]);
        let (a, b) = (mm.next_match().unwrap(), mm.next_match().unwrap());
        assert_eq!((a.index, b.index), (10, 11));
        assert_eq!(a.seed, b.seed);
        assert_eq!(a.seats, vec![b.seats[1], b.seats[0]]);
        let c = mm.next_match().unwrap();
        assert_eq!(c.index, 12);
        assert_ne!(c.seed, a.seed);
    }

    #[test]
    fn a_new_bot_gets_its_games_first() {
        // 0 and 1 have played 40 games; 2 is new.
        let stored: Vec<MatchRecord> = (0..40).map(|i| result(i, vec![0, 1], i % 3 != 0)).collect();
        let mut mm = Matchmaker::new(3, 2, vec![0, 1, 2], 1, 40, &stored);
        for _ in 0..NEWCOMER_GAMES {
            assert!(mm.next_match().unwrap().seats.contains(&2));
        }
        assert_eq!(mm.games(2), NEWCOMER_GAMES);
    }

    #[test]
    fn retired_bots_are_never_scheduled_and_decided_pairs_play_less() {
        // 0 always beats 1 and 2; 1 and 2 split their games: 1-2 is the uncertain pair.
        let mut stored = Vec::new();
        for i in 0..60u64 {
            stored.push(result(3 * i, vec![0, 1], true));
            stored.push(result(3 * i + 1, vec![0, 2], true));
            stored.push(result(3 * i + 2, vec![1, 2], i % 2 == 0));
        }
        let mut mm = Matchmaker::new(4, 2, vec![0, 1, 2], 1, 180, &stored);
        let mut uncertain = 0;
        for _ in 0..40 {
            let m = mm.next_match().unwrap();
            assert!(!m.seats.contains(&3), "entrant 3 is not active");
            uncertain += u64::from(m.seats.contains(&1) && m.seats.contains(&2));
        }
        assert!(
            uncertain >= 30,
            "the undecided pair got {uncertain} of 40 matches"
        );
        assert!(mm.p_better(0, 1) > DECIDED);
        assert!(!mm.is_stable(), "1 and 2 are not decided");
    }

    #[test]
    fn fewer_active_bots_than_seats_schedule_nothing() {
        let mut mm = Matchmaker::new(3, 2, vec![1], 1, 0, &[]);
        assert!(mm.next_match().is_none());
    }
}
