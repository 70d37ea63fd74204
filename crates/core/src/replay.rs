//! The replay format: one JSON document per match holding the spec, the players, every call
//! with what crossed the wire and the referee's verdict, a viewer frame after each call, and the
//! outcome. **Invariant**: with timings off, the same spec and the same answers give a
//! byte-identical document.

use serde::{Deserialize, Serialize};

use crate::{MatchSpec, Outcome, PlayerId, Verdict};

/// Bumped on every incompatible change; see CHANGELOG.md.
pub const REPLAY_FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format_version: u32,
    pub realm_version: String,
    pub spec: MatchSpec,
    pub players: Vec<ReplayPlayer>,
    /// The frame before the first call.
    pub initial_frame: serde_json::Value,
    pub turns: Vec<ReplayTurn>,
    pub outcome: Outcome,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayPlayer {
    /// A short display name.
    pub name: String,
    /// What was given on the command line: `builtin:NAME` or a shell command.
    pub command: String,
}

/// One call to one player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayTurn {
    pub player: PlayerId,
    /// The game's own turn number.
    pub turn: u32,
    pub input: Vec<String>,
    pub output: Vec<String>,
    /// What the player wrote on stderr while this call was pending (capped).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// Response time in microseconds; only recorded with timings on, because it is the one
    /// field that differs between two runs of the same match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_us: Option<u64>,
    /// Answered after the game's limit but within `--time-margin`, so accepted. Like
    /// `time_us`, recorded only with timings on (it depends on timing); absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub late: bool,
    /// The player wrote to stderr after this call's answer line (that text is read with its
    /// next call). Recorded only with timings on; absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stderr_after_answer: bool,
    pub verdict: Verdict,
    /// The viewer frame after this call.
    pub frame: serde_json::Value,
}
