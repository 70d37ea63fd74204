//! realm's games as the arena's `GameCatalog` (the arena itself knows no game).

use realm_arena::GameCatalog;
use realm_core::{Bot, MatchSpec, Referee, SetupError};

use crate::GameKind;

pub struct Catalog;

impl GameCatalog for Catalog {
    fn referee(&self, spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
        crate::new_referee(spec)
    }

    fn builtin_bot(
        &self,
        spec: &MatchSpec,
        name: &str,
        seed: u64,
    ) -> Result<Box<dyn Bot>, SetupError> {
        GameKind::from_slug(&spec.game)?.new_bot(name, seed, spec.league)
    }
}
