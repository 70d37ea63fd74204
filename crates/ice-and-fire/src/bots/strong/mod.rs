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
use crate::geom::{Bits, ALL};
use crate::referee::{FIRST_TIME_LIMIT, TIME_LIMIT};
use crate::rules::{Action, BuildingKind, GameState};
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
    /// How many lines of the opponent's best reply are grown when a plan is checked: 1 is
    /// its best single line alone.
    pub reply: usize,
    /// Whether the candidate lines include move-then-cut lines (a unit's move, then a cut
    /// from the enemy cells it opened), for both sides.
    pub move_cuts: bool,
    /// How many lines standing in the way of the opponent's best reply are grown into plans
    /// besides the `plans` best first steps.
    pub blocks: usize,
    pub weights: Weights,
}

/// The share of the time limit the bot plans in when `ms` is not given.
const TIME_SHARE: f64 = 0.6;
/// Positions valued per phase when `evals` is not given: far more than a phase needs
/// except in crowded middle games, where the clock stops the plan first.
const DEFAULT_EVALS: u64 = 40_000;
/// Plans grown per phase when `plans` is not given.
const DEFAULT_PLANS: usize = 6;
/// Lines of the opponent's reply grown when `reply` is not given.
const DEFAULT_REPLY: usize = 3;
/// Blocking first steps grown when `blocks` is not given.
const DEFAULT_BLOCKS: usize = 4;

impl StrongOptions {
    /// Parses `KEY=VALUE,...` after `strong:`: `ms`, `evals` and the weights of `Weights`.
    pub fn parse(name: &str, text: Option<&str>) -> Result<StrongOptions, SetupError> {
        let mut options = StrongOptions {
            ms: None,
            evals: None,
            plans: DEFAULT_PLANS,
            reply: DEFAULT_REPLY,
            move_cuts: true,
            blocks: DEFAULT_BLOCKS,
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
                "reply" => options.reply = number("a count")? as usize,
                "cuts" => options.move_cuts = number("0 or 1")? > 0.0,
                "blocks" => options.blocks = number("a count")? as usize,
                _ => {
                    let v = number("a non-negative number")? as f32;
                    if !options.weights.set(key, v) {
                        return Err(bad(format!(
                            "unknown option `{key}`; options: ms, evals, plans, reply, cuts, blocks, horizon, unit, cell, \
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
    /// A budget of `share` of what is left: that share of the valuations and of the time to
    /// the deadline.
    fn share(&self, share: f64) -> Budget {
        let now = Instant::now();
        Budget {
            evals_left: (self.evals_left as f64 * share) as u64,
            deadline: self
                .deadline
                .map(|d| now + d.saturating_duration_since(now).mul_f64(share)),
        }
    }

    /// True when nothing is left.
    fn spent(&self) -> bool {
        self.evals_left == 0
    }

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
    // Growing the plans may spend half the budget; the rest checks them against replies.
    let mut growing = budget.share(0.5);
    let granted = growing.evals_left;
    // The best first steps by the one-phase valuation, each grown greedily into a plan.
    let mut firsts = valued_lines(state, options, &mut growing);
    firsts.sort_by(|a, b| b.0.total_cmp(&a.0));
    firsts.truncate(plan_count);
    // And the best first steps that stand in the way of the opponent's best reply.
    if options.blocks > 0 {
        let threat = threatened_cells(state, options, &mut growing);
        firsts.extend(blocking_lines(state, threat, options, &mut growing));
    }
    let mut plans = vec![Plan {
        commands: Vec::new(),
        end: state.clone(),
    }];
    for (_, line) in firsts {
        let mut commands: Vec<String> = Vec::new();
        let mut position = state.clone();
        play_line(&mut position, &line, &mut commands);
        if let Some((finish, _)) = finisher(&position) {
            commands.extend(finish);
            return commands;
        }
        grow(
            &mut position,
            &mut commands,
            options,
            &mut growing,
            usize::MAX,
        );
        if position.ending().is_some() {
            return commands;
        }
        plans.push(Plan {
            commands,
            end: position,
        });
    }
    budget.evals_left -= granted - growing.evals_left;
    // Greedy's plan is a candidate too: climbing one line at a time can miss it.
    let mut greedy_end = state.clone();
    let greedy = greedy_answer(&mut greedy_end);
    plans.push(Plan {
        commands: vec![greedy],
        end: greedy_end,
    });
    // Every plan against greedy's reply first (cheap); then, best first, against the
    // opponent's searched replies while the budget lasts. A searched value is never above
    // the greedy one, so the checks stop once the best checked plan is sure to stay best.
    // Of equally valued plans the later one is answered: greedy's plan before the grown ones,
    // and these before the empty plan (standing still in a won position would only wait).
    let mut valued: Vec<(f32, Plan)> = plans
        .into_iter()
        .rev()
        .map(|plan| (after_greedy_reply(&plan.end, me, weights), plan))
        .collect();
    valued.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best: Option<(f32, usize)> = None;
    for (index, (greedy_value, plan)) in valued.iter().enumerate() {
        if best.is_some_and(|(value, _)| value >= *greedy_value) {
            break;
        }
        let Some(value) = after_reply(&plan.end, me, *greedy_value, options, &mut budget) else {
            break;
        };
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, index));
        }
    }
    let chosen = best.map_or(0, |(_, index)| index);
    valued.swap_remove(chosen).1.commands
}

/// The cells the opponent's best line enters (trains, moves) if `state`'s player does
/// nothing this phase.
fn threatened_cells(state: &GameState, options: &StrongOptions, budget: &mut Budget) -> Bits {
    let mut next = state.clone();
    next.end_phase();
    if next.ending().is_some() {
        return Bits::EMPTY;
    }
    let me = state.player();
    let best = valued_lines(&next, options, budget)
        .into_iter()
        .reduce(|best, line| if line.0 > best.0 { line } else { best });
    let mut cells = Bits::EMPTY;
    for action in best.map(|(_, line)| line).unwrap_or_default() {
        match action {
            Action::Train { at, .. } | Action::Move { to: at, .. }
                if next.owner(at) == Some(me) =>
            {
                cells.insert(at)
            }
            _ => {}
        }
    }
    cells
}

/// The best `options.blocks` lines of `state`'s player (by the one-phase valuation, whether
/// or not they improve on standing still) that occupy a cell of `threat` or build a tower
/// next to one: a unit there, or a guard, makes the opponent's line dearer or impossible.
fn blocking_lines(
    state: &GameState,
    threat: Bits,
    options: &StrongOptions,
    budget: &mut Budget,
) -> Vec<(f32, Vec<Action>)> {
    if threat.is_empty() {
        return Vec::new();
    }
    let me = state.player();
    let near = threat.grow(ALL);
    let mut out = Vec::new();
    for line in candidates::lines(state, false) {
        let blocks = match line[0] {
            Action::Move { to: at, .. } | Action::Train { at, .. } => threat.has(at),
            Action::Build {
                kind: BuildingKind::Tower,
                at,
            } => near.has(at),
            _ => false,
        };
        if !blocks || line.len() > 1 || !budget.take() {
            continue;
        }
        let mut after = state.clone();
        if after.play(&line[0]).is_err() {
            continue;
        }
        out.push((evaluate(&after, me, &options.weights), line));
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out.truncate(options.blocks);
    out
}

/// The value for `me` after its phase ends in `end` and the opponent answers with greedy's
/// whole phase, from the opponent's side and negated.
fn after_greedy_reply(end: &GameState, me: usize, weights: &Weights) -> f32 {
    let mut next = end.clone();
    next.end_phase();
    if next.ending().is_some() {
        return evaluate(end, me, weights);
    }
    greedy_play(&mut next);
    -evaluate(&next, 1 - me, weights)
}

/// The value for `me` after its phase ends in `end` and the opponent replies, from the
/// opponent's side and negated: the worst for `me` of greedy's whole answer (`after_greedy`),
/// the opponent's best single line (an action or a cut) by the same valuation, and that line
/// grown into a phase of up to `reply` lines. `None` when the budget ran out before the
/// check was whole.
fn after_reply(
    end: &GameState,
    me: usize,
    after_greedy: f32,
    options: &StrongOptions,
    budget: &mut Budget,
) -> Option<f32> {
    let weights = &options.weights;
    let mut next = end.clone();
    next.end_phase();
    if next.ending().is_some() {
        return Some(after_greedy);
    }
    let lines = valued_lines(&next, options, budget);
    if budget.spent() {
        return None;
    }
    let best = lines
        .into_iter()
        .reduce(|best, line| if line.0 > best.0 { line } else { best });
    let Some((value, line)) = best else {
        return Some(after_greedy);
    };
    let mut worst = after_greedy.min(-value);

    if options.reply > 1 && value.is_finite() {
        let mut position = next;
        play_line(&mut position, &line, &mut Vec::new());
        grow(
            &mut position,
            &mut Vec::new(),
            options,
            budget,
            options.reply - 1,
        );
        if budget.spent() {
            return None;
        }
        worst = worst.min(-evaluate(&position, 1 - me, weights));
    }
    Some(worst)
}

/// Every candidate line of the position valued above standing still (each played on a copy).
fn valued_lines(
    position: &GameState,
    options: &StrongOptions,
    budget: &mut Budget,
) -> Vec<(f32, Vec<Action>)> {
    let weights = &options.weights;
    let me = position.player();
    let standing = evaluate(position, me, weights);
    let mut out = Vec::new();
    for line in candidates::lines(position, options.move_cuts) {
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

/// Plays on `position` the best line of each step (at most `max_steps` lines) while it
/// improves on standing still, and the finisher as soon as it is affordable.
fn grow(
    position: &mut GameState,
    commands: &mut Vec<String>,
    options: &StrongOptions,
    budget: &mut Budget,
    max_steps: usize,
) {
    for _ in 0..max_steps {
        if let Some((finish, over)) = finisher(position) {
            commands.extend(finish);
            *position = over;
            return;
        }
        // The first of equally valued lines, in the candidates' fixed order.
        let best = valued_lines(position, options, budget)
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
