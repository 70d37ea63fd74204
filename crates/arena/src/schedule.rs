//! The deterministic schedule of a tournament. Matches come in groups: one group is one seed
//! played by one combination of entrants in every seat arrangement (both orders for two seats,
//! every rotation for more, every permutation with `permute`), so seat advantage cancels out and
//! results can be paired. Group `g` gets the g-th output of SplitMix64 from the run seed and the
//! combination `g mod C`, so all combinations are played evenly. A run at least one cycle long
//! (every combination in every arrangement) is rounded up to whole cycles, so that every bot
//! plays as many games, in every seat, against every opponent.
//!
//! **Invariant**: match `i` of a schedule is a pure function of the schedule's parameters, so a
//! resumed run, a shard and the whole run agree on every match.

use realm_core::SplitMix64;

/// SplitMix64's increment: seeding at `seed + g * GAMMA` yields the g-th output of the stream.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub n_entrants: usize,
    pub n_seats: usize,
    pub run_seed: u64,
    combos: Vec<Vec<usize>>,
    arrangements: Vec<Vec<usize>>,
    n_groups: u64,
}

/// One scheduled match: who sits where, and the seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledMatch {
    pub index: u64,
    pub group: u64,
    pub seed: u64,
    /// `seats[s]` is the entrant in seat `s`.
    pub seats: Vec<usize>,
}

impl Schedule {
    /// A schedule of at least `min_matches` matches, rounded up to whole cycles (see
    /// `cycle_len`) when it is at least one cycle long, else to whole groups.
    pub fn new(
        n_entrants: usize,
        n_seats: usize,
        min_matches: u64,
        run_seed: u64,
        permute: bool,
    ) -> Schedule {
        assert!(
            n_seats >= 1 && n_entrants >= n_seats,
            "need at least as many entrants as seats"
        );
        let combos = combinations(n_entrants, n_seats);
        let arrangements = if permute || n_seats == 2 {
            permutations(n_seats)
        } else {
            rotations(n_seats)
        };
        let group_size = arrangements.len() as u64;
        let min_groups = min_matches.div_ceil(group_size).max(1);
        let n_combos = combos.len() as u64;
        // Shorter than a cycle (many bots, few games): balance is impossible, keep the count.
        let n_groups = if min_groups >= n_combos {
            min_groups.div_ceil(n_combos) * n_combos
        } else {
            min_groups
        };
        Schedule {
            n_entrants,
            n_seats,
            run_seed,
            combos,
            arrangements,
            n_groups,
        }
    }

    /// Matches per group (seat arrangements of one seed).
    pub fn group_size(&self) -> u64 {
        self.arrangements.len() as u64
    }

    /// Matches in one cycle: every combination of entrants in every seat arrangement.
    pub fn cycle_len(&self) -> u64 {
        self.combos.len() as u64 * self.group_size()
    }

    pub fn n_groups(&self) -> u64 {
        self.n_groups
    }

    pub fn n_matches(&self) -> u64 {
        self.n_groups * self.group_size()
    }

    /// Extends the schedule to at least `n_groups` groups (SPRT runs grow until they decide).
    pub fn grow_to(&mut self, n_groups: u64) {
        self.n_groups = self.n_groups.max(n_groups);
    }

    /// The seed of group `g`.
    ///
    /// Seeds are 31-bit (0 to 2^31 - 1): Java referees take an `int` seed, and the same seed
    /// stream serves realm's own referee and an external one, so the two play the same games.
    pub fn group_seed(&self, group: u64) -> u64 {
        SplitMix64::new(self.run_seed.wrapping_add(group.wrapping_mul(GAMMA))).next_u64() >> 33
    }

    /// Match number `index`.
    pub fn get(&self, index: u64) -> ScheduledMatch {
        let group = index / self.group_size();
        let arrangement = &self.arrangements[(index % self.group_size()) as usize];
        let combo = &self.combos[(group % self.combos.len() as u64) as usize];
        ScheduledMatch {
            index,
            group,
            seed: self.group_seed(group),
            seats: arrangement.iter().map(|&slot| combo[slot]).collect(),
        }
    }

    /// The indices of shard `k` of `n` (1-based k): whole groups `g` with `g mod n == k - 1`.
    pub fn shard(&self, k: u64, n: u64) -> impl Iterator<Item = u64> + '_ {
        (0..self.n_matches()).filter(move |i| (i / self.group_size()) % n == k - 1)
    }
}

/// All k-subsets of 0..n in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn extend(
        start: usize,
        n: usize,
        k: usize,
        current: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            extend(i + 1, n, k, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    extend(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// The k rotations of 0..k: [0,1,2], [1,2,0], [2,0,1].
fn rotations(k: usize) -> Vec<Vec<usize>> {
    (0..k)
        .map(|r| (0..k).map(|s| (s + r) % k).collect())
        .collect()
}

/// All permutations of 0..k in lexicographic order.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    fn extend(k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in 0..k {
            if !current.contains(&i) {
                current.push(i);
                extend(k, current, out);
                current.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(k, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bots_play_each_seed_in_both_orders() {
        let s = Schedule::new(2, 2, 5, 42, false);
        assert_eq!(s.n_matches(), 6, "rounded up to whole pairs");
        let m: Vec<_> = (0..4).map(|i| s.get(i)).collect();
        assert_eq!(m[0].seats, vec![0, 1]);
        assert_eq!(m[1].seats, vec![1, 0]);
        assert_eq!(m[0].seed, m[1].seed);
        assert_ne!(m[1].seed, m[2].seed);
        // The top 31 bits of SplitMix64's stream, as a Java referee's int seed takes them.
        let mut stream = SplitMix64::new(42);
        assert_eq!(m[0].seed, stream.next_u64() >> 33);
        assert_eq!(m[2].seed, stream.next_u64() >> 33);
        assert!(m.iter().all(|m| m.seed < 1 << 31));
    }

    #[test]
    fn more_bots_than_seats_cycle_through_every_combination() {
        let s = Schedule::new(4, 2, 12, 1, false);
        let mut count = [0; 4];
        for i in 0..s.n_matches() {
            for e in s.get(i).seats {
                count[e] += 1;
            }
        }
        assert_eq!(count, [6, 6, 6, 6]);
        assert_eq!(s.get(2).seats, vec![0, 2]);
    }

    #[test]
    fn runs_of_at_least_one_cycle_are_whole_cycles_so_every_bot_plays_as_often() {
        let s = Schedule::new(3, 2, 100, 1, false);
        assert_eq!(s.cycle_len(), 6);
        assert_eq!(s.n_matches(), 102, "rounded up from 100");
        let mut games = [0; 3];
        let mut seat0 = [0; 3];
        for i in 0..s.n_matches() {
            let m = s.get(i);
            m.seats.iter().for_each(|&e| games[e] += 1);
            seat0[m.seats[0]] += 1;
        }
        assert_eq!(games, [68, 68, 68]);
        assert_eq!(seat0, [34, 34, 34]);
        // 20 bots in 4 seats cycle through 4845 combinations: a short run keeps its length.
        let big = Schedule::new(20, 4, 100, 1, false);
        assert_eq!(big.cycle_len(), 4845 * 4);
        assert_eq!(big.n_matches(), 100);
    }

    #[test]
    fn rotations_or_permutations_for_more_seats() {
        assert_eq!(Schedule::new(3, 3, 1, 0, false).group_size(), 3);
        assert_eq!(Schedule::new(3, 3, 1, 0, true).group_size(), 6);
        let s = Schedule::new(4, 4, 4, 0, false);
        assert_eq!(s.get(1).seats, vec![1, 2, 3, 0]);
    }

    #[test]
    fn shards_partition_the_schedule_by_whole_groups() {
        let s = Schedule::new(2, 2, 20, 3, false);
        let mut all: Vec<u64> = (1..=3)
            .flat_map(|k| s.shard(k, 3).collect::<Vec<_>>())
            .collect();
        all.sort();
        assert_eq!(all, (0..20).collect::<Vec<_>>());
        assert_eq!(s.shard(2, 3).take(2).collect::<Vec<_>>(), vec![2, 3]);
    }
}
