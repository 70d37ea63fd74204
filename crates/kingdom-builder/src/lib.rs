//! Kingdom Builder for realm: the board model, the text-board parser and the scoring of a
//! finished board with the castle score and all ten scoring cards (spec sections 2.1, 2.5, 6.4).
//!
//! `game` is the engine of the complete board game (spec section 9): generator, map format,
//! deck and a fast `State`; `protocol`, `referee`, `view::match_frame` and `bots` play it as a
//! match (PROTOCOL.md, "Full game"), exported through `INFO`, `new_referee`, `new_bot` and
//! `new_table` (the referee with its position, through `codec::KingdomBuilderCodec`), which
//! realm's game catalog calls. The crate does no I/O.
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
pub mod bots;
pub mod cards;
pub mod codec;
pub mod game;
pub mod parse;
pub mod protocol;
pub mod referee;
pub mod score;
pub mod scorer;
pub mod view;

use realm_core::spec::VariantInfo;
use realm_core::{Bot, GameInfo, MatchSpec, Referee, SetupError, Table};

pub use board::{Board, Cell, Pos, MAX_PLAYERS, QUADRANT_SIZE, SIZE};
pub use cards::{parse_card_list, Card, CardListError, UnknownCard};
pub use codec::KingdomBuilderCodec;
pub use parse::{board_text, parse_board, ParseError, ParseErrorKind};
pub use referee::KingdomBuilderReferee;
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

/// The static description `realm games` lists: the full game as a match (PROTOCOL.md, "Full
/// game"). Leagues: 1 without location tiles and with the cards 1 3 7, 2 with tiles and one card
/// of each of the statement's groups, 3 (default) with tiles and any three of the ten cards.
/// `realm score` does not read it: the scorer takes its cards and players from its own flags.
pub const INFO: GameInfo = GameInfo {
    slug: "kingdom-builder",
    title: "Kingdom Builder",
    variants: &[VariantInfo {
        name: None,
        players: &[2, 3, 4],
        summary: "the board game: terrain cards, 40 settlements, location tiles, castle score plus three of ten cards; leagues 1 no tiles and cards 1 3 7, 2 tiles and grouped cards, 3 any three cards",
    }],
    leagues: &[1, 2, 3],
    default_league: 3,
    higher_leagues_play_top: false,
    options: &referee::OPTIONS,
    bots: &["mcts", "greedy", "random"],
};

/// A referee for `spec` (options `cards`, `lords`, `board`; see `referee::config_of`).
pub fn new_referee(spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
    Ok(Box::new(KingdomBuilderReferee::new(state_of(spec)?)))
}

/// The referee of `spec` with the position it holds, through `KingdomBuilderCodec`.
pub fn new_table(spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
    let referee = KingdomBuilderReferee::new(state_of(spec)?);
    Ok(realm_core::engine::held::<KingdomBuilderCodec, _>(
        referee,
        KingdomBuilderReferee::state,
    ))
}

/// The start position of `spec`, checked: what its referee starts from.
pub fn state_of(spec: &MatchSpec) -> Result<game::GameState, SetupError> {
    let league = INFO.validate(spec)?;
    referee::start_state(spec, league)
}

/// A built-in bot by name. The protocol tells a bot everything the league changes (the cards,
/// the tiles left on each location hex), so the league is not needed.
pub fn new_bot(name: &str, seed: u64, _league: Option<u32>) -> Result<Box<dyn Bot>, SetupError> {
    let (base, options) = realm_search::split_bot_name(name);
    match (base, options) {
        ("random", None) => Ok(Box::new(bots::Random::new(seed))),
        ("greedy", None) => Ok(Box::new(bots::Greedy::new(seed))),
        ("mcts", options) => {
            let options = realm_search::bot_options(INFO.slug, name, options)?;
            Ok(Box::new(bots::MctsBot::new(seed, options)))
        }
        _ => Err(SetupError::UnknownBot {
            game: INFO.slug.to_string(),
            name: name.to_string(),
            known: INFO.bots.join(", "),
        }),
    }
}
