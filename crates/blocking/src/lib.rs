//! Blocking (CodinGame's Blokus-like game) and its Blokus Duo and Classic variants: the shape
//! table, a bitboard rules engine fast enough for search, the exact text referee of
//! `shared/specs/blocking.md`, viewer frames and the built-in bots `random` and `greedy`.
//!
//! The crate does no I/O; the shape table is embedded from `data/blocking_shapes.txt`.

pub mod bots;
pub mod codec;
mod movegen;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod setup;
pub mod shapes;
pub mod view;

use realm_core::spec::VariantInfo;
use realm_core::{Bot, GameInfo, MatchSpec, Referee, SetupError, Table};

pub use codec::BlockingCodec;
pub use referee::BlockingReferee;
pub use rules::{Placement, Position};
pub use setup::{Config, Variant};

/// The catalog entry of Blocking.
pub const INFO: GameInfo = GameInfo {
    slug: "blocking",
    title: "Blocking",
    variants: &[
        VariantInfo {
            name: None,
            players: &[2, 3, 4],
            summary: "CodinGame's Blocking: 13x13, seeded shape subset, squares placed",
        },
        VariantInfo {
            name: Some("duo"),
            players: &[2],
            summary: "Blokus Duo: 14x14, all 21 shapes, official scoring",
        },
        VariantInfo {
            name: Some("classic"),
            players: &[4],
            summary: "Blokus Classic: 20x20, four colours, official scoring",
        },
    ],
    leagues: &[1],
    default_league: 1,
    higher_leagues_play_top: false,
    options: &[],
    bots: bots::BOT_NAMES,
};

/// The configuration a match spec asks for, validated against `INFO`.
pub fn config_of(spec: &MatchSpec) -> Result<Config, SetupError> {
    INFO.validate(spec)?;
    let variant =
        Variant::from_name(spec.variant.as_deref()).ok_or_else(|| SetupError::UnknownVariant {
            game: INFO.slug.to_string(),
            variant: spec.variant.clone().unwrap_or_default(),
            known: "duo, classic".to_string(),
        })?;
    Ok(Config::new(variant, spec.n_players, spec.seed))
}

/// A referee for `spec` (variant, player count, league and options are checked first).
pub fn new_referee(spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
    Ok(Box::new(BlockingReferee::new(&config_of(spec)?)))
}

/// A referee for `spec` with the position it holds, which the game's codec (`codec.rs`) turns
/// into an `Engine` with integer action ids: what the Python package and a person's seat play.
pub fn new_table(spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
    let referee = BlockingReferee::new(&config_of(spec)?);
    Ok(realm_core::engine::held::<BlockingCodec, _>(
        referee,
        BlockingReferee::position,
    ))
}

/// The built-in bot `name` with its own random seed.
/// `league` is the league the bot plays in (`None`: the game's full rules), as a bot written
/// for a CodinGame league knows it.
pub fn new_bot(name: &str, seed: u64, league: Option<u32>) -> Result<Box<dyn Bot>, SetupError> {
    // Blocking has one league (§6): the bots need not know it.
    let _ = league;
    let (base, options) = realm_search::split_bot_name(name);
    match (base, options) {
        ("random", None) => Ok(Box::new(bots::RandomBot::new(seed))),
        ("greedy", None) => Ok(Box::new(bots::Greedy::new(seed))),
        ("mcts", options) => {
            let options = realm_search::bot_options(INFO.slug, name, options)?;
            Ok(Box::new(bots::MctsBot::new(seed, options)))
        }
        _ => Err(SetupError::UnknownBot {
            game: INFO.slug.to_string(),
            name: name.to_string(),
            known: bots::BOT_NAMES.join(", "),
        }),
    }
}
