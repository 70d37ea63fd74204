//! The only place in this crate that matches on a game: a checked `MatchSpec` becomes an
//! `Engine` (the position alone) or a `Table` (the referee, whose position the engine mirrors).

use realm_blocking::{BlockingReferee, Position};
use realm_carcassonne::CarcassonneReferee;
use realm_core::{MatchSpec, SetupError};
use realm_games::GameKind;
use realm_ice_and_fire::IceAndFireReferee;
use realm_kingdomino::bits::{Bits, Wide};
use realm_kingdomino::referee::KingdominoReferee;
use realm_kingdomino::setup::Mode;
use realm_kingdomino::Game;

use crate::codecs::{
    blocking::Blocking, carcassonne::Carcassonne, ice_and_fire::IceAndFire, kingdomino::Kingdomino,
};
use realm_core::engine::{held, Engine, Table};

/// The start position of `spec`, exactly as its referee starts.
pub fn new_engine(spec: &MatchSpec) -> Result<Box<dyn Engine>, SetupError> {
    Ok(new_table(spec)?.engine())
}

fn kingdomino<B: Bits>(config: realm_kingdomino::setup::Config, seed: u64) -> Box<dyn Table> {
    held::<Kingdomino<B>, _>(KingdominoReferee::<B>::new(config, seed), |r| {
        r.game() as &Game<B>
    })
}

/// A fresh referee for `spec`, with its position.
pub fn new_table(spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
    let kind = GameKind::from_slug(&spec.game)?;
    Ok(match kind {
        GameKind::Kingdomino => {
            let config = realm_kingdomino::config_from_spec(spec)?;
            match config.mode {
                Mode::Standard => kingdomino::<u128>(config, spec.seed),
                Mode::Duel => kingdomino::<Wide>(config, spec.seed),
            }
        }
        GameKind::Blocking => {
            let config = realm_blocking::config_of(spec)?;
            held::<Blocking, _>(BlockingReferee::new(&config), |r| r.position() as &Position)
        }
        GameKind::IceAndFire => held::<IceAndFire, _>(
            IceAndFireReferee::new(realm_ice_and_fire::state_of(spec)?),
            IceAndFireReferee::state,
        ),
        GameKind::Carcassonne => held::<Carcassonne, _>(
            CarcassonneReferee::new(realm_carcassonne::state_of(spec)?),
            CarcassonneReferee::state,
        ),
        GameKind::KingdomBuilder => return Err(kind.not_playable()),
    })
}
