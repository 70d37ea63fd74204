#!/usr/bin/env python3
"""Fits the Blocking search's learned move prior (crates/blocking/src/bots/mcts/prior.rs).

    cargo run --release -p realm-blocking --example prior_data -- GAMES.txt 40 > rows.bin
    python3 tools/fit_blocking_prior.py rows.bin

The rows hold, for each recorded position, the features of the move played and of a uniform
sample of the other legal moves. The model is a conditional logit (the probability of a move
is proportional to exp(w . features)); the sampled moves stand for all the others, each
weighted by (legal moves - 1) / (moves sampled). Newton's method with a small L2 penalty;
the last fifth of the positions is held out to report how often the move played ranks first
among its sample. Prints the weights as the Rust array `WEIGHTS` (from Classic games, they go to
`CLASSIC_WEIGHTS`, the 20 x 20 board's).
"""
import sys

import numpy as np

N_LETTERS = 21
N_FEATURES = N_LETTERS + 17
ROW = np.dtype([("g", "<u4"), ("chosen", "u1"), ("legal", "<u2"), ("f", "u1", (N_FEATURES,))])
PENALTY = 1.0


def groups_of(rows):
    _, start, inverse = np.unique(rows["g"], return_index=True, return_inverse=True)
    return inverse, len(start)


def objective(w, x, chosen, offset, group, n_groups, starts):
    """Penalised log-likelihood, its gradient and Hessian."""
    z = x @ w + offset
    z -= np.maximum.reduceat(z, starts)[group]
    e = np.exp(z)
    total = np.bincount(group, e, n_groups)
    p = e / total[group]
    mean = np.zeros((n_groups, x.shape[1]))
    np.add.at(mean, group, p[:, None] * x)
    value = (z[chosen] - np.log(total[group[chosen]])).sum() - 0.5 * PENALTY * w @ w
    grad = x[chosen].sum(0) - mean.sum(0) - PENALTY * w
    hess = (x * p[:, None]).T @ x - mean.T @ mean + PENALTY * np.eye(len(w))
    return value, grad, hess


def fit(x, chosen, offset, group, n_groups):
    starts = np.r_[0, np.flatnonzero(np.diff(group)) + 1]
    w = np.zeros(x.shape[1])
    value, grad, hess = objective(w, x, chosen, offset, group, n_groups, starts)
    for _ in range(50):
        delta = np.linalg.solve(hess, grad)
        step = 1.0
        while step > 1e-4:
            trial = objective(w + step * delta, x, chosen, offset, group, n_groups, starts)
            if trial[0] >= value:
                break
            step /= 2
        w = w + step * delta
        improvement = trial[0] - value
        value, grad, hess = trial
        if improvement < 1e-6:
            break
    return w, value


def main():
    rows = np.fromfile(sys.argv[1], dtype=ROW)
    rows = rows[np.argsort(rows["g"], kind="stable")]
    group, n_groups = groups_of(rows)
    x = rows["f"].astype(np.float64)
    chosen = rows["chosen"] == 1
    sampled = np.bincount(group, ~chosen, n_groups)
    legal = rows["legal"].astype(np.float64)
    offset = np.where(chosen, 0.0, np.log(np.maximum(legal - 1, 1) / np.maximum(sampled[group], 1)))
    split = int(n_groups * 0.8)
    train, test = group < split, group >= split
    w, loglik = fit(x[train], chosen[train], offset[train], group[train], split)
    starts = np.r_[0, np.flatnonzero(np.diff(group[test])) + 1]
    held, _, _ = objective(w, x[test], chosen[test], offset[test], group[test] - split,
                           n_groups - split, starts)
    held += 0.5 * PENALTY * w @ w
    z = x[test] @ w
    g = group[test] - split
    best = np.full(n_groups - split, -np.inf)
    np.maximum.at(best, g[~chosen[test]], z[~chosen[test]])
    top = (z[chosen[test]] > best[g[chosen[test]]]).mean()
    print(f"{n_groups} positions; log-likelihood per position: train {loglik / split:.3f}, "
          f"held out {held / (n_groups - split):.3f}; held out, the move played beats its "
          f"{int(sampled.mean())} sampled rivals in {top:.1%}", file=sys.stderr)
    print("pub const WEIGHTS: [f32; N_FEATURES] = [")
    for i, v in enumerate(w):
        print(f"    {v:.4f},")
    print("];")


if __name__ == "__main__":
    main()
