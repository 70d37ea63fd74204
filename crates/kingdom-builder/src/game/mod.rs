//! The complete Kingdom Builder board game of spec section 9: the board generator (9.2) and the
//! map file format. Every choice where the spec is silent is in RULES.md, "Full game".

pub mod bits;
pub mod generator;
pub mod map;

pub use bits::Bits;
pub use generator::generate_map;
pub use map::{Map, MapCell, Terrain, TileKind};
