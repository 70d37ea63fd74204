"""Whole matches from Python: built-in bots, bot processes and Python callables."""

import os
import subprocess
import sys
import threading

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
