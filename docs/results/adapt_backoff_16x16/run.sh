#!/bin/bash
# auto with and without PAPCOLL_ADAPT=1 in steady state (SIMULATED: 256 ranks, cluster:16x16, ib-ddr): 200
# untimed calls per size, then 64 timed calls; the per-call e_bar from --raw (the raw files are left in
# /tmp, the per-call means kept here). BENCH: papcoll-bench-smpi of main at the commit of the ADAPT backoff
# (the broadcast rules with complementary candidates of 7c49f7d).
#   BENCH=... docs/results/adapt_backoff_16x16/run.sh     (from anywhere)
cd "$(dirname "$0")/../../.."
out=docs/results/adapt_backoff_16x16
ulimit -v 10000000
for pattern in balanced late:0.2:256 uniform:256; do
  for adapt in 0 1; do
    f=$out/bcast_${pattern//:/-}_adapt$adapt
    [ -s $f.csv ] && continue
    report=; [ $adapt = 1 ] && report=$PWD/$f.adapt
    PAPCOLL_ADAPT=$adapt PAPCOLL_ADAPT_REPORT=$report PYTHONPATH=tools nice -n 5 timeout 1800 \
      python3 -m papcoll_tools.cli sim run --platform=cluster:16x16 --bench="$BENCH" -- --coll=bcast --algo=auto \
      -m 8:256K:8 -i 64 -x 200 --seed=1 --format=csv --pattern=$pattern --raw=/tmp/$(basename $f).raw > $f.csv
    python3 - /tmp/$(basename $f).raw > ${f}_per_call.csv <<'PY'
import csv, sys
from collections import defaultdict
s = defaultdict(list)
for r in csv.reader(open(sys.argv[1])):
    if len(r) < 8 or not r[1].isdigit():
        continue
    s[(int(r[1]), int(r[2]))].append(float(r[7]))
print("size,rep,e_bar")
for (size, rep), e in sorted(s.items()):
    print(f"{size},{rep},{sum(e) / len(e):.9g}")
PY
  done
done
PYTHONPATH=tools python3 $out/summary.py > $out/summary.md
