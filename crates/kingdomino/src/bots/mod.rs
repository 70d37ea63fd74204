//! Built-in bots. Each reads exactly the protocol text of its calls (through `Observation`),
//! rebuilds its own kingdom from the grid rows and answers with the two protocol lines.
//!
//! The protocol does not say the league; like a bot written for a CodinGame league, a built-in
//! bot is told it when created and places under that league's rules (§1.4).

mod greedy;
mod mcts;
mod observation;
mod random;
mod reference;

use realm_core::{Bot, BotError, Input};

use crate::bits::{Bits, Wide};
use crate::kingdom::{Placement, PlacementRules};
use crate::setup::TOP_LEAGUE;

pub use greedy::Greedy;
pub use mcts::{default_params, KingdominoKnowledge, MctsKingdomino};
pub use observation::{read_header, read_observation, Header, Observation, SeenTile};
pub use random::Random;
pub use reference::Reference;

/// Names of the built-in bots, as `builtin:NAME` selects them.
pub const BOT_NAMES: &[&str] = &["mcts", "greedy", "reference", "random"];

/// A way to choose one call's answer from what was read.
pub trait Strategy: Send {
    /// Returns the PUT and PICK lines.
    fn decide<B: Bits>(&mut self, obs: &Observation<B>) -> [String; 2];
}

/// Adapts a `Strategy` to the `Bot` contract: reads the header once, then one observation per
/// call, on the grid size the header announced.
pub struct TextBot<S: Strategy> {
    header: Option<Header>,
    strategy: S,
}

impl<S: Strategy> TextBot<S> {
    pub fn new(strategy: S) -> Self {
        TextBot {
            header: None,
            strategy,
        }
    }
}

impl<S: Strategy> Bot for TextBot<S> {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let mut pending = None;
        let header = match self.header {
            Some(h) => h,
            None => {
                let (h, row) = read_header(input)?;
                pending = row;
                self.header = Some(h);
                h
            }
        };
        let lines = match header.size {
            9 => self
                .strategy
                .decide(&read_observation::<u128>(input, &header, pending)?),
            13 => self
                .strategy
                .decide(&read_observation::<Wide>(input, &header, pending)?),
            other => return Err(BotError::BadInput(format!("grid size {other}"))),
        };
        Ok(lines.to_vec())
    }
}

/// The placement rules a bot created for `league` plays by (`None`: the full rules; leagues
/// above 3 play as 3, §5).
pub fn rules_for(league: Option<u32>) -> PlacementRules {
    PlacementRules::for_league(league.unwrap_or(TOP_LEAGUE).clamp(1, TOP_LEAGUE))
}

/// The protocol line of a placement.
pub fn put_line(placement: Option<Placement>) -> String {
    match placement {
        Some(p) => format!("PUT {} {} {}", p.x, p.y, p.r),
        None => "PUT 0 0 0".to_string(),
    }
}

/// The protocol line of a pick (`PICK 0` when there is nothing to pick).
pub fn pick_line(id: Option<u8>) -> String {
    format!("PICK {}", id.unwrap_or(0))
}
