#!/usr/bin/env bash
# Builds the Python package in a fresh virtual environment (numpy, gymnasium, pettingzoo,
# pytest, and the [rl] extra: torch, Stable-Baselines3, sb3-contrib, from the package index)
# and runs its test suite, as a user would install it. torch from the package index brings
# its CUDA libraries (about 5 GB, a minute to install here), so the download is not cached.
#   crates/python/tests/run.sh [PATH/TO/realm]   (default: target/debug/realm)
# The extension is built with Cargo's dev profile, reusing what `cargo test --workspace` built;
# set MATURIN_PEP517_ARGS= (empty) to build it in release mode as `pip install` does by default.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
export REALM_BIN=$(realpath "${1:-$repo/target/debug/realm}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! python3 -m venv "$work/venv" 2>/dev/null; then
  # Debian's python3 needs its venv package for this.
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
  python3 -m venv "$work/venv"
fi
export REALM_REQUIRE_RL=1  # the [rl] extra is installed below: its tests must run, not skip
export MATURIN_PEP517_ARGS=${MATURIN_PEP517_ARGS---profile dev}
"$work/venv/bin/pip" install -q --upgrade pip
"$work/venv/bin/pip" install -q --no-cache-dir "$repo/crates/python[test,rl]"
cd "$repo/crates/python"
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider tests
