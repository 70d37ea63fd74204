//! Kingdomino as CodinGame's "Coders of the Realm" runs it (spec: kingdomino.md, rules as
//! implemented: RULES.md): 2, 3 and 4 players on 5 × 5 kingdoms and the 2-player Mighty Duel
//! on 7 × 7, leagues 1–3, the `invalid_put`, `middle_kingdom` and `harmony` options.
//!
//! Layout: `tiles` (the 48 dominoes), `bits` (bitboards per grid size), `kingdom` (placement
//! and scoring), `setup` (configuration and deck), `rules` (turns and the in-process `State`),
//! `scoring` (ranking key and displayed score), `protocol` (wire text), `referee`, `view`
//! (viewer frames), `codec` (action ids and observations) and `bots`. The crate does no I/O.

pub mod bits;
pub mod bots;
pub mod codec;
pub mod kingdom;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod scoring;
pub mod setup;
pub mod tiles;
pub mod view;

use realm_core::spec::VariantInfo;
use realm_core::{Bot, GameInfo, MatchSpec, Referee, SetupError, Table};

use crate::bits::Wide;
use crate::bots::{rules_for, Greedy, MctsKingdomino, Random, Reference, TextBot, BOT_NAMES};
use crate::referee::KingdominoReferee;
use crate::setup::{Config, Mode, TOP_LEAGUE};

pub use crate::codec::KingdominoCodec;
pub use crate::rules::{Action, Game, GameState};
pub use crate::setup::InvalidPut;

/// The game's description. Leagues are 1–3; higher leagues are accepted and play as 3 (§5).
pub const INFO: GameInfo = GameInfo {
    slug: "kingdomino",
    title: "Kingdomino (Coders of the Realm)",
    variants: &[
        VariantInfo {
            name: None,
            players: &[2, 3, 4],
            summary: "5x5 kingdoms on 9x9 grids; 2 players use 24 tiles with two kings each",
        },
        VariantInfo {
            name: Some("duel"),
            players: &[2],
            summary: "Mighty Duel: 7x7 kingdoms on 13x13 grids, all 48 tiles, 13 turns",
        },
    ],
    leagues: &[1, 2, 3],
    default_league: TOP_LEAGUE,
    higher_leagues_play_top: true,
    options: &["invalid_put", "middle_kingdom", "harmony"],
    bots: BOT_NAMES,
};

/// Checks `spec` and sets up a match. `variant = standard` is accepted as the standard game and
/// leagues above 3 play as league 3.
pub fn new_referee(spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
    let config = config_from_spec(spec)?;
    Ok(match config.mode {
        Mode::Standard => Box::new(KingdominoReferee::<u128>::new(config, spec.seed)),
        Mode::Duel => Box::new(KingdominoReferee::<Wide>::new(config, spec.seed)),
    })
}

/// A referee for `spec` with the position it holds, which the game's codec (`codec.rs`) turns
/// into an `Engine` with integer action ids: what the Python package and a person's seat play.
pub fn new_table(spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
    let config = config_from_spec(spec)?;
    Ok(match config.mode {
        Mode::Standard => codec::table::<u128>(config, spec.seed),
        Mode::Duel => codec::table::<Wide>(config, spec.seed),
    })
}

/// Checks `spec` (variant, player count, league, options) and returns the configuration.
pub fn config_from_spec(spec: &MatchSpec) -> Result<Config, SetupError> {
    let league = INFO.validate(spec)?;
    Config::from_spec(spec, league)
}

/// A built-in bot by name (`random`, `greedy`, `reference`).
/// `league` is the league the bot plays in (`None`: the game's full rules), as a bot written
/// for a CodinGame league knows it.
pub fn new_bot(name: &str, seed: u64, league: Option<u32>) -> Result<Box<dyn Bot>, SetupError> {
    let rules = rules_for(league);
    let (base, options) = realm_search::split_bot_name(name);
    match (base, options) {
        ("random", None) => Ok(Box::new(TextBot::new(Random::new(seed, rules)))),
        ("greedy", None) => Ok(Box::new(TextBot::new(Greedy::new(rules)))),
        ("reference", None) => Ok(Box::new(TextBot::new(Reference))),
        ("mcts", options) => {
            let options = realm_search::bot_options(INFO.slug, name, options)?;
            let league = league.unwrap_or(crate::setup::TOP_LEAGUE);
            Ok(Box::new(TextBot::new(MctsKingdomino::new(
                seed, league, rules, options,
            ))))
        }
        _ => Err(SetupError::UnknownBot {
            game: INFO.slug.to_string(),
            name: name.to_string(),
            known: BOT_NAMES.join(", "),
        }),
    }
}
