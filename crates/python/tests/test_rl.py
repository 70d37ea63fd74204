"""What RL libraries take: Gymnasium ids, PettingZoo's module convention, truncation, and the
flat observations of Stable-Baselines3, sb3-contrib's MaskablePPO and RLlib.

The Stable-Baselines3 tests need the `[rl]` extra (torch, about 5 GB with its CUDA libraries;
CI installs it); without it they are skipped.
"""

import importlib
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo import AECEnv
from pettingzoo.test import api_test

import realm_engines
from realm_engines import envs

from conftest import rl_library

MODULES = envs.AEC_MODULES


@pytest.mark.parametrize("name", sorted(realm_engines.GYM_IDS))
def test_every_game_is_registered_with_gymnasium(name):
    env = gymnasium.make(f"realm_engines/{name}", opponent="builtin:random")
    assert env.spec.id == f"realm_engines/{name}"
    obs, _ = env.reset(seed=3)
    legal = np.flatnonzero(obs["action_mask"])
    obs, reward, terminated, truncated, info = env.step(int(legal[0]))
    assert not truncated and "illegal_action" not in info
    expected = realm_engines.GYM_IDS[name]
    game = env.unwrapped.session.position()
    assert (game.game, game.variant) == (expected["game"], expected.get("variant"))


def test_gym_make_passes_its_arguments_on():
    env = gymnasium.make("realm_engines/Kingdomino-v0", players=3, seat=1, flatten=True)
    assert env.unwrapped.session is None and env.unwrapped.seat == 1
    obs, _ = env.reset(seed=1)
    assert env.unwrapped.session.position().n_players == 3
    assert obs.shape == env.observation_space.shape


@pytest.mark.parametrize("name", MODULES)
def test_pettingzoo_modules_follow_the_convention(name):
    module = importlib.import_module(f"realm_engines.envs.{name}")
    assert issubclass(module.raw_env, AECEnv)
    assert module.raw_env.metadata["name"] == name
    raw = module.raw_env()
    assert raw.metadata["name"] == name
    wrapped = module.env()
    assert wrapped.unwrapped.metadata["name"] == name
    # Turn-based games: PettingZoo's aec_to_parallel does not apply (documented).
    assert not hasattr(module, "parallel_env")
    assert raw.metadata["is_parallelizable"] is False


def test_metadata_names_are_distinct():
    names = [importlib.import_module(f"realm_engines.envs.{m}").env().metadata["name"] for m in MODULES]
    assert names == list(MODULES)


def test_a_variant_module_refuses_another_variant():
    with pytest.raises(TypeError, match="blocking_duo_v0 is the duo variant"):
        envs.blocking_duo_v0.env(variant="classic")


def test_max_cycles_truncates_every_agent():
    env = envs.kingdomino_v0.env(players=3, max_cycles=5)
    env.reset(seed=2)
    steps, ended = 0, {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            ended[agent] = (terminated, truncated, reward)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 5 and not env.agents
    assert ended == {a: (False, True, 0.0) for a in env.possible_agents}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(envs.carcassonne_v0.env(max_cycles=7), num_cycles=50)
    with pytest.raises(ValueError, match="max_cycles"):
        envs.kingdomino_v0.env(max_cycles=0)


FLAT_CASES = [
    ("kingdomino", {"opponent": "builtin:random"}),
    ("blocking", {"variant": "duo", "seat": 1}),
    ("ice-and-fire", {"league": 1}),
    ("carcassonne", {"players": 3, "opponent": "builtin:random"}),
    ("kingdom-builder", {"players": 2, "opponent": "builtin:random"}),
]


@pytest.mark.parametrize("game,kwargs", FLAT_CASES, ids=[g for g, _ in FLAT_CASES])
def test_flat_observations_are_the_nested_ones_in_one_box(game, kwargs):
    nested = envs.RealmGym(game, **kwargs)
    flat = envs.RealmGym(game, flatten=True, **kwargs)
    rllib = envs.RealmGym(game, flatten=True, mask_in_observation=True, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(flat, skip_render_check=True)
        check_env(rllib, skip_render_check=True)
    assert [str(w.message) for w in caught] == []
    assert isinstance(flat.observation_space, gymnasium.spaces.Box)
    assert set(rllib.observation_space.spaces) == {"observations", "action_mask"}
    (a, _), (b, _), (c, _) = (e.reset(seed=4) for e in (nested, flat, rllib))
    rng = np.random.default_rng(4)
    for _ in range(6):
        board, scalars = a["observation"]["board"], a["observation"]["scalars"]
        assert np.array_equal(b, np.concatenate([board.reshape(-1), scalars]).astype(np.float32))
        assert np.array_equal(c["observations"], b)
        assert np.array_equal(c["action_mask"], a["action_mask"].astype(np.float32))
        for env in (nested, flat, rllib):
            assert np.array_equal(env.action_masks(), a["action_mask"] == 1)
        assert flat.observation_space.contains(b) and rllib.observation_space.contains(c)
        action = int(rng.choice(np.flatnonzero(a["action_mask"])))
        (a, ra, da, *_), (b, rb, db, *_), (c, rc, dc, *_) = (
            e.step(action) for e in (nested, flat, rllib)
        )
        assert ra == rb == rc and da == db == dc
        if da:
            break
    with pytest.raises(ValueError, match="mask_in_observation=True needs flatten=True"):
        envs.RealmGym(game, mask_in_observation=True, **kwargs)


def sb3_check(env):
    """Stable-Baselines3's checks: its env checker's warnings, and the nested-space test its
    algorithms run before they start (which raises)."""
    from stable_baselines3.common.env_checker import check_env as sb3_check_env
    from stable_baselines3.common.preprocessing import check_for_nested_spaces

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_check_env(env, warn=True)
    check_for_nested_spaces(env.observation_space)
    return [str(w.message) for w in caught]


def test_stable_baselines3_takes_the_flat_forms():
    rl_library("stable_baselines3")
    for game, kwargs in FLAT_CASES:
        for form in ({}, {"mask_in_observation": True}):
            messages = sb3_check(envs.RealmGym(game, flatten=True, **form, **kwargs))
            assert not [m for m in messages if "Nested" in m or "bound" in m], messages
    with pytest.raises(NotImplementedError, match="Nested observation spaces are not supported"):
        sb3_check(envs.RealmGym("kingdomino"))


def test_maskable_ppo_learns_on_the_flat_form():
    sb3_contrib = rl_library("sb3_contrib")
    env = envs.RealmGym("kingdomino", opponent="builtin:random", flatten=True)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0)
    model.learn(total_timesteps=256)
    obs, _ = env.reset(seed=9)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]
