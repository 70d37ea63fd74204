//! Rule-by-rule tests on the board and state: edge matching (§3.3), block merging (§2.4, §2.5),
//! men (§3.4), scoring during play and at the end (§3.5, §3.6), ranks (§3.7).

use realm_carcassonne::board::{Board, ManRefusal, Placement, CENTER};
use realm_carcassonne::rules::EndCause;
use realm_carcassonne::setup::{bag_from_letters, unshuffled_bag};
use realm_carcassonne::tiles::tileset;
use realm_carcassonne::State;

fn ty(letter: char) -> u8 {
    tileset().by_letter(letter).unwrap()
}

fn at(row: u8, col: u8, angle: u8) -> Placement {
    Placement { row, col, angle }
}

/// Places a tile after checking legality, and scores what it closes.
fn put(board: &mut Board, letter: char, row: u8, col: u8, angle: u8) -> usize {
    assert!(
        board.is_legal(ty(letter), row as i64, col as i64, angle as i64),
        "{letter} {row} {col} {angle}"
    );
    let slot = board.place(ty(letter), at(row, col, angle));
    board.score_closed(slot);
    slot
}

#[test]
fn r3_3_edge_matching_for_every_tile_type_in_every_rotation() {
    let set = tileset();
    for a in 0..24u8 {
        for a_angle in 0..4u8 {
            let board = Board::with_first(2, a, at(CENTER, CENTER, a_angle));
            let a_edges = set.oriented(a, a_angle).edges;
            for b in 0..24u8 {
                for b_angle in 0..4u8 {
                    let b_edges = set.oriented(b, b_angle).edges;
                    for side in 0..4 {
                        let (r, c) = match side {
                            0 => (CENTER - 1, CENTER),
                            1 => (CENTER, CENTER + 1),
                            2 => (CENTER + 1, CENTER),
                            _ => (CENTER, CENTER - 1),
                        };
                        let fits = b_edges[(side + 2) % 4] == a_edges[side];
                        let legal = board.is_legal(b, r as i64, c as i64, b_angle as i64);
                        assert_eq!(legal, fits, "{a}@{a_angle} side {side} vs {b}@{b_angle}");
                    }
                    // Diagonal contact alone and the occupied cell are never legal.
                    let diag = (CENTER - 1) as i64;
                    assert!(!board.is_legal(b, diag, diag, b_angle as i64));
                    assert!(!board.is_legal(b, CENTER as i64, CENTER as i64, b_angle as i64));
                }
            }
        }
    }
}

#[test]
fn r3_3_bounds_are_checked() {
    let mut board = Board::with_first(2, ty('U'), at(0, 0, 1));
    // U at angle 1 runs its road up-down; the cell above row 0 does not exist.
    assert!(!board.is_legal(ty('U'), -1, 0, 1));
    assert!(!board.is_legal(ty('U'), 0, -1, 0));
    assert!(board.is_legal(ty('U'), 1, 0, 1));
    assert!(!board.is_legal(ty('U'), 1, 0, 5));
    let slot = board.place(ty('U'), at(1, 0, 1));
    // The road ends at the board's edge, so it can never close.
    board.put_man(0, slot, 0).unwrap();
    board.score_closed(slot);
    assert!(!board.is_closed(slot, 0));
    assert_eq!(board.end_now(), [2, 0]);
}

#[test]
fn r2_5_castle_closed_by_its_fourth_tile() {
    // Four N corners around a 2×2 square: up-left (angle 2), up-right (3), down-left (1).
    let mut board = Board::with_first(2, ty('N'), at(CENTER, CENTER, 2));
    board.put_man(1, 0, 3).unwrap();
    put(&mut board, 'N', CENTER, CENTER + 1, 3);
    put(&mut board, 'N', CENTER + 1, CENTER, 1);
    assert!(!board.is_closed(0, 0));
    assert_eq!(board.end_now(), [0, 3], "open castle: 1 per tile");
    let last = put(&mut board, 'N', CENTER + 1, CENTER + 1, 0);
    assert!(board.is_closed(last, 0));
    assert_eq!(board.block_of(last, 0).tiles, 4);
    assert_eq!(board.scores(), [0, 8]);
    assert_eq!(board.men_on_board(1), 0);
}

#[test]
fn r2_5_road_loop_closes() {
    let mut board = Board::with_first(2, ty('V'), at(CENTER, CENTER, 0));
    board.put_man(0, 0, 9).unwrap(); // 30: the road.
    put(&mut board, 'V', CENTER, CENTER - 1, 3);
    put(&mut board, 'V', CENTER + 1, CENTER - 1, 2);
    assert!(!board.is_closed(0, 0));
    let last = put(&mut board, 'V', CENTER + 1, CENTER, 1);
    assert!(board.is_closed(last, 0));
    assert_eq!(board.block_of(0, 0).tiles, 4);
    assert_eq!(board.scores(), [4, 0]);
}

#[test]
fn r2_4_field_split_by_a_road() {
    let mut board = Board::new(2, ty('D'));
    let u = put(&mut board, 'U', CENTER, CENTER + 1, 0);
    // U's north field (00) joins D's `1-,3+`, the south field (20) joins `1+,2e,3-`.
    board.put_man(0, u, 0).unwrap();
    assert_eq!(
        board.check_man(1, u, 4),
        Err(ManRefusal::Occupied),
        "1- is the north field"
    );
    assert_eq!(
        board.check_man(1, 0, 4),
        Err(ManRefusal::Occupied),
        "D's 1- is north too"
    );
    assert!(board.check_man(1, 0, 5).is_ok(), "D's 1+ is south");
    assert!(board.check_man(1, u, 6).is_ok(), "20 is the south field");
    assert!(board.check_man(1, 0, 6).is_ok());
    assert_eq!(
        board.block_of(u, 2).tiles,
        2,
        "the north field spans both tiles"
    );
}

#[test]
fn r3_4_six_men_at_most() {
    // A row of X junctions: each one's north road is a fresh dead end.
    let mut board = Board::new(2, ty('D'));
    let mut col = CENTER + 1;
    let mut placed = 0;
    while placed < 6 {
        let slot = put(&mut board, 'X', CENTER, col, 0);
        board.put_man(0, slot, 0).unwrap();
        placed += 1;
        col += 1;
    }
    assert_eq!(board.men_left(0), 0);
    let slot = put(&mut board, 'X', CENTER, col, 0);
    assert_eq!(board.check_man(0, slot, 0), Err(ManRefusal::NoManLeft));
    assert!(board.check_man(1, slot, 0).is_ok());
    assert_eq!(
        board.check_man(1, slot, 12),
        Err(ManRefusal::InvalidToken),
        "X has no monastery"
    );
}

#[test]
fn r3_6_final_scoring_of_open_features_and_fields() {
    let mut board = Board::new(2, ty('D'));
    // A monastery east of the start, its road meeting D's: P0's monk on it.
    let a = put(&mut board, 'A', CENTER, CENTER + 1, 1);
    board.put_man(0, a, 12).unwrap();
    // P1's farmer on the start tile's north field (1-), which A's field joins to the south one.
    board.put_man(1, 0, 4).unwrap();
    assert_eq!(
        board.end_now(),
        [2, 0],
        "monastery with 2 tiles around; no closed castle yet"
    );
    // Close the start castle with an E above it (no man on it): it is diagonal to A.
    put(&mut board, 'E', CENTER - 1, CENTER, 2);
    assert!(board.is_closed(0, 3));
    assert_eq!(board.end_now(), [3, 3]);
    assert_eq!(board.scores(), [0, 0], "nothing scored during play");
}

#[test]
fn r3_6_a_closed_castle_pays_every_field_touching_it() {
    let mut board = Board::new(2, ty('D'));
    let e = put(&mut board, 'E', CENTER - 1, CENTER, 2);
    // D's north field (1-) touches the castle, the south one (20) does not.
    board.put_man(0, 0, 4).unwrap();
    board.put_man(1, 0, 6).unwrap();
    assert_eq!(board.end_now(), [3, 0]);
    // E's own field touches the same castle at two corners: it pays 3, once.
    let mut b2 = board.clone();
    b2.put_man(1, e, 0).unwrap();
    assert_eq!(b2.end_now(), [3, 3]);
}

#[test]
fn r3_2_discarded_tiles_and_the_end_use_every_tile() {
    // After E closes the start castle on top, C has no place (A3) and is discarded.
    let mut state = State::with_bag(3, 2, bag_from_letters("ECE").unwrap());
    assert!(state.try_place(70, 71, 2));
    state.finish_turn(None).unwrap();
    assert_eq!(state.discarded(), [ty('C')]);
    assert_eq!(state.current_tile(), Some(ty('E')));
    assert_eq!(realm_core::State::to_move(&state), Some(1));
    assert!(state.try_place(72, 71, 2));
    state.finish_turn(None).unwrap();
    assert_eq!(state.end_cause(), Some(EndCause::BagEmpty));
    assert_eq!(realm_core::State::to_move(&state), None);
    assert_eq!(state.board().placed().len() + state.discarded().len(), 4);
    assert_eq!(unshuffled_bag(3).len(), 71);
}

#[test]
fn r3_7_ranks_put_later_eliminations_above_earlier_ones() {
    let mut state = State::new(3, 4, 9);
    state.eliminate(0);
    state.eliminate(2);
    let ranks = state.ranks();
    assert_eq!(ranks[0], 4);
    assert_eq!(ranks[2], 3);
    assert_eq!(
        (ranks[1], ranks[3]),
        (1, 1),
        "scores 0 and 0 share the first rank"
    );
    state.eliminate(3);
    assert_eq!(state.end_cause(), Some(EndCause::OnePlayerLeft));
    assert_eq!(state.ranks(), [4, 1, 3, 2]);
}

#[test]
fn r3_4_a_man_freed_this_turn_is_not_free_yet() {
    let mut board = Board::new(2, ty('D'));
    board.put_man(0, 0, 0).unwrap(); // 00: the start castle.
    for i in 0..5 {
        let slot = put(&mut board, 'X', CENTER, CENTER + 1 + i, 0);
        board.put_man(0, slot, 0).unwrap(); // 00: a fresh dead-end road.
    }
    assert_eq!(board.men_left(0), 0);
    // E above the start closes P0's castle; the man step comes before scoring (§3.2.5-6).
    assert!(board.is_legal(ty('E'), (CENTER - 1) as i64, CENTER as i64, 2));
    let e = board.place(ty('E'), at(CENTER - 1, CENTER, 2));
    assert_eq!(board.put_man(0, e, 0), Err(ManRefusal::NoManLeft));
    board.score_closed(e);
    assert_eq!(board.scores(), [4, 0]);
    assert_eq!(board.men_left(0), 1, "free from the next turn on");
}
