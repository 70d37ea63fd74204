//! Settings of a search bot from its name: `mcts:ms=80,c=0.7,iters=5000` (no shell
//! metacharacters, so the same text works after `builtin:` and in `realm bot GAME NAME`).

use std::time::{Duration, Instant};

use crate::budget::Budget;
use crate::mcts::{MctsParams, Widening};

/// The share of a game's time limit a search bot thinks for by default: the rest covers
/// reading the input, process start-up and a loaded machine (no timeouts in 1,200 games at
/// the default limits with two matches on two cores, STRENGTH.md).
pub const DEFAULT_TIME_SHARE: f64 = 0.6;

/// The settings of the search bot `name` of `game` (`options` is what followed `mcts:`), or
/// the setup error that names what is wrong.
pub fn bot_options(
    game: &str,
    name: &str,
    options: Option<&str>,
) -> Result<SearchOptions, realm_core::SetupError> {
    SearchOptions::parse(options.unwrap_or("")).map_err(|e| realm_core::SetupError::BadBotOptions {
        game: game.to_string(),
        bot: name.to_string(),
        reason: e.to_string(),
    })
}

/// `("mcts", Some("ms=80"))` from `mcts:ms=80`; `("greedy", None)` from `greedy`.
pub fn split_bot_name(name: &str) -> (&str, Option<&str>) {
    match name.split_once(':') {
        Some((base, options)) => (base, Some(options)),
        None => (name, None),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// UCT tree search.
    Uct,
    /// Flat Monte Carlo over the root actions.
    Flat,
}

/// What `key=value` settings a bot name carried; unset keys keep the bot's defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchOptions {
    /// Thinking time per answer in milliseconds.
    pub ms: Option<u64>,
    /// Thinking time of the first answer (default: `ms`, or the time share of the game's
    /// first-turn limit): with `ms`, it reproduces the default limits' two budgets under an
    /// arena `--time-scale`.
    pub first_ms: Option<u64>,
    /// Iterations per answer. Alone (without `ms`), the search is deterministic.
    pub iterations: Option<u64>,
    pub exploration: Option<f32>,
    pub depth: Option<u32>,
    pub determinizations: Option<usize>,
    pub algorithm: Option<Algorithm>,
    pub widening_base: Option<f32>,
    pub widening_exponent: Option<f32>,
    pub prior_visits: Option<f32>,
    pub expand_visits: Option<u32>,
    pub expand_deeper: Option<u32>,
    pub rave_equiv: Option<f32>,
    pub puct: Option<f32>,
    pub rave_weight: Option<f32>,
    /// Whether to play from the game's opening book, where it has one (default: yes).
    pub book: Option<bool>,
    /// Whether to spread `ms` over the game, where the bot has a schedule: the opening longer
    /// and the end shorter, `ms` being about the mean (default: no, the same time every
    /// answer; without `ms`, no effect).
    pub spread: Option<bool>,
}

/// A game's time limits per answer: the first call's and every later call's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnLimits {
    pub first: Duration,
    pub later: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("`{0}` is not key=value")]
    NotKeyValue(String),
    #[error("unknown option `{0}`; options: {KNOWN}")]
    UnknownKey(String),
    #[error("option `{key}` is given twice")]
    Repeated { key: String },
    #[error("option `{key}`: `{value}` is not {what}")]
    BadValue {
        key: String,
        value: String,
        what: &'static str,
    },
}

const KNOWN: &str =
    "ms, first, iters, c, depth, det, algo (uct|flat), pw, pwe, prior, expand, deeper, rave, ravew, puct, book, spread";

/// What the settings mean, for `realm games` and `--help` texts.
pub const OPTIONS_HELP: &str = "builtin:mcts:KEY=VALUE,... sets ms (thinking time per answer), \
first (thinking time of the first answer), \
iters (iterations per answer; alone it makes the bot deterministic), c (exploration), \
depth (playout actions before the leaf evaluation), det (sampled hidden states), \
algo (uct or flat), pw and pwe (progressive widening base and exponent), prior (virtual \
visits of the game's move prior, 0 for none), expand (visits a node needs before its children \
are listed), deeper (one visit more needed every that many plies below the root, 0 for none), rave (RAVE equivalence visits, 0 for none; for games whose knowledge supports it), \
ravew (Pentobi's RAVE instead: the weight of an all-moves-as-first hit in a child's own \
statistics, 0 for none; rave= alone turns it off), puct (PUCT exploration constant instead of UCB1's c, \
with the game's move prior), book (0 to search instead of playing the game's opening book, \
where it has one), spread (1, with ms: think longer in the opening and shorter at the end, ms \
being about the mean, where the bot has a schedule)";

fn parse<T: std::str::FromStr>(
    key: &str,
    value: &str,
    what: &'static str,
) -> Result<T, OptionError> {
    value.parse().map_err(|_| OptionError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        what,
    })
}

/// The value named by `value` among `choices`.
fn one_of<T: Copy>(
    key: &str,
    value: &str,
    choices: &[(&str, T)],
    what: &'static str,
) -> Result<T, OptionError> {
    choices
        .iter()
        .find(|(name, _)| *name == value)
        .map(|&(_, choice)| choice)
        .ok_or_else(|| OptionError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            what,
        })
}

/// A switch's value: 0 or 1.
fn switch(key: &str, value: &str) -> Result<bool, OptionError> {
    one_of(key, value, &[("0", false), ("1", true)], "0 or 1")
}

fn set<T>(slot: &mut Option<T>, key: &str, value: T) -> Result<(), OptionError> {
    if slot.is_some() {
        return Err(OptionError::Repeated {
            key: key.to_string(),
        });
    }
    *slot = Some(value);
    Ok(())
}

impl SearchOptions {
    /// Parses `k=v,k=v` (an empty text sets nothing).
    pub fn parse(text: &str) -> Result<SearchOptions, OptionError> {
        let mut o = SearchOptions::default();
        for item in text.split(',').filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| OptionError::NotKeyValue(item.to_string()))?;
            let number = "a non-negative number";
            match key {
                "ms" => set(&mut o.ms, key, at_least_one(key, value)?)?,
                "first" => set(&mut o.first_ms, key, at_least_one(key, value)?)?,
                "iters" => set(&mut o.iterations, key, at_least_one(key, value)?)?,
                "c" => set(&mut o.exploration, key, non_negative(key, value, number)?)?,
                // 0: the leaf is evaluated where the tree ends, without a playout.
                "depth" => set(
                    &mut o.depth,
                    key,
                    parse(key, value, "a non-negative whole number")?,
                )?,
                "det" => set(
                    &mut o.determinizations,
                    key,
                    at_least_one::<usize>(key, value)?.min(256),
                )?,
                "algo" => {
                    let algo = one_of(
                        key,
                        value,
                        &[("uct", Algorithm::Uct), ("flat", Algorithm::Flat)],
                        "uct or flat",
                    )?;
                    set(&mut o.algorithm, key, algo)?
                }
                "pw" => set(&mut o.widening_base, key, non_negative(key, value, number)?)?,
                "pwe" => set(
                    &mut o.widening_exponent,
                    key,
                    non_negative(key, value, number)?,
                )?,
                "prior" => set(&mut o.prior_visits, key, non_negative(key, value, number)?)?,
                "expand" => set(&mut o.expand_visits, key, at_least_one(key, value)?)?,
                "deeper" => set(
                    &mut o.expand_deeper,
                    key,
                    parse(key, value, "a non-negative whole number")?,
                )?,
                "rave" => set(&mut o.rave_equiv, key, non_negative(key, value, number)?)?,
                "puct" => set(&mut o.puct, key, non_negative(key, value, number)?)?,
                "ravew" => set(&mut o.rave_weight, key, non_negative(key, value, number)?)?,
                "book" => set(&mut o.book, key, switch(key, value)?)?,
                "spread" => set(&mut o.spread, key, switch(key, value)?)?,
                _ => return Err(OptionError::UnknownKey(key.to_string())),
            }
        }
        Ok(o)
    }

    /// `params` with these settings applied over them.
    pub fn apply(&self, mut params: MctsParams) -> MctsParams {
        if let Some(c) = self.exploration {
            params.exploration = c;
        }
        if let Some(d) = self.depth {
            params.playout_depth = Some(d);
        }
        if let Some(k) = self.determinizations {
            params.determinizations = k;
        }
        if let Some(v) = self.prior_visits {
            params.prior_visits = v;
        }
        if let Some(v) = self.expand_visits {
            params.expand_visits = v;
        }
        if let Some(v) = self.expand_deeper {
            params.expand_deeper = v;
        }
        if let Some(v) = self.rave_equiv {
            params.rave_equiv = v;
            // The blend asked for replaces a default merged RAVE (`ravew=` keeps both set,
            // and then the merge wins).
            if self.rave_weight.is_none() {
                params.rave_weight = 0.0;
            }
        }
        if let Some(v) = self.puct {
            params.puct = v;
        }
        if let Some(v) = self.rave_weight {
            params.rave_weight = v;
        }
        if self.widening_base.is_some() || self.widening_exponent.is_some() {
            let old = params.widening.unwrap_or(Widening {
                base: 2.0,
                exponent: 0.5,
            });
            params.widening = Some(Widening {
                base: self.widening_base.unwrap_or(old.base),
                exponent: self.widening_exponent.unwrap_or(old.exponent),
            });
        }
        params
    }

    /// The budget of an answer under a game's time limits (the first call's when
    /// `first_call`), counted from `start` (when the call's input began to arrive,
    /// `realm_core::ClockedInput`): `DEFAULT_TIME_SHARE` of the limit unless `first`, `ms` or
    /// `iters` say otherwise (see `budget`).
    pub fn budget_within(&self, limits: TurnLimits, first_call: bool, start: Instant) -> Budget {
        let limit = if first_call {
            limits.first
        } else {
            limits.later
        };
        let default_time = Duration::from_secs_f64(limit.as_secs_f64() * DEFAULT_TIME_SHARE);
        let ms = match self.first_ms {
            Some(first) if first_call => Some(first),
            _ => self.ms,
        };
        budget_of(ms, self.iterations, default_time, start)
    }

    /// `iters` alone: that many iterations, no clock. Otherwise `ms` (or `default_time`) from
    /// `start`, and `iters` too when given (whichever ends first).
    pub fn budget(&self, default_time: Duration, start: Instant) -> Budget {
        budget_of(self.ms, self.iterations, default_time, start)
    }
}

/// `iterations` alone: that many, no clock; otherwise `ms` (or `default_time`) from `start`,
/// and `iterations` too when given.
fn budget_of(
    ms: Option<u64>,
    iterations: Option<u64>,
    default_time: Duration,
    start: Instant,
) -> Budget {
    match (ms, iterations) {
        (None, Some(n)) => Budget::iterations(n),
        (ms, iterations) => Budget {
            iterations,
            ..Budget::time_from(start, ms.map_or(default_time, Duration::from_millis))
        },
    }
}

/// A whole number of at least 1 for `key` (milliseconds, iterations, visits): 0 would mean
/// no search at all, so it is refused rather than read as 1.
fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(
    key: &str,
    value: &str,
) -> Result<T, OptionError> {
    let what = "a positive whole number";
    match parse::<T>(key, value, what)? {
        n if n >= T::from(1) => Ok(n),
        _ => Err(OptionError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            what,
        }),
    }
}

fn non_negative(key: &str, value: &str, what: &'static str) -> Result<f32, OptionError> {
    let v: f32 = parse(key, value, what)?;
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(OptionError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            what,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_the_first_colon() {
        assert_eq!(
            split_bot_name("mcts:ms=80,c=0.7"),
            ("mcts", Some("ms=80,c=0.7"))
        );
        assert_eq!(split_bot_name("greedy"), ("greedy", None));
    }

    #[test]
    fn the_blended_rave_asked_for_replaces_a_default_merged_one() {
        let merged = MctsParams {
            rave_weight: 0.7,
            ..MctsParams::default()
        };
        let apply = |text: &str| {
            let p = SearchOptions::parse(text).unwrap().apply(merged);
            (p.rave_equiv, p.rave_weight)
        };
        assert_eq!(apply(""), (0.0, 0.7));
        assert_eq!(apply("rave=100"), (100.0, 0.0));
        assert_eq!(apply("ravew=0.5"), (0.0, 0.5));
        assert_eq!(apply("rave=100,ravew=0.2"), (100.0, 0.2));
        assert!(SearchOptions::parse("ravew=-1").is_err());
    }

    #[test]
    fn options_parse_and_apply() {
        let o = SearchOptions::parse(
            "ms=80,c=0.5,iters=5000,det=4,algo=flat,pw=3,prior=2,expand=3,rave=500,puct=0.1,book=0,spread=1",
        )
        .unwrap();
        assert_eq!(o.ms, Some(80));
        assert_eq!((o.book, o.spread), (Some(false), Some(true)));
        assert!(SearchOptions::parse("book=yes").is_err());
        assert!(SearchOptions::parse("spread=2").is_err());
        assert_eq!(o.iterations, Some(5000));
        assert_eq!(o.algorithm, Some(Algorithm::Flat));
        let p = o.apply(MctsParams::default());
        assert_eq!(p.exploration, 0.5);
        assert_eq!(p.determinizations, 4);
        assert_eq!(p.prior_visits, 2.0);
        assert_eq!(p.expand_visits, 3);
        assert_eq!(p.rave_equiv, 500.0);
        assert_eq!(p.puct, 0.1);
        assert_eq!(
            p.widening,
            Some(Widening {
                base: 3.0,
                exponent: 0.5
            })
        );
        assert_eq!(
            o.budget(Duration::from_millis(10), Instant::now())
                .iterations,
            Some(5000)
        );
        assert!(o
            .budget(Duration::from_millis(10), Instant::now())
            .deadline
            .is_some());
        let limits = TurnLimits {
            first: Duration::from_secs(1),
            later: Duration::from_millis(100),
        };
        let deadline = |o: &SearchOptions, first_call: bool| {
            let start = Instant::now();
            o.budget_within(limits, first_call, start).deadline.unwrap() - start
        };
        let defaults = SearchOptions::default();
        assert_eq!(deadline(&defaults, true), Duration::from_millis(600));
        assert_eq!(deadline(&defaults, false), Duration::from_millis(60));
        let ms = SearchOptions::parse("ms=20").unwrap();
        assert_eq!(deadline(&ms, true), Duration::from_millis(20));
        let both = SearchOptions::parse("ms=20,first=300").unwrap();
        assert_eq!(deadline(&both, true), Duration::from_millis(300));
        assert_eq!(deadline(&both, false), Duration::from_millis(20));
        let iters_only = SearchOptions::parse("iters=7").unwrap();
        assert_eq!(
            iters_only.budget(Duration::from_millis(10), Instant::now()),
            Budget::iterations(7)
        );
    }

    #[test]
    fn bad_options_say_what_is_wrong() {
        let err = |t: &str| SearchOptions::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("speed=3"),
            "unknown option `speed`; options: ms, first, iters, c, depth, det, algo (uct|flat), pw, pwe, prior, expand, deeper, rave, ravew, puct, book, spread"
        );
        assert_eq!(err("ms"), "`ms` is not key=value");
        assert_eq!(
            err("ms=fast"),
            "option `ms`: `fast` is not a positive whole number"
        );
        assert_eq!(err("c=-1"), "option `c`: `-1` is not a non-negative number");
        for key in ["ms", "first", "iters", "det", "expand"] {
            assert_eq!(
                err(&format!("{key}=0")),
                format!("option `{key}`: `0` is not a positive whole number")
            );
        }
        assert_eq!(
            err("depth=x"),
            "option `depth`: `x` is not a non-negative whole number"
        );
        assert_eq!(SearchOptions::parse("depth=0").unwrap().depth, Some(0));
        assert_eq!(err("c=1,c=2"), "option `c` is given twice");
        assert_eq!(
            err("algo=minimax"),
            "option `algo`: `minimax` is not uct or flat"
        );
    }
}
