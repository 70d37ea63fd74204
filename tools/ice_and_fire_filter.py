#!/usr/bin/env python3
"""Run an A Code of Ice and Fire bot and drop the pieces of its answer the referee rejects.

Usage: ice_and_fire_filter.py BOT_COMMAND [ARG...]

The bot reads the referee's input unchanged (it inherits stdin). Each line it writes is split
on ';' and a piece is dropped when it names a cell with a negative coordinate (some contest
bots append `TRAIN -1 -1 ...` when they found no cell), since the official referee rejects the
whole line for such a piece, exactly as realm does. A line left empty becomes `WAIT`.
Standard error passes through.
"""

import re
import subprocess
import sys

NEGATIVE = re.compile(r"^\s*(MOVE|TRAIN|BUILD)\b.*\s-\d")


def keep(piece: str) -> bool:
    return bool(piece.strip()) and not NEGATIVE.match(piece)


def filter_line(line: str) -> str:
    pieces = [p.strip() for p in line.split(";") if keep(p)]
    return ";".join(pieces) if pieces else "WAIT"


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, text=True, bufsize=1)
    assert child.stdout is not None
    for line in child.stdout:
        sys.stdout.write(filter_line(line.rstrip("\n")) + "\n")
        sys.stdout.flush()
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
