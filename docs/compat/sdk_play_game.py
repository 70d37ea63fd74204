#!/usr/bin/env python3
"""Plays one match through a CodinGame-SDK-style referee and prints the JSON line that
psyleague (`cmd_play_game`) and cgarena (`cmd_play_match`) read.

This is the route psyleague's README describes for SDK referees: the referee writes its
game-result JSON with `-l FILE` (scores by player index, every turn's stderr in `errors`,
`failCause`), and this script turns it into ranks, errors and the bots' [TDATA]/[PDATA] lines.
`realm referee` writes that JSON too, so the same script drives realm's referees and official ones.

    sdk_play_game.py "REFEREE COMMAND" SEED BOT1 BOT2 [BOT3 BOT4]

SEED is an integer, or `random` for a fresh one.

A negative score is a loss, not an error: games score below zero without any fault (Blokus Duo
and Classic count the squares left in hand against the player, Ice and Fire gives -1 to a
player whose HQ was captured). The errors are the players the referee names at fault in the
result's `faults` (realm referee's addition to the SDK result: null or a fault code per player),
and those players rank below every player not at fault; a referee that names no faults (an
official SDK referee) reports no errors.
"""
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile

DATA_LINE = re.compile(r"\[(T|P)DATA\](?:\[(\d+)\])?\s+(\w+)\s*=\s*(.+)", re.IGNORECASE)


def play(referee, seed, bots):
    handle, log = tempfile.mkstemp(prefix="game-", suffix=".json")
    os.close(handle)
    players = "".join(f" -p{i + 1} {shlex.quote(bot)}" for i, bot in enumerate(bots))
    command = f"{referee}{players} -d seed={seed} -l {shlex.quote(log)}"
    subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, check=False)
    try:
        with open(log) as f:
            return json.load(f)
    finally:
        os.remove(log)


def main():
    referee, seed, bots = sys.argv[1], sys.argv[2], sys.argv[3:]
    if seed == "random":
        seed = random.randrange(2**31)
    result = play(referee, seed, bots)
    if result.get("failCause"):
        print(result["failCause"], file=sys.stderr)
        sys.exit(1)
    scores = [int(result["scores"][str(i)]) for i in range(len(bots))]
    faults = result.get("faults") or {}
    errors = [int(faults.get(str(i)) is not None) for i in range(len(bots))]
    # Players not at fault first, then by score; 0 is the best rank, ties share it.
    keys = [(not error, score) for error, score in zip(errors, scores)]
    out = {
        "ranks": [sum(other > key for other in keys) for key in keys],
        "errors": errors,
        "test_data": {"seed": int(seed)},
        "player_data": [{} for _ in bots],
        "attributes": [],
    }
    for player in range(len(bots)):
        for text in result["errors"].get(str(player), []):
            for line in (text or "").splitlines():
                match = DATA_LINE.match(line.strip())
                if not match:
                    continue
                kind, turn, key, value = match.groups()
                is_player = kind.upper() == "P"
                out["attributes"].append({
                    "name": key,
                    "player": player if is_player else None,
                    "turn": int(turn) if turn else None,
                    "value": value,
                })
                target = out["player_data"][player] if is_player else out["test_data"]
                target[key] = value
    print(json.dumps(out))


if __name__ == "__main__":
    main()
