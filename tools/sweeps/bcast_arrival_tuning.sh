#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The sweep behind papcoll's built-in broadcast rules (docs/tuning.md): every
# papcoll algorithm, sizes 16 B - 4 MiB, balanced and uniform:p/8 arrival, on
# simulated clusters 4x4, 8x8, 16x8 (preset ib-ddr; the largest covers every larger p), plus the 2-process
# native sweep of tools/sweeps/bcast_balanced.sh (docs/results/tuning/native_np2.csv).
# Writes docs/results/tuning/arrival_<N>x<C>_<pattern>.csv (existing files are
# kept: rerun to resume) and prints the rules (papcoll-tune: candidates within
# 10% of the best balanced time, the best worst-case ratio under uniform:p/8
# wins) for src/bcast/bcast_default_rules.inc.
# Usage: tools/sweeps/bcast_arrival_tuning.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
out=docs/results/tuning
mkdir -p "$out"
for nc in ${PLATFORMS:-4x4 8x8 16x8}; do
  p=$(( ${nc%x*} * ${nc#*x} ))
  for pattern in balanced uniform:$((p / 8)); do
    f="$out/arrival_${nc}_${pattern//:/-}.csv"
    [ -s "$f" ] && continue
    echo "== cluster:$nc $pattern ($(date +%T))" >&2
    PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} python3 -m papcoll_tools.cli sim run --platform="cluster:$nc" \
      --bench="$build/smpi/bench/papcoll-bench-smpi" -- --algo=all -m 16:4M -i 3 -x 1 --pattern="$pattern" --seed=1 \
      --format=csv > "$f.tmp" && mv "$f.tmp" "$f"
  done
done
python3 tools/papcoll_tools/tune.py --tolerance=0.15 --balanced-tolerance=0.10 --format=c \
  "$out"/native_np2.csv "$out"/arrival_*.csv
