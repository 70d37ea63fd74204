"""PettingZoo and Gymnasium environments over realm's engines.

Every environment observes ``{"observation": {"board": uint8 planes, "scalars": float32},
"action_mask": int8}`` from the acting player's point of view (players ordered from the
observer on) and acts with integer ids over the game's fixed action space (the encodings are
in the package README). A finished game gives every player the zero-sum reward of
``realm_engines.rewards`` (+1 a clear win, -1 a clear loss, 0 a two-player draw).

PettingZoo: one module per environment, as PettingZoo's own are (``kingdomino_v0.env()``,
``kingdomino_v0.raw_env``). No game here has a parallel form: PettingZoo's ``aec_to_parallel``
needs every agent to act once per cycle in a fixed order, and realm's games are turn-based
with changing orders (Kingdomino's picks, Blocking's skipped players, Ice and Fire's several
commands per turn, Carcassonne's tile then man, Kingdom Builder's settlements and tiles until the
end of the turn).

Gymnasium: ``RealmGym`` (one seat against realm bots), registered as ``realm_engines/<Game>-v0``
(``gym.make("realm_engines/Kingdomino-v0")``); ``flatten=True`` gives the flat observations
Stable-Baselines3, sb3-contrib's MaskablePPO and RLlib take.
"""

from __future__ import annotations

import secrets
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import realm_engines

# The PettingZoo environment modules, one per game or variant.
AEC_MODULES = (
    "kingdomino_v0",
    "blocking_v0",
    "blocking_duo_v0",
    "blocking_classic_v0",
    "ice_and_fire_v0",
    "carcassonne_v0",
    "kingdom_builder_v0",
)

__all__ = ["RealmAEC", "RealmGym", "flatten_observation", "observation_space", *AEC_MODULES]

# Enough for any whole game of realm's (the longest, Ice and Fire's, are thousands of
# commands): truncation is for scripts that want shorter episodes.
DEFAULT_MAX_CYCLES = 100_000


def observation_space(game: realm_engines.Game) -> spaces.Dict:
    """The observation space of ``game``'s positions (scalar bounds from the rules)."""
    low, high = (np.array(b, dtype=np.float32) for b in game.scalar_bounds)
    return spaces.Dict(
        {
            "observation": spaces.Dict(
                {
                    "board": spaces.Box(0, 255, game.board_shape, np.uint8),
                    "scalars": spaces.Box(low, high, (game.n_scalars,), np.float32),
                }
            ),
            "action_mask": spaces.Box(0, 1, (game.n_actions,), np.int8),
        }
    )


# "ansi": the text board (a str); "rgb_array": the board as the viewer draws it (an HxWx3
# uint8 array of constant shape over a match); "human": the text board printed to stdout.
RENDER_MODES = ["ansi", "rgb_array", "human"]
# Frames per second for video recorders: a few positions a second are readable.
RENDER_FPS = 4


def _check_render_mode(render_mode: Optional[str]) -> Optional[str]:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode {render_mode!r} is not supported (use one of {', '.join(RENDER_MODES)})"
        )
    return render_mode


def _render(game: Optional[realm_engines.Game], render_mode: Optional[str]) -> Any:
    """What ``render()`` returns for ``game`` in ``render_mode`` (None without a game)."""
    if game is None or render_mode is None:
        return None
    if render_mode == "rgb_array":
        return game.render_rgb()
    text = game.text_board()
    if render_mode == "human":
        print(text, flush=True)
        return None
    return text


def _seed_of(seed: Optional[int]) -> int:
    return secrets.randbits(63) if seed is None else int(seed)


class RealmAEC(AECEnv):
    """Any realm game as a PettingZoo AEC environment: one agent per seat, ``player_0`` first.

    The agent to act is the seat the rules name: players without a legal move are skipped
    (Blocking), and in Ice and Fire one agent acts several times in a row (each command is an
    action; id 1296, WAIT, ends the turn). ``reset(seed=S)`` plays realm's game of seed S.
    After ``max_cycles`` actions every agent is truncated (reward 0).
    """

    metadata = {
        "render_modes": RENDER_MODES,
        "render_fps": RENDER_FPS,
        "name": "realm_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        variant: Optional[str] = None,
        league: Optional[int] = None,
        players: Optional[int] = None,
        render_mode: Optional[str] = None,
        max_cycles: int = DEFAULT_MAX_CYCLES,
        name: Optional[str] = None,
    ):
        super().__init__()
        if max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
        self.render_mode = _check_render_mode(render_mode)
        self.max_cycles = max_cycles
        self._config = (game, variant, league, players)
        self.game = realm_engines.Game(game, variant, league, players, 0)
        name = name or f"{game.replace('-', '_')}_v0"
        self.metadata = dict(self.metadata, name=name)
        self.possible_agents = [f"player_{i}" for i in range(self.game.n_players)]
        space = observation_space(self.game)
        self.observation_spaces = {a: space for a in self.possible_agents}
        action = spaces.Discrete(self.game.n_actions)
        self.action_spaces = {a: action for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        game, variant, league, players = self._config
        self.game = realm_engines.Game(game, variant, league, players, _seed_of(seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.to_move]
        self.steps = 0

    def observe(self, agent: str) -> dict:
        return self.game.observe(self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.game.apply(int(action))
        self.steps += 1
        if self.game.is_over:
            outcome = self.game.outcome()
            for a, r in zip(self.possible_agents, realm_engines.rewards(outcome["ranks"])):
                self.rewards[a] = float(r)
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome}
            self._select_after(agent)
        elif self.steps >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
            self._select_after(agent)
        else:
            self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()

    def _select_after(self, agent: str) -> None:
        # Every agent then takes its dead step, starting after the last mover.
        i = self.possible_agents.index(agent)
        self.agent_selection = self.possible_agents[(i + 1) % len(self.possible_agents)]

    def render(self) -> Any:
        """The position in ``render_mode``: the text board ("ansi"), an HxWx3 uint8 picture
        ("rgb_array"), or the text board printed ("human", returns None)."""
        return _render(self.game, self.render_mode)

    def close(self) -> None:
        pass


def aec_module(name: str, game: str, variant: Optional[str] = None, doc: str = ""):
    """``(raw_env, env)`` of a PettingZoo environment module: ``raw_env`` the environment
    class (its game and variant fixed), ``env`` it with PettingZoo's usual wrappers."""

    def __init__(self, **kwargs: Any) -> None:
        if variant is not None:
            if "variant" in kwargs:
                raise TypeError(f"{name} is the {variant} variant: it takes no variant=")
            kwargs["variant"] = variant
        RealmAEC.__init__(self, game, name=name, **kwargs)

    raw_env = type(
        "raw_env",
        (RealmAEC,),
        {
            "__init__": __init__,
            "__doc__": doc,
            "__module__": f"{__name__}.{name}",
            "metadata": dict(RealmAEC.metadata, name=name),
        },
    )

    def env(**kwargs: Any) -> AECEnv:
        return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))

    env.__doc__ = f"{doc}\n\nWrapped as PettingZoo wraps its own (order enforced, actions in bounds)."
    return raw_env, env


def _flat_box(game: realm_engines.Game) -> spaces.Box:
    """The board planes then the scalars, as one float32 vector."""
    low, high = (np.array(b, dtype=np.float32) for b in game.scalar_bounds)
    board = int(np.prod(game.board_shape))
    return spaces.Box(
        np.concatenate([np.zeros(board, np.float32), low]),
        np.concatenate([np.full(board, 255, np.float32), high]),
        dtype=np.float32,
    )


def flatten_observation(observation: dict) -> np.ndarray:
    """A nested observation (``Game.observe``) as ``RealmGym(..., flatten=True)`` observes it:
    the board planes (C order) then the scalars, one float32 vector. A trained agent that
    plays as a realm bot uses it to observe as it did in training."""
    inner = observation["observation"]
    return np.concatenate(
        [inner["board"].reshape(-1).astype(np.float32), inner["scalars"]]
    )


class RealmGym(gymnasium.Env):
    """One seat of a realm game as a Gymnasium environment; the other seats are realm bots
    (``opponent="builtin:greedy"``, any built-in, or a command line; a list gives one per
    other seat) and realm's referee judges.

    An illegal action ends the episode as a loss (reward -1, ``info["illegal_action"]``), as an
    invalid answer loses on CodinGame; otherwise the reward is 0 until the end and then the
    seat's ``realm_engines.rewards`` value.

    Observations: nested (``{"observation": {"board", "scalars"}, "action_mask"}``) by
    default; ``flatten=True`` gives one float32 Box (the board planes, then the scalars) for
    Stable-Baselines3 and MaskablePPO, which reads the mask from ``action_masks()``; with
    ``mask_in_observation=True`` as well, ``{"observations": Box, "action_mask": Box}`` (a
    float32 mask), the form RLlib's action-masking modules read.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(
        self,
        game: str,
        opponent: Any = "builtin:greedy",
        seat: int = 0,
        variant: Optional[str] = None,
        league: Optional[int] = None,
        players: Optional[int] = None,
        render_mode: Optional[str] = None,
        flatten: bool = False,
        mask_in_observation: bool = False,
    ):
        super().__init__()
        if mask_in_observation and not flatten:
            raise ValueError("mask_in_observation=True needs flatten=True")
        self.render_mode = _check_render_mode(render_mode)
        probe = realm_engines.Game(game, variant, league, players, 0)
        n = probe.n_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat of a {n}-player game")
        opponents = [opponent] * (n - 1) if isinstance(opponent, str) else list(opponent)
        if len(opponents) != n - 1:
            raise ValueError(f"{len(opponents)} opponents given for {n - 1} other seats")
        self._bots = opponents[:seat] + [None] + opponents[seat:]
        self._config = (game, variant, league)
        self.seat = seat
        self.flatten = flatten
        self.mask_in_observation = mask_in_observation
        if not flatten:
            self.observation_space = observation_space(probe)
        elif mask_in_observation:
            mask = spaces.Box(0.0, 1.0, (probe.n_actions,), np.float32)
            self.observation_space = spaces.Dict(
                {"observations": _flat_box(probe), "action_mask": mask}
            )
        else:
            self.observation_space = _flat_box(probe)
        self.action_space = spaces.Discrete(probe.n_actions)
        self.session: Optional[realm_engines.Session] = None
        self._final: Optional[dict] = None
        self._mask = np.zeros(probe.n_actions, np.int8)

    def _shaped(self, observation: dict) -> Any:
        """The observation in this environment's form; keeps its mask for action_masks()."""
        self._mask = observation["action_mask"]
        if not self.flatten:
            return observation
        flat = flatten_observation(observation)
        if self.mask_in_observation:
            return {"observations": flat, "action_mask": self._mask.astype(np.float32)}
        return flat

    def _observation(self) -> Any:
        return self._shaped(self.session.position().observe(self.seat))

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (what sb3-contrib's MaskablePPO asks for)."""
        return self._mask.astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        game, variant, league = self._config
        match_seed = int(self.np_random.integers(2**63)) if seed is None else int(seed)
        self.session = realm_engines.Session(game, self._bots, variant, league, match_seed)
        self._final = None
        return self._observation(), {}

    def step(self, action: Any):
        if self.session is None or self._final is not None:
            raise RuntimeError("the episode is over: call reset()")
        position = self.session.position()
        if int(action) not in position.legal_actions():
            observation = position.observe(self.seat)
            observation["action_mask"] = np.zeros_like(observation["action_mask"])
            self._final = {"illegal_action": True}
            return self._shaped(observation), -1.0, True, False, dict(self._final)
        self.session.play(int(action))
        observation = self._observation()
        if self.session.agent is None:
            outcome = self.session.outcome()
            self._final = {"outcome": outcome}
            reward = float(realm_engines.rewards(outcome["ranks"])[self.seat])
            return observation, reward, True, False, dict(self._final)
        return observation, 0.0, False, False, {}

    def render(self) -> Any:
        """The position the seat acts in (or the final one), as ``RealmAEC.render``; None
        before the first ``reset()``."""
        position = None if self.session is None else self.session.position()
        return _render(position, self.render_mode)


from realm_engines.envs import (  # noqa: E402  (the modules use the classes above)
    blocking_classic_v0,
    blocking_duo_v0,
    blocking_v0,
    carcassonne_v0,
    ice_and_fire_v0,
    kingdom_builder_v0,
    kingdomino_v0,
)
