#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The balanced-arrival sweep behind papcoll's built-in broadcast rules (see
# docs/tuning.md): 2 native processes on this machine (run it on idle cores),
# then SimGrid SMPI clusters of 16 to 256 ranks.  Writes
# docs/results/tuning/{native_np2,smpi_cluster_<N>x<C>}.csv and prints the
# rules (papcoll-tune, 15% tolerance) for src/bcast/bcast_default_rules.inc.
# Usage: tools/sweeps/bcast_balanced.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
out=docs/results/tuning
mkdir -p "$out"
"$(command -v mpirun.openmpi || echo mpirun)" --allow-run-as-root -np 2 --bind-to core "$build/bench/papcoll-bench" --algo=all -m 16:4M -i 50 -x 5 \
  --format=csv > "$out/native_np2.csv"
for nc in 4x4 8x8 16x8 32x8; do
  PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} python3 -m papcoll_tools.cli sim run --platform="cluster:$nc,preset=papcoll-ci" \
    --bench="$build/smpi/bench/papcoll-bench-smpi" -- --algo=all -m 16:4M -i 3 -x 1 --format=csv > "$out/smpi_cluster_$nc.csv"
done
python3 tools/papcoll_tools/tune.py --tolerance=0.15 --format=c "$out"/native_np2.csv "$out"/smpi_cluster_*.csv
