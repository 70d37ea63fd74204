//! The in-process rules contract that search bots, conformance tests and benchmarks use: a
//! cheap-to-clone state, its legal actions, and applying one.

use std::fmt::Debug;

use crate::{Outcome, PlayerId};

/// A game position that knows whose turn it is and what they may do.
///
/// **Invariants**: `to_move` returns `None` exactly when the game is over, and otherwise a
/// player with at least one legal action (players who cannot act are skipped by the rules).
/// `legal_actions` lists each distinct action once, in a deterministic order. Applying a legal
/// action never panics.
pub trait State: Clone + Send {
    type Action: Clone + Debug + PartialEq;

    fn n_players(&self) -> usize;

    /// The player to act, or `None` when the game is over.
    fn to_move(&self) -> Option<PlayerId>;

    /// Replaces the contents of `out` with the legal actions of the player to move.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// True when `action` is one of `legal_actions`.
    fn is_legal(&self, action: &Self::Action) -> bool {
        let mut all = Vec::new();
        self.legal_actions(&mut all);
        all.contains(action)
    }

    /// Plays a legal action (the caller guarantees legality; see `is_legal`).
    fn apply(&mut self, action: &Self::Action);

    /// `apply` when the player to move afterwards is already known: `next` is what
    /// `to_move` said after an earlier `apply` of the same action to the same state (a search
    /// tree replays its paths every iteration). A game whose `apply` spends time finding that
    /// player (testing who can still act) may take it from `next`; the state must come out
    /// equal to `apply`'s. The default is `apply`.
    fn apply_knowing_next(&mut self, action: &Self::Action, next: Option<PlayerId>) {
        let _ = next;
        self.apply(action);
    }

    /// A uniformly random legal action of the player to move, or `None` when the game is over.
    /// The default lists the actions into `buf` and picks one; a game may sample without
    /// listing (playouts are where search bots spend their time) as long as every legal action
    /// stays equally likely.
    fn random_action(
        &self,
        rng: &mut impl rand_core::RngCore,
        buf: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        self.to_move()?;
        self.legal_actions(buf);
        if buf.is_empty() {
            return None;
        }
        let pick = (rng.next_u64() % buf.len() as u64) as usize;
        Some(buf[pick].clone())
    }

    /// The result so far; final once `to_move` is `None`. Scores and ranks are the referee's;
    /// `stats` may be left empty (searches call this at the end of every playout, and the
    /// referee's outcome carries the figures).
    fn outcome(&self) -> Outcome;
}

/// Plays uniformly random legal actions until the game ends and returns the number of actions
/// played. `buf` is reused for the legal-action lists so a playout allocates nothing once warm.
pub fn random_playout<S: State>(
    state: &mut S,
    rng: &mut impl rand_core::RngCore,
    buf: &mut Vec<S::Action>,
) -> usize {
    let mut n_actions = 0;
    while let Some(action) = state.random_action(rng, buf) {
        state.apply(&action);
        n_actions += 1;
    }
    n_actions
}
