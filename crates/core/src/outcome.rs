//! How a match ended: per-player scores and ranks, the faults of misbehaving players and one
//! end reason from a vocabulary shared by every game.

use serde::{Deserialize, Serialize};

use crate::PlayerId;

/// Why a player was faulted. The snake_case codes are stable: replays and the results store
/// contain them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// No complete answer within the time limit.
    Timeout,
    /// The bot process exited (or could not be started).
    Crashed,
    /// The bot closed its standard output while still running.
    ClosedOutput,
    /// The bot closed its standard input (stopped reading its input) while still running.
    ClosedInput,
    /// The bot printed more than the per-turn output cap, or an over-long line.
    OutputFlood,
    /// The answer does not follow the output grammar.
    Malformed,
    /// The answer is well formed but the action is not legal.
    InvalidAction,
}

impl FaultKind {
    /// The stable snake_case code of this kind.
    pub fn code(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Crashed => "crashed",
            FaultKind::ClosedOutput => "closed_output",
            FaultKind::ClosedInput => "closed_input",
            FaultKind::OutputFlood => "output_flood",
            FaultKind::Malformed => "malformed",
            FaultKind::InvalidAction => "invalid_action",
        }
    }

    /// True for faults detected by the process runner rather than by a referee.
    pub fn is_process_fault(self) -> bool {
        matches!(
            self,
            FaultKind::Timeout
                | FaultKind::Crashed
                | FaultKind::ClosedOutput
                | FaultKind::ClosedInput
                | FaultKind::OutputFlood
        )
    }
}

/// One player's fault: what happened, when, and a human-readable reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub kind: FaultKind,
    /// The game's own turn number when the fault happened (as the game counts turns).
    pub turn: u32,
    /// A one-line reason, e.g. `no answer within 50 ms` or `PICK 99 is not in the line`.
    pub detail: String,
}

/// Why the match stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EndReason {
    /// The rules ended the game normally (board full, nobody can move, HQ captured, ...).
    Finished,
    /// The game's turn limit was reached.
    TurnLimit,
    /// A player's fault ended the whole match (two-player games where a fault loses).
    Fault { player: PlayerId, fault: FaultKind },
    /// Every player (or all but one, where the rules say so) was eliminated.
    Eliminations,
}

impl EndReason {
    /// A short stable code: `finished`, `turn_limit`, `eliminations` or the fault code.
    pub fn code(&self) -> &'static str {
        match self {
            EndReason::Finished => "finished",
            EndReason::TurnLimit => "turn_limit",
            EndReason::Fault { fault, .. } => fault.code(),
            EndReason::Eliminations => "eliminations",
        }
    }
}

/// The final result of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The score each player is shown (the game's own scale; may be negative for a loss by fault).
    pub scores: Vec<i64>,
    /// 1-based ranks; equal ranks are a draw between those players.
    pub ranks: Vec<u32>,
    pub end: EndReason,
    /// A game-specific end code for people and test vectors, e.g. `hq_captured_p0_lost`.
    pub detail: String,
    /// Each player's fault, if it had one.
    pub faults: Vec<Option<Fault>>,
    /// Game-specific result figures beyond the score (Kingdomino's territory and crowns, say),
    /// in the game's order; empty when the game reports none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stats: Vec<Stat>,
}

/// One named result figure with a value per player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stat {
    /// A stable snake_case name, e.g. `crowns`.
    pub name: String,
    /// One value per player, in seat order.
    pub values: Vec<i64>,
}

impl Outcome {
    /// Players ranked first.
    pub fn winners(&self) -> Vec<PlayerId> {
        (0..self.ranks.len())
            .filter(|&p| self.ranks[p] == 1)
            .collect()
    }

    /// True when more than one player shares rank 1.
    pub fn is_draw(&self) -> bool {
        self.winners().len() > 1
    }
}

/// Competition ranks from sort keys where higher is better: rank = 1 + number of players with a
/// strictly greater key, so equal keys share a rank.
pub fn ranks_from_keys<K: Ord>(keys: &[K]) -> Vec<u32> {
    let mut ranks = vec![0; keys.len()];
    ranks_into(keys, &mut ranks);
    ranks
}

/// `ranks_from_keys` into `out` (its first `keys.len()` entries), without allocating: for a
/// search that ranks the players at the end of every playout.
pub fn ranks_into<K: Ord>(keys: &[K], out: &mut [u32]) {
    for (k, rank) in keys.iter().zip(out) {
        *rank = 1 + keys.iter().filter(|other| *other > k).count() as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_skip_after_them() {
        assert_eq!(ranks_from_keys(&[5, 9, 5, 1]), vec![2, 1, 2, 4]);
        assert_eq!(ranks_from_keys(&[(3, 1), (3, 2)]), vec![2, 1]);
        assert_eq!(ranks_from_keys(&[7, 7]), vec![1, 1]);
    }

    #[test]
    fn end_reason_serializes_with_stable_codes() {
        let end = EndReason::Fault {
            player: 1,
            fault: FaultKind::ClosedOutput,
        };
        assert_eq!(
            serde_json::to_string(&end).unwrap(),
            r#"{"kind":"fault","player":1,"fault":"closed_output"}"#
        );
        assert_eq!(end.code(), "closed_output");
        assert_eq!(
            serde_json::to_string(&EndReason::TurnLimit).unwrap(),
            r#"{"kind":"turn_limit"}"#
        );
    }

    #[test]
    fn every_fault_code_is_its_serialized_name() {
        use FaultKind::*;
        let kinds = [
            Timeout,
            Crashed,
            ClosedOutput,
            ClosedInput,
            OutputFlood,
            Malformed,
            InvalidAction,
        ];
        for kind in kinds {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.code()));
        }
        assert_eq!(ClosedInput.code(), "closed_input");
        assert!(ClosedInput.is_process_fault());
    }
}
