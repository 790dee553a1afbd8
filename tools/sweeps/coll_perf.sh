#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A collective's performance comparison (simulated), modelled on bcast_perf.sh: every papcoll
# algorithm of COLL and auto, plus SMPI's own algorithms of that collective (run as 'native' with
# --cfg=smpi/<coll>:NAME by `papcoll sim run --baseline=NAME`), on cluster:NODESxCORES (preset
# ib-ddr), sizes 8 B..1 MiB (reductions: MPI_INT, MPI_SUM; the block collectives: size = one
# process's block), under balanced arrival, uniform:{p/8, p}, late:0.2:p and microbench:1000.
#   tools/sweeps/coll_perf.sh COLL NODES CORES OUTDIR
# COLL: reduce, allreduce, allgather, alltoall, gather, scatter, reduce_scatter, barrier (bcast
# has bcast_perf.sh).  A barrier has no size (one row of size 0) and is measured by after_last, the
# time from the last arrival to the last exit; its default patterns are balanced, late:0.1:50 and
# uniform:50 (delays in units of T, the latency of an empty message).  Writes OUTDIR/<coll>_<pattern>_<sizes>_<who>.csv (one file per run, an existing
# file is kept: rerun to resume), then OUTDIR/perf_<coll>.md and OUTDIR/perf_<coll>_<size>.png
# (perf_report --coll; not perf.md, which is the broadcast's in the shared directories).
# PLATFORM (a `papcoll sim --platform` spec of NODES x CORES slots, default
# cluster:NODESxCORES; e.g. fattree:16x16:2;4,4;1,2;1,2, torus:16x16:4,4, dragonfly:16x16:2,1;2,1;2,1;2),
# SIM_ARGS (further `papcoll sim run` options, e.g. --stack-size=1024 at 2048 ranks),
# BUILD (default build), ITERS (default 3), SIM_TIMEOUT (seconds per simulation, default 7200), ALGOS
# (default all,auto), BASELINES, PATTERNS, SIZES
# and BASELINE_SIZES (space-separated MIN:MAX:FACTOR ranges, each one process launch; default
# "8:4K:8 64K:1M:4" = 8, 64, 512, 4K, 64K, 256K, 1M bytes) and WHO (default papcoll: names
# papcoll's files, so a later run can add algorithms beside them, ALGOS=hier WHO=papcoll-hier
# BASELINES=" ") may be set.  Default baselines: reduce mpich ompi mvapich2 binomial
# scatter_gather rab arrival_pattern_aware (left out above 1024 ranks: SMPI's version keeps
# per-rank arrays of 1024); allreduce mpich ompi mvapich2 rdb rab_rdb lr redbcast (SMPI's
# smp_rsag* sum some counts wrongly: docs/benchmark.md); allgather mpich ompi mvapich2 bruck ring
# rdb smp_simple SMP_NTS loosely_lr; alltoall mpich ompi mvapich2 basic_linear bruck ring;
# gather mpich ompi ompi_basic_linear; scatter mpich ompi ompi_basic_linear
# mvapich2_two_level_binomial; reduce_scatter mpich ompi ompi_ring mpich_pair mpich_rdb; barrier
# every SMPI barrier but the two-process and linear ones.  The
# node-aware ones (mpich, mvapich2, ompi for some sizes) pay SMPI's p^2 node view per launch.
set -euo pipefail
cd "$(dirname "$0")/../.."
colls="reduce allreduce allgather alltoall gather scatter reduce_scatter barrier"
if [ $# -ne 4 ] || [[ " $colls " != *" $1 "* ]]; then
  echo "usage: $0 ${colls// /|} NODES CORES OUTDIR" >&2
  exit 2
fi
coll=$1 nodes=$2 cores=$3 out=$4
p=$((nodes * cores))
build=${BUILD:-build} who=${WHO:-papcoll} iters=${ITERS:-3} algos=${ALGOS:-all,auto}
case $coll in
  reduce) default_baselines="mpich ompi mvapich2 binomial scatter_gather rab arrival_pattern_aware" ;;
  allreduce) default_baselines="mpich ompi mvapich2 rdb rab_rdb lr redbcast" ;;
  allgather) default_baselines="mpich ompi mvapich2 bruck ring rdb smp_simple SMP_NTS loosely_lr" ;;
  alltoall) default_baselines="mpich ompi mvapich2 basic_linear bruck ring" ;;
  gather) default_baselines="mpich ompi ompi_basic_linear" ;;
  scatter) default_baselines="mpich ompi ompi_basic_linear mvapich2_two_level_binomial" ;;
  reduce_scatter) default_baselines="mpich ompi ompi_ring mpich_pair mpich_rdb" ;;
  barrier) default_baselines="mpich ompi mvapich2 ompi_bruck ompi_recursivedoubling ompi_tree ompi_doublering mpich_smp mvapich2_pair impi" ;;
esac
metric=e_bar default_patterns="balanced uniform:$((nodes * cores / 8)) uniform:$((nodes * cores)) late:0.2:$((nodes * cores)) microbench:1000"
default_sizes="8:4K:8 64K:1M:4"
if [ "$coll" = barrier ]; then
  metric=after_last default_patterns="balanced late:0.1:50 uniform:50" default_sizes=0
fi
baselines=${BASELINES:-$default_baselines}
patterns=${PATTERNS:-$default_patterns}
sizes=${SIZES:-$default_sizes}
baseline_sizes=${BASELINE_SIZES:-$sizes}
if [ "$p" -gt 1024 ] && [ "$coll" = reduce ] && [[ " $baselines " == *" arrival_pattern_aware "* ]]; then
  echo "reduce_perf.sh: smpi:arrival_pattern_aware left out above 1024 ranks" >&2
  baselines=$(echo " $baselines " | sed 's/ arrival_pattern_aware / /')
fi
platform=${PLATFORM:-cluster:${nodes}x${cores}}
common=(--coll="$coll" -i "$iters" -x 1 --seed=1 --format=csv)
mkdir -p "$out"
# shellcheck disable=SC2086  # SIM_ARGS: words on purpose
sim() { PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} timeout "${SIM_TIMEOUT:-7200}" python3 -m papcoll_tools.cli sim run \
          ${SIM_ARGS:-} --platform="$platform" --bench="$build/smpi/bench/papcoll-bench-smpi" "$@"; }
for pattern in $patterns; do
  for size in $sizes; do
    tag="${coll}_${pattern//:/-}_${size//:/-}"
    [ -s "$out/${tag}_${who}.csv" ] && continue
    echo "== $coll $pattern $size $who ($(date +%T))" >&2
    sim -- --algo="$algos" -m "$size" "${common[@]}" --pattern="$pattern" > "$out/${tag}_${who}.csv.tmp" \
      && mv "$out/${tag}_${who}.csv.tmp" "$out/${tag}_${who}.csv"
  done
  for size in $baseline_sizes; do
    tag="${coll}_${pattern//:/-}_${size//:/-}"
    for b in $baselines; do
      [ -s "$out/${tag}_smpi-$b.csv" ] && continue
      echo "== $coll $pattern $size smpi:$b ($(date +%T))" >&2
      sim --baseline="$b" -- --algo=native -m "$size" "${common[@]}" --pattern="$pattern" > "$out/${tag}_smpi-$b.csv.tmp" \
        && mv "$out/${tag}_smpi-$b.csv.tmp" "$out/${tag}_smpi-$b.csv"
    done
  done
done
# perf_report writes OUTDIR/perf.md, which holds the broadcast's tables in the shared perf_* directories:
# report into a scratch directory and keep the collective's name on every file.
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT
PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} python3 -m papcoll_tools.perf_report --coll="$coll" --metric="$metric" "$out"/"$coll"_*.csv -o "$report"
mv "$report/perf.md" "$out/perf_$coll.md"
mv "$report"/perf_"$coll"_*.png "$out"/
echo "$out/perf_$coll.md" >&2
