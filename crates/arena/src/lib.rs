//! realm's match runner: bot processes with time control and cleanup, built-in bots behind the
//! same interface, and the game-agnostic match loop that produces replays.
//!
//! Games enter only through `realm_core::Referee`; this crate never matches on a game.

pub mod entrant;
pub mod files;
pub mod league;
mod lines;
mod namespace;
pub mod process;
mod registry;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod seat;
pub mod tournament;

pub use entrant::{unique_labels, unique_names, Entrant};
pub use process::{BotProcess, CallReport, OutputLimits};
pub use registry::{become_subreaper, kill_all_bots, live_bots};
pub use runner::{run_match, run_table_match, settle_call, MatchOptions, MatchResult};
pub use schedule::{Schedule, ScheduledMatch};
pub use seat::{HumanSeat, Seat};
pub use tournament::{
    bot_seed, make_seat, make_seats, ArenaError, GameCatalog, KeepReplays, Tournament,
};
