#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Default `auto` against the MPI library's own collective in steady state (SIMULATED): for each collective and
# arrival pattern, one `papcoll sim run` of `--algo=auto,native` (the two interleaved, the same arrival draws) with
# adaptive selection on (PAPCOLL_ADAPT=1, the default) and one with it off (PAPCOLL_ADAPT=0: the static rule),
# UNTIMED calls per size (default 200, past PAPCOLL_ADAPT_START: ADAPT_START, default here 100) then TIMED calls (default 32); each run's CSV in
# OUTDIR/<coll>_<pattern>_adapt{0,1}.csv, the decisions in *_adapt1.adapt (PAPCOLL_ADAPT_REPORT), then
# OUTDIR/summary.md (auto_vs_native.py: auto / native by e_bar, and by the root's time for reduce and gather).
#   BENCH=.../papcoll-bench-smpi tools/sweeps/auto_vs_native.sh "reduce allreduce" cluster:32x16 OUTDIR
# PATTERNS default "balanced late:0.1:p uniform:p"; SIZES default 8:256K:32.  An existing CSV is kept: rerun to
# resume.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 3 ]; then
  echo "usage: BENCH=... $0 COLLS PLATFORM OUTDIR" >&2
  exit 2
fi
colls=$1 platform=$2 out=$3
p=$(PYTHONPATH=tools python3 -c "from papcoll_tools.sim import platform as P; print(P.generate('$platform').slots)" 2>/dev/null || true)
if [ -z "$p" ]; then
  shape=${platform#*:}; shape=${shape%%:*}; shape=${shape%%,*}
  p=$(( ${shape%x*} * ${shape#*x} ))
fi
patterns=${PATTERNS:-"balanced late:0.1:$p uniform:$p"}
mkdir -p "$out"
for coll in $colls; do
  for pattern in $patterns; do
    for adapt in 0 1; do
      f=$out/${coll}_${pattern//:/-}_adapt$adapt
      [ -s "$f.csv" ] && continue
      report=; [ "$adapt" = 1 ] && report=$(realpath -m "$f.adapt") && rm -f "$report"
      PAPCOLL_ADAPT=$adapt PAPCOLL_ADAPT_START=${ADAPT_START:-100} PAPCOLL_ADAPT_REPORT=$report PYTHONPATH=tools nice -n 5 timeout "${SIM_TIMEOUT:-3600}" \
        python3 -m papcoll_tools.cli sim run --platform="$platform" --bench="${BENCH:?give BENCH}" -- --coll="$coll" \
        --algo=auto,native -m "${SIZES:-8:256K:32}" -i "${TIMED:-32}" -x "${UNTIMED:-200}" --seed=1 --format=csv \
        --pattern="$pattern" > "$f.csv.tmp"
      mv "$f.csv.tmp" "$f.csv"
    done
  done
done
PYTHONPATH=tools python3 tools/sweeps/auto_vs_native.py "$out" > "$out/summary.md"
