#!/usr/bin/env python3
"""Blocking / Blokus Duo / Blokus Classic example bot for realm
(protocol: crates/blocking/PROTOCOL.md).

Strategy: the referee lists every legal move, so the bot only chooses: a move
of the largest shape it can still place, ties going to the move whose named cell
(X, Y) is closest to the centre of the board. Standard library only.
"""
import sys


def debug(*args):
    print(*args, file=sys.stderr, flush=True)


def read():
    line = sys.stdin.readline()
    if not line:  # the match is over: realm closed our input
        sys.exit(0)
    return line.rstrip("\n")


def main():
    # Initial input, once: the shapes, nPlayers, myId, N, the letters of the set.
    sizes = {}
    for _ in range(int(read())):
        letter, cols, rows, *drawing = read().split()  # e.g. "D 2 2 #. ##"
        sizes[letter] = sum(row.count("#") for row in drawing)
    n_players = int(read())
    my_id = int(read())
    n = int(read())
    letters = read()
    debug("player", my_id, "of", n_players, "on", n, "x", n, "with", letters)

    while True:
        board = [read() for _ in range(n)]  # '0'-'3' colours, 'x' my anchors, '.' empty
        for _ in range(int(read())):
            read()  # "pid X Y Lfrk": the other players' moves since my last turn
        moves = [read() for _ in range(int(read()))]  # "X Y Lfrk", never empty
        centre = (n - 1) / 2

        def value(move):
            x, y, name = move.split()
            distance = abs(int(x) - centre) + abs(int(y) - centre)
            return (sizes[name[0]], -distance)

        best = max(moves, key=value)  # max keeps the first of equal moves
        print(best, flush=True)


main()
