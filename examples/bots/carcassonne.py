#!/usr/bin/env python3
"""Carcassonne example bot for realm (protocol: crates/carcassonne/PROTOCOL.md).

Strategy: lay the tile where it touches the most placed tiles, preferring a spot
where a man can go (ties: smallest row, col, angle). A man goes on the tile's
monastery (token 40), else on a castle of the tile whose castle sides all face
empty cells: both are new blocks that nobody holds, and the bot counts its men
from the tile history, so every man it sends is accepted. Standard library only.
"""
import sys

MEN = 6
SIDES = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # side 0 up, 1 right, 2 down, 3 left: (drow, dcol)


def debug(*args):
    print(*args, file=sys.stderr, flush=True)


def read():
    line = sys.stdin.readline()
    if not line:  # the match is over: realm closed our input
        sys.exit(0)
    return line.rstrip("\n")


def part(links, item):
    """The part of a tile holding `item` (e.g. "2c"): its links group, or the item alone."""
    return next((g for g in (g.split(",") for g in links.split(";")) if item in g), [item])


def castle_closed(placed, cell, side):
    """Is the castle block holding side `side` of the placed tile at `cell` closed?"""
    todo, seen = [(cell, "%dc" % side)], set()
    while todo:
        (r, c), item = todo.pop()
        for it in part(placed[(r, c)][10], item):  # placed links are in board orientation
            if it[1] != "c" or ((r, c), it) in seen:
                continue
            seen.add(((r, c), it))
            s = int(it[0])
            beyond = (r + SIDES[s][0], c + SIDES[s][1])
            if beyond not in placed:
                return False  # an open castle end
            todo.append((beyond, "%dc" % ((s + 2) % 4)))
    return True


def man_for(placed, tile, row, col, angle):
    """A man token that is surely accepted for this placement (ignoring the supply)."""
    if tile[6] == "1":
        return "40"  # a monastery is a block of its own
    for side in range(4):
        item = "%dc" % ((side - angle) % 4)  # the CSV item shown on board side `side`
        if tile[2 + (side - angle) % 4] != "c":
            continue
        sides = [(int(i[0]) + angle) % 4 for i in part(tile[10], item) if i[1] == "c"]
        if all((row + SIDES[s][0], col + SIDES[s][1]) not in placed for s in sides):
            return "%d0" % side  # a castle that touches no other tile yet
    return "-1"


def main():
    n_players, my_id = map(int, read().split())
    height, width = map(int, read().split())  # always 143 143
    debug("player", my_id, "of", n_players)
    while True:
        placed = {}  # (row, col) -> the 11 fields of its tile line
        for _ in range(int(read()) - 1):
            f = read().split()
            placed[(int(f[0]), int(f[1]))] = f
        tile = read().split()  # -1 -1 edge0..edge3 center -1 -1 shield links (angle 0)

        men_out = 0  # my men on the board: men stay until their feature is closed
        for (r, c), f in placed.items():
            if f[7] == str(my_id):
                if f[8] == "40":
                    men_out += not all((r + dr, c + dc) in placed
                                       for dr in (-1, 0, 1) for dc in (-1, 0, 1))
                else:
                    men_out += not castle_closed(placed, (r, c), int(f[8][0]))

        best = None
        cells = {(r + dr, c + dc) for (r, c) in placed for dr, dc in SIDES}
        for row, col in sorted(cells - placed.keys()):
            if not (0 <= row < height and 0 <= col < width):
                continue
            for angle in range(4):
                touching = 0
                for side, (dr, dc) in enumerate(SIDES):
                    other = placed.get((row + dr, col + dc))
                    if other is None:
                        continue
                    # board side s of the turned tile shows CSV edge (s - angle) mod 4
                    if other[2 + (side + 2) % 4] != tile[2 + (side - angle) % 4]:
                        break  # the shared edge differs: not legal
                    touching += 1
                else:
                    man = man_for(placed, tile, row, col, angle) if men_out < MEN else "-1"
                    value = (touching, man != "-1")
                    if best is None or value > best[0]:
                        best = (value, "%d %d %d %s" % (row, col, angle, man))
        # realm discards tiles that cannot be placed, so there is always a legal placement
        print(best[1], flush=True)


main()
