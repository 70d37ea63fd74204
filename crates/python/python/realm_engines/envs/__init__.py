"""PettingZoo and Gymnasium environments over realm's engines.

Every environment observes ``{"observation": {"board": uint8 planes, "scalars": float32},
"action_mask": int8}`` from the acting player's point of view (players ordered from the
observer on) and acts with integer ids over the game's fixed action space (the encodings are
in the package README). A finished game gives every player the zero-sum reward of
``realm_engines.rewards`` (+1 a clear win, -1 a clear loss, 0 a two-player draw).
"""

from __future__ import annotations

import secrets
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import realm_engines

__all__ = [
    "RealmAEC",
    "RealmGym",
    "kingdomino_v0",
    "blocking_v0",
    "blocking_duo_v0",
    "blocking_classic_v0",
    "ice_and_fire_v0",
    "carcassonne_v0",
]


def observation_space(game: realm_engines.Game) -> spaces.Dict:
    """The observation space of ``game``'s positions."""
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


def _check_render_mode(render_mode: Optional[str]) -> Optional[str]:
    if render_mode not in (None, "ansi"):
        raise ValueError(f"render_mode {render_mode!r} is not supported (use 'ansi')")
    return render_mode


def _seed_of(seed: Optional[int]) -> int:
    return secrets.randbits(63) if seed is None else int(seed)


class RealmAEC(AECEnv):
    """Any realm game as a PettingZoo AEC environment: one agent per seat, ``player_0`` first.

    The agent to act is the seat the rules name: players without a legal move are skipped
    (Blocking), and in Ice and Fire one agent acts several times in a row (each command is an
    action; id 1296, WAIT, ends the turn). ``reset(seed=S)`` plays realm's game of seed S.
    """

    metadata = {"render_modes": ["ansi"], "name": "realm_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        variant: Optional[str] = None,
        league: Optional[int] = None,
        players: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        self.render_mode = _check_render_mode(render_mode)
        self._config = (game, variant, league, players)
        self.game = realm_engines.Game(game, variant, league, players, 0)
        self.metadata = dict(self.metadata, name=f"{game.replace('-', '_')}_v0")
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
        if self.game.is_over:
            outcome = self.game.outcome()
            for a, r in zip(self.possible_agents, realm_engines.rewards(outcome["ranks"])):
                self.rewards[a] = float(r)
                self.terminations[a] = True
                self.infos[a] = {"outcome": outcome}
            # Every agent then takes its dead step, starting after the last mover.
            i = self.possible_agents.index(agent)
            self.agent_selection = self.possible_agents[(i + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            outcome = self.game.outcome()
            return f"{self.game!r} scores={outcome['scores']}"
        return None

    def close(self) -> None:
        pass


class RealmGym(gymnasium.Env):
    """One seat of a realm game as a Gymnasium environment; the other seats are realm bots
    (``opponent="builtin:greedy"``, any built-in, or a command line; a list gives one per
    other seat) and realm's referee judges.

    An illegal action ends the episode as a loss (reward -1, ``info["illegal_action"]``), as an
    invalid answer loses on CodinGame; otherwise the reward is 0 until the end and then the
    seat's ``realm_engines.rewards`` value.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        opponent: Any = "builtin:greedy",
        seat: int = 0,
        variant: Optional[str] = None,
        league: Optional[int] = None,
        players: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
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
        self.observation_space = observation_space(probe)
        self.action_space = spaces.Discrete(probe.n_actions)
        self.session: Optional[realm_engines.Session] = None
        self._final: Optional[dict] = None

    def _observation(self) -> dict:
        return self.session.position().observe(self.seat)

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
            return observation, -1.0, True, False, dict(self._final)
        self.session.play(int(action))
        observation = self._observation()
        if self.session.agent is None:
            outcome = self.session.outcome()
            self._final = {"outcome": outcome}
            reward = float(realm_engines.rewards(outcome["ranks"])[self.seat])
            return observation, reward, True, False, dict(self._final)
        return observation, 0.0, False, False, {}

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi" and self.session is not None:
            return repr(self.session.position())
        return None


def kingdomino_v0(**kwargs: Any) -> RealmAEC:
    """Kingdomino (``players`` 2-4; ``variant="duel"`` for the Mighty Duel; ``league``)."""
    return RealmAEC("kingdomino", **kwargs)


def blocking_v0(**kwargs: Any) -> RealmAEC:
    """CodinGame's Blocking on 13×13 (``players`` 2-4), or ``variant="duo"``/``"classic"``."""
    return RealmAEC("blocking", **kwargs)


def blocking_duo_v0(**kwargs: Any) -> RealmAEC:
    """Blokus Duo: 14×14, two players."""
    return RealmAEC("blocking", variant="duo", **kwargs)


def blocking_classic_v0(**kwargs: Any) -> RealmAEC:
    """Blokus Classic: 20×20, four players."""
    return RealmAEC("blocking", variant="classic", **kwargs)


def ice_and_fire_v0(**kwargs: Any) -> RealmAEC:
    """A Code of Ice and Fire (two players; ``league`` 1-4, default the full rules)."""
    return RealmAEC("ice-and-fire", **kwargs)


def carcassonne_v0(**kwargs: Any) -> RealmAEC:
    """Carcassonne (``players`` 2-4; ``league``)."""
    return RealmAEC("carcassonne", **kwargs)
