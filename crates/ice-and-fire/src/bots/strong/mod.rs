//! `strong`: a planner built from the weapons of the 2019 contest's top bots, inside the
//! 50 ms of a phase.
//! - **Finisher**: whenever the cheapest TRAIN chain to the enemy HQ (`paths`) is affordable,
//!   in the position as it stands or after any of the phase's moves so far, it is played
//!   and wins.
//! - **Plan**: otherwise the phase is built one step at a time. Each step tries every legal
//!   single action (moves, trains at every level, mines, towers) and every **cut**: a chain
//!   of two or three trains into enemy cells, which can sever part of the enemy territory
//!   from its HQ (its units there die when its phase starts). Each candidate is valued by
//!   `eval` on the position after it. The best few first steps are each grown into a whole
//!   plan, keeping the best line of each step while it improves on standing still.
//! - **Defence**: the valuation ends the phase on a copy and prices the opponent's cheapest
//!   chain against the gold it will have, and its best single-cell cut. Each grown plan (and
//!   greedy's plan, and doing nothing) is then checked against two replies of the opponent,
//!   greedy's answer and its best single line by the same valuation; the plan whose worse
//!   reply leaves us best is answered. A plan that leaves a payable chain or a cheap cut is
//!   seen losing.
//!
//! It reads only the protocol text, like every built-in bot. With `evals=N` alone its answer
//! depends on the input only; by default it also stops at 60% of the phase's time limit.

mod candidates;
mod eval;

use std::time::{Duration, Instant};

use realm_core::{Bot, BotError, ClockedInput, Input, SetupError};

use super::greedy::{greedy_answer, greedy_play};
use super::paths::{chain_cost, cheapest_chain};
use super::Tracker;
use crate::referee::{FIRST_TIME_LIMIT, TIME_LIMIT};
use crate::rules::{Action, GameState};
pub use eval::{evaluate, Weights};

/// How a `strong` bot thinks: its budget and its evaluation weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrongOptions {
    /// Thinking time per phase; `None` with `evals` set means no clock at all.
    pub ms: Option<u64>,
    /// Positions valued per phase at most.
    pub evals: Option<u64>,
    /// How many of the best first steps are each grown into a whole plan and then checked
    /// against the opponent's reply.
    pub plans: usize,
    pub weights: Weights,
}

/// The share of the time limit the bot plans in when `ms` is not given.
const TIME_SHARE: f64 = 0.6;
/// Positions valued per phase when `evals` is not given: far more than a phase needs
/// except in crowded middle games, where the clock stops the plan first.
const DEFAULT_EVALS: u64 = 40_000;
/// Plans grown per phase when `plans` is not given.
const DEFAULT_PLANS: usize = 6;

impl StrongOptions {
    /// Parses `KEY=VALUE,...` after `strong:`: `ms`, `evals` and the weights of `Weights`.
    pub fn parse(name: &str, text: Option<&str>) -> Result<StrongOptions, SetupError> {
        let mut options = StrongOptions {
            ms: None,
            evals: None,
            plans: DEFAULT_PLANS,
            weights: Weights::default(),
        };
        let bad = |reason: String| SetupError::BadBotOptions {
            game: crate::INFO.slug.to_string(),
            bot: name.to_string(),
            reason,
        };
        for item in text.unwrap_or("").split(',').filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad(format!("`{item}` is not key=value")))?;
            let number = |what: &str| {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| bad(format!("option `{key}`: `{value}` is not {what}")))
            };
            match key {
                "ms" => options.ms = Some(number("a number of milliseconds")? as u64),
                "evals" => options.evals = Some(number("a count")? as u64),
                "plans" => options.plans = number("a count")? as usize,
                _ => {
                    let v = number("a non-negative number")? as f32;
                    if !options.weights.set(key, v) {
                        return Err(bad(format!(
                            "unknown option `{key}`; options: ms, evals, plans, horizon, unit, cell, \
                             threat, attack, reach, lethal, progress, exposure, guard, spot, tempo"
                        )));
                    }
                }
            }
        }
        Ok(options)
    }

    /// The clock of one phase under the game's limit `limit`, if any.
    fn deadline(&self, limit: Duration, start: Instant) -> Option<Instant> {
        match (self.ms, self.evals) {
            (Some(ms), _) => Some(start + Duration::from_millis(ms)),
            (None, Some(_)) => None,
            (None, None) => Some(start + limit.mul_f64(TIME_SHARE)),
        }
    }
}

pub struct StrongBot {
    tracker: Tracker,
    options: StrongOptions,
}

impl StrongBot {
    pub fn new(league: Option<u32>, options: StrongOptions) -> StrongBot {
        StrongBot {
            tracker: Tracker::new(league),
            options,
        }
    }
}

impl Bot for StrongBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let limit = if self.tracker.n_calls() == 0 {
            FIRST_TIME_LIMIT
        } else {
            TIME_LIMIT
        };
        let mut input = ClockedInput::new(input);
        let (state, _) = self.tracker.read(&mut input)?;
        let budget = Budget {
            evals_left: self.options.evals.unwrap_or(DEFAULT_EVALS),
            deadline: self.options.deadline(limit, input.started()),
        };
        let commands = plan_phase(&state, &self.options, budget);
        Ok(vec![if commands.is_empty() {
            "WAIT".to_string()
        } else {
            commands.join(";")
        }])
    }
}

/// What one phase may still spend.
struct Budget {
    evals_left: u64,
    deadline: Option<Instant>,
}

impl Budget {
    /// Takes one valuation from the budget; `false` when it is spent.
    fn take(&mut self) -> bool {
        if self.evals_left == 0 {
            return false;
        }
        self.evals_left -= 1;
        // The clock is read every 32 valuations (a few microseconds each).
        if self.evals_left % 32 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.evals_left = 0;
                }
            }
        }
        true
    }
}

/// A plan for the phase: its commands and the position after them.
struct Plan {
    commands: Vec<String>,
    end: GameState,
}

/// The commands of the phase of `state`'s player, as protocol text.
fn plan_phase(state: &GameState, options: &StrongOptions, mut budget: Budget) -> Vec<String> {
    let (weights, plan_count) = (&options.weights, options.plans);
    let me = state.player();
    if let Some((finish, _)) = finisher(state) {
        return finish;
    }
    // The best first steps by the one-phase valuation, each grown greedily into a plan.
    let mut firsts = valued_lines(state, weights, &mut budget);
    firsts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut plans = vec![Plan {
        commands: Vec::new(),
        end: state.clone(),
    }];
    for (_, line) in firsts.into_iter().take(plan_count) {
        let mut commands: Vec<String> = Vec::new();
        let mut position = state.clone();
        play_line(&mut position, &line, &mut commands);
        if let Some((finish, _)) = finisher(&position) {
            commands.extend(finish);
            return commands;
        }
        grow(&mut position, &mut commands, weights, &mut budget);
        if position.ending().is_some() {
            return commands;
        }
        plans.push(Plan {
            commands,
            end: position,
        });
    }
    // Greedy's plan is a candidate too: climbing one line at a time can miss it.
    let mut greedy_end = state.clone();
    let greedy = greedy_answer(&mut greedy_end);
    plans.push(Plan {
        commands: vec![greedy],
        end: greedy_end,
    });
    let best = plans
        .into_iter()
        .map(|plan| (after_reply(&plan.end, me, weights, &mut budget), plan))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .expect("the empty plan is always there");
    best.1.commands
}

/// The value for `me` after its phase ends in `end` and the opponent replies, from the
/// opponent's side and negated: the worse for `me` of two replies, greedy's whole answer and
/// the opponent's best single line (an action or a cut) by the same valuation.
fn after_reply(end: &GameState, me: usize, weights: &Weights, budget: &mut Budget) -> f32 {
    let mut next = end.clone();
    next.end_phase();
    if next.ending().is_some() {
        return evaluate(end, me, weights);
    }
    let mut greedy = next.clone();
    greedy_play(&mut greedy);
    let after_greedy = -evaluate(&greedy, 1 - me, weights);
    valued_lines(&next, weights, budget)
        .into_iter()
        .map(|(value, _)| -value)
        .fold(after_greedy, f32::min)
}

/// Every candidate line of the position valued above standing still (each played on a copy).
fn valued_lines(
    position: &GameState,
    weights: &Weights,
    budget: &mut Budget,
) -> Vec<(f32, Vec<Action>)> {
    let me = position.player();
    let standing = evaluate(position, me, weights);
    let mut out = Vec::new();
    for line in candidates::lines(position) {
        if !budget.take() {
            break;
        }
        let mut after = position.clone();
        if line.iter().any(|a| after.play(a).is_err()) {
            continue;
        }
        // A line after which the finisher is affordable wins: nothing is worth more.
        let value = if finisher_affordable(&after) {
            f32::INFINITY
        } else {
            evaluate(&after, me, weights)
        };
        if value > standing {
            out.push((value, line));
        }
    }
    out
}

/// Plays on `position` the best line of each step while it improves on standing still, and
/// the finisher as soon as it is affordable.
fn grow(
    position: &mut GameState,
    commands: &mut Vec<String>,
    weights: &Weights,
    budget: &mut Budget,
) {
    loop {
        if let Some((finish, over)) = finisher(position) {
            commands.extend(finish);
            *position = over;
            return;
        }
        // The first of equally valued lines, in the candidates' fixed order.
        let best = valued_lines(position, weights, budget)
            .into_iter()
            .reduce(|best, next| if next.0 > best.0 { next } else { best });
        let Some((_, line)) = best else {
            return;
        };
        play_line(position, &line, commands);
    }
}

/// Plays `line` (already played once on a copy) on `position`, writing each command before
/// its action is played: a MOVE names its unit by the id it has then.
fn play_line(position: &mut GameState, line: &[Action], commands: &mut Vec<String>) {
    for action in line {
        commands.push(position.command(action));
        position
            .play(action)
            .expect("the line was played on a copy");
    }
}

/// True when the cheapest TRAIN chain to the enemy HQ is affordable now.
fn finisher_affordable(state: &GameState) -> bool {
    let me = state.player();
    chain_cost(state, me) <= state.gold(me)
}

/// The winning TRAIN chain, as commands, and the won position, when it is affordable now.
fn finisher(state: &GameState) -> Option<(Vec<String>, GameState)> {
    if !finisher_affordable(state) {
        return None;
    }
    let (_, chain) = cheapest_chain(state, state.player())?;
    let mut trial = state.clone();
    let mut commands = Vec::new();
    for (level, at) in chain {
        let action = Action::Train { level, at };
        commands.push(trial.command(&action));
        trial.play(&action).ok()?;
    }
    trial.ending().is_some().then_some((commands, trial))
}
