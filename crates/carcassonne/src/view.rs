//! Viewer frames: the JSON a renderer needs to draw the current moment (tiles in board
//! orientation, men on the board, the tile to place, the last move, scores). See RULES.md for
//! the schema.

use serde_json::{json, Value};

use crate::protocol::token_text;
use crate::referee::CarcassonneReferee;
use crate::tiles::tileset;

/// The frame of the referee's current moment.
pub fn frame(referee: &CarcassonneReferee) -> Value {
    let state = referee.state();
    let board = state.board();
    let set = tileset();
    let n = board.n_players();
    let tiles: Vec<Value> = board
        .placed()
        .iter()
        .map(|p| {
            let ty = set.get(p.ty);
            json!({
                "row": p.row,
                "col": p.col,
                "name": ty.name,
                "edges": ty.edges_text(p.angle as usize),
                "angle": p.angle,
                "center": u8::from(ty.center),
                "shield": u8::from(ty.shield),
                "links": ty.angles[p.angle as usize].links,
            })
        })
        .collect();
    let men: Vec<Value> = board
        .men()
        .into_iter()
        .map(|(player, slot, token)| {
            let p = &board.placed()[slot];
            json!({"player": player, "row": p.row, "col": p.col, "edge": token_text(token)})
        })
        .collect();
    let tile_to_place = state.current_tile().map(|ty| {
        let t = set.get(ty);
        // Drawn like a placed tile at angle 0, so it needs the same fields.
        json!({
            "name": t.name,
            "edges": t.edges_text(0),
            "center": u8::from(t.center),
            "shield": u8::from(t.shield),
            "links": t.angles[0].links,
        })
    });
    let last = referee.last().map(|m| {
        json!({
            "player": m.player,
            "row": m.at.row,
            "col": m.at.col,
            "angle": m.at.angle,
            "man": m.man.map(token_text),
        })
    });
    json!({
        "turn": referee.turn(),
        "tiles": tiles,
        "men": men,
        "men_left": (0..n).map(|p| board.men_left(p)).collect::<Vec<_>>(),
        "tile_to_place": tile_to_place,
        "last": last,
        "scores": board.scores(),
        "eliminated": (0..n).map(|p| state.is_eliminated(p)).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use realm_core::MatchSpec;

    use crate::tiles::tileset;

    #[test]
    fn the_tile_to_place_carries_what_a_placed_tile_carries() {
        let frame = crate::new_referee(&MatchSpec::new("carcassonne", 2, 3))
            .unwrap()
            .frame();
        let next = &frame["tile_to_place"];
        let ty = tileset()
            .types
            .iter()
            .find(|t| t.name == next["name"])
            .expect("a tile of the set");
        assert_eq!(next["edges"], ty.edges_text(0));
        assert_eq!(next["links"], ty.angles[0].links);
        assert_eq!(next["center"], u8::from(ty.center));
        assert_eq!(next["shield"], u8::from(ty.shield));
    }
}
