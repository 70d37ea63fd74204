#!/usr/bin/env bash
# The viewer's browser tests: real replays of every game, played (and, for Kingdom Builder,
# also a scored board) now by the realm binary and served by `realm serve`, then the runs pages of a
# results store.
# Needs /usr/bin/chromium; installs playwright-core from npm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$here"
npm ci --silent --no-audit --no-fund
cargo build -q -p realm-cli --bin realm
realm="${CARGO_TARGET_DIR:-$repo/target}/debug/realm"
replays="$(mktemp -d)"
trap 'rm -rf "$replays"' EXIT
play() { "$realm" play "$@" >/dev/null; }
play kingdomino builtin:greedy builtin:random --seed 3 --replay "$replays/real-kingdomino.json"
play kingdomino builtin:greedy builtin:random builtin:greedy --seed 9 --replay "$replays/real-kingdomino-3p.json"
play kingdomino builtin:greedy builtin:random builtin:greedy builtin:random --seed 4 --replay "$replays/real-kingdomino-4p.json"
play blocking builtin:greedy builtin:random builtin:greedy --seed 5 --replay "$replays/real-blocking-3p.json"
# A seed above 2^53, which JavaScript numbers cannot hold: the title must show it exactly.
play blocking builtin:greedy builtin:random --variant duo --seed 18446744073709551557 --replay "$replays/real-blocking-duo.json"
play ice-and-fire builtin:greedy builtin:random --seed 7 --replay "$replays/real-ice-and-fire.json"
play carcassonne builtin:greedy builtin:random builtin:greedy --seed 8 --replay "$replays/real-carcassonne-3p.json"
# The full game of Kingdom Builder (a match, not a scored board); a fixed search budget keeps
# the replay the same on any machine.
play kingdom-builder builtin:mcts:iters=40 builtin:greedy builtin:random --seed 6 --replay "$replays/real-kingdom-builder-3p.json"
# A match to debug: seat 1 writes every answer to stderr too ("said ..."), seat 2 writes to
# stderr and faults at once (a PICK of no tile); the 2-player seed 3 above has two warnings.
chatty="$realm bot kingdomino greedy --seed 5 | while IFS= read -r l; do echo \"said \$l\" >&2; echo \"\$l\"; done"
play kingdomino builtin:greedy "$chatty" "echo thinking >&2; read a; echo PUT 0 0 0; echo PICK 99" \
  --seed 11 --no-timeout --replay "$replays/debug-kingdomino-3p.json"
board="$repo/../shared/data/kingdom_builder_example_board.txt"
[ -f "$board" ] || board="$repo/crates/kingdom-builder/data/kingdom_builder_example_board.txt"
"$realm" score kingdom-builder "$board" --cards 2,5,9 --replay "$replays/real-kingdom-builder.json" >/dev/null
node viewer.test.mjs "$realm" "$replays"
# The replay page as a debugger (issue 41): fault marks, rounds, the console, stdin downloads,
# coordinates, Blokus pieces, Kingdom Builder's card highlight.
node debugger.test.mjs "$realm" "$replays"

# A person's seat (issue 42): every game and variant played to the end by clicking the page.
node play.test.mjs "$realm"

# The results-store pages: a small arena run with a bot that crashes, every replay kept.
store="$(mktemp -d)"
trap 'rm -rf "$replays" "$store"' EXIT
(cd "$store" && "$realm" arena kingdomino builtin:greedy builtin:random "exit 3" \
  --games 6 --seed 1 --db runs.sqlite --keep-replays all --quiet >/dev/null)
node runs.test.mjs "$realm" "$store/runs.sqlite" "$store/replays"

# The fixes of the browser audit (issue 17), on the same replays and store.
node audit.test.mjs "$realm" "$replays" "$store/runs.sqlite" "$store/replays"

# Accessibility, themes, long names, colour blindness and small screens (issue 41).
node a11y.test.mjs "$realm" "$replays" "$store/runs.sqlite" "$store/replays"
