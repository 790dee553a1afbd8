#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The broadcast performance comparison (simulated): every papcoll broadcast and
# auto, plus SMPI's own broadcasts (mpich, ompi, mvapich2, binomial_tree,
# arrival_pattern_aware, run as 'native' with --cfg=smpi/bcast:NAME), on
# cluster:NODESxCORES (preset ib-ddr), sizes 8 KiB..32 KiB and 1 MiB, under
# balanced arrival, uniform:{p/8, p}, late:0.2:p and microbench:1000.
#   tools/sweeps/bcast_perf.sh NODES CORES OUTDIR
# Writes OUTDIR/<pattern>_<sizes>_<who>.csv (one file per run, an existing
# file is kept: rerun to resume), then OUTDIR/perf.md and OUTDIR/perf_<size>.png.
# PLATFORM (a `papcoll sim --platform` spec of NODES x CORES slots, default
# cluster:NODESxCORES; e.g. fattree:16x16:2;4,4;1,2;1,2, torus:16x16:4,4, dragonfly:16x16:2,1;2,1;2,1;2),
# SIM_ARGS (further `papcoll sim run` options, e.g. --mpi-copies or --stack-size=1024),
# BUILD (default build), ITERS (default 3), SIM_TIMEOUT (seconds per simulation, default 7200), ALGOS (default all,auto),
# BASELINES, PATTERNS, SIZES and BASELINE_SIZES (space-separated MIN:MAX; default
# SIZES) may be set: SMPI's node-aware broadcasts (mpich, ompi, mvapich2) pay a
# p^2 set-up per process launch (minutes at 2048 ranks), so one launch over
# 8K:1M is cheaper for them; the report keeps the sizes papcoll ran; WHO (default
# papcoll) names papcoll's files, so a later run can add algorithms beside
# them (ALGOS=arrival_nb WHO=papcoll-arrival_nb BASELINES=" "). Above 1024 ranks
# arrival_pattern_aware is left out (SMPI's version handles at most 1024 processes).
set -euo pipefail
cd "$(dirname "$0")/../.."
nodes=$1 cores=$2 out=$3
p=$((nodes * cores))
build=${BUILD:-build} who=${WHO:-papcoll} iters=${ITERS:-3} algos=${ALGOS:-all,auto}
baselines=${BASELINES:-"mpich ompi mvapich2 binomial_tree arrival_pattern_aware"}
patterns=${PATTERNS:-"balanced uniform:$((p / 8)) uniform:$p late:0.2:$p microbench:1000"}
sizes=${SIZES:-"8K:32K 1M:1M"}
baseline_sizes=${BASELINE_SIZES:-$sizes}
if [ "$p" -gt 1024 ] && [[ " $baselines " == *" arrival_pattern_aware "* ]]; then
  # SimGrid 3.32's arrival_pattern_aware keeps per-rank state in arrays of 1024 (papcoll sim refuses it)
  echo "bcast_perf.sh: smpi:arrival_pattern_aware left out above 1024 ranks" >&2
  baselines=$(echo " $baselines " | sed 's/ arrival_pattern_aware / /')
fi
platform=${PLATFORM:-cluster:${nodes}x${cores}}
common=(-i "$iters" -x 1 --seed=1 --format=csv)
mkdir -p "$out"
# shellcheck disable=SC2086  # SIM_ARGS: words on purpose
sim() { PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} timeout "${SIM_TIMEOUT:-7200}" python3 -m papcoll_tools.cli sim run \
          ${SIM_ARGS:-} --platform="$platform" --bench="$build/smpi/bench/papcoll-bench-smpi" "$@"; }
for pattern in $patterns; do
  for size in $sizes; do
    tag="${pattern//:/-}_${size//:/-}"
    [ -s "$out/${tag}_${who}.csv" ] && continue
    echo "== $pattern $size $who ($(date +%T))" >&2
    sim -- --algo="$algos" -m "$size" "${common[@]}" --pattern="$pattern" > "$out/${tag}_${who}.csv.tmp" \
      && mv "$out/${tag}_${who}.csv.tmp" "$out/${tag}_${who}.csv"
  done
  for size in $baseline_sizes; do
    tag="${pattern//:/-}_${size//:/-}"
    for b in $baselines; do
      [ -s "$out/${tag}_smpi-$b.csv" ] && continue
      echo "== $pattern $size smpi:$b ($(date +%T))" >&2
      sim --baseline="$b" -- --algo=native -m "$size" "${common[@]}" --pattern="$pattern" > "$out/${tag}_smpi-$b.csv.tmp" \
        && mv "$out/${tag}_smpi-$b.csv.tmp" "$out/${tag}_smpi-$b.csv"
    done
  done
done
PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} python3 -m papcoll_tools.perf_report "$out"/*.csv -o "$out"
