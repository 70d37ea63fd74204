"""Tests of the self-play recorder (`gtp_selfplay.py`) against a fake engine replaying a GTP
exchange: Duo's two colours by default, Classic's four with `--colours`, each game one line
that ends once every colour has passed in a row. Run: `python3 -m unittest discover -s tools`.
"""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fake_gtp_engine  # noqa: E402

RECORDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gtp_selfplay.py")


class SelfplayTest(unittest.TestCase):
    def record(self, exchange, colours=None):
        """The OUT file of one game against an engine that expects `exchange` exactly."""
        with tempfile.TemporaryDirectory() as tmp:
            engine = os.path.join(tmp, "engine.py")
            fake_gtp_engine.write(engine, exchange)
            out = os.path.join(tmp, "games.txt")
            flags = ["--colours", colours] if colours else []
            done = subprocess.run([sys.executable, RECORDER, "1", "7", out, *flags, "--",
                                   sys.executable, engine], capture_output=True, text=True,
                                  timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out) as f:
                return f.read()

    def test_duo_games_alternate_two_colours_until_both_pass(self):
        exchange = [("genmove b", "= e10"), ("genmove w", "= j5"), ("genmove b", "= pass"),
                    ("genmove w", "= pass"), ("quit", "=")]
        self.assertEqual(self.record(exchange), "7 b:e10 w:j5 b:pass w:pass\n")

    def test_classic_games_cycle_four_colours_until_all_pass_in_a_row(self):
        exchange = [("genmove 1", "= a20"), ("genmove 2", "= pass"), ("genmove 3", "= t1"),
                    ("genmove 4", "= pass"), ("genmove 1", "= pass"), ("genmove 2", "= pass"),
                    ("genmove 3", "= pass"), ("quit", "=")]
        self.assertEqual(self.record(exchange, "1,2,3,4"),
                         "7 1:a20 2:pass 3:t1 4:pass 1:pass 2:pass 3:pass\n")


if __name__ == "__main__":
    unittest.main()
