//! The complete Kingdom Builder board game of spec section 9: the board generator (9.2), the
//! map file format, the terrain deck, and `GameState`, the rules as a fast `realm_core::State`
//! (9.3-9.7). Every choice where the spec is silent is in RULES.md, "Full game".
//!
//! The match protocol, referee and bots sit on `GameState` (`crate::protocol`,
//! `crate::referee`, `crate::bots`: `is_legal`, `eliminate`, and the `edit_*` methods the bots
//! rebuild positions from the protocol text with).

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
