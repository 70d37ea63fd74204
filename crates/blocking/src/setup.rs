//! Match setup (spec §1, R1–R5, §7): the variant, the board size, the start cells and the
//! seeded shape set. This is the only place where the match seed is read.

use realm_core::SplitMix64;

use crate::shapes::{ALL_LETTERS, SMALL_LETTERS};

/// Which rules of the engine are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// CodinGame's Blocking: 13×13, 2–4 players, seeded set.
    Blocking,
    /// Blokus Duo: 14×14, 2 players, shared starts (4,4) / (9,9), official scoring.
    Duo,
    /// Blokus Classic: 20×20, 4 players, corners clockwise, official scoring.
    Classic,
}

impl Variant {
    /// The variant named in a `MatchSpec` (`None` = Blocking).
    pub fn from_name(name: Option<&str>) -> Option<Variant> {
        match name {
            None | Some("standard") => Some(Variant::Blocking),
            Some("duo") => Some(Variant::Duo),
            Some("classic") => Some(Variant::Classic),
            Some(_) => None,
        }
    }

    /// Board size N.
    pub fn size(self) -> usize {
        match self {
            Variant::Blocking => 13,
            Variant::Duo => 14,
            Variant::Classic => 20,
        }
    }

    /// True when scores follow V2 (official Blokus scoring) instead of R13.
    pub fn official_scoring(self) -> bool {
        self != Variant::Blocking
    }
}

/// Everything that fixes a game before the first move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub variant: Variant,
    pub n_players: usize,
    /// The shape set as letter bits (bit 0 = A).
    pub set: u32,
}

impl Config {
    /// The configuration of a match: the seeded set for Blocking (R4), all 21 shapes otherwise.
    pub fn new(variant: Variant, n_players: usize, seed: u64) -> Config {
        let set = match variant {
            Variant::Blocking => draw_set(seed, n_players),
            Variant::Duo | Variant::Classic => ALL_LETTERS,
        };
        Config {
            variant,
            n_players,
            set,
        }
    }

    /// A test configuration with an explicit set (A4 builds such games).
    pub fn with_set(variant: Variant, n_players: usize, set: u32) -> Config {
        Config {
            variant,
            n_players,
            set: set | SMALL_LETTERS,
        }
    }

    /// R8 e: with 3 players, players 0 and 1 open with A, B, C or D.
    pub fn restricted_opening(&self, player: usize) -> bool {
        self.variant == Variant::Blocking && self.n_players == 3 && player < 2
    }

    /// Start cells each player may open on (R5, V1, V3). For Duo both players list both cells;
    /// the engine removes a cell from player 1's list once player 0 covers it.
    pub fn starts(&self, player: usize) -> Vec<(usize, usize)> {
        let m = self.variant.size() - 1;
        match self.variant {
            Variant::Blocking => vec![[(0, 0), (m, m), (0, m), (m, 0)][player]],
            Variant::Duo => vec![(4, 4), (9, 9)],
            Variant::Classic => vec![[(0, 0), (m, 0), (m, m), (0, m)][player]],
        }
    }
}

/// SplitMix64's `below(n)` of R4: rejection sampling without modulo bias.
fn below(rng: &mut SplitMix64, n: u64) -> u64 {
    let t = n.wrapping_neg() % n;
    loop {
        let x = rng.next_u64();
        if x >= t {
            return x % n;
        }
    }
}

/// R4: A–D plus m letters of E..U drawn by a partial Fisher–Yates shuffle from the seed.
pub fn draw_set(seed: u64, n_players: usize) -> u32 {
    let m = match n_players {
        2 => 14,
        3 => 9,
        _ => 6,
    };
    let mut rng = SplitMix64::new(seed);
    let mut pool: Vec<u32> = (4..21).collect();
    for i in 0..m {
        let j = i + below(&mut rng, (17 - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool[..m].iter().fold(SMALL_LETTERS, |set, &l| set | 1 << l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::letters_string;

    /// A3: the generator's first outputs and the drawn sets.
    #[test]
    fn a3_splitmix_and_drawn_sets() {
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220A8397B1DCDAF);
        assert_eq!(g.next_u64(), 0x6E789E6AA1B965F4);
        assert_eq!(g.next_u64(), 0x06C45D188009454F);
        let table = [
            (0, ["ABCDFGHIJKLMNOPQTU", "ABCDHIJKLMPQU", "ABCDJKLMPQ"]),
            (1, ["ABCDEFGHIKLMNOPRTU", "ABCDEFGHKMNOR", "ABCDEGMNOR"]),
            (2, ["ABCDFGHIKLMOPQRSTU", "ABCDFGHIMPQRU", "ABCDGHIMPU"]),
            (3, ["ABCDEFGIJKLNOPQRSU", "ABCDEFIKLOPQR", "ABCDEFIOPQ"]),
            (42, ["ABCDEFGHIJLMNOPRTU", "ABCDEFGIJNPRT", "ABCDFGIJPR"]),
        ];
        for (seed, sets) in table {
            for (i, expected) in sets.iter().enumerate() {
                assert_eq!(
                    letters_string(draw_set(seed, i + 2)),
                    *expected,
                    "seed {seed}, {} players",
                    i + 2
                );
            }
        }
    }

    /// R4: the 4-player set is inside the 3-player set, inside the 2-player set.
    #[test]
    fn r4_sets_are_nested() {
        for seed in 0..200 {
            let (s2, s3, s4) = (draw_set(seed, 2), draw_set(seed, 3), draw_set(seed, 4));
            assert_eq!(s3 & s2, s3);
            assert_eq!(s4 & s3, s4);
            assert_eq!(
                [s2.count_ones(), s3.count_ones(), s4.count_ones()],
                [18, 13, 10]
            );
        }
    }
}
