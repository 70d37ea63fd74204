//! The shared vocabulary of realm: seats, outcomes and faults, seeded randomness, the
//! contracts every game implements (`State` for in-process search, `Referee` for driving
//! bots over text, `Codec` for a position with integer action ids, in `engine`) and the replay
//! format.
//!
//! This crate does no I/O: it never spawns, sleeps, reads files or prints.

pub mod bot;
pub mod engine;
pub mod outcome;
pub mod referee;
pub mod replay;
pub mod rng;
pub mod spec;
pub mod state;

pub use bot::{
    panic_message, read_line, read_parsed, Bot, BotError, ClockedInput, Input, LinesInput,
};
pub use engine::{Bounds, Codec, Engine, Layout, Table};
pub use outcome::{ranks_from_keys, ranks_into, EndReason, Fault, FaultKind, Outcome, Stat};
pub use referee::{LineEnds, LineRules, Referee, Request, Verdict, VerdictKind};
pub use replay::{Replay, ReplayPlayer, ReplayTurn, REPLAY_FORMAT_VERSION};
pub use rng::{below, chacha_rng, JavaRandom, SplitMix64};
pub use spec::{GameInfo, MatchSpec, SetupError};
pub use state::{random_playout, State};

/// A seat in one match, `0..n_players`, in the order the bots were listed.
pub type PlayerId = usize;
