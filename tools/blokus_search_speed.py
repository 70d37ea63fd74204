#!/usr/bin/env python3
"""realm's Duo search speed side by side with a Blokus GTP engine's (Pentobi's `pentobi-gtp`),
on the same positions, each program pinned to one core, in interleaved rounds.

    python3 tools/blokus_search_speed.py --pentobi /path/to/pentobi-gtp [--rounds 5]

The positions are the empty Duo board and the positions after 6, 14 and 24 placements of a game
the engine plays against itself (`--level 5 --seed 1`, so the same positions every run). For
each round and position the engine is started afresh (`-g duo --nobook --threads 1 --level 7`),
is told the placements with `play` and asked for a move with `genmove`; its speed is the
`Sim/s` of its log line on stderr. realm's is `examples/search_speed` (build it with `cargo
build --release -p realm-blocking --example search_speed`): the Duo bot's own search, a fresh
tree, no book, for `--time` seconds (about the engine's time at level 7), iterations per
wall-clock second. The two alternate which runs first. Printed: each position's median of both
and the median of the per-round ratios realm / engine, by wall-clock time and by CPU time (the
engine's simulation count over its `cputime` across `genmove`, realm's iterations over its
search thread's CPU time), the latter fair on a machine where other work takes the core.
`--options KEY=VALUE,...` runs realm's search with other settings than the bot's (`ravew=0`:
without its RAVE).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

DEPTHS = (0, 6, 14, 24)
COLOURS = ("b", "w")


def gtp(command, lines):
    """Runs a GTP engine on `lines`; returns (answers, stderr)."""
    done = subprocess.run(command, input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, check=True)
    answers = [a[1:].strip() for a in done.stdout.split("\n\n") if a.strip().startswith("=")]
    return answers, done.stderr


def self_play(pentobi, n):
    """The engine's first `n` placements against itself."""
    command = [pentobi, "-g", "duo", "--nobook", "--threads", "1", "--level", "5", "--seed", "1",
               "--noresign", "--quiet"]
    answers, _ = gtp(command, [f"genmove {COLOURS[i % 2]}" for i in range(n)])
    if len(answers) != n or any(a in ("pass", "resign") for a in answers):
        sys.exit(f"the engine's self-play gave {answers}")
    return answers


def pentobi_speed(pentobi, core, level, moves):
    """(simulations per wall-clock second as the engine logs them, per CPU second)."""
    command = ["taskset", "-c", str(core), pentobi, "-g", "duo", "--nobook", "--threads", "1",
               "--level", str(level), "--noresign"]
    lines = [f"play {COLOURS[i % 2]} {m}" for i, m in enumerate(moves)]
    lines += ["cputime", f"genmove {COLOURS[len(moves) % 2]}", "cputime"]
    answers, log = gtp(command, lines)
    wall = re.findall(r"Sim/s (\d+)", log)
    sims = re.findall(r"\bSim (\d+)", log)
    if not wall or not sims:
        sys.exit(f"no Sim or Sim/s in the engine's log:\n{log}")
    cpu = float(answers[-1]) - float(answers[-3])
    return float(wall[-1]), float(sims[-1]) / cpu


def realm_speed(example, core, seconds, options, moves):
    """(iterations per wall-clock second, per CPU second of the search's thread)."""
    extra = ["--options", options] if options else []
    done = subprocess.run(["taskset", "-c", str(core), example, "--time", str(seconds)] + extra,
                          input=" ".join(moves) + "\n", capture_output=True, text=True,
                          check=True)
    fields = done.stdout.split()
    return float(fields[2]), float(fields[4])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pentobi", default=os.environ.get("PENTOBI_GTP"),
                        help="the engine's path (default: $PENTOBI_GTP)")
    parser.add_argument("--realm", default="target/release/examples/search_speed")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--core", type=int, default=0)
    parser.add_argument("--level", type=int, default=7)
    parser.add_argument("--time", type=float, default=3.0)
    parser.add_argument("--options", default="",
                        help="realm's search settings other than the bot's defaults, "
                             "KEY=VALUE,... as after builtin:mcts: (e.g. ravew=0)")
    args = parser.parse_args()
    if not args.pentobi:
        sys.exit("give the engine's path with --pentobi or PENTOBI_GTP")
    game = self_play(args.pentobi, max(DEPTHS))
    # Per position: realm's and the engine's rates per round, wall-clock then CPU time.
    rates = {d: {"realm": [], "engine": []} for d in DEPTHS}
    for r in range(args.rounds):
        for d in DEPTHS:
            moves = game[:d]
            runs = [("realm", lambda: realm_speed(args.realm, args.core, args.time, args.options,
                                                  moves)),
                    ("engine", lambda: pentobi_speed(args.pentobi, args.core, args.level, moves))]
            if r % 2:
                runs.reverse()
            for name, run in runs:
                rates[d][name].append(run())
            (rw, rc), (ew, ec) = rates[d]["realm"][-1], rates[d]["engine"][-1]
            print(f"round {r + 1}, {d} placements: realm {rw:.0f}/s ({rc:.0f}/cpu-s), "
                  f"engine {ew:.0f}/s ({ec:.0f}/cpu-s), ratio {rw / ew:.2f} ({rc / ec:.2f} "
                  f"by CPU time)", flush=True)
    print("placements | realm iterations/s | engine simulations/s | ratio (median, range) | "
          "by CPU time: realm | engine | ratio (median, range)")
    for d in DEPTHS:
        row = [str(d)]
        for k in (0, 1):
            realm = [x[k] for x in rates[d]["realm"]]
            engine = [x[k] for x in rates[d]["engine"]]
            ratios = [a / b for a, b in zip(realm, engine)]
            row += [f"{statistics.median(realm):.0f}", f"{statistics.median(engine):.0f}",
                    f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"]
        print(" | ".join(row))
    print("positions:", " / ".join(" ".join(game[:d]) or "(empty)" for d in DEPTHS[1:]))


if __name__ == "__main__":
    main()
