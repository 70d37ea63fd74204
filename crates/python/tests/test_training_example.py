"""The training example (examples/python/train_blokus_duo.py) end to end, in small: a few
hundred steps of PPO, the weights it writes, and the saved agent (examples/python/agent.py)
playing a whole legal game as a realm bot. The full training is measured, not tested
(STRENGTH.md). Needs torch (the `[rl]` extra), which CI installs."""

import importlib.util
import json
import subprocess
import sys

import numpy as np
import pytest

import realm_engines
from realm_engines.envs import flatten_observation

from conftest import ROOT, rl_library

EXAMPLES = ROOT / "examples" / "python"


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    rl_library("torch")
    out = tmp_path_factory.mktemp("agent") / "agent"
    command = [sys.executable, str(EXAMPLES / "train_blokus_duo.py"), "--steps", "256"]
    command += ["--envs", "4", "--rollout", "32", "--eval-games", "2", "--out", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr
    return out, run.stdout


def test_the_script_trains_and_reports_both_opponents(trained):
    out, stdout = trained
    assert "trained on 256 steps" in stdout
    for opponent in ("builtin:random", "builtin:greedy"):
        line = next(s for s in stdout.splitlines() if s.startswith(f"against {opponent}:"))
        assert "of 2" in line and "95% interval" in line
    assert out.with_suffix(".pt").is_file() and out.with_suffix(".npz").is_file()


def test_the_numpy_agent_computes_the_trained_networks_logits(trained):
    import torch

    out, _ = trained
    train, agent = load("train_blokus_duo"), load("agent")
    game = realm_engines.Game("blocking", variant="duo")
    planes, size, _ = game.board_shape
    network = train.Agent(planes, size, game.n_scalars, game.n_actions, 32)
    network.load_state_dict(torch.load(out.with_suffix(".pt")))
    policy = agent.Policy(out.with_suffix(".npz"))
    compared = 0
    while not game.is_over:
        observation = game.observe(game.to_move)
        flat, mask = flatten_observation(observation), observation["action_mask"] == 1
        with torch.no_grad():
            logits, _ = network(torch.as_tensor(flat)[None], torch.as_tensor(mask)[None])
        expected = logits[0].numpy()
        assert np.allclose(policy.logits(flat)[mask], expected[mask], atol=1e-4)
        action = policy.best_action(flat, mask)
        assert action == int(expected.argmax()) and mask[action]
        game.apply(action)
        compared += 1
    assert compared >= 10


def play_duo(realm_bin, seats, seed):
    """One Blokus Duo match through `realm play --json` (limits far above any load); the
    match's JSON line once realm exits cleanly."""
    run = subprocess.run(
        [realm_bin, "play", "blocking", *seats, "--variant", "duo", "--seed", str(seed)]
        + ["--json", "--time-scale", "100"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_saved_agent_plays_a_legal_game_as_a_realm_bot(trained, realm_bin):
    out, _ = trained
    bot = f"{sys.executable} {EXAMPLES / 'agent.py'} {out.with_suffix('.npz')}"
    for seats in ([bot, "builtin:greedy"], ["builtin:greedy", bot]):
        result = play_duo(realm_bin, seats, seed=5)
        assert result["errors"] == [0, 0], result
        assert sorted(result["ranks"]) in ([0, 0], [0, 1])


def test_the_committed_agent_plays_as_a_realm_bot(realm_bin):
    """examples/python/blokus_duo_agent.npz, the full training's agent, is what `realm play
    blocking "python3 examples/python/agent.py" ...` plays: numpy only."""
    bot = f"{sys.executable} {EXAMPLES / 'agent.py'}"
    result = play_duo(realm_bin, [bot, "builtin:random"], seed=3)
    assert result["errors"] == [0, 0], result
