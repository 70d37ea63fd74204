//! A Code of Ice and Fire (CodinGame, 2019) for realm: the exact official referee in all four
//! leagues, a fast bitboard `State` for search and benchmarks, and the built-in bots `random`
//! and `greedy`. The rules are in RULES.md, numbered like the spec.
//!
//! Module map: `geom` (cells and bitboards), `setup` (leagues, Java-RNG map generator),
//! `rules` (the state machine), `protocol` (input lines and answer parsing), `referee`
//! (CodinGame turn semantics and faults), `view` (viewer frames), `codec` (action ids and observations), `bots`.
//! The crate does no I/O.

pub mod bots;
pub mod codec;
pub mod geom;
pub mod playout;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod setup;
pub mod view;

use realm_core::spec::VariantInfo;
use realm_core::{Bot, GameInfo, MatchSpec, Referee, SetupError, Table};

pub use codec::IceAndFireCodec;
pub use geom::{Bits, Cell};
pub use referee::IceAndFireReferee;
pub use rules::{Action, BuildingKind, CaptureMasks, Ending, GameState, Invalid};
pub use setup::{League, Map};

/// The catalog entry of the game.
pub const INFO: GameInfo = GameInfo {
    slug: "ice-and-fire",
    title: "A Code of Ice and Fire",
    variants: &[VariantInfo {
        name: None,
        players: &[2],
        summary:
            "the June 2019 rules; leagues 1-3 are Wood 3 to Wood 1, league 4 is Bronze and above",
    }],
    leagues: &[1, 2, 3, 4],
    default_league: 4,
    higher_leagues_play_top: false,
    options: &[],
    bots: &["strong", "mcts", "greedy", "random"],
};

/// The settings of `builtin:strong`, for `realm games`.
pub const STRONG_OPTIONS_HELP: &str = "builtin:strong:KEY=VALUE,... (ice-and-fire) sets ms \
(thinking time per phase), evals (positions valued per phase; alone it makes the bot \
deterministic), plans (first steps grown into whole plans), reply (lines of the opponent's reply \
grown), cuts (1: a unit's move then a cut as candidates, 0: none), blocks (plans grown from lines \
that block the opponent's best reply), and the evaluation weights horizon, \
unit, cell, threat, attack, reach, lethal, progress, exposure, guard, spot, tempo (crates/ice-and-fire/BOTS.md)";

/// Sets up a match: the seed is read as the Java `long` of R7.
pub fn new_referee(spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
    Ok(Box::new(IceAndFireReferee::new(state_of(spec)?)))
}

/// A referee for `spec` with the position it holds, which the game's codec (`codec.rs`) turns
/// into an `Engine` with integer action ids: what the Python package and a person's seat play.
pub fn new_table(spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
    let referee = IceAndFireReferee::new(state_of(spec)?);
    Ok(realm_core::engine::held::<IceAndFireCodec, _>(
        referee,
        IceAndFireReferee::state,
    ))
}

/// The start state of a checked `spec`: what its referee starts from.
pub fn state_of(spec: &MatchSpec) -> Result<GameState, SetupError> {
    let league = INFO.validate(spec)?;
    let league = League::new(league).ok_or_else(|| SetupError::UnknownLeague {
        game: INFO.slug.to_string(),
        league,
        known: "1, 2, 3, 4".to_string(),
    })?;
    Ok(GameState::new(spec.signed_seed(), league))
}

/// A built-in bot by name.
/// `league` is the league the bot plays in (`None`: the game's full rules), as a bot written
/// for a CodinGame league knows it.
pub fn new_bot(name: &str, seed: u64, league: Option<u32>) -> Result<Box<dyn Bot>, SetupError> {
    let (base, options) = realm_search::split_bot_name(name);
    match (base, options) {
        ("random", None) => Ok(Box::new(bots::RandomBot::new(seed, league))),
        ("greedy", None) => Ok(Box::new(bots::GreedyBot::new(league))),
        ("mcts", options) => {
            let options = realm_search::bot_options(INFO.slug, name, options)?;
            Ok(Box::new(bots::MctsBot::new(seed, league, options)))
        }
        ("strong", options) => {
            let options = bots::StrongOptions::parse(name, options)?;
            Ok(Box::new(bots::StrongBot::new(league, options)))
        }
        _ => Err(SetupError::UnknownBot {
            game: INFO.slug.to_string(),
            name: name.to_string(),
            known: INFO.bots.join(", "),
        }),
    }
}
