"""Tests of the GTP adapter (`gtp_blokus_bot.py`): square translation on the Duo and Classic
boards, every orientation round-tripped through GTP text on a straight and a turned board, and
whole turns of Duo and Classic against a fake engine that replays GTP exchanges recorded from
Pentobi (or, for the turned opening, the Classic seat after three others and the refusals,
written by hand in the same format). Run: `python3 -m unittest discover -s tools`.
"""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fake_gtp_engine  # noqa: E402
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


def header(me, players=2, n=N):
    return "\n".join(["21", *SHAPE_LINES, str(players), str(me), str(n),
                      "ABCDEFGHIJKLMNOPQRSTU"]) + "\n"


def board(cells_of, n=N):
    """n rows with `cells_of[(x, y)]` written in (anchors are not needed by the adapter)."""
    rows = [["."] * n for _ in range(n)]
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

    def test_classic_squares_follow_gtp_coordinates(self):
        # Pentobi's Classic start squares for colours 1 to 4, realm's players 0 to 3.
        t = Translator(shapes(), 20)
        self.assertEqual([t.square(c) for c in [(0, 0), (19, 0), (19, 19), (0, 19)]],
                         ["a20", "t20", "t1", "a1"])
        self.assertEqual(t.cell_of("t20"), (19, 0))
        with self.assertRaises(AdapterError):
            t.cell_of("u1")

    def test_duo_has_91_orientations(self):
        self.assertEqual(sum(len(list(orientations(d))) for d in shapes().values()), 91)

    def test_every_orientation_round_trips_on_a_straight_and_a_turned_board(self):
        s = shapes()
        checked = 0
        for n, turned in [(N, False), (N, True), (20, False)]:
            t = Translator(s, n, turned)
            for letter, drawing in s.items():
                for flip, rot in orientations(drawing):
                    cells = orientation_cells(drawing, flip, rot)
                    width = max(x for x, _ in cells) + 1
                    height = max(y for _, y in cells) + 1
                    kx, ky = cells[0]
                    for ox, oy in [(0, 0), (n - width, n - height), (4, 4), (9, 2), (3, 9)]:
                        if ox + width > n or oy + height > n:
                            continue
                        move = f"{ox + kx} {oy + ky} {letter}{flip}{rot}1"
                        squares = placement_cells(s, move)
                        text = t.gtp_move(squares)
                        self.assertEqual(frozenset(t.cell_of(c) for c in text.split(",")), squares)
                        decoy = f"{ox + kx} {oy + ky} A001"
                        self.assertEqual(t.answer(text, [decoy, move]), move)
                        checked += 1
        self.assertGreater(checked, 3 * 91 * 4)

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
            fake_gtp_engine.write(engine, exchange)
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

    # Recorded from Pentobi 7cdd99bc (`pentobi-gtp -g classic --level 1 --seed 1`) on
    # 2026-11-29: realm's greedy, player 0, opened with `0 0 R001`; Pentobi, as the second
    # colour for realm's player 1, answered on its corner t20. The valid list is realm's first
    # three lines for player 1 there and the line of Pentobi's answer.
    def test_a_classic_reply_becomes_the_listed_placement(self):
        exchange = [("play 1 a20,a19,b19,b18,c18", "="), ("genmove 2", "= r18,s18,s19,s20,t20")]
        r = {(0, 0): "0", (0, 1): "0", (1, 1): "0", (1, 2): "0", (2, 2): "0"}
        valid = ["19 0 A001", "19 0 B002", "19 0 B011", "19 0 S111"]
        stdin = (header(1, 4, 20) + board(r, 20) + "1\n0 0 0 R001\n" + f"{len(valid)}\n"
                 + "".join(v + "\n" for v in valid))
        done = self.run_adapter(exchange, stdin)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, "19 0 S111\n")

    def test_classic_tells_the_others_placements_in_their_order_each_turn(self):
        # Player 3 hears players 0, 1 and 2 (colours 1, 2, 3) before its first move, then only
        # what was placed since its last turn (player 1 was stuck: 0 and 2 placed).
        exchange = [("play 1 a20", "="), ("play 2 t20", "="), ("play 3 t1", "="),
                    ("genmove 4", "= a1"),
                    ("play 1 b19", "="), ("play 3 s2", "="), ("genmove 4", "= b2")]
        first = {(0, 0): "0", (19, 0): "1", (19, 19): "2"}
        second = {**first, (0, 19): "3", (1, 1): "0", (18, 18): "2"}
        stdin = (header(3, 4, 20) + board(first, 20) + "3\n0 0 0 A001\n1 19 0 A001\n2 19 19 A001\n"
                 + "2\n0 19 A001\n0 19 B001\n"
                 + board(second, 20) + "2\n0 1 1 A001\n2 18 18 A001\n" + "1\n1 18 A001\n")
        done = self.run_adapter(exchange, stdin)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, "0 19 A001\n1 18 A001\n")

    def test_a_game_without_engine_colours_ends_the_bot_with_a_reason(self):
        done = self.run_adapter([], header(0, 3, 13) + board({}, 13) + "0\n1\n0 0 A001\n")
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertIn("no GTP game for 3 players on a 13 x 13 board", done.stderr)


if __name__ == "__main__":
    unittest.main()
