//! Match configuration (mode, league, options; §1.3, §1.4, §6) checked from a `MatchSpec`, and
//! the seeded deck (R4, R5). Nothing here changes during a game.

use realm_core::{MatchSpec, SetupError, SplitMix64};

use crate::kingdom::PlacementRules;
use crate::tiles::N_TILES;

/// Standard 5 × 5 kingdoms or the 7 × 7 Mighty Duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Standard,
    Duel,
}

/// What an illegal PUT costs (R16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvalidPut {
    Discard,
    Eliminate,
}

/// Everything fixed at setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub n_players: usize,
    pub mode: Mode,
    /// 1, 2 or 3 (higher leagues are mapped to 3 before this is built).
    pub league: u32,
    pub rules: PlacementRules,
    pub invalid_put: InvalidPut,
    pub middle_kingdom: bool,
    pub harmony: bool,
}

/// The highest league with rules of its own; higher values mean this one (§5).
pub const TOP_LEAGUE: u32 = 3;

impl Config {
    /// Full rules (league 3) without bonuses, for `n_players` in the given mode.
    pub fn new(mode: Mode, n_players: usize) -> Self {
        Config {
            n_players,
            mode,
            league: TOP_LEAGUE,
            rules: PlacementRules::for_league(TOP_LEAGUE),
            invalid_put: InvalidPut::Eliminate,
            middle_kingdom: false,
            harmony: false,
        }
    }

    /// The same configuration in `league` (above 3 means 3), with that league's default
    /// `invalid_put`.
    pub fn with_league(mut self, league: u32) -> Self {
        let league = league.clamp(1, TOP_LEAGUE);
        self.league = league;
        self.rules = PlacementRules::for_league(league);
        self.invalid_put = if league >= TOP_LEAGUE {
            InvalidPut::Eliminate
        } else {
            InvalidPut::Discard
        };
        self
    }

    /// Reads and checks a match spec; `league` is the already validated league.
    pub fn from_spec(spec: &MatchSpec, league: u32) -> Result<Self, SetupError> {
        let mode = match spec.variant.as_deref() {
            None | Some("standard") => Mode::Standard,
            Some("duel") => Mode::Duel,
            Some(other) => {
                return Err(SetupError::UnknownVariant {
                    game: spec.game.clone(),
                    variant: other.to_string(),
                    known: "standard, duel".into(),
                })
            }
        };
        let mut config = Config::new(mode, spec.n_players).with_league(league);
        for (key, value) in &spec.options {
            let bad = |reason: &str| SetupError::BadOption {
                game: spec.game.clone(),
                key: key.clone(),
                reason: format!("`{value}` {reason}"),
            };
            match key.as_str() {
                "invalid_put" => {
                    config.invalid_put = match value.as_str() {
                        "discard" => InvalidPut::Discard,
                        "eliminate" => InvalidPut::Eliminate,
                        _ => return Err(bad("is not one of discard, eliminate")),
                    }
                }
                "middle_kingdom" | "harmony" => {
                    let on = match value.as_str() {
                        "on" => true,
                        "off" => false,
                        _ => return Err(bad("is not one of on, off")),
                    };
                    if key == "harmony" {
                        config.harmony = on;
                    } else {
                        config.middle_kingdom = on;
                    }
                }
                _ => {
                    return Err(SetupError::UnknownOption {
                        game: spec.game.clone(),
                        key: key.clone(),
                        known: crate::INFO.options.join(", "),
                    })
                }
            }
        }
        Ok(config)
    }

    /// Grid side S.
    pub fn size(&self) -> usize {
        match self.mode {
            Mode::Standard => 9,
            Mode::Duel => 13,
        }
    }

    /// Tiles per line (`nbTiles`).
    pub fn line_len(&self) -> usize {
        if self.n_players == 3 {
            3
        } else {
            4
        }
    }

    /// Deck size D.
    pub fn deck_size(&self) -> usize {
        match (self.mode, self.n_players) {
            (Mode::Duel, _) => 48,
            (Mode::Standard, 2) => 24,
            (Mode::Standard, 3) => 36,
            _ => 48,
        }
    }

    /// Number of lines L = D / nbTiles.
    pub fn n_lines(&self) -> usize {
        self.deck_size() / self.line_len()
    }

    /// Number of turns T = L + 1.
    pub fn n_turns(&self) -> u32 {
        self.n_lines() as u32 + 1
    }

    /// Tiles each player gets when nobody is eliminated (12, or 24 in the Duel).
    pub fn tiles_per_player(&self) -> u32 {
        (self.deck_size() / self.n_players) as u32
    }

    /// The player of each turn-1 slot (R7): seat order, twice around with two kings.
    pub fn first_turn_players(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.line_len()).map(|i| i % self.n_players)
    }
}

/// The shuffled IDs 1..48 for `seed` (R4), before truncation.
pub fn shuffled_deck(seed: u64) -> [u8; N_TILES] {
    let mut deck = [0u8; N_TILES];
    for (i, id) in deck.iter_mut().enumerate() {
        *id = i as u8 + 1;
    }
    let mut rng = SplitMix64::new(seed);
    rng.shuffle(&mut deck);
    deck
}

/// The lines of the game (R5): consecutive deck positions, each sorted by ascending ID; only
/// the first `line_len` entries of each array are used.
pub fn deal_lines(config: &Config, seed: u64) -> Vec<[u8; 4]> {
    deal_line_array(config, seed)[..config.n_lines()].to_vec()
}

/// `deal_lines` into a fixed array (lines beyond L are zero), allocation-free for playouts.
pub fn deal_line_array(config: &Config, seed: u64) -> [[u8; 4]; MAX_LINES] {
    let deck = shuffled_deck(seed);
    let len = config.line_len();
    let mut lines = [[0u8; 4]; MAX_LINES];
    let dealt = &mut lines[..config.n_lines()];
    if len == 4 {
        // Copied as whole lines of a fixed length: a copy of a variable length is a call
        // to `memcpy` per line, which took most of a deal's time.
        for (line, chunk) in dealt.iter_mut().zip(deck.chunks_exact(4)) {
            *line = <[u8; 4]>::try_from(chunk).expect("a chunk of 4");
            sort_line(line);
        }
    } else {
        for (line, chunk) in dealt.iter_mut().zip(deck.chunks(len)) {
            line[..len].copy_from_slice(chunk);
            sort_line(&mut line[..len]);
        }
    }
    lines
}

/// Sorts a line of IDs; four (every mode but 3 players) with a branch-free sorting network,
/// since a general sort of four random IDs mispredicts about every other comparison.
pub fn sort_line(line: &mut [u8]) {
    if let Ok(four) = <&mut [u8; 4]>::try_from(&mut *line) {
        for (a, b) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
            let (lo, hi) = (four[a].min(four[b]), four[a].max(four[b]));
            four[a] = lo;
            four[b] = hi;
        }
    } else {
        line.sort_unstable();
    }
}

/// The most lines any mode has (3 and 4 players, Duel).
pub const MAX_LINES: usize = 12;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r4_first_shuffle_steps_k1() {
        let mut rng = SplitMix64::new(1);
        let steps: Vec<u64> = [47u64, 46, 45]
            .iter()
            .map(|&i| rng.next_u64() % (i + 1))
            .collect();
        assert_eq!(steps, vec![17, 36, 22]);
    }

    #[test]
    fn parameters_per_mode_table_1_3() {
        let table = [
            (Config::new(Mode::Standard, 2), 9, 24, 4, 6, 7, 12),
            (Config::new(Mode::Standard, 3), 9, 36, 3, 12, 13, 12),
            (Config::new(Mode::Standard, 4), 9, 48, 4, 12, 13, 12),
            (Config::new(Mode::Duel, 2), 13, 48, 4, 12, 13, 24),
        ];
        for (c, s, d, nt, l, t, per) in table {
            assert_eq!(
                (
                    c.size(),
                    c.deck_size(),
                    c.line_len(),
                    c.n_lines(),
                    c.n_turns()
                ),
                (s, d, nt, l, t)
            );
            assert_eq!(c.tiles_per_player(), per);
        }
    }

    #[test]
    fn leagues_above_three_mean_three() {
        let c = Config::new(Mode::Standard, 2).with_league(7);
        assert_eq!(c.league, 3);
        assert_eq!(c.invalid_put, InvalidPut::Eliminate);
        let c = Config::new(Mode::Standard, 2).with_league(2);
        assert_eq!(c.invalid_put, InvalidPut::Discard);
        assert_eq!(
            c.rules,
            PlacementRules {
                overlap: false,
                connect: false
            }
        );
    }

    #[test]
    fn the_line_sorting_network_sorts_every_order_of_four() {
        let ids = [3u8, 17, 17, 40];
        for a in 0..4 {
            for b in 0..4 {
                for c in 0..4 {
                    for d in 0..4 {
                        let mut line = [ids[a], ids[b], ids[c], ids[d]];
                        let mut expected = line;
                        expected.sort_unstable();
                        sort_line(&mut line);
                        assert_eq!(line, expected);
                    }
                }
            }
        }
        let mut three = [9u8, 2, 5];
        sort_line(&mut three);
        assert_eq!(three, [2, 5, 9]);
    }
}
