#!/bin/bash
# One realm arena run split over a Slurm job array: task K of N plays shard K/N into its own
# store; a final `realm merge` combines them (idempotent, so re-running it is harmless).
#
#   sbatch --array=1-16 docs/cluster/slurm-array.sh
#   realm merge shards/realm-*.sqlite --into realm.sqlite && realm report
#
# Slurm opens the --output file before the script runs and does not create folders, so the
# logs go to the submit directory (realm-arena-JOB_TASK.log). Without --quiet, realm writes a
# status line (matches done, rate, score) to the log every 10 seconds. A task that exits with
# status 3 finished, but some matches have no result because an external --referee failed;
# resubmitting that task replays only those.
#
#SBATCH --job-name=realm-arena
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
#SBATCH --output=realm-arena-%A_%a.log
set -euo pipefail
N="${SLURM_ARRAY_TASK_COUNT:?run as a job array}"
K="${SLURM_ARRAY_TASK_ID:?run as a job array}"
mkdir -p shards
# Every task runs the same command except --shard and --db, so they share one schedule.
realm arena kingdomino ./bots/candidate ./bots/baseline \
  --games 100000 --seed 2026 --jobs "${SLURM_CPUS_PER_TASK}" \
  --shard "${K}/${N}" --db "shards/realm-${K}.sqlite" --keep-replays faults
