#!/usr/bin/env python3
"""Records Blokus Duo games a GTP engine plays against itself, the training data of the
Blocking search's learned move prior (`crates/blocking/examples/prior_data.rs`,
`tools/fit_blocking_prior.py`).

    python3 tools/gtp_selfplay.py GAMES FIRST_SEED OUT.txt [--colours 1,2,3,4] -- ENGINE COMMAND LINE...

The colours move in turn, `b,w` (Duo) unless `--colours` names others (Pentobi's Classic:
`1,2,3,4`, with `-g classic` in the engine's command line).

Everything after `--` is the engine's command line; `{seed}` in it becomes each game's seed
(FIRST_SEED, FIRST_SEED + 1, ...), so that an engine with a random seed option plays
different games, for instance `/path/to/pentobi-gtp -g duo --level 6 --nobook --noresign
--threads 1 --quiet --seed {seed}`. Each game is appended to OUT.txt as one line: its seed,
then every move as `COLOUR:SQUARES` (`b:e8,d9,e9,f9,e10`, `w:pass`), until every colour
passes in a row.
"""
import sys

from gtp_blokus_bot import AdapterError, Engine


def play_game(command, colours):
    engine = Engine(command)
    moves, passes, turn = [], 0, 0
    try:
        while passes < len(colours):
            colour = colours[turn % len(colours)]
            answer = engine.send(f"genmove {colour}").lower()
            if answer == "resign":
                raise AdapterError("engine resigned (start it with --noresign)")
            passes = passes + 1 if answer == "pass" else 0
            moves.append(f"{colour}:{answer}")
            turn += 1
        engine.send("quit")
    finally:
        engine.process.kill()
        engine.process.wait()
    return moves


def main():
    args = sys.argv[1:]
    usage = "usage: gtp_selfplay.py GAMES FIRST_SEED OUT.txt [--colours C,C,...] -- ENGINE ..."
    if "--" not in args:
        sys.exit(usage)
    split = args.index("--")
    head, command = args[:split], args[split + 1:]
    colours = ["b", "w"]
    if len(head) == 5 and head[3] == "--colours":
        colours = head[4].split(",")
        head = head[:3]
    if len(head) != 3 or len(colours) < 2:
        sys.exit(usage)
    games, first, out = int(head[0]), int(head[1]), head[2]
    with open(out, "a") as f:
        for seed in range(first, first + games):
            moves = play_game([part.replace("{seed}", str(seed)) for part in command], colours)
            f.write(f"{seed} " + " ".join(moves) + "\n")
            f.flush()


if __name__ == "__main__":
    try:
        main()
    except AdapterError as e:
        sys.exit(f"gtp_selfplay: {e}")
