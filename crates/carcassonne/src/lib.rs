//! Carcassonne (CodinGame community game) for realm: the 72-tile base set, blocks as a
//! union-find over tile parts, men and scoring in three leagues, the text protocol, the
//! referee and the built-in bots `random` and `greedy`. RULES.md states the rules as
//! implemented.
//!
//! This crate does no I/O; the tile table is embedded.

pub mod board;
pub mod bots;
pub mod codec;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod setup;
pub mod tiles;
pub mod view;

use realm_core::{Bot, GameInfo, MatchSpec, Referee, SetupError, Table};

pub use board::{Board, Placement};
pub use codec::CarcassonneCodec;
pub use referee::CarcassonneReferee;
pub use rules::{Action, State};

/// The catalog entry.
pub const INFO: GameInfo = GameInfo {
    slug: "carcassonne",
    title: "Carcassonne",
    variants: &[realm_core::spec::VariantInfo {
        name: None,
        players: &[2, 3, 4],
        summary: "base game, 72 tiles; leagues 1 castles+fields, 2 +roads, 3 +monasteries",
    }],
    leagues: &setup::LEAGUES,
    default_league: 3,
    higher_leagues_play_top: false,
    options: &[],
    bots: &["mcts", "greedy", "random"],
};

/// A referee for `spec` (seeded bag, §3.1).
pub fn new_referee(spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
    Ok(Box::new(CarcassonneReferee::new(state_of(spec)?)))
}

/// A referee for `spec` with the position it holds, which the game's codec (`codec.rs`) turns
/// into an `Engine` with integer action ids: what the Python package and a person's seat play.
pub fn new_table(spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
    let referee = CarcassonneReferee::new(state_of(spec)?);
    Ok(realm_core::engine::held::<CarcassonneCodec, _>(
        referee,
        CarcassonneReferee::state,
    ))
}

/// The start state of a checked `spec`: what its referee starts from.
pub fn state_of(spec: &MatchSpec) -> Result<State, SetupError> {
    let league = INFO.validate(spec)?;
    Ok(State::new(league, spec.n_players, spec.seed))
}

/// A built-in bot by name.
/// `league` is the league the bot plays in (`None`: the game's full rules), as a bot written
/// for a CodinGame league knows it.
pub fn new_bot(name: &str, seed: u64, league: Option<u32>) -> Result<Box<dyn Bot>, SetupError> {
    // Leagues only filter the deck (§6) and placement and man rules are the same in every
    // league, so random and greedy need not be told.
    let (base, options) = realm_search::split_bot_name(name);
    match (base, options) {
        ("random", None) => Ok(Box::new(bots::Random::new(seed))),
        ("greedy", None) => Ok(Box::new(bots::Greedy::new(seed))),
        // The search bot does need the league: it samples the unseen tiles of its tile set.
        ("mcts", options) => {
            let options = realm_search::bot_options(INFO.slug, name, options)?;
            let league = league.unwrap_or(3).clamp(1, 3);
            Ok(Box::new(bots::MctsBot::new(seed, league, options)))
        }
        _ => Err(SetupError::UnknownBot {
            game: INFO.slug.to_string(),
            name: name.to_string(),
            known: INFO.bots.join(", "),
        }),
    }
}
