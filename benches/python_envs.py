"""Random games per second through realm's Python package (not a test: a measurement).

    python benches/python_envs.py [--seconds S]

For each game: whole uniformly random games (1) through the PettingZoo AEC loop as
PettingZoo's documentation writes it (``env.last()``, then ``action_space(agent).sample(mask)``),
(2) through the low-level API from Python (``legal_actions()``, ``apply()``), and (3) inside
Rust (``Game.random_playouts``). Single thread; each figure is the median of three timed
rounds of at least S seconds.
"""

import argparse
import random
import statistics
import time

import realm_engines
from realm_engines import envs

GAMES = [
    ("Blokus Classic (4p)", lambda: envs.blocking_classic_v0.env(), ("blocking", "classic", 4)),
    ("Blokus Duo", lambda: envs.blocking_duo_v0.env(), ("blocking", "duo", 2)),
    ("Blocking 13x13 (2p)", lambda: envs.blocking_v0.env(), ("blocking", None, 2)),
    ("Kingdomino (2p)", lambda: envs.kingdomino_v0.env(), ("kingdomino", None, 2)),
    ("Kingdomino (4p)", lambda: envs.kingdomino_v0.env(players=4), ("kingdomino", None, 4)),
    ("Ice and Fire (league 4)", lambda: envs.ice_and_fire_v0.env(), ("ice-and-fire", None, 2)),
    ("Carcassonne (2p)", lambda: envs.carcassonne_v0.env(), ("carcassonne", None, 2)),
]


def rate(play_one, seconds):
    """Games per second: the median of three rounds of at least `seconds` each."""
    rates = []
    for _ in range(3):
        n, start = 0, time.perf_counter()
        while True:
            play_one(n)
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        rates.append(n / elapsed)
    return statistics.median(rates)


def aec_game(env):
    def play(seed):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                action = None
            else:
                action = env.action_space(agent).sample(obs["action_mask"])
            env.step(action)

    return play


def low_level_game(game, variant, players):
    rng = random.Random(1)

    def play(seed):
        g = realm_engines.Game(game, variant=variant, players=players, seed=seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))

    return play


def rust_playouts(game, variant, players):
    def play(seed):
        realm_engines.Game(game, variant=variant, players=players, seed=seed).random_playouts(1, seed)

    return play


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--only", help="run only games whose name contains this")
    args = parser.parse_args()
    print("| game | PettingZoo AEC loop | low-level API from Python | random_playouts in Rust |")
    print("|---|---|---|---|")
    for name, make_env, config in GAMES:
        if args.only and args.only.lower() not in name.lower():
            continue
        env = make_env()
        env.action_space(env.possible_agents[0]).seed(1)
        figures = [
            rate(aec_game(env), args.seconds),
            rate(low_level_game(*config), args.seconds),
            rate(rust_playouts(*config), args.seconds),
        ]
        print(f"| {name} | " + " | ".join(f"{f:,.0f}" for f in figures) + " |", flush=True)


if __name__ == "__main__":
    main()
