//! Viewer frames: one JSON object per moment of the game, with the whole board drawn from
//! P0's side (`R`/`r` P0 active/inactive, `B`/`b` P1 active/inactive). It reads the state and
//! never changes it.

use serde_json::{json, Value};

use crate::protocol::grid_rows;
use crate::rules::{BuildingKind, GameState};

/// The frame of `state` after the phase of `player` in `turn`: `turn`, `player`, `league`,
/// `cells`, `buildings`, `units`, `mine_spots`, `gold`, `income`, `scores` (military power)
/// and the players' latest `messages`.
pub fn frame(state: &GameState, turn: u32, player: usize, messages: &[String; 2]) -> Value {
    let cells: Vec<String> = grid_rows(state, 0, ['R', 'r', 'B', 'b']);
    let buildings: Vec<Value> = (0..2)
        .flat_map(|p| state.buildings(p))
        .map(|b| {
            let kind = match b.kind {
                BuildingKind::Hq => "hq",
                BuildingKind::Mine => "mine",
                BuildingKind::Tower => "tower",
            };
            json!({"owner": b.owner, "type": kind, "x": b.cell.x(), "y": b.cell.y()})
        })
        .collect();
    let units: Vec<Value> = (0..2)
        .flat_map(|p| state.units(p))
        .map(|u| json!({"owner": u.owner, "id": u.id, "level": u.level, "x": u.cell.x(), "y": u.cell.y()}))
        .collect();
    let spots: Vec<[usize; 2]> = state.map().spots().iter().map(|c| [c.x(), c.y()]).collect();
    json!({
        "turn": turn,
        "player": player,
        "league": state.league().number(),
        "cells": cells,
        "buildings": buildings,
        "units": units,
        "mine_spots": spots,
        "gold": [state.gold(0), state.gold(1)],
        "income": [state.income(0), state.income(1)],
        "scores": [state.military_power(0), state.military_power(1)],
        "messages": messages,
    })
}
