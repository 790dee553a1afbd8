#!/usr/bin/env bash
# What ADAPT's agreements cost once it has decided (simulated, 256 ranks, cluster:16x16, balanced):
# auto under PAPCOLL_ADAPT=1, 61 untimed calls, then 16 timed calls (calls 62-77 of each size's group:
# they hold the agreement calls 65 (post), 69 (reduce completed, broadcast posted) and 73 (completed)).
#   docs/results/regret_16x16_adapt/run_overhead.sh BENCH COLL     (from /work/main)
# Writes COLL_balanced_8-256K-8_papcoll-auto-adapt-i16.csv and, from the per-call raw file (--raw, left
# in /tmp), COLL_balanced_8-256K-8_papcoll-auto-adapt-i16_per_call.csv: e_bar of every timed call.
set -eu
cd "$(dirname "$0")/../../.."
bench=$1 coll=$2
out=docs/results/regret_16x16_adapt
f=$out/${coll}_balanced_8-256K-8_papcoll-auto-adapt-i16
raw=/tmp/adapt_raw_${coll}_balanced.csv
ulimit -v 10000000
[ -s "$f.csv" ] && exit 0
PAPCOLL_ADAPT=1 PYTHONPATH=tools nice -n 5 timeout 1500 python3 -m papcoll_tools.cli sim run --platform=cluster:16x16 \
  --bench="$bench" -- --coll="$coll" --algo=auto -m 8:256K:8 -i 16 -x 61 --seed=1 --format=csv --pattern=balanced \
  --raw="$raw" > "$f.csv.tmp"
mv "$f.csv.tmp" "$f.csv"
python3 - "$raw" > "$f"_per_call.csv <<'PY'
import csv, sys
from collections import defaultdict
s = defaultdict(list)
with open(sys.argv[1]) as fh:
    for r in csv.reader(fh):
        if not r or not r[1].isdigit():
            continue
        s[(int(r[1]), int(r[2]))].append(float(r[7]))   # algo,size,rep,rank,planned,a,f,e,...
print("size,rep,call,e_bar")
for (size, rep), e in sorted(s.items()):
    print(f"{size},{rep},{rep + 62},{sum(e) / len(e):.9g}")
PY
