//! realm's engines, bots and matches as the Python module `realm_engines._realm`; the
//! `realm_engines` package (`python/realm_engines`) puts the PettingZoo and Gymnasium
//! environments on top.
//!
//! Long calls (playouts, matches, bot turns) release the GIL, so Python threads run them in
//! parallel.

mod history;
mod play;
mod session;

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use rand_core::SeedableRng;
use realm_arena::MatchOptions;
use realm_core::{MatchSpec, Outcome};
use realm_games::GameKind;

use history::{History, Step};
use realm_core::Engine;

fn value_error(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Runs the body of a call from Python, a Rust panic becoming a RuntimeError with the panic's
/// message: pyo3's own PanicException derives from BaseException, which `except Exception`
/// (a search loop's guard, a training script's) does not catch.
fn guarded<T>(body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        Err(PyRuntimeError::new_err(format!(
            "internal error in realm (please report it): {}",
            realm_core::panic_message(payload.as_ref())
        )))
    })
}

/// Panics inside `guarded`, for the test that a panic reaches Python as a RuntimeError.
#[pyfunction]
fn _panic_for_tests(message: &str) -> PyResult<()> {
    guarded(|| panic!("{message}"))
}

/// A match seed from Python: any u64, or a negative i64 kept as its two's-complement bits,
/// as `realm referee` and `realm play` read CodinGame's (Java long) seeds (`parse_seed` in
/// crates/cli), so `Game(g, seed=-5)` is the referee's game of seed -5.
#[derive(Clone, Copy)]
struct Seed(u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(seed: Borrowed<'a, 'py, PyAny>) -> PyResult<Seed> {
        let out_of_range = || {
            value_error(format!(
                "seed {} is not a 64-bit integer (0 to {}, or negative down to {})",
                &*seed,
                u64::MAX,
                i64::MIN
            ))
        };
        let value: i128 = seed.extract().map_err(|_| out_of_range())?;
        u64::try_from(value)
            .or_else(|_| i64::try_from(value).map(|v| v as u64))
            .map(Seed)
            .map_err(|_| out_of_range())
    }
}

/// A checked match spec; `players` defaults to the variant's first player count.
fn spec_of(
    game: &str,
    variant: Option<String>,
    league: Option<u32>,
    players: Option<usize>,
    seed: u64,
) -> PyResult<MatchSpec> {
    let kind = GameKind::from_slug(game).map_err(value_error)?;
    let n_players = players.unwrap_or_else(|| kind.default_players(variant.as_deref()));
    let mut spec = MatchSpec::new(game, n_players, seed);
    spec.variant = variant;
    spec.league = league;
    Ok(spec)
}

fn outcome_json(outcome: &Outcome) -> String {
    serde_json::to_string(outcome).expect("an outcome serializes")
}

/// An observation's board planes, scalars and action mask, as bytearrays: numpy views them
/// without a copy, writable (a bytes object would give read-only arrays).
type ObservationBytes<'py> = (
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
);

/// One position of a game, with integer action ids over the game's fixed action space.
#[pyclass(module = "realm_engines._realm")]
struct Game {
    spec: MatchSpec,
    engine: Box<dyn Engine>,
    /// How `engine` came from the spec's start, replayed to unpickle.
    history: History,
}

impl Game {
    fn from_engine(spec: MatchSpec, engine: Box<dyn Engine>, history: History) -> Game {
        Game {
            spec,
            engine,
            history,
        }
    }

    fn observe_bytes<'py>(
        &self,
        py: Python<'py>,
        player: usize,
    ) -> PyResult<ObservationBytes<'py>> {
        if player >= self.engine.n_players() {
            return Err(value_error(format!("no player {player}")));
        }
        let layout = self.engine.layout();
        let engine = &self.engine;
        let mut scalars = vec![0f32; layout.n_scalars];
        // The planes and the mask are written straight into the bytearrays.
        let board = PyByteArray::new_with(py, layout.board_len(), |board| {
            engine.observe(player, board, &mut scalars);
            Ok(())
        })?;
        let mask = PyByteArray::new_with(py, layout.n_actions, |mask| {
            if engine.to_move() == Some(player) {
                engine.fill_mask(mask);
            }
            Ok(())
        })?;
        let scalar_bytes: Vec<u8> = scalars.iter().flat_map(|s| s.to_le_bytes()).collect();
        Ok((board, PyByteArray::new(py, &scalar_bytes), mask))
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (game, variant=None, league=None, players=None, seed=Seed(0)))]
    fn new(
        game: &str,
        variant: Option<String>,
        league: Option<u32>,
        players: Option<usize>,
        seed: Seed,
    ) -> PyResult<Game> {
        guarded(|| {
            let spec = spec_of(game, variant, league, players, seed.0)?;
            let engine = realm_games::new_engine(&spec).map_err(value_error)?;
            Ok(Game::from_engine(spec, engine, History::default()))
        })
    }

    #[getter]
    fn game(&self) -> &str {
        &self.spec.game
    }

    #[getter]
    fn variant(&self) -> Option<&str> {
        self.spec.variant.as_deref()
    }

    #[getter]
    fn league(&self) -> Option<u32> {
        self.spec.league
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.spec.seed
    }

    #[getter]
    fn n_players(&self) -> PyResult<usize> {
        guarded(|| Ok(self.engine.n_players()))
    }

    /// The seat to act, or None when the game is over.
    #[getter]
    fn to_move(&self) -> PyResult<Option<usize>> {
        guarded(|| Ok(self.engine.to_move()))
    }

    #[getter]
    fn is_over(&self) -> PyResult<bool> {
        guarded(|| Ok(self.engine.to_move().is_none()))
    }

    #[getter]
    fn n_actions(&self) -> PyResult<usize> {
        guarded(|| Ok(self.engine.layout().n_actions))
    }

    /// (channels, rows, columns) of `observe`'s board planes.
    #[getter]
    fn board_shape(&self) -> PyResult<(usize, usize, usize)> {
        guarded(|| {
            let [c, h, w] = self.engine.layout().board;
            Ok((c, h, w))
        })
    }

    #[getter]
    fn n_scalars(&self) -> PyResult<usize> {
        guarded(|| Ok(self.engine.layout().n_scalars))
    }

    /// (lowest, highest) value of each scalar, derived from the rules (the crate's README).
    #[getter]
    fn scalar_bounds(&self) -> PyResult<(Vec<f32>, Vec<f32>)> {
        guarded(|| {
            let bounds = self.engine.scalar_bounds();
            Ok((bounds.low, bounds.high))
        })
    }

    /// Legal action ids of the player to move, in the game's order (empty at the end).
    fn legal_actions(&self) -> PyResult<Vec<u32>> {
        guarded(|| Ok(self.engine.legal_ids()))
    }

    /// The protocol text of a legal action id.
    fn action_text(&self, action: u32) -> PyResult<String> {
        guarded(|| {
            self.engine
                .text(action)
                .ok_or_else(|| value_error(format!("action {action} is not legal now")))
        })
    }

    /// The legal action id whose protocol text is `text`.
    fn action_id(&self, text: &str) -> PyResult<u32> {
        guarded(|| {
            self.engine.id_of_text(text).ok_or_else(|| {
                value_error(format!("`{text}` is not the text of a legal action now"))
            })
        })
    }

    /// True when this legal action ends the player's answer of one call (the turn's last
    /// command in Ice and Fire, the man step in Carcassonne; always in the other games).
    fn closes_answer(&self, action: u32) -> PyResult<bool> {
        guarded(|| Ok(self.engine.closes_answer(action)))
    }

    /// Plays a legal action id (ValueError otherwise).
    fn apply(&mut self, action: u32) -> PyResult<()> {
        guarded(|| {
            self.engine.apply(action).map_err(value_error)?;
            self.history.steps.push(Step::Apply(action));
            Ok(())
        })
    }

    fn clone(&self) -> PyResult<Game> {
        guarded(|| {
            Ok(Game::from_engine(
                self.spec.clone(),
                self.engine.clone_box(),
                self.history.clone(),
            ))
        })
    }

    fn __copy__(&self) -> PyResult<Game> {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Game> {
        self.clone()
    }

    /// The outcome so far as JSON (final once the game is over).
    fn outcome_json(&self) -> PyResult<String> {
        guarded(|| Ok(outcome_json(&self.engine.outcome())))
    }

    /// Plays uniformly random legal actions to the end (GIL released); returns how many.
    #[pyo3(signature = (seed=0))]
    fn random_playout(&mut self, py: Python<'_>, seed: u64) -> PyResult<usize> {
        guarded(|| {
            let engine = &mut self.engine;
            let played = py.detach(|| history::playout(&mut **engine, seed));
            self.history.steps.push(Step::Playout(seed));
            Ok(played)
        })
    }

    /// Plays `n` random games from this position (GIL released) and returns the number of
    /// actions played in all.
    #[pyo3(signature = (n, seed=0))]
    fn random_playouts(&self, py: Python<'_>, n: usize, seed: u64) -> PyResult<usize> {
        let engine = &self.engine;
        guarded(|| {
            Ok(py.detach(|| {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                (0..n)
                    .map(|_| engine.clone_box().random_playout(&mut rng))
                    .sum()
            }))
        })
    }

    /// What `player` sees, as bytearrays: the board planes (uint8, C order), the scalars
    /// (float32, little-endian) and the action mask (uint8, 1 = legal; all 0 unless `player`
    /// is to move).
    fn observe_raw<'py>(&self, py: Python<'py>, player: usize) -> PyResult<ObservationBytes<'py>> {
        guarded(|| self.observe_bytes(py, player))
    }

    /// The whole position as text: a header line (scores, the seat to move) and the board in
    /// the game's own terms (`render_mode="ansi"`).
    fn text_board(&self) -> PyResult<String> {
        guarded(|| Ok(self.engine.text_board()))
    }

    /// The board drawn as realm's viewer draws it: (height, width, RGB bytes row by row),
    /// the same size at every position of a match (`render_mode="rgb_array"`).
    fn render_rgb<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(usize, usize, Bound<'py, PyByteArray>)> {
        guarded(|| {
            let raster = self.engine.render();
            let bytes = PyByteArray::new(py, &raster.rgb);
            Ok((raster.height, raster.width, bytes))
        })
    }

    /// Redraws what no player has seen (the order of undealt tiles), seeded; a no-op in
    /// games of perfect information.
    fn reshuffle_hidden(&mut self, seed: u64) -> PyResult<()> {
        guarded(|| {
            self.engine.reshuffle_hidden(seed);
            self.history.steps.push(Step::Reshuffle(seed));
            Ok(())
        })
    }

    /// The spec and the history of this position as one text, for pickling: `restore` rebuilds
    /// the position by replaying it.
    fn saved(&self) -> PyResult<String> {
        guarded(|| Ok(history::save(&self.spec, &self.history)))
    }

    /// The position `saved` describes.
    #[staticmethod]
    fn restore(py: Python<'_>, saved: &str) -> PyResult<Game> {
        guarded(|| {
            let (spec, history, engine) =
                py.detach(|| history::restore(saved)).map_err(value_error)?;
            Ok(Game::from_engine(spec, engine, history))
        })
    }

    fn __repr__(&self) -> PyResult<String> {
        guarded(|| {
            Ok(format!(
                "Game({:?}, variant={:?}, league={:?}, players={}, seed={}, to_move={:?})",
                self.spec.game,
                self.spec.variant,
                self.spec.league,
                self.spec.n_players,
                self.spec.seed,
                self.engine.to_move()
            ))
        })
    }
}

/// A match where the seats given as None are played from Python one action at a time and
/// the others by realm bots (`builtin:NAME` or a command), the referee judging.
#[pyclass(module = "realm_engines._realm")]
struct Session {
    spec: MatchSpec,
    inner: Mutex<session::Session>,
}

impl Session {
    /// The session, or a RuntimeError when an earlier internal error left it half-played.
    fn inner(&self) -> PyResult<MutexGuard<'_, session::Session>> {
        self.inner.lock().map_err(|_| {
            PyRuntimeError::new_err("this session stopped at an internal error; start a new one")
        })
    }
}

#[pymethods]
impl Session {
    #[new]
    #[pyo3(signature = (game, bots, variant=None, league=None, seed=Seed(0)))]
    fn new(
        py: Python<'_>,
        game: &str,
        bots: Vec<Option<String>>,
        variant: Option<String>,
        league: Option<u32>,
        seed: Seed,
    ) -> PyResult<Session> {
        guarded(|| {
            let spec = spec_of(game, variant, league, Some(bots.len()), seed.0)?;
            let inner = py
                .detach(|| session::Session::new(&spec, &bots))
                .map_err(value_error)?;
            Ok(Session {
                spec,
                inner: Mutex::new(inner),
            })
        })
    }

    /// The position the agent acts in (the final position once the match is over).
    fn position(&self) -> PyResult<Game> {
        guarded(|| {
            let (engine, history) = self.inner()?.position();
            Ok(Game::from_engine(self.spec.clone(), engine, history))
        })
    }

    /// The seat the agent acts for now, or None once the match is over.
    #[getter]
    fn agent(&self) -> PyResult<Option<usize>> {
        guarded(|| Ok(self.inner()?.agent()))
    }

    /// Plays one legal action id for the agent; the bots then play (GIL released) until an
    /// agent is to act again.
    fn play(&self, py: Python<'_>, action: u32) -> PyResult<()> {
        guarded(|| py.detach(|| self.inner()?.play(action).map_err(value_error)))
    }

    /// The referee's outcome as JSON (faults included).
    fn outcome_json(&self) -> PyResult<String> {
        guarded(|| Ok(outcome_json(&self.inner()?.outcome())))
    }
}

/// Plays one match through realm's match loop and returns (outcome JSON, replay JSON).
#[pyfunction]
#[pyo3(signature = (game, bots, seed=Seed(0), variant=None, league=None, time_scale=1.0, no_timeout=false, replay=None))]
#[allow(clippy::too_many_arguments)]
fn play_json(
    py: Python<'_>,
    game: &str,
    bots: Vec<Bound<'_, PyAny>>,
    seed: Seed,
    variant: Option<String>,
    league: Option<u32>,
    time_scale: f64,
    no_timeout: bool,
    replay: Option<PathBuf>,
) -> PyResult<(String, String)> {
    guarded(|| {
        let spec = spec_of(game, variant, league, Some(bots.len()), seed.0)?;
        let options = MatchOptions {
            time_scale,
            no_timeout,
            timings: false,
            time_margin: Duration::ZERO,
        };
        let result = play::play_match(py, &spec, &bots, options)?;
        // Written as `realm play` writes it, byte for byte.
        let replay_json =
            serde_json::to_string_pretty(&result.replay).expect("a replay serializes");
        if let Some(path) = replay {
            realm_arena::files::write_atomically(&path, replay_json.as_bytes()).map_err(|e| {
                PyRuntimeError::new_err(format!("cannot write {}: {e}", path.display()))
            })?;
        }
        Ok((outcome_json(&result.replay.outcome), replay_json))
    })
}

/// A variant (None = standard) and its player counts.
type VariantPlayers = (Option<String>, Vec<usize>);

/// The playable games: (slug, title, [(variant or None, [player counts])]).
#[pyfunction]
fn games() -> PyResult<Vec<(String, String, Vec<VariantPlayers>)>> {
    guarded(|| Ok(game_list()))
}

fn game_list() -> Vec<(String, String, Vec<VariantPlayers>)> {
    GameKind::ALL
        .iter()
        .filter(|g| g.is_playable())
        .map(|g| {
            let info = g.info();
            let variants = info
                .variants
                .iter()
                .map(|v| (v.name.map(str::to_string), v.players.to_vec()))
                .collect();
            (info.slug.to_string(), info.title.to_string(), variants)
        })
        .collect()
}

#[pymodule]
fn _realm(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Session>()?;
    m.add_function(wrap_pyfunction!(play_json, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
