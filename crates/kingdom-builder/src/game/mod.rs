//! The complete Kingdom Builder board game of spec section 9: the board generator (9.2), the
//! map file format, the terrain deck, and `GameState`, the rules as a fast `realm_core::State`
//! (9.3-9.7). Every choice where the spec is silent is in RULES.md, "Full game".
//!
//! There is no protocol or referee yet: they will sit on `GameState` (its `observation`,
//! `is_legal` and the `edit_*` methods for rebuilding positions).

pub mod actions;
pub mod bits;
pub mod deck;
pub mod generator;
pub mod map;
pub mod state;

pub use actions::{cell_index, cell_pos, Action};
pub use bits::Bits;
pub use deck::{card_terrain, draw_scoring_cards, Deck, DECK_SIZE};
pub use generator::generate_map;
pub use map::{Map, MapCell, Terrain, TileKind};
pub use state::{cells_of, GameConfig, GameState, Observation, Phase, SETTLEMENTS};
