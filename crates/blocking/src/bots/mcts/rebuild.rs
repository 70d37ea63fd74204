//! Rebuilding the full position from the protocol alone: the initial input gives the variant
//! and shape set, each call lists the others' moves since the bot's previous call, and the
//! bot knows its own. Players eliminated for a fault are not announced: they simply stop
//! appearing, so a player skipped in the turn order must have been eliminated.

use realm_core::State;

use super::super::observe::Observation;
use crate::protocol::{board_rows, resolve, valid_moves};
use crate::rules::{Placement, Position};
use crate::setup::{Config, Variant};

/// The variant and shape set the initial input describes (board size and player count).
pub fn config_of(obs: &Observation) -> Option<Config> {
    let variant = match (obs.size, obs.n_players) {
        (14, 2) => Variant::Duo,
        (20, 4) => Variant::Classic,
        (13, _) => Variant::Blocking,
        _ => return None,
    };
    Some(Config::with_set(variant, obs.n_players, obs.set))
}

/// What one call changed in the tracked position.
pub struct Caught {
    pub position: Position,
    /// The placements played since the previous position, or `None` when an elimination
    /// (which is not an action of the search) broke the path.
    pub path: Option<Vec<Placement>>,
}

/// Brings `previous` (the position after the bot's last move, or the start) up to this call:
/// the others' moves, with every player skipped before a mover (or before the bot) taken out
/// of the game. `None` when a move does not resolve, or when the result disagrees with the
/// board rows or the valid-move list read.
pub fn catch_up(previous: Position, obs: &Observation) -> Option<Caught> {
    let mut pos = previous;
    let mut path = Some(Vec::new());
    for &(player, name) in &obs.others {
        while pos.to_move()? != player {
            path = None;
            pos.eliminate_current();
        }
        let mv = resolve(&pos, player, &name).ok()?;
        pos.play(mv);
        if let Some(path) = &mut path {
            path.push(mv);
        }
    }
    while pos.to_move()? != obs.my_id {
        path = None;
        pos.eliminate_current();
    }
    agrees(&pos, obs).then_some(Caught {
        position: pos,
        path,
    })
}

/// True when `pos` shows exactly the board and the valid-move list of `obs`.
fn agrees(pos: &Position, obs: &Observation) -> bool {
    if board_rows(pos, Some(obs.my_id)) != obs.rows {
        return false;
    }
    let listed = valid_moves(pos, obs.my_id);
    listed.len() == obs.valid.len()
        && listed
            .iter()
            .zip(&obs.valid)
            .all(|((mine, _), (read, _))| mine == read)
}
