//! Viewer frames: one JSON object per moment of the match with the board, the last accepted
//! move, the shapes each player still holds, scores, eliminations and start cells (and whether
//! they are shared, as in Duo). The schema
//! is documented in RULES.md (§ Frames); it carries no anchor marks, which are per receiver.

use serde_json::{json, Value};

use crate::protocol::{board_rows, letter_str};
use crate::referee::Played;
use crate::rules::Position;
use crate::setup::Config;
use crate::shapes::N_LETTERS;

/// The frame of `pos` after request number `turn`.
pub fn frame(pos: &Position, turn: u32, last: Option<&Played>) -> Value {
    let np = pos.player_count();
    let last_move = match last {
        Some(m) => json!({
            "player": m.player,
            "name": m.name.to_string(),
            "cells": m.placement.cells().map(|(x, y)| [x, y]).collect::<Vec<_>>(),
        }),
        None => Value::Null,
    };
    let remaining: Vec<Vec<String>> = (0..np)
        .map(|p| {
            (0..N_LETTERS)
                .filter(|l| pos.remaining(p) >> l & 1 == 1)
                .map(letter_str)
                .collect()
        })
        .collect();
    let config = Config::with_set(pos.variant(), np, pos.set());
    let starts: Vec<[usize; 2]> =
        (0..np)
            .flat_map(|p| config.starts(p))
            .fold(Vec::new(), |mut acc, (x, y)| {
                if !acc.contains(&[x, y]) {
                    acc.push([x, y]);
                }
                acc
            });
    // Duo lists both cells for both players: the cells belong to no one in particular, and
    // `starts` is then not one cell per player.
    let starts_shared = (1..np).any(|p| config.starts(p) == config.starts(0));
    json!({
        "turn": turn,
        "size": pos.size(),
        "board": board_rows(pos, None),
        "last_move": last_move,
        "remaining": remaining,
        "scores": (0..np).map(|p| pos.score(p)).collect::<Vec<_>>(),
        "eliminated": (0..np).map(|p| pos.is_eliminated(p)).collect::<Vec<_>>(),
        "starts": starts,
        "starts_shared": starts_shared,
    })
}

#[cfg(test)]
mod tests {
    use realm_core::MatchSpec;

    #[test]
    fn duo_start_cells_are_shared_and_the_others_are_not() {
        let frame = |spec: MatchSpec| crate::new_referee(&spec).unwrap().frame();
        let duo = frame(MatchSpec::new("blocking", 2, 1).with_variant("duo"));
        assert_eq!(duo["starts"].to_string(), "[[4,4],[9,9]]");
        assert_eq!(duo["starts_shared"], true);
        for n in [2, 3, 4] {
            let own = frame(MatchSpec::new("blocking", n, 1));
            assert_eq!(own["starts_shared"], false, "{n} players");
            assert_eq!(own["starts"].as_array().unwrap().len(), n);
        }
        let classic = frame(MatchSpec::new("blocking", 4, 1).with_variant("classic"));
        assert_eq!(classic["starts_shared"], false);
    }
}
