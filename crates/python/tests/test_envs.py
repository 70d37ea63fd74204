"""The PettingZoo and Gymnasium environments, checked by the libraries' own checkers."""

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test

import realm_engines
from realm_engines import envs

AEC_FACTORIES = [
    ("kingdomino_v0", envs.kingdomino_v0.env, {}),
    ("kingdomino_v0-4p", envs.kingdomino_v0.env, {"players": 4}),
    ("kingdomino_v0-duel", envs.kingdomino_v0.env, {"variant": "duel"}),
    ("blocking_v0", envs.blocking_v0.env, {"players": 3}),
    ("blocking_duo_v0", envs.blocking_duo_v0.env, {}),
    ("blocking_classic_v0", envs.blocking_classic_v0.env, {}),
    ("ice_and_fire_v0-league1", envs.ice_and_fire_v0.env, {"league": 1}),
    ("ice_and_fire_v0", envs.ice_and_fire_v0.env, {}),
    ("carcassonne_v0", envs.carcassonne_v0.env, {}),
    ("carcassonne_v0-3p", envs.carcassonne_v0.env, {"players": 3, "league": 2}),
    ("carcassonne_v0-raw", envs.carcassonne_v0.raw_env, {}),
    ("kingdom_builder_v0", envs.kingdom_builder_v0.env, {}),
    ("kingdom_builder_v0-4p-league1", envs.kingdom_builder_v0.env, {"players": 4, "league": 1}),
]


@pytest.mark.parametrize("factory,kwargs", [f[1:] for f in AEC_FACTORIES], ids=[f[0] for f in AEC_FACTORIES])
def test_pettingzoo_api_test(factory, kwargs):
    env = factory(**kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=300)


@pytest.mark.parametrize("factory,kwargs", [f[1:] for f in AEC_FACTORIES], ids=[f[0] for f in AEC_FACTORIES])
def test_pettingzoo_render_test(factory, kwargs, capsys):
    render_test(lambda render_mode: factory(render_mode=render_mode, **kwargs))
    # "human" printed the text board (its header line first) and returned None.
    assert capsys.readouterr().out.startswith("scores 0:")


def test_render_modes_are_checked_and_listed():
    with pytest.raises(ValueError, match="render_mode 'video' is not supported"):
        envs.kingdomino_v0.env(render_mode="video")
    env = envs.blocking_duo_v0.env(render_mode="ansi")
    assert env.metadata["render_modes"] == ["ansi", "rgb_array", "human"]
    assert env.metadata["render_fps"] > 0
    env.reset(seed=2)
    text = env.render()
    assert text == env.unwrapped.game.text_board()
    assert text.splitlines()[0] == "scores 0:-89 1:-89 | seat 0 to move"
    assert text.splitlines()[1:] == ["." * 14] * 14
    assert envs.RealmGym("blocking", variant="duo").render() is None, "no episode yet"


@pytest.mark.parametrize("factory,kwargs", [f[1:] for f in AEC_FACTORIES], ids=[f[0] for f in AEC_FACTORIES])
def test_rgb_frames_keep_their_shape_over_a_whole_game(factory, kwargs):
    env = factory(render_mode="rgb_array", **kwargs)
    env.reset(seed=4)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    rng = np.random.default_rng(5)
    shapes, frames = set(), 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        frame = env.render()
        shapes.add(frame.shape)
        frames += 1
    assert shapes == {first.shape} and frames > 1
    # The last frame shows more than the first: seats' pieces, tiles, units or settlements.
    assert (frame != first).any()


def play_aec(env, seed, rng):
    """A whole game through the AEC loop with random legal actions; returns the final rewards."""
    env.reset(seed=seed)
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("factory,kwargs", [f[1:] for f in AEC_FACTORIES], ids=[f[0] for f in AEC_FACTORIES])
def test_a_full_game_through_the_aec_loop(factory, kwargs):
    env = factory(**kwargs)
    totals, steps = play_aec(env, 5, np.random.default_rng(1))
    assert steps > 0 and not env.agents
    assert abs(sum(totals.values())) < 1e-9
    assert max(totals.values()) > 0 or all(v == 0 for v in totals.values())
    # The rewards are those of the game played with the same seed and actions.
    game = env.unwrapped.game
    assert game.is_over
    assert [totals[a] for a in env.possible_agents] == realm_engines.rewards(game.outcome()["ranks"])


def test_aec_reset_with_a_seed_is_deterministic():
    env = envs.carcassonne_v0.env(players=2)
    first, _ = play_aec(env, 17, np.random.default_rng(3))
    outcome = env.unwrapped.game.outcome()
    second, _ = play_aec(env, 17, np.random.default_rng(3))
    assert first == second and env.unwrapped.game.outcome() == outcome


# The Gymnasium id of each game (its variants are keyword arguments).
GYM_NAMES = {
    "kingdomino": "Kingdomino-v0",
    "blocking": "Blocking-v0",
    "ice-and-fire": "IceAndFire-v0",
    "carcassonne": "Carcassonne-v0",
    "kingdom-builder": "KingdomBuilder-v0",
}

GYM_CASES = [
    ("kingdomino", {}),
    ("kingdomino", {"players": 3, "seat": 2, "opponent": "builtin:random"}),
    ("blocking", {"variant": "duo", "seat": 1}),
    ("blocking", {"variant": "classic", "players": 4, "opponent": "builtin:random"}),
    ("ice-and-fire", {"league": 2}),
    ("carcassonne", {"players": 2}),
    ("kingdom-builder", {"players": 3, "opponent": "builtin:random"}),
]


@pytest.mark.parametrize("game,kwargs", GYM_CASES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(GYM_CASES)])
def test_gymnasium_check_env(game, kwargs):
    # Made through gymnasium.make, so check_env also renders in every other declared mode.
    env_id = f"realm_engines/{GYM_NAMES[game]}"
    env = gymnasium.make(env_id, render_mode="rgb_array", disable_env_checker=True, **kwargs).unwrapped
    assert isinstance(env, envs.RealmGym) and env.spec.kwargs["render_mode"] == "rgb_array"
    # Not a warning either: the scalars' bounds are real ones (no infinities, none equal), and
    # the render modes and frame rate are declared.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert [str(w.message) for w in caught] == []


def play_gym(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
    return total, steps, info


@pytest.mark.parametrize("game,kwargs", GYM_CASES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(GYM_CASES)])
def test_a_full_episode_against_realm_bots(game, kwargs):
    env = envs.RealmGym(game, **kwargs)
    total, steps, info = play_gym(env, 8, np.random.default_rng(2))
    outcome = info["outcome"]
    assert steps > 0
    assert not any(outcome["faults"]), outcome
    assert total == realm_engines.rewards(outcome["ranks"])[env.seat]
    # The same seed and actions replay the same episode.
    again = play_gym(env, 8, np.random.default_rng(2))
    assert again[:2] == (total, steps) and again[2]["outcome"] == outcome


def test_gym_frames_keep_their_shape_over_an_episode():
    env = envs.RealmGym("carcassonne", render_mode="rgb_array", opponent="builtin:random")
    obs, _ = env.reset(seed=3)
    first = env.render()
    rng = np.random.default_rng(4)
    done, shapes = False, set()
    while not done:
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        shapes.add(env.render().shape)
    assert shapes == {first.shape}
    text = envs.RealmGym("carcassonne", render_mode="ansi")
    text.reset(seed=3)
    assert text.render().splitlines()[0] == "scores 0:0 1:0 | seat 0 to move"


def test_greedy_beats_random_play_in_the_gym_wrapper():
    # A random agent against builtin:greedy at Blokus Duo loses nearly every game.
    env = envs.RealmGym("blocking", variant="duo", opponent="builtin:greedy")
    rng = np.random.default_rng(0)
    results = [play_gym(env, seed, rng)[0] for seed in range(6)]
    assert sum(r < 0 for r in results) >= 5


def test_an_illegal_action_loses_the_episode():
    env = envs.RealmGym("kingdomino")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})
    assert not obs["action_mask"].any()
    with pytest.raises(RuntimeError):
        env.step(0)


def test_session_answers_one_call_from_several_actions():
    # Ice and Fire: an agent's commands go to the referee as one line when it ends its turn.
    session = realm_engines.Session("ice-and-fire", [None, "builtin:greedy"], league=1, seed=4)
    position = session.position()
    gold = position.observe(0)["observation"]["scalars"][2]
    train = next(a for a in position.legal_actions() if position.action_text(a).startswith("TRAIN"))
    session.play(train)
    assert session.agent == 0  # still our phase: the answer is not sent yet
    assert session.position().observe(0)["observation"]["scalars"][2] == gold - 10
    session.play(1296)  # WAIT ends the phase; greedy plays, and it is our turn again
    assert session.agent == 0
    board = session.position().observe(0)["observation"]["board"]
    assert board[3 + 2].sum() == 1  # our one level-1 unit
    assert board[9 + 2].sum() >= 1  # greedy trained too
