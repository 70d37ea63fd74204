//! Spec 7.5: small positions built on an empty board, every card and the castle score, plus the
//! Lords values per quadrant the spec lists.

use realm_kingdom_builder::{
    lords_in_quadrant, score_card, score_castles, Board, Card, Cell, LordsRule, Pos, ScoreRules,
};

/// An empty board with the listed cells set.
fn position(cells: &[(Cell, &[(usize, usize)])]) -> Board {
    let mut board = Board::empty();
    for &(cell, places) in cells {
        for &(row, col) in places {
            board.set(Pos::new(row, col), cell);
        }
    }
    board
}

/// Castle score then cards 1..=10 for each player, as in the table of 7.5.
fn table(board: &Board, n_players: usize) -> Vec<Vec<u32>> {
    let rules = ScoreRules::new(n_players);
    let mut columns = vec![score_castles(board, rules)];
    columns.extend(Card::ALL.map(|card| score_card(board, card, rules)));
    (0..n_players)
        .map(|p| columns.iter().map(|col| col[p]).collect())
        .collect()
}

fn position_a() -> Board {
    position(&[
        (Cell::Castle, &[(5, 5)]),
        (Cell::Settlement(1), &[(5, 4), (4, 5), (5, 6)]),
        (Cell::Settlement(2), &[(6, 6)]),
    ])
}

fn position_b() -> Board {
    position(&[
        (Cell::Town, &[(2, 2), (10, 10), (15, 3)]),
        (Cell::Castle, &[(2, 6), (10, 12), (15, 4)]),
        (Cell::Settlement(1), &[(2, 3), (2, 4), (2, 5), (14, 3)]),
        (Cell::Settlement(2), &[(10, 11)]),
    ])
}

fn position_c() -> Board {
    position(&[
        (
            Cell::Settlement(1),
            &[(0, 0), (0, 1), (0, 2), (5, 10), (5, 11)],
        ),
        (Cell::Settlement(2), &[(2, 0), (2, 1), (2, 2)]),
        (Cell::Settlement(3), &[(4, 0)]),
    ])
}

fn position_d() -> Board {
    position(&[
        (Cell::Water, &[(0, 10)]),
        (Cell::Mountain, &[(0, 12)]),
        (
            Cell::Settlement(1),
            &[
                (3, 0),
                (3, 2),
                (7, 5),
                (7, 9),
                (12, 12),
                (18, 0),
                (18, 1),
                (18, 2),
                (18, 3),
                (18, 4),
            ],
        ),
        (
            Cell::Settlement(2),
            &[
                (0, 11),
                (1, 10),
                (9, 0),
                (9, 1),
                (19, 0),
                (19, 1),
                (19, 2),
                (10, 19),
            ],
        ),
    ])
}

#[test]
fn spec_7_5_position_a_castle_splits_groups() {
    assert_eq!(
        table(&position_a(), 2),
        [
            [3, 2, 4, 0, 0, 12, 0, 2, 1, 0, 3],
            [3, 1, 2, 0, 0, 6, 0, 1, 0, 0, 1],
        ]
    );
}

#[test]
fn spec_7_5_position_b_merchants_links() {
    assert_eq!(
        table(&position_b(), 2),
        [
            [3, 2, 6, 0, 0, 24, 0, 2, 1, 8, 3],
            [3, 1, 2, 0, 0, 12, 0, 1, 0, 8, 1],
        ]
    );
}

#[test]
fn spec_7_5_position_c_lords() {
    assert_eq!(
        table(&position_c(), 3),
        [
            [0, 2, 6, 0, 0, 24, 0, 2, 1, 0, 0],
            [0, 1, 6, 0, 0, 12, 0, 1, 1, 0, 0],
            [0, 1, 2, 0, 0, 6, 0, 1, 0, 0, 0],
        ]
    );
    let zero = ScoreRules {
        n_players: 3,
        lords: LordsRule::ZeroCountsRank,
    };
    assert_eq!(score_card(&position_c(), Card::Lords, zero), [48, 42, 36]);
}

#[test]
fn spec_7_5_position_c_lords_per_quadrant() {
    // Counts Q1 3/3/1, Q2 2/0/0, Q3 and Q4 nobody.
    let plain = LordsRule::NonZeroCounts;
    let zero = LordsRule::ZeroCountsRank;
    assert_eq!(lords_in_quadrant(&[3, 3, 1], plain), [12, 12, 6]);
    assert_eq!(lords_in_quadrant(&[2, 0, 0], plain), [12, 0, 0]);
    assert_eq!(lords_in_quadrant(&[0, 0, 0], plain), [0, 0, 0]);
    assert_eq!(lords_in_quadrant(&[3, 3, 1], zero), [12, 12, 6]);
    assert_eq!(lords_in_quadrant(&[2, 0, 0], zero), [12, 6, 6]);
    assert_eq!(lords_in_quadrant(&[0, 0, 0], zero), [12, 12, 12]);
}

#[test]
fn spec_7_5_position_d_quadrants_and_water_mountain_once() {
    assert_eq!(
        table(&position_d(), 2),
        [
            [0, 4, 10, 0, 0, 36, 0, 6, 2, 0, 0],
            [0, 5, 6, 2, 1, 36, 3, 4, 1, 0, 0],
        ]
    );
    // Quadrant counts 4,0,5,1 and 2,2,3,1 give Q1 12/6, Q2 0/12, Q3 12/6, Q4 12/12.
    let plain = LordsRule::NonZeroCounts;
    assert_eq!(lords_in_quadrant(&[4, 2], plain), [12, 6]);
    assert_eq!(lords_in_quadrant(&[0, 2], plain), [0, 12]);
    assert_eq!(lords_in_quadrant(&[5, 3], plain), [12, 6]);
    assert_eq!(lords_in_quadrant(&[1, 1], plain), [12, 12]);
}
