#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The regret sweep (simulated): the rules chosen by worst-case regret across arrival patterns AND
# platform families, and auto's regret in every cell.
#   tools/sweeps/regret_sweep.sh NODES CORES OUTDIR
# For each collective of COLLS (default "bcast reduce allreduce") and each platform of PLATFORMS
# (default: the cluster, a two-level fat-tree and a 2-D torus of NODES x CORES, for NODES = 16 or
# 64; give PLATFORMS for other shapes), runs papcoll's algorithms and auto and SMPI's own (BASELINES,
# default "mpich ompi") under PATTERNS (default "balanced uniform:p late:0.2:p") through
# bcast_perf.sh / coll_perf.sh into OUTDIR/<family>/ (an existing file is kept: rerun to resume).
# Then, per collective:
#   OUTDIR/rules_<coll>.txt   papcoll-tune --criterion=regret over every platform and pattern
#   OUTDIR/regret_<coll>.md   auto's regret (auto / best of any algorithm) in every cell, for the
#                             rules of the build that ran (rebuild with the new rules and rerun with
#                             ALGOS=auto WHO=papcoll-auto2 BASELINES=" " to measure theirs: the
#                             *-auto2.csv files are read last, so their auto replaces the first run's;
#                             after them the *-rerun*.csv files: algorithms rerun with a later build,
#                             WHO=papcoll-rerun1 ALGOS=..., whose rows replace the earlier runs')
# `papcoll tune --simulate=P1 --simulate=P2 ... --baselines=mpich,ompi` (docs/tuning.md, "Tuning a site")
# does the same runs, rules and report in one resumable command.
# SIZES, ITERS, BUILD, ALGOS, SIM_ARGS (e.g. --mpi-copies) and SIM_TIMEOUT (seconds per simulation, default 7200) are passed on (see
# coll_perf.sh); the default sizes are 8 B .. 1 MiB. CANDIDATES (default 3): candidates per rule.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -ne 3 ]; then
  echo "usage: $0 NODES CORES OUTDIR" >&2
  exit 2
fi
nodes=$1 cores=$2 out=$3
p=$((nodes * cores))
case $nodes in
  16) default_platforms="cluster:16x16 fattree:16x16:2;4,4;1,2;1,2 torus:16x16:4,4" ;;
  64) default_platforms="cluster:64x32 fattree:64x32:2;8,8;1,4;1,2 torus:64x32:4,4,4" ;;
  *) default_platforms="" ;;
esac
platforms=${PLATFORMS:-$default_platforms}
if [ -z "$platforms" ]; then
  echo "regret_sweep.sh: give PLATFORMS for $nodes nodes (papcoll sim --platform specs)" >&2
  exit 2
fi
colls=${COLLS:-"bcast reduce allreduce"}
export PATTERNS=${PATTERNS:-"balanced uniform:$p late:0.2:$p"} BASELINES=${BASELINES:-"mpich ompi"}
export SIZES=${SIZES:-"8:4K:8 16K:1M:4"}
export BASELINE_SIZES=${BASELINE_SIZES:-$SIZES}
for platform in $platforms; do
  family=${platform%%:*}
  for coll in $colls; do
    echo "== $coll on $platform ($(date +%T))" >&2
    if [ "$coll" = bcast ]; then
      PLATFORM="$platform" tools/sweeps/bcast_perf.sh "$nodes" "$cores" "$out/$family/bcast"
    else
      PLATFORM="$platform" tools/sweeps/coll_perf.sh "$coll" "$nodes" "$cores" "$out/$family"
    fi
  done
done
tune() { PYTHONPATH=tools${PYTHONPATH:+:$PYTHONPATH} python3 -m papcoll_tools.tune "$@"; }
for coll in $colls; do
  if [ "$coll" = bcast ]; then files=("$out"/*/bcast/*.csv); else files=("$out"/*/"$coll"_*.csv); fi
  # a later file's row replaces an earlier one's (papcoll-tune): the auto of a rerun (WHO=papcoll-auto2), then
  # the algorithms rerun with a later build (WHO=papcoll-rerunN, in N order) last
  mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v -e '-auto2\.csv$' -e '-rerun[0-9]*\.csv$'
                       printf '%s\n' "${files[@]}" | grep -- '-auto2\.csv$'
                       printf '%s\n' "${files[@]}" | grep -- '-rerun[0-9]*\.csv$' | sort -V || true)
  tune --coll="$coll" --criterion=regret --candidates="${CANDIDATES:-3}" "${files[@]}" > "$out/rules_$coll.txt"
  {
    echo "# $coll: regret (e_bar / best e_bar of any algorithm in the cell), simulated, $p ranks"
    echo
    echo "Rules chosen by worst-case regret over every platform and pattern below:"
    echo "\`$(cat "$out/rules_$coll.txt")\`"
    echo
    echo "## auto (the built-in rules of the build that ran)"
    echo
    tune --coll="$coll" --regret-report --algo=auto "${files[@]}"
  } > "$out/regret_$coll.md"
  echo "$out/regret_$coll.md" >&2
done
