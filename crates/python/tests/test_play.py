"""Whole matches from Python: built-in bots, bot processes and Python callables."""

import json
import os
import random
import subprocess
import sys
import threading

import numpy as np
import pytest

import realm_engines
from conftest import ROOT


def test_replay_is_byte_identical_to_realm_play(tmp_path, realm_bin):
    ours = tmp_path / "python.json"
    theirs = tmp_path / "cli.json"
    result = realm_engines.play(
        "kingdomino", ["builtin:greedy", "builtin:random"], seed=7, replay=str(ours)
    )
    subprocess.run(
        [realm_bin, "play", "kingdomino", "builtin:greedy", "builtin:random",
         "--seed", "7", "--replay", str(theirs)],
        check=True, capture_output=True,
    )
    assert ours.read_bytes() == theirs.read_bytes()
    assert result["replay"]["outcome"] == result["outcome"]
    assert [p["name"] for p in result["replay"]["players"]] == ["builtin:greedy", "builtin:random"]


def deal_of(game):
    """Kingdomino: the line to pick from in each turn, from the observations."""
    deal, rng = {}, random.Random(0)
    while not game.is_over:
        scalars = game.observe(0)["observation"]["scalars"]
        deal[int(scalars[0])] = [int(scalars[3 + (4 + k) * 6]) for k in range(4)]
        game.apply(rng.choice(game.legal_actions()))
    return deal


def test_a_negative_seed_is_the_referees_game_of_that_seed(tmp_path, realm_bin):
    # CodinGame's seeds are Java longs: `realm referee -seed -5` plays the same 64 bits.
    replay = tmp_path / "referee.json"
    bot = f"{realm_bin} bot kingdomino random"
    subprocess.run(
        [realm_bin, "referee", "kingdomino", "-p1", bot, "-p2", bot, "-seed", "-5",
         "--replay", str(replay), "--no-timeout"],
        check=True, capture_output=True,
    )
    recorded = json.loads(replay.read_text())
    game = realm_engines.Game("kingdomino", seed=-5)
    assert game.seed == recorded["spec"]["seed"] == 2**64 - 5
    # The deal depends on the seed alone: each turn's line to pick from is the referee's.
    dealt = {t["frame"]["turn"]: [s["id"] for s in t["frame"]["next"]] for t in recorded["turns"]}
    ours = deal_of(game)
    assert ours == dealt
    assert ours != deal_of(realm_engines.Game("kingdomino", seed=5))
    # Sessions and matches take the same seeds.
    start = realm_engines.Game("kingdomino", seed=-5).observe(0)["observation"]["scalars"]
    session = realm_engines.Session("kingdomino", [None, "builtin:random"], seed=-5)
    assert np.array_equal(session.position().observe(0)["observation"]["scalars"], start)
    result = realm_engines.play("kingdomino", ["builtin:random", "builtin:random"], seed=-5)
    assert result["replay"]["spec"]["seed"] == 2**64 - 5


def test_seeds_outside_64_bits_are_value_errors():
    for seed in (2**64, -(2**63) - 1, 10**40, "7"):
        with pytest.raises(ValueError, match="is not a 64-bit integer"):
            realm_engines.Game("blocking", seed=seed)
    assert realm_engines.Game("blocking", seed=-(2**63)).seed == 2**63
    assert realm_engines.Game("blocking", seed=2**64 - 1).seed == 2**64 - 1


def last_valid_move(lines):
    """A Blocking bot: the protocol lists the valid moves last, so play the last one."""
    return lines[-1]


def test_python_callables_play_through_the_referee(tmp_path):
    replay = tmp_path / "callable.json"
    result = realm_engines.play(
        "blocking", [last_valid_move, "builtin:greedy"], variant="duo", seed=3, replay=str(replay)
    )
    outcome = result["outcome"]
    assert outcome["faults"] == [None, None]
    assert result["replay"]["players"][0] == {
        "name": "python:last_valid_move", "command": "python:last_valid_move"
    }
    calls = [t for t in result["replay"]["turns"] if t["player"] == 0]
    assert calls and all(t["output"] == [t["input"][-1]] for t in calls)
    assert replay.read_text().startswith("{")


def test_a_python_bot_that_raises_is_a_recorded_fault():
    def broken(lines):
        raise RuntimeError("no idea")

    outcome = realm_engines.play("kingdomino", ["builtin:random", broken], seed=1)["outcome"]
    assert outcome["faults"][0] is None
    fault = outcome["faults"][1]
    assert fault["kind"] == "crashed" and fault["turn"] == 1
    assert fault["detail"].endswith("the Python bot raised RuntimeError: no idea")
    assert outcome["ranks"] == [1, 2]


def test_a_bot_process_plays_from_python_and_leaves_nothing_behind():
    marker = f"realm-python-test-{os.getpid()}"
    bot = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'kingdomino.py'} {marker}"
    outcome = realm_engines.play("kingdomino", [bot, "builtin:random"], seed=2, no_timeout=True)["outcome"]
    assert outcome["faults"] == [None, None]
    assert outcome["end"] == {"kind": "finished"}
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    assert left == [], f"processes left: {left}"


def test_bad_bot_arguments_are_errors():
    with pytest.raises(ValueError, match="empty"):
        realm_engines.play("kingdomino", ["", "builtin:random"])
    with pytest.raises(ValueError, match="has no built-in bot `nonsense`"):
        realm_engines.play("kingdomino", ["builtin:nonsense", "builtin:random"])
    with pytest.raises(TypeError):
        realm_engines.play("kingdomino", [42, "builtin:random"])


def test_long_calls_release_the_gil():
    game = realm_engines.Game("blocking", variant="classic", seed=1)
    started, finished = threading.Event(), threading.Event()

    def worker():
        started.set()
        game.random_playouts(3000, seed=1)
        finished.set()

    thread = threading.Thread(target=worker)
    thread.start()
    started.wait()
    spins = 0
    while not finished.is_set():
        spins += 1
    thread.join()
    # With the GIL held for the whole call this thread could not have run during it.
    assert spins > 1000
