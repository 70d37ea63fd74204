//! The search's valuation of an unfinished game: each player's score plus what each kind of
//! open feature would pay if the game ended now, two prospects (castles one edge from
//! closing, open castles touching a field) and the men in supply, each weighed by how much
//! of the bag is left. Early on an open castle is likely to close and pay double, a field has
//! most of its castles still to come, and a man in supply has turns left to earn.
//!
//! The weights are a least-squares fit of the rest of the game's score margin between two
//! players on the differences of these terms, over 4,000 league 3 games of the greedy bot
//! against itself (567,000 positions): `cargo run --release -p realm-carcassonne --example
//! valuation_data -- 4000 > data.csv`, then `python3 tools/fit_carcassonne_valuation.py
//! data.csv`. On a fifth of the games held out, the fitted valuation names the final leader
//! in 72.0% of positions, the plain end-now score in 67.7% (62.2% against 55.7% in the first
//! half of a game). Weights fitted on games of this search against greedy played worse.

use std::sync::OnceLock;

use crate::board::{Board, MAX_PLAYERS};
use crate::setup::unshuffled_bag;

/// Values are counted in quarter points, so that the weights' fractions survive rounding.
pub const VALUE_UNIT: f32 = 4.0;

/// A term's weight at the end of the game and its change per unit of bag fraction left
/// (weight = `at_end + per_bag * fraction`).
struct Weight {
    at_end: f32,
    per_bag: f32,
}

impl Weight {
    fn at(&self, bag_fraction: f32) -> f32 {
        self.at_end + self.per_bag * bag_fraction
    }
}

/// The weights of `OpenValue::terms`, in its order.
const OPEN_TERMS: [Weight; 6] = [
    Weight {
        at_end: 0.971,
        per_bag: 0.610,
    },
    Weight {
        at_end: 1.039,
        per_bag: -0.137,
    },
    Weight {
        at_end: 0.959,
        per_bag: 0.134,
    },
    Weight {
        at_end: 1.011,
        per_bag: -0.652,
    },
    Weight {
        at_end: 0.132,
        per_bag: 0.589,
    },
    Weight {
        at_end: 0.096,
        per_bag: 0.360,
    },
];
/// Each man in supply.
const MAN_IN_SUPPLY: Weight = Weight {
    at_end: 4.336,
    per_bag: -2.503,
};
/// A supply down to its last man (on top of that man's own value).
const LAST_MAN: Weight = Weight {
    at_end: 0.838,
    per_bag: -4.706,
};
/// A supply down to two men or fewer.
const LOW_SUPPLY: f32 = -0.501;

/// The tiles in a full bag of `league` (2 and 3 share one size; league 1 has fewer).
fn full_bag(league: u32) -> usize {
    static SIZES: OnceLock<[usize; 4]> = OnceLock::new();
    let sizes = SIZES.get_or_init(|| [0, 1, 2, 3].map(|l| unshuffled_bag(l).len()));
    sizes[(league as usize).min(3)].max(1)
}

/// Each player's value in 1 / `VALUE_UNIT` points (entries past the players are zero): the
/// fitted valuation in two-player league 3 games, where it was fitted and measured, and the
/// end-now one elsewhere (with four players in leagues 1 and 2 the fitted weights played
/// worse: STRENGTH.md).
pub fn valuation(board: &Board, league: u32, bag_left: usize) -> [i64; MAX_PLAYERS] {
    if board.n_players() == 2 && league == 3 {
        fitted(board, league, bag_left)
    } else {
        end_now(board)
    }
}

/// What the men still in a player's supply are worth, in points, to the end-now valuation: a
/// man on an open feature already counts in the end-now score, so without this the search
/// would spend every man at once; the last two are worth the most.
fn supply_value(men_left: u8) -> i64 {
    i64::from(men_left) + if men_left >= 1 { 3 } else { 0 } + if men_left >= 2 { 1 } else { 0 }
}

/// The end-now score (score plus final scoring now) plus the value of the men in supply.
fn end_now(board: &Board) -> [i64; MAX_PLAYERS] {
    let mut values = [0; MAX_PLAYERS];
    for (p, (value, now)) in values.iter_mut().zip(board.end_now()).enumerate() {
        *value = (now + supply_value(board.men_left(p))) * VALUE_UNIT as i64;
    }
    values
}

/// The fitted valuation (see the module's documentation).
fn fitted(board: &Board, league: u32, bag_left: usize) -> [i64; MAX_PLAYERS] {
    let fraction = (bag_left as f32 / full_bag(league) as f32).min(1.0);
    let terms = board.open_value().terms();
    let mut values = [0; MAX_PLAYERS];
    for (p, value) in values.iter_mut().enumerate().take(board.n_players()) {
        let mut v = board.scores()[p] as f32;
        for (points, weight) in terms.iter().zip(&OPEN_TERMS) {
            v += points[p] as f32 * weight.at(fraction);
        }
        let men = board.men_left(p);
        v += f32::from(men) * MAN_IN_SUPPLY.at(fraction);
        if men == 1 {
            v += LAST_MAN.at(fraction);
        }
        if men <= 2 {
            v += LOW_SUPPLY;
        }
        *value = (v * VALUE_UNIT).round() as i64;
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{bag_from_letters, start_type};

    #[test]
    fn an_open_castle_is_worth_more_early_than_at_the_end() {
        // Tile E (one castle edge) beside the start tile, with a man on its open castle.
        let e = bag_from_letters("E").expect("tile E")[0];
        let start = Board::new(2, start_type(3));
        let board = start
            .sorted_placements(e)
            .into_iter()
            .find_map(|at| {
                let mut board = start.clone();
                let slot = board.place(e, at);
                let mut tokens = Vec::new();
                board.man_options(0, slot, &mut tokens);
                tokens.into_iter().find_map(|t| {
                    let mut with_man = board.clone();
                    with_man.put_man(0, slot, t).ok()?;
                    (with_man.open_value().by_kind[0][0] > 0).then_some(with_man)
                })
            })
            .expect("some placement leaves a castle open under a man");
        // Tile E's castle has one edge, so the castle is also one edge from closing.
        let open = board.open_value();
        let castle = open.by_kind[0][0] as f32;
        assert_eq!(open.nearly_closed_castles[0] as f32, castle);
        let value = |fraction: f32, p: usize| {
            let men = [5.0, 6.0][p] * MAN_IN_SUPPLY.at(fraction);
            let castle_weight = OPEN_TERMS[0].at(fraction) + OPEN_TERMS[4].at(fraction);
            let open = if p == 0 { castle * castle_weight } else { 0.0 };
            ((men + open) * VALUE_UNIT).round() as i64
        };
        // The whole bag left, and none.
        let early = valuation(&board, 3, full_bag(3));
        let late = valuation(&board, 3, 0);
        // Other leagues keep the end-now valuation: player 1's six men are worth 6 + 3 + 1.
        let other = valuation(&board, 2, full_bag(2));
        assert_eq!(other[1], 10 * VALUE_UNIT as i64);
        assert_eq!(early[..2], [value(1.0, 0), value(1.0, 1)]);
        assert_eq!(late[..2], [value(0.0, 0), value(0.0, 1)]);
        assert_eq!(early[2..], [0, 0], "no third player");
        let castle_part = |v: [i64; MAX_PLAYERS], fraction: f32| {
            v[0] as f32 - 5.0 * MAN_IN_SUPPLY.at(fraction) * VALUE_UNIT
        };
        assert!(castle_part(early, 1.0) > castle_part(late, 0.0) + 0.5 * castle * VALUE_UNIT);
    }
}
