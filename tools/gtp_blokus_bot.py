#!/usr/bin/env python3
"""A realm Blokus bot backed by any Blokus GTP engine (Pentobi's `pentobi-gtp`, say), so realm's
bots can be measured against it, in Blokus Duo (`-g duo`) and Classic (`-g classic`, four
players, each seat one colour):

    realm arena blocking --variant duo builtin:mcts "python3 tools/gtp_blokus_bot.py
        /path/to/pentobi-gtp -g duo --level 1 --nobook --noresign --quiet"
    realm arena blocking --variant classic --players 4 builtin:mcts "python3
        tools/gtp_blokus_bot.py /path/to/pentobi-gtp -g classic --level 5 --nobook --noresign
        --quiet" (three seats of it)

(each command on one line).

Everything after the script's name is the engine's command line; the engine must play the game
realm's header describes (2 players on 14 x 14: Duo, colours `b` and `w`; 4 players on 20 x 20:
Classic, colours `1` to `4` for realm's players 0 to 3, whose start corners are the same). Each
turn the bot tells the engine the other players' placements since its last turn (realm lists
them in the order they were placed), asks it for a move (`genmove`), and answers the legal
placement of realm's list that covers exactly the squares the engine chose. GTP squares are a
column letter and a row number counted from the bottom; realm's are (X, Y) with Y counted from
the top. Duo's two start squares swap under a half turn of the board: when the first player
opens on the start square the engine reserves for the second, the bot views the board turned by
half a turn.

Whatever the bot cannot translate ends it with a one-line reason on stderr and exit status 1,
which realm records as the bot's fault: a game the engine has no colours for, an engine that
resigns (Pentobi does in lost positions unless started with `--noresign`), passes (realm only
asks a player that has a legal move), names a square off the board or squares that are not one
of realm's listed placements.
"""
import subprocess
import sys


class AdapterError(Exception):
    """A move the bot cannot translate; it ends the bot."""


def read():
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
                raise AdapterError(f"engine ended on: {command}")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise AdapterError(f"engine refused `{command}`: {answer}")
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
    """The board squares of a realm placement `X Y Lfrk`."""
    x, y, name = move.split()[:3]
    letter, flip, rot, k = name[0], int(name[1]), int(name[2]), int(name[3])
    cells = orientation_cells(shapes[letter], flip, rot)
    kx, ky = cells[k - 1]
    return frozenset((int(x) + cx - kx, int(y) + cy - ky) for cx, cy in cells)


class Translator:
    """Squares between realm's (X, Y) and GTP's `a14`, on an n × n board, maybe turned."""

    def __init__(self, shapes, n, turned=False):
        self.shapes, self.n, self.turned = shapes, n, turned

    def square(self, cell):
        x, y = cell
        if self.turned:
            x, y = self.n - 1 - x, self.n - 1 - y
        return f"{chr(ord('a') + x)}{self.n - y}"

    def cell_of(self, text):
        n = self.n
        column, row = text[:1], text[1:]
        if not ("a" <= column <= chr(ord("a") + n - 1) and row.isdigit() and 1 <= int(row) <= n):
            raise AdapterError(f"engine named `{text}`, not a square of the {n} x {n} board")
        x, y = ord(column) - ord("a"), n - int(row)
        return (n - 1 - x, n - 1 - y) if self.turned else (x, y)

    def gtp_move(self, cells):
        """GTP's text of a set of squares (what `play` takes)."""
        return ",".join(self.square(c) for c in sorted(cells))

    def answer(self, chosen, valid):
        """The line of `valid` covering exactly the squares the engine chose."""
        if chosen.lower() == "resign":
            raise AdapterError("engine resigned (start it with --noresign to play every game out)")
        if chosen.lower() == "pass":
            raise AdapterError("engine passed, but realm lists legal placements for it")
        cells = frozenset(self.cell_of(t) for t in chosen.split(","))
        for move in valid:
            if placement_cells(self.shapes, move) == cells:
                return move
        raise AdapterError(f"engine chose {chosen}, not one of realm's {len(valid)} placements")


# The engine's colours for realm's players, by (players, board size).
COLOURS = {(2, 14): ["b", "w"], (4, 20): ["1", "2", "3", "4"]}


def play(engine):
    shapes = {}
    for _ in range(int(read())):
        letter, cols, rows, *lines = read().split()
        shapes[letter] = (int(cols), int(rows), lines)
    players, me, n = int(read()), int(read()), int(read())
    read()  # letters
    colours = COLOURS.get((players, n))
    if colours is None:
        raise AdapterError(f"no GTP game for {players} players on a {n} x {n} board "
                           "(Duo: 2 on 14 x 14, Classic: 4 on 20 x 20)")
    # Duo's view turns if the first placement is on the engine's second start square.
    translator = Translator(shapes, n) if players == 4 else None
    while True:
        for _ in range(n):
            read()  # the board: the placements below say what changed
        placed = [read().split(maxsplit=1) for _ in range(int(read()))]
        valid = [read() for _ in range(int(read()))]
        for player, move in placed:
            cells = placement_cells(shapes, move)
            if translator is None:
                translator = Translator(shapes, n, turned=(9, 9) in cells)
            engine.send(f"play {colours[int(player)]} {translator.gtp_move(cells)}")
        if translator is None:
            translator = Translator(shapes, n)
        chosen = engine.send(f"genmove {colours[me]}")
        print(translator.answer(chosen, valid), flush=True)


def main():
    try:
        play(Engine(sys.argv[1:]))
    except AdapterError as error:
        print(f"gtp_blokus_bot: {error}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
