//! What a position went through since its match began, so that it can be rebuilt: the answers
//! its referee got (a Session's positions), then the steps taken on the position itself.
//! A `Game` pickles as its spec and this history, replayed when unpickled: deterministic, since
//! a referee, a playout and a reshuffle depend only on the spec, the answers and the seeds.

use std::sync::Arc;

use rand_core::SeedableRng;
use realm_arena::settle_call;
use realm_core::{FaultKind, MatchSpec};
use serde::{Deserialize, Serialize};

use realm_core::engine::Engine;
use realm_games::{new_engine, new_table};

/// One call a Session's referee settled: the answer lines or the fault, and what the bot
/// printed before a fault.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Call {
    pub answer: Result<Vec<String>, (FaultKind, String)>,
    pub partial: Vec<String>,
}

/// A change made to a position from Python.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub enum Step {
    Apply(u32),
    Reshuffle(u64),
    /// A random playout to the end from this seed.
    Playout(u64),
}

/// Where a position comes from.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// `None`: the start of `Game(spec)`; else the calls a Session's referee settled before
    /// this position was taken from it (shared: a Session hands out one per step).
    pub calls: Option<Arc<Vec<Call>>>,
    pub steps: Vec<Step>,
}

/// Plays random legal actions to the end from a seed; returns how many.
pub fn playout(engine: &mut dyn Engine, seed: u64) -> usize {
    engine.random_playout(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed))
}

impl Step {
    pub fn take(self, engine: &mut dyn Engine) -> Result<(), String> {
        match self {
            Step::Apply(id) => engine.apply(id)?,
            Step::Reshuffle(seed) => engine.reshuffle_hidden(seed),
            Step::Playout(seed) => {
                playout(engine, seed);
            }
        }
        Ok(())
    }
}

/// A position and what it went through, as one JSON text.
#[derive(Serialize, Deserialize)]
struct Saved {
    spec: MatchSpec,
    calls: Option<Vec<Call>>,
    steps: Vec<Step>,
}

pub fn save(spec: &MatchSpec, history: &History) -> String {
    let saved = Saved {
        spec: spec.clone(),
        calls: history.calls.as_deref().cloned(),
        steps: history.steps.clone(),
    };
    serde_json::to_string(&saved).expect("a history serializes")
}

/// The position `save` describes, rebuilt by replaying its history.
pub fn restore(text: &str) -> Result<(MatchSpec, History, Box<dyn Engine>), String> {
    let saved: Saved =
        serde_json::from_str(text).map_err(|e| format!("not a saved position: {e}"))?;
    let mut engine = match &saved.calls {
        None => new_engine(&saved.spec).map_err(|e| e.to_string())?,
        Some(calls) => replay_calls(&saved.spec, calls)?,
    };
    for step in &saved.steps {
        step.take(&mut *engine)?;
    }
    let history = History {
        calls: saved.calls.map(Arc::new),
        steps: saved.steps,
    };
    Ok((saved.spec, history, engine))
}

/// The referee's position after the calls, taken as a Session takes it: after asking for the
/// next request.
fn replay_calls(spec: &MatchSpec, calls: &[Call]) -> Result<Box<dyn Engine>, String> {
    let mut table = new_table(spec).map_err(|e| e.to_string())?;
    for call in calls {
        let request = table
            .referee()
            .next_request()
            .ok_or("the saved answers outlast the match")?;
        settle_call(
            table.referee(),
            &request,
            call.answer.clone(),
            call.partial.clone(),
        );
    }
    table.referee().next_request();
    Ok(table.engine())
}
