//! The only place in this crate that matches on a game: a checked `MatchSpec` becomes an
//! `Engine` (the position alone) or a `Table` (the referee, whose position the engine mirrors).

use realm_core::engine::{Engine, Table};
use realm_core::{MatchSpec, SetupError};
use realm_games::GameKind;

/// The start position of `spec`, exactly as its referee starts.
pub fn new_engine(spec: &MatchSpec) -> Result<Box<dyn Engine>, SetupError> {
    Ok(new_table(spec)?.engine())
}

/// A fresh referee for `spec`, with its position.
pub fn new_table(spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
    let kind = GameKind::from_slug(&spec.game)?;
    match kind {
        GameKind::Kingdomino => realm_kingdomino::new_table(spec),
        GameKind::Blocking => realm_blocking::new_table(spec),
        GameKind::IceAndFire => realm_ice_and_fire::new_table(spec),
        GameKind::Carcassonne => realm_carcassonne::new_table(spec),
        GameKind::KingdomBuilder => Err(kind.not_playable()),
    }
}
