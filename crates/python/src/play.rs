//! `realm_engines.play`: one whole match through realm's match loop, with built-in bots, bot processes
//! and Python callables in the seats, giving the replay `realm view` opens.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use realm_arena::{run_match, unique_names, Entrant, MatchOptions, MatchResult, Seat};
use realm_core::{Bot, BotError, Input, MatchSpec, ReplayPlayer};

use crate::session::new_seat;

/// A Python callable as a bot: called with the lines of each call (a list of str), it returns
/// the answer as a str (lines split on newlines) or a list of str.
pub struct PythonBot {
    function: Py<PyAny>,
}

impl Bot for PythonBot {
    fn play_turn(&mut self, input: &mut dyn Input) -> Result<Vec<String>, BotError> {
        let mut lines = Vec::new();
        while let Some(line) = input.next_line() {
            lines.push(line);
        }
        Python::attach(|py| {
            let answer = self
                .function
                .call1(py, (lines,))
                .map_err(|e| BotError::Failed(format!("the Python bot raised {e}")))?;
            let answer = answer.bind(py);
            if let Ok(text) = answer.extract::<String>() {
                return Ok(text.lines().map(str::to_string).collect());
            }
            answer.extract::<Vec<String>>().map_err(|_| {
                BotError::Failed("the Python bot returned neither a str nor a list of str".into())
            })
        })
    }
}

/// The seats and replay players of `bots` (str: `builtin:NAME` or a command; else a callable),
/// named as `realm play` names them.
pub fn seats(
    spec: &MatchSpec,
    bots: &[Bound<'_, PyAny>],
) -> PyResult<(Vec<Seat>, Vec<ReplayPlayer>)> {
    let mut seats = Vec::new();
    let mut commands = Vec::new();
    let mut names = Vec::new();
    for (i, bot) in bots.iter().enumerate() {
        if bot.is_instance_of::<PyString>() {
            let arg: String = bot.extract()?;
            let entrant = Entrant::from_arg(&arg).map_err(PyValueError::new_err)?;
            seats.push(new_seat(spec, i, &entrant).map_err(PyValueError::new_err)?);
            names.push(entrant.label());
            commands.push(entrant.command());
        } else if bot.is_callable() {
            let name: String = bot
                .getattr("__name__")
                .and_then(|n| n.extract())
                .unwrap_or_else(|_| "bot".to_string());
            seats.push(Seat::builtin(Box::new(PythonBot {
                function: bot.clone().unbind(),
            })));
            names.push(format!("python:{name}"));
            commands.push(format!("python:{name}"));
        } else {
            return Err(PyTypeError::new_err(format!(
                "bot {i} is neither a str (builtin:NAME or a command) nor a callable"
            )));
        }
    }
    let players = unique_names(names)
        .into_iter()
        .zip(commands)
        .map(|(name, command)| ReplayPlayer { name, command })
        .collect();
    Ok((seats, players))
}

/// Plays the match with the GIL released (Python bots take it back for their calls).
pub fn play_match(
    py: Python<'_>,
    spec: &MatchSpec,
    bots: &[Bound<'_, PyAny>],
    options: MatchOptions,
) -> PyResult<MatchResult> {
    let (seats, players) = seats(spec, bots)?;
    let referee =
        realm_games::new_referee(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(py.detach(|| run_match(spec, players, referee, seats, options)))
}
