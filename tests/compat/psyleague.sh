#!/usr/bin/env bash
# psyleague (the Python package, a real install) runs a league on realm end to end, by both
# routes the README gives: `realm play --json` as cmd_play_game, and an SDK-style play script
# (docs/compat/sdk_play_game.py) over `realm referee -l`. Passes when each league played its
# games and `psyleague show` ranks greedy above random.
#   tests/compat/psyleague.sh PATH/TO/realm
set -euo pipefail
realm=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'pkill -f "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

if ! python3 -m venv "$work/venv" 2>/dev/null; then
  # Debian's python3 needs its venv package for this.
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  python3 -m venv "$work/venv"
fi
"$work/venv/bin/pip" install -q psyleague==0.4.1
psyleague="$work/venv/bin/psyleague"

# league DIR CMD_PLAY_GAME: a league of realm's greedy and random bots; returns once 8 games
# are recorded, and checks the leaderboard.
league() {
  local dir=$1 play=$2
  mkdir -p "$dir" && cd "$dir"
  "$psyleague" config >/dev/null
  python3 - "$play" <<'PY'
import json, re, sys
text = open("psyleague.cfg").read()
text = re.sub(r'(?m)^cmd_bot_setup = .*$', 'cmd_bot_setup = "true"', text)
# A JSON string is a valid TOML basic string.
text = re.sub(r'(?m)^cmd_play_game = .*$', lambda _: 'cmd_play_game = ' + json.dumps(sys.argv[1]), text)
open("psyleague.cfg", "w").write(text)
PY
  "$psyleague" bot add greedy >/dev/null
  "$psyleague" bot add random >/dev/null
  "$psyleague" run >run.log 2>&1 &
  local runner=$! waited=0
  until [ -f psyleague.games ] && [ "$(wc -l <psyleague.games)" -ge 8 ]; do
    sleep 1; waited=$((waited + 1))
    if [ "$waited" -gt 300 ] || ! kill -0 "$runner" 2>/dev/null; then
      echo "psyleague played no games in $dir:"; cat run.log; exit 1
    fi
  done
  # The leaderboard is read while the runner still runs: it rewrites its bot file after each
  # game (truncate, then write), so a reader can catch it empty, and a kill in between would
  # leave it empty for good. Retry until both bots are listed.
  local board="" tries=0
  until board=$("$psyleague" show 2>/dev/null) && echo "$board" | grep -q greedy \
      && echo "$board" | grep -q random; do
    sleep 1; tries=$((tries + 1))
    if [ "$tries" -gt 120 ]; then
      echo "psyleague show never listed both bots in $dir:"; "$psyleague" show || true; exit 1
    fi
  done
  kill "$runner"; wait "$runner" 2>/dev/null || true
  echo "$board"
  # The first ranked row is greedy.
  echo "$board" | grep -E '^\s*\|?\s*1\b' | grep -q greedy \
    || { echo "greedy is not first in $dir"; exit 1; }
  cd "$work"
}

echo "== psyleague with realm play --json"
league "$work/json" "$realm play kingdomino '$realm bot kingdomino %P1%' '$realm bot kingdomino %P2%' --json --no-timeout"

echo "== psyleague with an SDK play script over realm referee -l"
league "$work/sdk" "python3 $repo/docs/compat/sdk_play_game.py '$realm referee kingdomino --no-timeout' random '$realm bot kingdomino %P1%' '$realm bot kingdomino %P2%'"

echo "psyleague: both routes ran end to end"
