//! Viewer frames: one JSON object per moment of the match with the board, the last accepted
//! move, the shapes each player still holds, scores, eliminations and start cells. The schema
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
    json!({
        "turn": turn,
        "size": pos.size(),
        "board": board_rows(pos, None),
        "last_move": last_move,
        "remaining": remaining,
        "scores": (0..np).map(|p| pos.score(p)).collect::<Vec<_>>(),
        "eliminated": (0..np).map(|p| pos.is_eliminated(p)).collect::<Vec<_>>(),
        "starts": starts,
    })
}
