//! Built-in bots. They read exactly the protocol text a bot process reads (`Observation`
//! rebuilds what they need from it) and answer one line per turn. They never see the referee's
//! state or the match seed.

mod greedy;
mod mcts;
mod observe;
mod random;

pub use greedy::Greedy;
pub use mcts::book;
pub use mcts::{
    contact_value, default_params, BlokusKnowledge, MctsBot, Order, Playout, PriorContext,
    N_FEATURES,
};
pub use observe::{Observation, Reader};
pub use random::RandomBot;

/// Names of the built-in bots, as `builtin:NAME`.
pub const BOT_NAMES: &[&str] = &["mcts", "greedy", "random"];
