#!/usr/bin/env python3
"""Kingdomino example bot for realm (protocol: crates/kingdomino/PROTOCOL.md).

Strategy: place the domino where its squares touch the most squares of the same
terrain (ties: smallest y, x, rotation); pick the free tile with the most crowns
(ties: lowest ID). Standard library only.

The input does not say which league is played, and it does not need to: the
bot prefers placements that the full rules (league 3) allow, else ones that
league 2 allows, else ones that league 1 allows. Whatever the league, its PUT is
then legal, or the tile has no legal placement there and the PUT is ignored.
"""
import sys

DIRS = [(1, 0), (0, 1), (-1, 0), (0, -1)]  # rotation r: second square at (x, y) + DIRS[r]


def debug(*args):
    print(*args, file=sys.stderr, flush=True)


def read():
    line = sys.stdin.readline()
    if not line:  # the match is over: realm closed our input
        sys.exit(0)
    return line.rstrip("\n")


def contacts(grid, size, cells, terrains, castle_counts):
    """Orthogonal neighbours (outside the domino) matching each square's terrain."""
    n = 0
    for (cx, cy), t in zip(cells, terrains):
        for dx, dy in DIRS:
            nx, ny = cx + dx, cy + dy
            if (nx, ny) in cells or not (0 <= nx < size and 0 <= ny < size):
                continue
            cell = grid[ny][nx][0]
            if cell == t or (castle_counts and cell == "*"):
                n += 1
    return n


def level(grid, size, box, cells, terrains):
    """The highest league whose rules allow the squares on `cells` (0: none).
    `box` = (min x, min y, max x, max y) of the castle and the placed squares."""
    c = (size - 1) // 2
    for cx, cy in cells:  # a, b. inside the grid, not on the castle
        if not (0 <= cx < size and 0 <= cy < size) or (cx, cy) == (c, c):
            return 0
    # d. castle + placed squares + new cells fit in an E x E box (E = (size + 1) / 2)
    xs = [box[0], box[2]] + [p[0] for p in cells]
    ys = [box[1], box[3]] + [p[1] for p in cells]
    extent = (size + 1) // 2
    if max(xs) - min(xs) >= extent or max(ys) - min(ys) >= extent:
        return 0
    if any(grid[cy][cx][0] != "_" for cx, cy in cells):
        return 1  # c. covering placed squares: league 1 only
    # e. leagues 3+: a square must touch the castle or a square of its own terrain
    return 3 if contacts(grid, size, cells, terrains, castle_counts=True) else 2


def main():
    first = read()
    if len(first) <= 2:  # standard modes: nbPlayers, nbTiles, then the grids
        n_players, n_tiles, size = int(first), int(read()), 9
        pending = None
    else:  # Mighty Duel: no initial input, this line is already the first grid row
        n_players, n_tiles, size = 2, 4, 13
        pending = first
    while True:
        rows = [pending if pending is not None else read()]
        pending = None
        rows += [read() for _ in range(n_players * size - 1)]
        # own grid first; cell (x, y) = 2 characters: terrain, crowns
        grid = [[rows[y][2 * x:2 * x + 2] for x in range(size)] for y in range(size)]
        current = [read().split() for _ in range(n_tiles)]  # ID CELL CELL OWNER FLAG
        nxt = [read().split() for _ in range(n_tiles)]  # ID CELL CELL OWNER

        put = "PUT 0 0 0"  # turn 1, or no legal placement (the tile is discarded)
        tile = next(t for t in current if t[4] == "1")
        if tile[0] != "0":
            terrains = (tile[1][0], tile[2][0])
            used = [(x, y) for y in range(size) for x in range(size) if grid[y][x][0] != "_"]
            box = (min(p[0] for p in used), min(p[1] for p in used),
                   max(p[0] for p in used), max(p[1] for p in used))
            best = None
            for y in range(size):
                for x in range(size):
                    for r, (dx, dy) in enumerate(DIRS):
                        cells = [(x, y), (x + dx, y + dy)]
                        lv = level(grid, size, box, cells, terrains)
                        if lv:
                            value = (lv, contacts(grid, size, cells, terrains, False))
                            if best is None or value > best[0]:
                                best = (value, x, y, r)
            if best is not None:
                put = "PUT %d %d %d" % best[1:]
            else:
                debug("tile", tile[0], "has no legal placement")

        free = [t for t in nxt if t[0] != "0" and t[3] == "-1"]
        if free:  # most crowns, then lowest ID
            pick = max(free, key=lambda t: (int(t[1][1]) + int(t[2][1]), -int(t[0])))[0]
        else:
            pick = "0"  # last turn: the value is ignored
        print(put, flush=True)
        print("PICK " + pick, flush=True)


main()
