//! realm's match runner: bot processes with time control and cleanup, built-in bots behind the
//! same interface, and the game-agnostic match loop that produces replays.
//!
//! Games enter only through `realm_core::Referee`; this crate never matches on a game.

pub mod process;
mod registry;
pub mod runner;
pub mod seat;

pub use process::{BotProcess, CallReport, OutputLimits};
pub use registry::{become_subreaper, kill_all_bots, live_bots};
pub use runner::{run_match, MatchOptions, MatchResult};
pub use seat::Seat;
