#!/usr/bin/env python3
"""A Code of Ice and Fire example bot for realm (protocol: crates/ice-and-fire/PROTOCOL.md).

Strategy, in every league: each unit steps to a free neighbouring cell that is
closer to the enemy HQ (capturing it when it is neutral or an unguarded enemy
cell), then level-1 units are trained on the free cells next to the own active
territory that are closest to the enemy HQ, while gold lasts. It never attacks
a unit or a tower, so every action it writes succeeds. Standard library only.
"""
import sys
from collections import deque

SIZE = 12
STEPS = [(0, -1), (1, 0), (0, 1), (-1, 0)]


def debug(*args):
    print(*args, file=sys.stderr, flush=True)


def read():
    line = sys.stdin.readline()
    if not line:  # the match is over: realm closed our input
        sys.exit(0)
    return line.rstrip("\n")


def neighbours(x, y):
    for dx, dy in STEPS:
        if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE:
            yield x + dx, y + dy


def main():
    mine_spots = [read() for _ in range(int(read()))]  # "x y" lines (leagues 3-4)
    debug(len(mine_spots), "mine spots")
    while True:
        gold, income, opp_gold, opp_income = (int(read()) for _ in range(4))
        grid = [list(read()) for _ in range(SIZE)]  # grid[y][x]: # . O o X x
        buildings = {}  # (x, y) -> (owner, type); owner 0 = me, type 0 HQ 1 MINE 2 TOWER
        for _ in range(int(read())):
            owner, kind, x, y = map(int, read().split())
            buildings[(x, y)] = (owner, kind)
        units = {}  # (x, y) -> (owner, id, level)
        for _ in range(int(read())):
            owner, uid, level, x, y = map(int, read().split())
            units[(x, y)] = (owner, uid, level)

        enemy_hq = next(c for c, b in buildings.items() if b == (1, 0))
        # Static distance to the enemy HQ (void cells block).
        dist = {enemy_hq: 0}
        queue = deque([enemy_hq])
        while queue:
            c = queue.popleft()
            for n in neighbours(*c):
                if n not in dist and grid[n[1]][n[0]] != "#":
                    dist[n] = dist[c] + 1
                    queue.append(n)

        def guarded(c):  # a tower on c, or an enemy tower next to it
            return any(buildings.get(n) == (1, 2) for n in [c, *neighbours(*c)])

        def free(c):
            """A level-1 unit can surely enter c: not void, no unit, no building other
            than the enemy HQ, and not guarded by a tower."""
            x, y = c
            if grid[y][x] == "#" or c in units or guarded(c):
                return False
            return c not in buildings or buildings[c] == (1, 0)

        actions = []
        for c, (owner, uid, level) in sorted(units.items(), key=lambda u: u[1][1]):
            if owner != 0:
                continue
            targets = [n for n in neighbours(*c) if free(n) and dist.get(n, 99) < dist[c]]
            if targets:
                t = min(targets, key=lambda n: dist[n])
                actions.append("MOVE %d %d %d" % (uid, t[0], t[1]))
                del units[c]
                units[t] = (owner, uid, level)
                grid[t[1]][t[0]] = "O"  # reached from an active cell: own and active
                if t == enemy_hq:
                    break  # the game is won at once

        while gold >= 10 and enemy_hq not in units:
            spots = {n for y in range(SIZE) for x in range(SIZE) if grid[y][x] == "O"
                     for n in neighbours(x, y) if grid[n[1]][n[0]] in ".Xx" and free(n)}
            if not spots:
                break
            t = min(spots, key=lambda n: (dist.get(n, 99), n[1], n[0]))
            actions.append("TRAIN 1 %d %d" % t)
            gold -= 10
            units[t] = (0, 0, 1)
            grid[t[1]][t[0]] = "O"
            if t == enemy_hq:
                break

        print(";".join(actions) or "WAIT", flush=True)


main()
