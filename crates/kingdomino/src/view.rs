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
///   "slot": index in "current" of the next slot to play (its length once the game is over),
///   "scores": [score per seat: zones plus enabled bonuses (R22)], "eliminated": [bool per seat],
///   "slot_player": seat|null }
/// ```
///
/// Slots of `current` before `slot` have been played this turn: their tile left the line and
/// their king moved to `next` (or, in the last turn, left the board). ID 0 is a placeholder
/// (turn 1's `current`, the last turn's `next`).
///
/// The scores leave out R25's tie-break points: those rank a finished game (the outcome's
/// displayed scores carry them), and counted on the way they gave every empty kingdom 2 points
/// that went back to 0 with its first crown-less domino.
pub fn frame<B: Bits>(game: &Game<B>, slot_player: Option<usize>) -> Value {
    let n = game.config().n_players;
    let kingdoms: Vec<Vec<String>> = (0..n).map(|p| game.kingdom(p).rows_text()).collect();
    json!({
        "turn": game.turn(),
        "size": B::S,
        "kingdoms": kingdoms,
        "current": slots(game.current()),
        "next": slots(game.next()),
        "slot": if game.is_over() { game.current().len() } else { game.slot_index() },
        "scores": &game.scores()[..n],
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Config, Mode};

    /// Kings on the draft line as a frame shows them: owners of unplayed `current` slots and of
    /// `next` slots.
    fn kings_on_line(frame: &Value) -> usize {
        let slot = frame["slot"].as_u64().unwrap() as usize;
        let owned = |d: &Value| d["owner"].is_u64();
        let current = frame["current"].as_array().unwrap();
        let next = frame["next"].as_array().unwrap();
        current.iter().skip(slot).filter(|d| owned(d)).count()
            + next.iter().filter(|d| owned(d)).count()
    }

    #[test]
    fn an_empty_kingdom_scores_nothing_without_tie_break_points() {
        for n_players in [2, 3, 4] {
            let game = Game::<u128>::new(Config::new(Mode::Standard, n_players), 5);
            assert_eq!(
                game.displayed_scores(),
                vec![2; n_players],
                "R25 counts a tie"
            );
            assert_eq!(
                frame(&game, None)["scores"],
                serde_json::json!(vec![0; n_players])
            );
        }
    }

    #[test]
    fn slot_marks_the_played_part_of_the_line_and_every_king_stays_on_it() {
        for (n_players, kings) in [(2, 4), (3, 3), (4, 4)] {
            let mut game = Game::<u128>::new(Config::new(Mode::Standard, n_players), 5);
            let first = frame(&game, None);
            assert_eq!(first["slot"], 0);
            assert_eq!(kings_on_line(&first), kings, "{n_players} players, turn 1");
            let mut calls = 0;
            while !game.is_over() {
                let turn = game.turn();
                if turn > 1 {
                    game.discard();
                }
                if game.picks_this_turn() {
                    let id = game.next().iter().find(|s| s.owner.is_none()).unwrap().id;
                    game.pick(id);
                }
                game.end_slot();
                calls += 1;
                let f = frame(&game, Some(0));
                let last_turn = !game.picks_this_turn();
                if game.is_over() {
                    assert_eq!(f["slot"], game.current().len());
                    assert_eq!(kings_on_line(&f), 0);
                } else if !last_turn {
                    assert_eq!(f["slot"], game.slot_index());
                    assert_eq!(kings_on_line(&f), kings, "{n_players}p after call {calls}");
                } else {
                    // The last turn: a king leaves the line once its tile is played.
                    let left = game.current().len() - game.slot_index();
                    assert_eq!(kings_on_line(&f), left, "{n_players}p after call {calls}");
                }
            }
            assert_eq!(calls, kings * game.config().n_turns() as usize);
        }
    }
}
