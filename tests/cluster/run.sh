#!/usr/bin/env bash
# The cluster test: a real one-node Slurm (munge, slurmctld, slurmd from Debian's packages,
# started here without systemd) runs the documented array job (docs/cluster/slurm-array.sh)
# with small numbers; one task is cancelled mid-run (scancel signals its bots and realm) and
# resubmitted alone; the merged store must equal a whole run match by match.
#
# Usage: bash tests/cluster/run.sh [REALM_BINARY]   (default: target/debug/realm, built if absent)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
REALM="${1:-$ROOT/target/debug/realm}"
[ -x "$REALM" ] || cargo build -q -p realm-cli
REALM="$(realpath "$REALM")"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "== installing Slurm and munge from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

WORK="$(mktemp -d /tmp/realm-cluster-XXXXXX)"
HOST="$(hostname -s)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$WORK/slurmctld.pid" ] && kill "$(cat "$WORK/slurmctld.pid")" 2>/dev/null || true
  [ -f "$WORK/slurmd.pid" ] && kill "$(cat "$WORK/slurmd.pid")" 2>/dev/null || true
  [ -f "$WORK/munged.pid" ] && kill "$(cat "$WORK/munged.pid")" 2>/dev/null || true
}
trap cleanup EXIT
fail() {
  echo "cluster test FAILED: $*" >&2
  for f in "$WORK"/log/*.log "$WORK"/run/realm-arena-*.log; do
    [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; } >&2
  done
  exit 1
}

echo "== starting munge, slurmctld and slurmd on $HOST"
mkdir -p "$WORK"/{state,spool,log,munge,run}
[ -s /etc/munge/munge.key ] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null; chmod 400 /etc/munge/munge.key; }
SOCKET="$WORK/munge/munge.socket"
munged --force --socket="$SOCKET" --pid-file="$WORK/munged.pid" \
  --log-file="$WORK/log/munged.log" --seed-file="$WORK/munge/seed"
export SLURM_CONF="$WORK/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=realmtest
SlurmctldHost=$HOST
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
SlurmctldPort=16917
SlurmdPort=16918
ReturnToService=2
KillWait=5
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
NodeName=$HOST CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %t | grep -q idle || fail "the node did not come up"

# Small numbers: 4 shards of 40 matches, a Python bot (so scancel has bot processes to signal).
export SHARDS=4 GAMES=160 SEED=7 STORES="$WORK/run/shards"
PER_SHARD=40
BOT="python3 $ROOT/crates/cli/tests/bots/kingdomino_bot.py"
export REALM_ARENA="kingdomino builtin:greedy"
export REALM_EXTRA="--keep-replays none --no-timeout --quiet"
export PATH="$(dirname "$REALM"):$PATH"
# REALM_ARENA is split into words by the job file, so the bot command goes in through a
# one-word wrapper.
cat > "$WORK/bot.sh" <<BOTSH
#!/bin/sh
exec $BOT
BOTSH
chmod +x "$WORK/bot.sh"
export REALM_ARENA="kingdomino $WORK/bot.sh builtin:greedy"
cd "$WORK/run"

matches_in() { # store -> number of stored matches (0 when absent)
  python3 - "$1" <<'PY'
import sqlite3, sys, os
path = sys.argv[1]
if not os.path.exists(path):
    print(0)
else:
    try:
        print(sqlite3.connect(path).execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    except sqlite3.Error:
        print(0)
PY
}
wait_jobs() { # wait until the job has left the queue (at most 300 s)
  for _ in $(seq 300); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 1
  done
  fail "job $1 did not finish"
}

wait_for_matches() { # store, count: wait (at most 60 s) until the store holds count matches
  for _ in $(seq 300); do
    [ "$(matches_in "$1")" -ge "$2" ] && return 0
    sleep 0.2
  done
  fail "$1 never reached $2 matches"
}

echo "== submitting the documented array job (--array=1-$SHARDS)"
JOB="$(sbatch --parsable --cpus-per-task=1 --array=1-$SHARDS "$ROOT/docs/cluster/slurm-array.sh")"
# Tasks 1 and 2 run side by side: requeue one and cancel the other, both in the middle of their
# runs (Slurm signals the bots and realm alike).
wait_for_matches "$STORES/realm-1.sqlite" 3
wait_for_matches "$STORES/realm-2.sqlite" 3
scancel "${JOB}_2"
scontrol requeue "${JOB}_1"
echo "   cancelled task 2 after $(matches_in "$STORES/realm-2.sqlite") of $PER_SHARD matches"
echo "   requeued task 1 after $(matches_in "$STORES/realm-1.sqlite") of $PER_SHARD matches"
# A requeued job is held back for a while (BeginTime) before it may start again: start it now.
for _ in $(seq 100); do
  squeue -h -j "${JOB}_1" -o %T 2>/dev/null | grep -q PENDING \
    && scontrol update JobId="${JOB}_1" StartTime=now 2>/dev/null && break
  sleep 0.2
done
wait_jobs "$JOB"
[ "$(grep -c "task 1 of 4" realm-arena-"${JOB}"_1.log)" -eq 2 ] \
  || fail "the requeued task's log was not appended to"
before="$(matches_in "$STORES/realm-2.sqlite")"
[ "$before" -lt "$PER_SHARD" ] || fail "task 2 finished before it was cancelled; nothing was tested"
if "$REALM" merge "$STORES"/realm-*.sqlite --into "$WORK/partial.sqlite" --require-complete 2>"$WORK/merge.err"; then
  fail "merge --require-complete accepted a run missing task 2's matches"
fi
grep -q "is incomplete" "$WORK/merge.err" || fail "merge did not say the run is incomplete"

echo "== resubmitting task 2 alone (--array=2)"
JOB2="$(sbatch --parsable --cpus-per-task=1 --array=2 "$ROOT/docs/cluster/slurm-array.sh")"
wait_jobs "$JOB2"
grep -q "task 2 of 4" realm-arena-"${JOB}"_2.log || fail "the first log of task 2 is missing"
"$REALM" merge "$STORES"/realm-*.sqlite --into "$WORK/merged.sqlite" --require-complete \
  || fail "the merged run is incomplete after resubmission"

echo "== a task 0 of a 0-based array is refused"
JOB0="$(sbatch --parsable --cpus-per-task=1 --array=0 "$ROOT/docs/cluster/slurm-array.sh")"
wait_jobs "$JOB0"
grep -q "error: array task 0 is not a shard number 1..4" realm-arena-"${JOB0}"_0.log \
  || fail "task 0 was not refused"

echo "== the whole run, unsharded, for comparison"
# shellcheck disable=SC2086
"$REALM" arena $REALM_ARENA --games "$GAMES" --seed "$SEED" --jobs 2 $REALM_EXTRA \
  --db "$WORK/whole.sqlite"
python3 - "$WORK/merged.sqlite" "$WORK/whole.sqlite" <<'PY' || fail "merged and whole runs differ"
import sqlite3, sys
COLS = "match_idx, seed, seats, scores, ranks, end_reason, detail, faults, n_calls, data"
def rows(path):
    return sqlite3.connect(path).execute(f"SELECT {COLS} FROM matches ORDER BY match_idx").fetchall()
merged, whole = rows(sys.argv[1]), rows(sys.argv[2])
diff = [(m[0], m[3], w[3]) for m, w in zip(merged, whole) if m != w]
print(f"   merged {len(merged)} matches, whole {len(whole)}; {len(diff)} differ")
for d in diff[:10]:
    print("   differs:", d)
sys.exit(0 if len(merged) == len(whole) == 160 and not diff else 1)
PY
echo "cluster test: 1 passed, 0 failed"
