//! Kingdom Builder for realm: the board model, the text-board parser and the scoring of a
//! finished board with the castle score and all ten scoring cards (spec sections 2.1, 2.5, 6.4).
//!
//! `game` is the engine of the complete board game (spec section 9): generator, map format,
//! deck and a fast `State`. There is no match play yet: no protocol, referee or bots. The crate
//! does no I/O; the binary reads the board and prints what `run_scorer` returns.
//!
//! ```
//! use realm_kingdom_builder::{run_scorer, ScoreOptions, EXAMPLE_BOARD};
//!
//! let options = ScoreOptions {
//!     cards: Some("1,fishermen,7".into()),
//!     ..ScoreOptions::default()
//! };
//! assert_eq!(run_scorer(EXAMPLE_BOARD, &options).unwrap(), "52 46 43 62\n");
//! ```

pub mod board;
pub mod cards;
pub mod game;
pub mod parse;
pub mod score;
pub mod scorer;
pub mod view;

use realm_core::spec::VariantInfo;
use realm_core::GameInfo;

pub use board::{Board, Cell, Pos, MAX_PLAYERS, QUADRANT_SIZE, SIZE};
pub use cards::{parse_card_list, Card, CardListError, UnknownCard};
pub use parse::{board_text, parse_board, ParseError, ParseErrorKind};
pub use score::{
    groups, lords_in_quadrant, score_card, score_castles, score_table, score_table_with_water,
    Component, Group, LordsRule, ScoreRow, ScoreRules, ScoreTable,
};
pub use scorer::{
    format_table, run_scorer, score_bytes, score_text, ScoreError, ScoreFormat, ScoreOptions,
};
pub use view::{board_json, score_replay};

/// The statement's example board (B5 text, byte for byte). It is user content from
/// codegolf.stackexchange.com/q/44485, licensed CC BY-SA; see `data/README.md`.
pub const EXAMPLE_BOARD: &str = include_str!("../data/kingdom_builder_example_board.txt");

/// The static description `realm games` lists. Matches cannot be played yet, so there are no
/// options and no built-in bots.
pub const INFO: GameInfo = GameInfo {
    slug: "kingdom-builder",
    title: "Kingdom Builder",
    variants: &[VariantInfo {
        name: None,
        players: &[2, 3, 4],
        summary: "castle score plus three of the ten scoring cards (board scoring only so far)",
    }],
    leagues: &[1, 2, 3],
    default_league: 3,
    higher_leagues_play_top: false,
    options: &[],
    bots: &[],
};
