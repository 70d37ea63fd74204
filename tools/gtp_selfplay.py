#!/usr/bin/env python3
"""Records Blokus Duo games a GTP engine plays against itself, the training data of the
Blocking search's learned move prior (`crates/blocking/examples/prior_data.rs`,
`tools/fit_blocking_prior.py`).

    python3 tools/gtp_selfplay.py GAMES FIRST_SEED OUT.txt -- ENGINE COMMAND LINE...

Everything after `--` is the engine's command line; `{seed}` in it becomes each game's seed
(FIRST_SEED, FIRST_SEED + 1, ...), so that an engine with a random seed option plays
different games, for instance `/path/to/pentobi-gtp -g duo --level 6 --nobook --noresign
--threads 1 --quiet --seed {seed}`. Each game is appended to OUT.txt as one line: its seed,
then every move as `COLOUR:SQUARES` (`b:e8,d9,e9,f9,e10`, `w:pass`), until both pass.
"""
import sys

from gtp_blokus_bot import AdapterError, Engine


def play_game(command):
    engine = Engine(command)
    moves, passes, colour = [], 0, "b"
    try:
        while passes < 2:
            answer = engine.send(f"genmove {colour}").lower()
            if answer == "resign":
                raise AdapterError("engine resigned (start it with --noresign)")
            passes = passes + 1 if answer == "pass" else 0
            moves.append(f"{colour}:{answer}")
            colour = "w" if colour == "b" else "b"
        engine.send("quit")
    finally:
        engine.process.kill()
        engine.process.wait()
    return moves


def main():
    args = sys.argv[1:]
    if "--" not in args or args.index("--") != 3:
        sys.exit("usage: gtp_selfplay.py GAMES FIRST_SEED OUT.txt -- ENGINE COMMAND LINE...")
    games, first, out = int(args[0]), int(args[1]), args[2]
    command = args[4:]
    with open(out, "a") as f:
        for seed in range(first, first + games):
            moves = play_game([part.replace("{seed}", str(seed)) for part in command])
            f.write(f"{seed} " + " ".join(moves) + "\n")
            f.flush()


if __name__ == "__main__":
    try:
        main()
    except AdapterError as e:
        sys.exit(f"gtp_selfplay: {e}")
