"""realm's game engines for Python.

``realm_engines.Game`` is one position of a realm game with integer action ids, observations as numpy
arrays and fast random playouts; ``realm_engines.envs`` has PettingZoo and Gymnasium environments over
it; ``realm_engines.play`` runs a whole match with built-in bots, bot processes and Python callables.
The encodings of every game are documented in the package's README.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from realm_engines import _realm

__version__ = _realm.__version__

# Gymnasium ids (gym.make("realm_engines/Kingdomino-v0")): game, variant and the default
# player count of each; gym.make's keyword arguments (players=, league=, opponent=, seat=,
# flatten=, ...) go to envs.RealmGym.
GYM_IDS = {
    "Kingdomino-v0": dict(game="kingdomino"),
    "KingdominoDuel-v0": dict(game="kingdomino", variant="duel"),
    "Blocking-v0": dict(game="blocking"),
    "BlokusDuo-v0": dict(game="blocking", variant="duo"),
    "BlokusClassic-v0": dict(game="blocking", variant="classic"),
    "IceAndFire-v0": dict(game="ice-and-fire"),
    "Carcassonne-v0": dict(game="carcassonne"),
    "KingdomBuilder-v0": dict(game="kingdom-builder"),
}


def _register_gym_ids() -> None:
    import gymnasium

    for name, kwargs in GYM_IDS.items():
        env_id = f"realm_engines/{name}"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="realm_engines.envs:RealmGym", kwargs=kwargs)


_register_gym_ids()
__all__ = ["Game", "Session", "play", "games", "rewards"]


def games() -> list:
    """The playable games: ``(slug, title, [(variant or None, [player counts]), ...])``."""
    return _realm.games()


def rewards(ranks: Sequence[int]) -> list:
    """Zero-sum rewards from ranks (1 = best): for each player, the share of opponents it
    beat minus the share that beat it, so +1 for a clear win and 0 for a two-player draw."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    return [
        (sum(r < o for o in ranks) - sum(o < r for o in ranks)) / (n - 1) for r in ranks
    ]


class Game:
    """One position of a game.

    ``Game("blocking", variant="duo", seed=3)``; ``players`` defaults to the variant's first
    player count. Actions are integer ids below ``n_actions``; ``legal_actions()`` lists the
    legal ones of the player to move. A Game pickles (as its spec and history, replayed when
    unpickled), so positions go to ``multiprocessing`` workers.
    """

    __slots__ = ("_g",)

    def __init__(
        self,
        game: str,
        variant: Optional[str] = None,
        league: Optional[int] = None,
        players: Optional[int] = None,
        seed: int = 0,
    ):
        self._g = _realm.Game(game, variant, league, players, seed)

    @classmethod
    def _wrap(cls, inner: Any) -> "Game":
        game = cls.__new__(cls)
        game._g = inner
        return game

    game = property(lambda self: self._g.game)
    variant = property(lambda self: self._g.variant)
    league = property(lambda self: self._g.league)
    seed = property(lambda self: self._g.seed)
    n_players = property(lambda self: self._g.n_players)
    to_move = property(lambda self: self._g.to_move, doc="The seat to act, None at the end.")
    is_over = property(lambda self: self._g.is_over)
    n_actions = property(lambda self: self._g.n_actions)
    board_shape = property(lambda self: self._g.board_shape)
    n_scalars = property(lambda self: self._g.n_scalars)
    scalar_bounds = property(
        lambda self: self._g.scalar_bounds,
        doc="(lowest, highest) value of each scalar, derived from the rules.",
    )

    def legal_actions(self) -> list:
        return self._g.legal_actions()

    def action_text(self, action: int) -> str:
        """The protocol text of a legal action (its lines joined by newlines)."""
        return self._g.action_text(action)

    def action_id(self, text: str) -> int:
        """The legal action whose protocol text is ``text``."""
        return self._g.action_id(text)

    def closes_answer(self, action: int) -> bool:
        """True when this action ends the player's answer to one call of the referee."""
        return self._g.closes_answer(action)

    def apply(self, action: int) -> None:
        self._g.apply(int(action))

    def clone(self) -> "Game":
        return Game._wrap(self._g.clone())

    __copy__ = clone

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.clone()

    def outcome(self) -> dict:
        """Scores, ranks (1 = best), how the game ended, faults; final once over."""
        return json.loads(self._g.outcome_json())

    def random_playout(self, seed: int = 0) -> int:
        """Plays random legal actions to the end, in Rust; returns how many were played."""
        return self._g.random_playout(seed)

    def random_playouts(self, n: int, seed: int = 0) -> int:
        """Plays ``n`` random games from here without changing this position; returns the
        total number of actions."""
        return self._g.random_playouts(n, seed)

    def observe(self, player: int) -> dict:
        """What ``player`` may see: ``{"observation": {"board", "scalars"}, "action_mask"}``."""
        board, scalars, mask = self._g.observe_raw(player)
        return {
            "observation": {
                "board": np.frombuffer(board, dtype=np.uint8).reshape(self._g.board_shape),
                "scalars": np.frombuffer(scalars, dtype="<f4"),
            },
            "action_mask": np.frombuffer(mask, dtype=np.int8),
        }

    def text_board(self) -> str:
        """The position as text: a header line (scores, the seat to move), then the board in
        the game's own terms (the protocol's rows where it has them)."""
        return self._g.text_board()

    def render_rgb(self) -> np.ndarray:
        """The board as realm's viewer draws it: a (height, width, 3) uint8 array, the same
        shape at every position of a match."""
        height, width, rgb = self._g.render_rgb()
        return np.frombuffer(rgb, dtype=np.uint8).reshape(height, width, 3)

    def reshuffle_hidden(self, seed: int) -> None:
        """Redraws what no player has seen (a determinization); no-op with perfect information."""
        self._g.reshuffle_hidden(seed)

    def __reduce__(self):
        # The spec and the actions (and reshuffles, playouts, a Session's referee answers) that
        # led here, replayed when unpickled: deterministic, and independent of the engines'
        # memory layout.
        return (_restore_game, (self._g.saved(),))

    def __repr__(self) -> str:
        return repr(self._g)


def _restore_game(saved: str) -> Game:
    """Unpickles a ``Game`` (see ``Game.__reduce__``)."""
    return Game._wrap(_realm.Game.restore(saved))


class Session:
    """A match where the seats given as ``None`` in ``bots`` are played from Python one action
    at a time, the others by realm bots (``builtin:NAME`` or a command), realm's referee
    judging. Bots play as soon as it is their turn."""

    __slots__ = ("_s",)

    def __init__(
        self,
        game: str,
        bots: Sequence[Optional[str]],
        variant: Optional[str] = None,
        league: Optional[int] = None,
        seed: int = 0,
    ):
        self._s = _realm.Session(game, list(bots), variant, league, seed)

    agent = property(lambda self: self._s.agent, doc="The seat to act, None at the end.")

    def position(self) -> Game:
        """The agent's position (the final position once the match is over)."""
        return Game._wrap(self._s.position())

    def play(self, action: int) -> None:
        self._s.play(int(action))

    def outcome(self) -> dict:
        return json.loads(self._s.outcome_json())

    def __reduce__(self):
        raise TypeError(
            "a Session cannot be pickled: its bot seats are running processes or in-process "
            "bots with state of their own; pickle session.position() (a Game) instead"
        )


Bot = Union[str, Callable[[list], Union[str, list]]]


def play(
    game: str,
    bots: Sequence[Bot],
    seed: int = 0,
    variant: Optional[str] = None,
    league: Optional[int] = None,
    time_scale: float = 1.0,
    no_timeout: bool = False,
    replay: Optional[str] = None,
) -> dict:
    """Plays one match through realm's match loop.

    Each bot is ``"builtin:NAME"``, a command line (run through ``sh -c``) or a Python callable
    taking the lines of one call and returning the answer (a str or a list of str). Returns
    ``{"outcome": ..., "replay": ...}``; ``replay=PATH`` also writes the replay for
    ``realm view``.
    """
    outcome, replay_json = _realm.play_json(
        game, list(bots), seed, variant, league, time_scale, no_timeout, replay
    )
    return {"outcome": json.loads(outcome), "replay": json.loads(replay_json)}
