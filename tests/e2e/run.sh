#!/usr/bin/env bash
# The viewer's browser tests: real replays of every game (played now by the realm binary) and
# the hand-made fixtures, then the runs pages of a results store.
# Needs /usr/bin/chromium; installs playwright-core from npm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"
npm ci --silent --no-audit --no-fund
cargo build -q -p realm-cli -p realm-viewer --examples --bins
realm="${CARGO_TARGET_DIR:-$repo/target}/debug/realm"
replays="$(mktemp -d)"
trap 'rm -rf "$replays"' EXIT
cp "$repo"/crates/viewer/tests/fixtures/*.json "$replays/"
play() { "$realm" play "$@" >/dev/null; }
play kingdomino builtin:greedy builtin:random --seed 3 --replay "$replays/real-kingdomino.json"
play kingdomino builtin:greedy builtin:random builtin:greedy builtin:random --seed 4 --replay "$replays/real-kingdomino-4p.json"
play blocking builtin:greedy builtin:random builtin:greedy --seed 5 --replay "$replays/real-blocking-3p.json"
play blocking builtin:greedy builtin:random --variant duo --seed 6 --replay "$replays/real-blocking-duo.json"
play ice-and-fire builtin:greedy builtin:random --seed 7 --replay "$replays/real-ice-and-fire.json"
play carcassonne builtin:greedy builtin:random builtin:greedy --seed 8 --replay "$replays/real-carcassonne-3p.json"
node viewer.test.mjs "$replays"

# The results-store pages: a small arena run with a bot that crashes, every replay kept.
store="$(mktemp -d)"
trap 'rm -rf "$replays" "$store"' EXIT
(cd "$store" && "$realm" arena kingdomino builtin:greedy builtin:random "exit 3" \
  --games 6 --seed 1 --db runs.sqlite --keep-replays all --quiet >/dev/null)
node runs.test.mjs "$realm" "$store/runs.sqlite" "$store/replays"
