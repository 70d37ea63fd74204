//! Game-agnostic search over realm's `State` contract.
//!
//! * [`Mcts`]: UCT with max-n rewards (every node keeps every player's reward sum, so 2, 3
//!   and 4 players are handled alike), a node arena with index handles that is reused between
//!   searches, optional progressive widening, optional move priors (virtual visits),
//!   depth-cut playouts with a leaf evaluator, tree reuse after observed actions, and
//!   determinized search over sampled hidden states with merged root statistics.
//! * [`flat_monte_carlo`]: every root action gets playouts in turn; the best mean wins.
//! * [`Knowledge`]: what a game may plug in (playout policy, leaf evaluation, action order,
//!   priors, rewards); [`Uniform`] is the knowledge-free default.
//! * [`SearchOptions`]: the `key=value,...` settings of a `builtin:mcts:...` bot.
//!
//! With an iteration budget and a seed every search is deterministic; a wall-clock deadline
//! is the only source of variation. No game knowledge lives here.

mod amaf;
mod budget;
mod flat;
mod knowledge;
mod mcts;
mod options;
mod reward;
mod tree;
mod widening;

pub use budget::Budget;
pub use flat::flat_monte_carlo;
pub use knowledge::{Knowledge, Uniform};
pub use mcts::{Mcts, MctsParams, RootStat, SearchResult, Widening};
pub use options::{
    bot_options, split_bot_name, Algorithm, OptionError, SearchOptions, TurnLimits,
    DEFAULT_TIME_SHARE, OPTIONS_HELP,
};
pub use reward::{margin_rewards, margin_rewards_of, rank_rewards, Rewards, MAX_PLAYERS};
