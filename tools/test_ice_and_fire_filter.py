"""Tests of the Ice and Fire output filter (`ice_and_fire_filter.py`): pieces naming a negative
number are dropped, the others kept in order, an emptied line becomes WAIT, and a whole run
passes the referee's input to the bot and filters each line it writes. Run:
`python3 -m unittest discover -s tools`.
"""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ice_and_fire_filter import filter_line  # noqa: E402

FILTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ice_and_fire_filter.py")


class FilterLine(unittest.TestCase):
    def test_negative_pieces_are_dropped_and_the_rest_kept_in_order(self):
        self.assertEqual(
            filter_line("MOVE 3 4 5;TRAIN -1 -1 1;TRAIN 1 2 3;BUILD MINE -1 4"),
            "MOVE 3 4 5;TRAIN 1 2 3",
        )

    def test_a_line_left_empty_is_wait(self):
        self.assertEqual(filter_line("TRAIN -1 0 0"), "WAIT")
        self.assertEqual(filter_line(""), "WAIT")

    def test_messages_and_waits_are_kept(self):
        self.assertEqual(filter_line("WAIT;MSG down -1"), "WAIT;MSG down -1")


class WholeRun(unittest.TestCase):
    def test_the_bot_reads_the_input_and_each_line_it_writes_is_filtered(self):
        bot = "import sys\nfor line in sys.stdin:\n    print('MOVE 1 ' + line.strip() + ';TRAIN -1 0 0', flush=True)\n"
        run = subprocess.run(
            [sys.executable, FILTER, sys.executable, "-c", bot],
            input="2 3\n4 5\n",
            capture_output=True,
            text=True,
            check=True,
        )
        self.assertEqual(run.stdout, "MOVE 1 2 3\nMOVE 1 4 5\n")


if __name__ == "__main__":
    unittest.main()
