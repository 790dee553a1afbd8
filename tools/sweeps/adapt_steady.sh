#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# auto with and without PAPCOLL_ADAPT=1 in steady state (SIMULATED): for each pattern, UNTIMED calls per size
# (default 200), then TIMED calls (default 64), one `papcoll sim run` each; the per-call e_bar (mean over the
# processes of arrival-to-exit time) from --raw into OUTDIR/<coll>_<pattern>_adapt{0,1}_per_call.csv, ADAPT's
# decisions into *_adapt1.adapt (PAPCOLL_ADAPT_REPORT), folded at the end into OUTDIR/e_bar.csv, runs.csv (the
# benchmark's rows) and decisions.txt (adapt_summary.py --fold), then OUTDIR/summary.md (adapt_summary.py: ADAPT / auto
# on the same draws, and balanced the regret of both against REGRET_DIR's best algorithm).
#   BENCH=.../papcoll-bench-smpi tools/sweeps/adapt_steady.sh COLL PLATFORM OUTDIR [REGRET_DIR]
# PLATFORM: a papcoll sim spec (cluster:16x16); PATTERNS default "balanced late:0.2:p uniform:p"; SIZES default
# 8:256K:8; REGRET_DIR: a regret_sweep.sh directory with this platform's family (e.g. docs/results/regret_16x16);
# SIM_ARGS: further `papcoll sim run` options (e.g. --stack-size=1024 at 2048 ranks).
# Exploration starts at a site's ADAPT_START-th call (PAPCOLL_ADAPT_START; default here 100, so that 200 untimed
# calls reach steady state). A run already in OUTDIR (its own CSV or folded) is kept: rerun to resume.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 3 ]; then
  echo "usage: BENCH=... $0 COLL PLATFORM OUTDIR [REGRET_DIR]" >&2
  exit 2
fi
coll=$1 platform=$2 out=$3 regret=${4:-}
shape=${platform#*:}; shape=${shape%%:*}; shape=${shape%%,*}
p=$(( ${shape%x*} * ${shape#*x} ))
patterns=${PATTERNS:-"balanced late:0.2:$p uniform:$p"}
mkdir -p "$out"
ulimit -v 10000000
for pattern in $patterns; do
  for adapt in 0 1; do
    f=$out/${coll}_${pattern//:/-}_adapt$adapt
    [ -s "$f.csv" ] && continue
    grep -q "^$(basename "$f")," "$out/runs.csv" 2>/dev/null && continue # folded by an earlier run
    report=; [ "$adapt" = 1 ] && report=$(realpath -m "$f.adapt")
    raw=$(mktemp)
    rc=0
    PAPCOLL_ADAPT=$adapt PAPCOLL_ADAPT_START=${ADAPT_START:-100} PAPCOLL_ADAPT_REPORT=$report PYTHONPATH=tools nice -n 5 timeout "${SIM_TIMEOUT:-1800}" \
      python3 -m papcoll_tools.cli sim run ${SIM_ARGS:-} --platform="$platform" --bench="${BENCH:?give BENCH}" -- --coll="$coll" \
      --algo=auto -m "${SIZES:-8:256K:8}" -i "${TIMED:-64}" -x "${UNTIMED:-200}" --seed=1 --format=csv \
      --pattern="$pattern" --raw="$raw" > "$f.csv.tmp" || rc=$?
    if [ "$rc" != 0 ]; then
      why="failed"; [ "$rc" = 124 ] && why="ran past SIM_TIMEOUT=${SIM_TIMEOUT:-1800} s (2048 ranks take longer: set it)"
      echo "adapt_steady: $(basename "$f"): the simulation $why (rc $rc); $f.csv.tmp has its output" >&2
      rm -f "$raw"
      exit 1
    fi
    PYTHONPATH=tools python3 tools/sweeps/adapt_summary.py --per-call "$raw" > "${f}_per_call.csv"
    rm -f "$raw"
    mv "$f.csv.tmp" "$f.csv"
  done
done
PYTHONPATH=tools python3 tools/sweeps/adapt_summary.py --fold "$out"
PYTHONPATH=tools python3 tools/sweeps/adapt_summary.py --coll="$coll" --platform="$platform" --patterns="$patterns" \
  ${regret:+--regret-dir="$regret"} "$out" > "$out/summary.md"
