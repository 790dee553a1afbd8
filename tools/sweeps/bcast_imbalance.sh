#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# e_bar versus MAX_IF (uniform random arrival, Patarasuk & Yuan 2008 Fig. 7) for every
# broadcast algorithm and native, one size.
#   tools/sweeps/bcast_imbalance.sh simulated OUTDIR [NODES CORES SIZE]   SimGrid cluster (default 8 x 8, 1M)
#   tools/sweeps/bcast_imbalance.sh native OUTDIR [NP SIZE]               this machine (default 2 processes, 1M)
# Writes OUTDIR/uniform_<IF>.csv, OUTDIR/imbalance.png and OUTDIR/imbalance.md.
# T is measured once (the balanced run's ping-pong) and given to the other runs
# with --unit-time, so every level uses the same unit.
# BUILD (default build), LEVELS (default "1 4 16 64"; the balanced run 0 always comes first)
# and ITERS (default 10) may be set.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=$1 out=$2
build=${BUILD:-build} levels=${LEVELS:-"1 4 16 64"} iters=${ITERS:-10}
mkdir -p "$out"
if [ "$mode" = simulated ]; then
  nodes=${3:-8} cores=${4:-8} size=${5:-1M}
  run() { PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} python3 -m papcoll_tools.cli sim run \
            --platform="cluster:${nodes}x${cores},preset=papcoll-ci" --bench="$build/smpi/bench/papcoll-bench-smpi" -- "$@"; }
else
  np=${3:-2} size=${4:-1M}
  bind=core
  [ "$np" -gt "$(nproc)" ] && bind="none --oversubscribe"
  run() { "$(command -v mpirun.openmpi || echo mpirun)" --allow-run-as-root --bind-to $bind -np "$np" "$build/bench/papcoll-bench" "$@"; }
fi
unit=auto
for lv in 0 $levels; do
  pattern=uniform:$lv
  [ "$lv" = 0 ] && pattern=balanced
  echo "== $mode, pattern $pattern, T $unit ==" >&2
  run --algo=all,auto -m "$size:$size" -i "$iters" -x 2 --pattern="$pattern" --seed=1 -c --unit-time="$unit" \
    --format=csv > "$out/uniform_$lv.csv"
  [ "$unit" = auto ] && unit=$(sed -n 's/^#@T=[0-9]*://p' "$out/uniform_$lv.csv")
done
PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} python3 -m papcoll_tools.plot imbalance "$out"/uniform_*.csv -o "$out/imbalance.png" --table "$out/imbalance.md"
cat "$out/imbalance.md"
