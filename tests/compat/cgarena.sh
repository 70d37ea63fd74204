#!/usr/bin/env bash
# cgarena (a real `cargo install cgarena`) runs an arena on realm end to end with the README's
# configuration, docs/compat/cgarena_config.toml, copied unchanged over what `cgarena init`
# writes. Passes when the candidate (realm's greedy bot) finished its evaluation against the
# benchmark (realm's random bot) and cgarena's leaderboard ranks greedy first.
#   tests/compat/cgarena.sh PATH/TO/realm [PATH/TO/cgarena]
set -euo pipefail
realm=$(realpath "$1")
cgarena=${2:-cgarena}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
runner=""
cleanup() {
  if [ -n "$runner" ]; then kill "$runner" 2>/dev/null || true; wait "$runner" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# The configuration calls `realm`: the one under test comes first on the PATH.
mkdir "$work/bin" && ln -s "$realm" "$work/bin/realm"
export PATH="$work/bin:$PATH"

# The README's worker block stands in the configuration file as it is.
python3 - "$repo/README.md" "$repo/docs/compat/cgarena_config.toml" <<'PY'
import re, sys
readme, config = (open(path).read() for path in sys.argv[1:])
section = readme[readme.index("**cgarena 1.4.2**"):]
block = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
if block not in config:
    sys.exit(f"the README's cgarena block is not in {sys.argv[2]}:\n{block}")
PY

"$cgarena" --version
"$cgarena" init "$work/arena" >/dev/null
cp "$repo/docs/compat/cgarena_config.toml" "$work/arena/cgarena_config.toml"
"$cgarena" run "$work/arena" >"$work/run.log" 2>&1 &
runner=$!

waited=0
until port=$(sed -n 's|^Local: *http://localhost:\([0-9]*\)/.*|\1|p' "$work/run.log") && [ -n "$port" ]; do
  sleep 1; waited=$((waited + 1))
  if [ "$waited" -gt 60 ] || ! kill -0 "$runner" 2>/dev/null; then
    echo "cgarena did not start:"; cat "$work/run.log" "$work/arena/cgarena.log" 2>/dev/null; exit 1
  fi
done

python3 - "http://127.0.0.1:$port/api" "$work/arena" <<'PY'
import json, sys, time, urllib.error, urllib.request

api, arena = sys.argv[1], sys.argv[2]

def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(api + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return json.loads(text) if text else None

def fail(message):
    print(message)
    print(open(f"{arena}/cgarena.log").read()[-4000:])
    sys.exit(1)

# A bot's source is the shell line that starts it (cmd_run = "sh {DIR}/source.txt").
call("POST", "/bots", {"name": "random", "source_code": "realm bot kingdomino random",
                       "language": "sh", "role": "benchmark"})
call("POST", "/bots", {"name": "greedy", "source_code": "realm bot kingdomino greedy",
                       "language": "sh"})

started = time.time()
while True:
    status = call("GET", "/status")
    bots = {bot["name"]: bot for bot in status["bots"]}
    greedy = bots.get("greedy", {})
    if (greedy.get("evaluation") or {}).get("complete"):
        break
    if time.time() - started > 600:
        fail(f"the candidate's evaluation never completed: {json.dumps(status)[:2000]}")
    time.sleep(1)

# "complete" counts the matches still queued: wait until the leaderboard holds them all.
while True:
    status = call("GET", "/status")
    board = status["leaderboards"][0]
    if board["status"] == "live" and len(board["items"]) == 2 and board["total_matches"] >= 20:
        break
    if time.time() - started > 660:
        fail(f"the leaderboard never held the evaluation's 20 matches: {json.dumps(board)[:2000]}")
    time.sleep(1)

ids = {bot["id"]: bot["name"] for bot in status["bots"]}
ranked = [ids[item["id"]] for item in sorted(board["items"], key=lambda item: item["rank"])]
for bot in status["bots"]:
    print(f"{bot['name']}: {bot['role']}, {bot['matches_played']} matches, "
          f"{bot['matches_with_error']} with an error, builds {[b['status'] for b in bot['builds']]}")
print(f"leaderboard: {ranked}, {board['total_matches']} matches")
if ranked[0] != "greedy":
    fail("greedy is not first")

# The Watch button names the command that opens the match's replay, a realm replay.
matches = call("GET", "/matches?filter=&including_bots=&offset=0&limit=1")
match_id = (matches["matches"] if isinstance(matches, dict) else matches)[0]["id"]
try:
    call("GET", f"/matches/{match_id}/replay")
    fail("watching a replay did not say how to open it")
except urllib.error.HTTPError as error:
    said = error.read().decode()
print(f"watch: {said}")
if "open this replay with: realm view " not in said:
    fail("watching a replay did not say how to open it")
replay_path = said.split("realm view ", 1)[1].split('"')[0].strip()
with open(replay_path) as f:
    replay = json.load(f)
if replay["spec"]["game"] != "kingdomino":
    fail(f"{replay_path} is not a realm replay")
PY
echo "cgarena: realm played and cgarena ranked the matches"
