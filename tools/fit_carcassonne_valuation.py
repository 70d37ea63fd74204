#!/usr/bin/env python3
"""Fits the Carcassonne search's valuation weights (crates/carcassonne/src/bots/valuation.rs).

Input: the CSV of `cargo run --release -p realm-carcassonne --example valuation_data -- GAMES`
(one row per player per turn of two-player games). The target is the rest of the game's
score margin, (final_0 - final_1) - (score_0 - score_1); the features are the differences
between the two players of each open-feature kind's end-now points, the two prospects
(castles one edge from closing, open castles touching a field) and the men in supply, each
also multiplied by the fraction of the bag left. Least squares on four fifths
of the games; the rest are held out to report how often each valuation names the final
leader.

Usage: python3 tools/fit_carcassonne_valuation.py data.csv   (needs numpy)
"""
import sys

import numpy as np

COLUMNS = ("game,turn,player,bag,full_bag,score,castle,road,monastery,field,men_left,final,"
           "nearly_closed_castles,field_prospects")


def features(rows, fraction):
    castle, road, monastery, field, men = (rows[:, i] for i in range(6, 11))
    nearly_closed, prospects = rows[:, 12], rows[:, 13]
    return [
        castle, castle * fraction, road, road * fraction, monastery, monastery * fraction,
        field, field * fraction, nearly_closed, nearly_closed * fraction,
        prospects, prospects * fraction, men, men * fraction,
        (men == 1) * 1.0, (men == 1) * fraction, (men <= 2) * 1.0,
    ]


NAMES = ["castle", "castle x bag", "road", "road x bag", "monastery", "monastery x bag",
         "field", "field x bag", "nearly closed", "nearly closed x bag", "field prospect",
         "field prospect x bag", "man in supply", "man x bag", "last man", "last man x bag",
         "two men or fewer"]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fit_carcassonne_valuation.py DATA.csv")
    with open(sys.argv[1]) as f:
        header = f.readline().strip()
    if header != COLUMNS:
        sys.exit(f"{sys.argv[1]}: expected the header {COLUMNS}")
    data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
    first, second = data[data[:, 2] == 0], data[data[:, 2] == 1]
    if first.shape != second.shape or (first[:, :2] != second[:, :2]).any():
        sys.exit("rows must come in pairs, player 0 then player 1, for every turn")
    game = first[:, 0]
    fraction = first[:, 3] / first[:, 4]
    lead_now = first[:, 5] - second[:, 5]
    final_margin = first[:, 11] - second[:, 11]
    x = (np.array(features(first, fraction)) - np.array(features(second, fraction))).T
    y = final_margin - lead_now
    train, test = game % 5 != 0, game % 5 == 0
    weights, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
    for name, w in zip(NAMES, weights):
        print(f"{name:20s} {w:8.3f}")
    end_now = first[:, 6:10].sum(1) - second[:, 6:10].sum(1)
    for name, guess in [("fitted", lead_now + x @ weights), ("end-now", lead_now + end_now)]:
        right = np.sign(guess[test]) == np.sign(final_margin[test])
        early = fraction[test] >= 0.5
        print(f"{name}: names the final leader in {right.mean():.1%} of held-out positions "
              f"({right[early].mean():.1%} in the first half of the game)")


if __name__ == "__main__":
    main()
