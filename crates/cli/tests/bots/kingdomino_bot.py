#!/usr/bin/env python3
"""A Kingdomino bot that knows only the protocol: it places each tile at the first legal spot
(league-3 rules) in row-major order and picks the lowest free tile.

`--misbehave MODE CALL` makes it misbehave at its CALL-th call (1-based), for realm's fault
tests: sleep (past any limit), crash (exit 3), garbage (a malformed answer), quit (exit 0
without answering), flood (endless output on one line, which no reading of a slow reader can
mistake for an answer), half (the PUT line of the answer, then sleep). `--spawn SECONDS` first
starts a child that sleeps for SECONDS (a number unique to the test, so the test can look for
it), which realm must kill with the bot. `--ignore-term` ignores SIGTERM, as some badly written
bots do. Any other argument (such as `--tag UNIQUE-TEXT`) is ignored: tests use it to find the
bot's processes by their command line.
"""
import signal
import subprocess
import sys
import time

DIRS = [(1, 0), (0, 1), (-1, 0), (0, -1)]


def legal(grid, size, extent, x, y, r, a, b):
    dx, dy = DIRS[r]
    cells = [(x, y, a[0]), (x + dx, y + dy, b[0])]
    for cx, cy, _ in cells:
        if not (0 <= cx < size and 0 <= cy < size) or grid[cy][2 * cx] != "_":
            return False
    used = [(cx, cy) for cy in range(size) for cx in range(size) if grid[cy][2 * cx] != "_"]
    xs = [c[0] for c in used] + [x, x + dx]
    ys = [c[1] for c in used] + [y, y + dy]
    if max(xs) - min(xs) >= extent or max(ys) - min(ys) >= extent:
        return False
    other = {(x, y): (x + dx, y + dy), (x + dx, y + dy): (x, y)}
    for cx, cy, terrain in cells:
        for ex, ey in DIRS:
            nx, ny = cx + ex, cy + ey
            if (nx, ny) == other[(cx, cy)] or not (0 <= nx < size and 0 <= ny < size):
                continue
            t = grid[ny][2 * nx]
            if t == "*" or t == terrain:
                return True
    return False


def misbehave(mode):
    if mode == "sleep":
        time.sleep(60)
    elif mode == "crash":
        print("about to crash", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "garbage":
        print("hello\nworld", flush=True)
    elif mode == "quit":
        sys.exit(0)
    elif mode == "flood":
        while True:
            sys.stdout.write("PICK 1 " * 10000)


def main():
    args = sys.argv[1:]
    mode, at = None, 0
    if "--misbehave" in args:
        i = args.index("--misbehave")
        mode, at = args[i + 1], int(args[i + 2])
    if "--ignore-term" in args:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if "--spawn" in args:
        seconds = args[args.index("--spawn") + 1]
        subprocess.Popen(["sleep", seconds], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    calls = 0
    players = int(sys.stdin.readline())
    tiles = int(sys.stdin.readline())
    size, extent = 9, 5
    while True:
        grids = []
        for _ in range(players):
            rows = [sys.stdin.readline().strip() for _ in range(size)]
            if not rows[0]:
                return
            grids.append(rows)
        current = [sys.stdin.readline().split() for _ in range(tiles)]
        nxt = [sys.stdin.readline().split() for _ in range(tiles)]
        calls += 1
        if calls == at and mode != "half":
            misbehave(mode)
            if mode == "garbage":
                continue
        mine = next(t for t in current if t[4] == "1")
        put = "PUT 0 0 0"
        if mine[0] != "0":
            spots = (
                (x, y, r)
                for y in range(size)
                for x in range(size)
                for r in range(4)
                if legal(grids[0], size, extent, x, y, r, mine[1], mine[2])
            )
            spot = next(spots, None)
            if spot:
                put = "PUT %d %d %d" % spot
        free = sorted(int(t[0]) for t in nxt if t[3] == "-1" and t[0] != "0")
        if calls == at and mode == "half":
            print(put, flush=True)
            misbehave("sleep")
        # stderr first: what a bot writes after its answer may land in the next call's stderr.
        print("placed at " + put, file=sys.stderr, flush=True)
        print("%s\nPICK %d" % (put, free[0] if free else 0), flush=True)


main()
