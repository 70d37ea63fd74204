#!/bin/bash
# One realm arena run split over a Slurm job array: task K plays shard K of SHARDS into its own
# store; `realm merge` then combines the stores (idempotent, so re-running it is harmless).
#
#   sbatch --array=1-16 docs/cluster/slurm-array.sh      # every shard (SHARDS below is 16)
#   sbatch --array=5 docs/cluster/slurm-array.sh         # resubmit one shard: it resumes
#   realm merge shards/realm-*.sqlite --into realm.sqlite --require-complete && realm report
#
# The number of shards is named once, here, never taken from the array, so any subset of tasks
# can be resubmitted. Array task ids are shard numbers: 1..SHARDS (a 0-based --array=0-15 is
# refused by task 0 with a clear message). A task that is cancelled, times out or is preempted
# loses only the matches in flight: resubmitting it resumes its store, and `merge
# --require-complete` fails loudly while any shard is missing matches.
#
# Stores: SQLite's default WAL journal needs a local (or WAL-safe) file system. Keep STORES on
# node-local disk and copy the finished stores out, or, on NFS/Lustre, add `--db-journal delete`.
# Logs are appended (--open-mode=append), so a requeued or resubmitted task keeps its history.
# Every setting can be overridden from the environment of `sbatch` (e.g. SHARDS=4 GAMES=400).
#
#SBATCH --job-name=realm-arena
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
#SBATCH --output=realm-arena-%A_%a.log
#SBATCH --open-mode=append
set -euo pipefail
command -v realm >/dev/null || { echo "error: realm is not on PATH on $(hostname); install it there (cargo install --path crates/cli) or extend PATH in this script" >&2; exit 2; }
: "${SHARDS:=16}"
: "${GAMES:=100000}"
: "${SEED:=2026}"
: "${STORES:=shards}"
: "${REALM_ARENA:=kingdomino ./bots/candidate ./bots/baseline}"
: "${REALM_EXTRA:=--keep-replays faults}"
K="${SLURM_ARRAY_TASK_ID:?run as a job array: sbatch --array=1-${SHARDS} $0}"
if ! [[ "$K" =~ ^[0-9]+$ ]] || (( K < 1 || K > SHARDS )); then
  echo "error: array task $K is not a shard number 1..${SHARDS}; submit with --array=1-${SHARDS} (or a subset of it)" >&2
  exit 2
fi
mkdir -p "$STORES"
echo "realm-arena task $K of $SHARDS on $(hostname), $(date -u +%FT%TZ)"
# Every task runs the same command except --shard and --db, so they share one schedule.
# shellcheck disable=SC2086 # REALM_ARENA and REALM_EXTRA are word lists on purpose
exec realm arena $REALM_ARENA \
  --games "$GAMES" --seed "$SEED" --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "${K}/${SHARDS}" --db "${STORES}/realm-${K}.sqlite" $REALM_EXTRA
