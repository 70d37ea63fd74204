"""Tests of the GTP adapter (`gtp_blokus_bot.py`): square translation, every Duo orientation
round-tripped through GTP text on a straight and a turned board, and whole turns against a fake
engine that replays GTP exchanges recorded from Pentobi (or, for the turned opening and the
refusals, written by hand in the same format). Run: `python3 -m unittest discover -s tools`.
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_blokus_bot import AdapterError, Translator, orientation_cells, placement_cells  # noqa: E402

ADAPTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gtp_blokus_bot.py")

# realm's Duo header as the protocol sends it (21 shapes, then players, id, size, letters).
SHAPE_LINES = """A 1 1 #
B 2 1 ##
C 3 1 ###
D 2 2 #. ##
E 4 1 ####
F 2 3 #. #. ##
G 3 2 ### .#.
H 2 2 ## ##
I 3 2 ##. .##
J 5 1 #####
K 2 4 #. #. #. ##
L 4 2 ##.. .###
M 2 3 ## ## #.
N 3 2 #.# ###
O 4 2 #### .#..
P 3 3 #.. #.. ###
Q 3 3 ### .#. .#.
R 3 3 #.. ##. .##
S 3 3 ##. .#. .##
T 3 3 .## ##. .#.
U 3 3 .#. ### .#.""".split("\n")

N = 14


def shapes():
    out = {}
    for line in SHAPE_LINES:
        letter, cols, rows, *lines = line.split()
        out[letter] = (int(cols), int(rows), lines)
    return out


def orientations(drawing):
    """(flip, rot) of each distinct orientation of a drawing."""
    found = {}
    for flip in (0, 1):
        for rot in range(4):
            key = frozenset(orientation_cells(drawing, flip, rot))
            found.setdefault(key, (flip, rot))
    return found.values()


def header(me):
    return "\n".join(["21", *SHAPE_LINES, "2", str(me), str(N), "ABCDEFGHIJKLMNOPQRSTU"]) + "\n"


def board(cells_of):
    """N rows with `cells_of[(x, y)]` written in (anchors are not needed by the adapter)."""
    rows = [["."] * N for _ in range(N)]
    for (x, y), mark in cells_of.items():
        rows[y][x] = mark
    return "\n".join("".join(r) for r in rows) + "\n"


class TranslationTest(unittest.TestCase):
    def test_squares_follow_gtp_coordinates(self):
        t = Translator(shapes(), N)
        # Pentobi's Duo start squares: e10 for the first colour, j5 for the second.
        self.assertEqual(t.square((4, 4)), "e10")
        self.assertEqual(t.square((9, 9)), "j5")
        self.assertEqual(t.square((0, 13)), "a1")
        self.assertEqual(t.square((13, 0)), "n14")
        self.assertEqual(t.cell_of("a14"), (0, 0))
        turned = Translator(shapes(), N, turned=True)
        self.assertEqual(turned.square((9, 9)), "e10")
        self.assertEqual(turned.cell_of("j5"), (4, 4))

    def test_duo_has_91_orientations(self):
        self.assertEqual(sum(len(list(orientations(d))) for d in shapes().values()), 91)

    def test_every_orientation_round_trips_on_a_straight_and_a_turned_board(self):
        s = shapes()
        checked = 0
        for turned in (False, True):
            t = Translator(s, N, turned)
            for letter, drawing in s.items():
                for flip, rot in orientations(drawing):
                    cells = orientation_cells(drawing, flip, rot)
                    width = max(x for x, _ in cells) + 1
                    height = max(y for _, y in cells) + 1
                    kx, ky = cells[0]
                    for ox, oy in [(0, 0), (N - width, N - height), (4, 4), (9, 2), (3, 9)]:
                        if ox + width > N or oy + height > N:
                            continue
                        move = f"{ox + kx} {oy + ky} {letter}{flip}{rot}1"
                        squares = placement_cells(s, move)
                        text = t.gtp_move(squares)
                        self.assertEqual(frozenset(t.cell_of(c) for c in text.split(",")), squares)
                        decoy = f"{ox + kx} {oy + ky} A001"
                        self.assertEqual(t.answer(text, [decoy, move]), move)
                        checked += 1
        self.assertGreater(checked, 2 * 91 * 4)

    def test_refusals_are_errors_with_reasons(self):
        t = Translator(shapes(), N)
        for chosen, reason in [("resign", "resigned"), ("pass", "passed"),
                               ("o3", "not a square"), ("e0", "not a square"),
                               ("e10,f10", "not one of realm's 1 placements")]:
            with self.assertRaises(AdapterError) as caught:
                t.answer(chosen, ["4 4 A001"])
            self.assertIn(reason, str(caught.exception))


class RecordedExchangeTest(unittest.TestCase):
    """The adapter as realm runs it, against a fake engine replaying an exchange."""

    def run_adapter(self, exchange, stdin):
        with tempfile.TemporaryDirectory() as tmp:
            engine = os.path.join(tmp, "engine.py")
            with open(engine, "w") as f:
                f.write(textwrap.dedent(f"""
                    import sys
                    exchange = {exchange!r}
                    for expected, response in exchange:
                        line = sys.stdin.readline().strip()
                        if line != expected:
                            print(f"? expected {{expected}}, got {{line}}\\n", flush=True)
                            sys.exit(1)
                        print(response + "\\n", flush=True)
                """))
            return subprocess.run([sys.executable, ADAPTER, sys.executable, engine], input=stdin,
                                  capture_output=True, text=True, timeout=60)

    # Recorded from Pentobi 7cdd99bc (`pentobi-gtp -g duo --level 1`) on 2026-11-26: realm's
    # greedy opened with `4 4 U002` (the plus on e10); Pentobi answered with the plus on j6.
    PLUS = {(4, 4): "0", (5, 3): "0", (5, 4): "0", (5, 5): "0", (6, 4): "0"}
    OPENING = [("play b e10,f11,f10,f9,g10", "="), ("genmove w", "= j5,i6,j6,k6,j7")]

    def turn(self, valid, others="1\n0 4 4 U002\n"):
        return board(self.PLUS) + others + f"{len(valid)}\n" + "".join(v + "\n" for v in valid)

    def test_a_recorded_reply_becomes_the_listed_placement(self):
        valid = ["9 9 A001", "9 9 U001", "9 9 U005", "9 9 U002"]
        done = self.run_adapter(self.OPENING, header(1) + self.turn(valid))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, "9 9 U005\n")

    def test_an_opening_on_the_other_start_square_turns_the_board(self):
        # realm's first player opened on (9, 9), the square Pentobi keeps for its second colour:
        # the adapter turns the board, so that square is e10 and Pentobi's j5 is realm's (4, 4).
        exchange = [("play b e10", "="), ("genmove w", "= j5")]
        stdin = header(1) + board({(9, 9): "0"}) + "1\n0 9 9 A001\n2\n4 4 A001\n4 4 B001\n"
        done = self.run_adapter(exchange, stdin)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, "4 4 A001\n")

    def test_a_resigning_engine_ends_the_bot_with_a_reason(self):
        exchange = [self.OPENING[0], ("genmove w", "= resign")]
        done = self.run_adapter(exchange, header(1) + self.turn(["9 9 A001"]))
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertIn("engine resigned", done.stderr)

    def test_an_unlisted_move_ends_the_bot_instead_of_playing_another(self):
        done = self.run_adapter(self.OPENING, header(1) + self.turn(["9 9 A001", "9 9 U001"]))
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertIn("engine chose j5,i6,j6,k6,j7, not one of realm's 2 placements", done.stderr)


if __name__ == "__main__":
    unittest.main()
