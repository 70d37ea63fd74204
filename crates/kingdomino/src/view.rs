//! Viewer frames: a JSON snapshot of the game after each call, in absolute seat order, with the
//! same two-character cell encoding as the protocol. Drawing is the viewer's business.

use serde_json::{json, Value};

use crate::bits::Bits;
use crate::rules::{Game, Slot};
use crate::tiles::tile;

/// The frame of `game`; `slot_player` is the seat whose call just happened, if any.
///
/// ```text
/// { "turn": t, "size": S, "kingdoms": [[S row strings] per seat],
///   "current": [{"id", "a", "b", "owner": seat|null}], "next": [same],
///   "scores": [displayed score per seat], "eliminated": [bool per seat],
///   "slot_player": seat|null }
/// ```
pub fn frame<B: Bits>(game: &Game<B>, slot_player: Option<usize>) -> Value {
    let n = game.config().n_players;
    let kingdoms: Vec<Vec<String>> = (0..n).map(|p| game.kingdom(p).rows_text()).collect();
    json!({
        "turn": game.turn(),
        "size": B::S,
        "kingdoms": kingdoms,
        "current": slots(game.current()),
        "next": slots(game.next()),
        "scores": game.displayed_scores(),
        "eliminated": (0..n).map(|p| game.is_eliminated(p)).collect::<Vec<_>>(),
        "slot_player": slot_player,
    })
}

fn slots(line: &[Slot]) -> Vec<Value> {
    line.iter()
        .map(|s| {
            let (a, b) = match tile(s.id) {
                Some(t) => (t.a.code(), t.b.code()),
                None => ("_0".to_string(), "_0".to_string()),
            };
            json!({ "id": s.id, "a": a, "b": b, "owner": s.owner })
        })
        .collect()
}
