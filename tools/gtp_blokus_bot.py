#!/usr/bin/env python3
"""A realm Blokus Duo bot backed by any Blokus GTP engine (Pentobi's `pentobi-gtp`, say), so
realm's bots can be measured against it: `realm arena blocking --variant duo
"python3 tools/gtp_blokus_bot.py /path/to/pentobi-gtp -g duo --level 1 --nobook --quiet"
builtin:mcts`.

Everything after the script's name is the engine's command line. Each turn the bot tells the
engine the opponent's new squares (read from the board, so no move name needs translating),
asks it for a move (`genmove`), and answers the legal placement of realm's list that covers
exactly the squares the engine chose. GTP squares are a column letter and a row number counted
from the bottom; realm's are (X, Y) with Y counted from the top. Duo's two start squares swap
under a half turn of the board: when the first player opens on the start square the engine
reserves for the second, the bot views the board turned by half a turn.
"""
import subprocess
import sys


def read(n=None):
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


class Engine:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended on: {command}")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"engine refused `{command}`: {answer}")
        return answer[1:].strip()


def orientation_cells(drawing, flip, rot):
    """Squares of a drawing in orientation (flip, rot), numbered 1..n, shifted to origin."""
    cols, rows, lines = drawing
    squares = [(x, y) for y in range(rows) for x in range(cols) if lines[y][x] == "#"]
    out = []
    for x, y in squares:
        if flip:
            x, y = y, x
        for _ in range(rot):
            x, y = -y, x
        out.append((x, y))
    mx = min(x for x, _ in out)
    my = min(y for _, y in out)
    return [(x - mx, y - my) for x, y in out]


def placement_cells(shapes, move):
    x, y, name = move.split()[:3]
    letter, flip, rot, k = name[0], int(name[1]), int(name[2]), int(name[3])
    cells = orientation_cells(shapes[letter], flip, rot)
    kx, ky = cells[k - 1]
    return frozenset((int(x) + cx - kx, int(y) + cy - ky) for cx, cy in cells)


def main():
    engine = Engine(sys.argv[1:])
    shapes = {}
    for _ in range(int(read())):
        letter, cols, rows, *lines = read().split()
        shapes[letter] = (int(cols), int(rows), lines)
    players, me, n = int(read()), int(read()), int(read())
    read()  # letters
    colors = ["b", "w"]
    seen = set()
    turned = None  # decided by the first move on the board

    def square(cell):
        x, y = cell
        if turned:
            x, y = n - 1 - x, n - 1 - y
        return f"{chr(ord('a') + x)}{n - y}"

    def cell_of(text):
        x, y = ord(text[0]) - ord("a"), n - int(text[1:])
        return (n - 1 - x, n - 1 - y) if turned else (x, y)

    while True:
        board = [read() for _ in range(n)]
        for _ in range(int(read())):
            read()
        valid = [read() for _ in range(int(read()))]
        theirs = {(x, y) for y, row in enumerate(board) for x, c in enumerate(row)
                  if c == str(1 - me)} - seen
        if turned is None:
            # The engine's first colour opens on realm's (4, 4); turn the view otherwise.
            first = theirs if me == 1 else set()
            turned = (9, 9) in first
        if theirs:
            engine.send(f"play {colors[1 - me]} " + ",".join(square(c) for c in sorted(theirs)))
            seen |= theirs
        chosen = engine.send(f"genmove {colors[me]}")
        cells = frozenset(cell_of(t) for t in chosen.split(","))
        seen |= cells
        answer = next((m for m in valid if placement_cells(shapes, m) == cells), None)
        if answer is None:
            print(f"engine chose {chosen}, not a listed placement", file=sys.stderr, flush=True)
            answer = valid[0]
        print(answer, flush=True)


if __name__ == "__main__":
    main()
