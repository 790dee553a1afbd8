#!/usr/bin/env bash
# auto with PAPCOLL_ADAPT=1 at 256 simulated ranks (cluster:16x16, preset ib-ddr), the regret sweep's
# sizes (8 B..256 KiB by 8x) and patterns; one launch per (collective, pattern), resumable.
#   docs/results/regret_16x16_adapt/run_adapt.sh BENCH [COLL...]      (from /work/main; default colls: bcast reduce allreduce)
# -x 61 -i 3: the 61 untimed calls per size let ADAPT explore and decide (adapt.h: one warm-up + 4
# measured calls per candidate, agreements every 16 calls, the decision at the first agreement where
# every candidate has its 4: call 41, or 57; the .adapt report shows the choice); the 3 timed calls are calls 62-64 of
# the size's group, between two agreements, and see the same arrival draws (repetitions 0-2, seed 1) as
# the regret_16x16 tables they are compared with. WARMUP / ITERS override; ONE=1 stops after one launch.
# Each launch's ADAPT decisions: <file>.adapt (PAPCOLL_ADAPT_REPORT).  ADAPT=0: the same runs without
# ADAPT (files *_papcoll-auto-noadapt.csv), the same build's static choice under the same warm-up.
set -u
cd "$(dirname "$0")/../../.."
bench=$1; shift
colls=${*:-bcast reduce allreduce}
out=docs/results/regret_16x16_adapt
warm=${WARMUP:-61} iters=${ITERS:-3} adapt=${ADAPT:-1}
who=papcoll-auto-adapt
[ "$adapt" = 1 ] || who=papcoll-auto-noadapt
ulimit -v 10000000
for coll in $colls; do
  for pattern in balanced late:0.2:256 uniform:256; do
    f="$out/${coll}_${pattern//:/-}_8-256K-8_$who.csv"
    [ -s "$f" ] || [ -e "$f.failed" ] && continue   # an earlier failure: remove $f.failed to retry
    echo "== $coll $pattern $who start $(date -u +%T)" >&2
    rm -f "$f.adapt"
    report=$PWD/$f.adapt
    [ "$adapt" = 1 ] || report=
    if PAPCOLL_ADAPT=$adapt PAPCOLL_ADAPT_REPORT="$report" PYTHONPATH=tools nice -n 5 timeout 1500 \
         python3 -m papcoll_tools.cli sim run --platform=cluster:16x16 --bench="$bench" -- \
         --coll="$coll" --algo=auto -m 8:256K:8 -i "$iters" -x "$warm" --seed=1 --format=csv --pattern="$pattern" > "$f.tmp"; then
      mv "$f.tmp" "$f"; echo "== $coll $pattern done $(date -u +%T)" >&2
    else
      echo "== $coll $pattern FAILED $(date -u +%T)" >&2; mv "$f.tmp" "$f.failed"
    fi
    [ -n "${ONE:-}" ] && exit 0   # ONE=1: one launch per invocation
  done
done
