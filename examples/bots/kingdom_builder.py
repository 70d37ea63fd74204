#!/usr/bin/env python3
"""Kingdom Builder example bot for realm (protocol: crates/kingdom-builder/PROTOCOL.md, "Full game").

Strategy: build the mandatory settlements one by one on the revealed terrain, obeying the
adjacency rule (next to our own settlements when such a cell exists), preferring a cell next
to a castle or a location hex, then the one next to most of our settlements (ties: smallest
row, col). It never uses location tiles. When the terrain runs out partway through the build
the referee draws a new card and calls again at once; the bot simply answers that call too.
Standard library only.
"""
import sys

SIZE = 20
SPECIAL = set("KOAVRHPBS")  # castle and the eight location hexes (map letters)


def read():
    line = sys.stdin.readline()
    if not line:  # the match is over: realm closed our input
        sys.exit(0)
    return line.rstrip("\n")


def neighbours(r, c):
    """The cells next to (r, c): odd rows are drawn half a cell to the right."""
    shift = r % 2
    steps = [(-1, -1 + shift), (-1, shift), (0, -1), (0, 1), (1, -1 + shift), (1, shift)]
    for dr, dc in steps:
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            yield r + dr, c + dc


def plan(card, left, board, mine, terrain):
    """The cells of `left` settlements on empty cells of `card`, one after the other."""
    cells = []
    for _ in range(left):
        empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if board[r][c] == card]
        near = [rc for rc in empty if any(n in mine for n in neighbours(*rc))]
        candidates = near or empty
        if not candidates:
            break  # the terrain ran out: the referee draws a new card and calls again

        def value(rc):
            special = any(terrain[n[0]][n[1]] in SPECIAL for n in neighbours(*rc))
            own = sum(n in mine for n in neighbours(*rc))
            return (-special, -own, rc)

        best = min(candidates, key=value)
        cells.append(best)
        mine.add(best)
        board[best[0]][best[1]] = "*"  # occupied from now on
    return cells


def main():
    n, me = map(int, read().split())
    read()  # the scoring cards and the Lords rule: this bot ignores them
    terrain = [read().split() for _ in range(SIZE)]
    digit = str(me + 1)
    while True:
        card, left, _built, _last = read().split()
        seats = [read().split() for _ in range(n)]  # supply and gold per seat
        supply = int(seats[me][0])  # the build stops when the supply is empty
        board = [read().split() for _ in range(SIZE)]
        read()  # the draw pile and the discards
        for _ in range(int(read())):
            read()  # location hexes: this bot uses no tile
        mine = {(r, c) for r in range(SIZE) for c in range(SIZE) if board[r][c] == digit}
        cells = plan(card, min(int(left), supply), board, mine, terrain)
        print("; ".join("BUILD %d %d" % rc for rc in cells), flush=True)


main()
