#!/usr/bin/env python3
"""A Blokus Duo agent trained by train_blokus_duo.py, playing as a realm bot.

    realm play blocking "python3 examples/python/agent.py" builtin:greedy --variant duo
    realm arena blocking "python3 examples/python/agent.py AGENT.npz" builtin:random --variant duo

It speaks the game's stdin/stdout protocol (crates/blocking/PROTOCOL.md) like any bot: it
follows the match in a realm_engines.Game (the other player's moves come in every turn's
input), observes it exactly as the training environment did and answers with the policy's
most likely legal move. The policy is the trained network's weights (an .npz written by the
training script, default: blokus_duo_agent.npz beside this file) run with numpy, so the bot
starts in a fraction of a second without torch: the first answer's time limit includes the
start-up.
"""
import os
import sys
from pathlib import Path

# One thread: a move costs about a millisecond, and BLAS threads fighting the opponent's
# process for the cores made it 50 times slower.
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

import numpy as np  # noqa: E402  (after the thread settings, which numpy reads on import)

import realm_engines  # noqa: E402
from realm_engines.envs import flatten_observation  # noqa: E402


class Policy:
    """The network of train_blokus_duo.py (its Agent class) in numpy: the conv trunk, one
    logit plane per orientation, and the best legal action (the value head is not needed
    to play)."""

    def __init__(self, path):
        saved = np.load(path)
        self.planes, self.size = int(saved["planes"]), int(saved["size"])
        self.scalars = saved["scalars.weight"], saved["scalars.bias"]
        self.convs = []
        while f"convs.{len(self.convs)}.weight" in saved:
            i = len(self.convs)
            self.convs.append((saved[f"convs.{i}.weight"], saved[f"convs.{i}.bias"]))
        self.policy = saved["policy.weight"][:, :, 0, 0], saved["policy.bias"]

    def logits(self, observation):
        """Every action's logit, in the action ids' order (orientation, y, x)."""
        board_len = self.planes * self.size * self.size
        h = observation[:board_len].reshape(self.planes, self.size, self.size)
        weight, bias = self.scalars
        first = weight @ observation[board_len:] + bias
        h = np.maximum(conv3x3(h, *self.convs[0]) + first[:, None, None], 0)
        for layer in self.convs[1:]:
            h = np.maximum(conv3x3(h, *layer), 0)
        weight, bias = self.policy
        return (np.tensordot(weight, h, axes=1) + bias[:, None, None]).reshape(-1)

    def best_action(self, observation, mask):
        return int(np.argmax(np.where(mask, self.logits(observation), -np.inf)))


def conv3x3(x, weight, bias):
    """torch.nn.Conv2d(kernel_size=3, padding=1) on one (channels, rows, columns) array."""
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))
    return np.tensordot(weight, windows, axes=([1, 2, 3], [0, 3, 4])) + bias[:, None, None]


def read():
    line = sys.stdin.readline()
    if not line:  # the match is over: realm closed our input
        sys.exit(0)
    return line.rstrip("\n")


def main():
    default = Path(__file__).with_name("blokus_duo_agent.npz")
    policy = Policy(sys.argv[1] if len(sys.argv) > 1 else default)
    game = realm_engines.Game("blocking", variant="duo")

    # Initial input: the shapes, nPlayers, myId, N, the letters of the set.
    for _ in range(int(read())):
        read()
    read()
    me = int(read())
    size = int(read())
    read()

    while True:
        for _ in range(size):
            read()  # the board: the Game already holds it
        for _ in range(int(read())):
            _, x, y, name = read().split()  # "pid X Y Lfrk": the other player's move
            game.apply(game.action_id(f"{x} {y} {name}"))
        for _ in range(int(read())):
            read()  # the legal moves: the Game lists the same ones
        observation = game.observe(me)
        action = policy.best_action(
            flatten_observation(observation), observation["action_mask"] == 1
        )
        print(game.action_text(action), flush=True)
        game.apply(action)


if __name__ == "__main__":
    main()
