//! One `Codec` per game: its action ids, protocol text and observation planes. The encodings
//! are documented for users in `crates/python/README.md`; keep both in step.

pub mod blocking;
pub mod carcassonne;
pub mod ice_and_fire;
pub mod kingdomino;
