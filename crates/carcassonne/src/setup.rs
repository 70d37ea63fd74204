//! Match setup (§3.1, §6): which tile types a league uses, the start tile, the bag and its
//! SplitMix64 Fisher–Yates shuffle, which is the only randomness of a match.

use realm_core::SplitMix64;

use crate::tiles::tileset;

/// The leagues (§6).
pub const LEAGUES: [u32; 3] = [1, 2, 3];

/// Tile type letters a league uses.
pub fn league_letters(league: u32) -> &'static str {
    match league {
        1 => "CEFGHIMNQR",
        2 => "CDEFGHIJKLMNOPQRSTUVWX",
        _ => "ABCDEFGHIJKLMNOPQRSTUVWX",
    }
}

/// The start tile type: E in league 1, D otherwise (§3.1.3).
pub fn start_type(league: u32) -> u8 {
    let letter = if league == 1 { 'E' } else { 'D' };
    tileset()
        .by_letter(letter)
        .expect("start letters are in the table")
}

/// The unshuffled bag: CSV order, `count` copies of each enabled type, one fewer start tile.
pub fn unshuffled_bag(league: u32) -> Vec<u8> {
    let letters = league_letters(league);
    let start = start_type(league);
    let mut bag = Vec::with_capacity(72);
    for (ty, tile) in tileset().types.iter().enumerate() {
        if letters.contains(tile.letter) {
            let n = tile.count - u8::from(ty as u8 == start);
            bag.extend(std::iter::repeat_n(ty as u8, n as usize));
        }
    }
    bag
}

/// The shuffled bag of a match (§3.1.2); tiles are drawn from index 0 upwards.
pub fn shuffled_bag(league: u32, seed: u64) -> Vec<u8> {
    let mut bag = unshuffled_bag(league);
    let mut rng = SplitMix64::new(seed);
    rng.shuffle(&mut bag);
    bag
}

/// A bag written as tile letters (`"EVEE"`), for scripted games; `None` on an unknown letter.
pub fn bag_from_letters(letters: &str) -> Option<Vec<u8>> {
    letters.chars().map(|c| tileset().by_letter(c)).collect()
}

/// The letters of a bag.
pub fn bag_letters(bag: &[u8]) -> String {
    bag.iter().map(|&t| tileset().get(t).letter).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a1_splitmix_and_bag_sizes() {
        let mut rng = SplitMix64::new(0);
        let firsts = [rng.next_u64(), rng.next_u64(), rng.next_u64()];
        assert_eq!(
            firsts,
            [0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f]
        );
        let sizes: Vec<usize> = LEAGUES.iter().map(|&l| unshuffled_bag(l).len()).collect();
        assert_eq!(sizes, [22, 65, 71]);
    }

    #[test]
    fn a1_first_twelve_tiles() {
        let expected = [
            (0, ["MQNIEHHIFEHN", "VHHUWMEKIKSJ", "FWJEALEUQHXM"]),
            (42, ["GECERIFHEMEI", "PKMOEOVVEHLR", "KAVUEBHIVPUV"]),
        ];
        for (seed, per_league) in expected {
            for (league, want) in LEAGUES.iter().zip(per_league) {
                let bag = bag_letters(&shuffled_bag(*league, seed));
                assert_eq!(&bag[..12], want, "seed {seed} league {league}");
            }
        }
    }

    #[test]
    fn a1_whole_bag_seed_1_league_3() {
        assert_eq!(
            bag_letters(&shuffled_bag(3, 1)),
            "RSUJKWDVHLMPBVBWJXLGPAEPEVUUMDWVUAJOCVIBVVKHTFDWBRVFKSHENUEEQONULUIVRUN"
        );
    }

    #[test]
    fn a4_worked_example_bag_seed_6() {
        assert_eq!(&bag_letters(&shuffled_bag(3, 6))[..6], "EVLVME");
    }
}
