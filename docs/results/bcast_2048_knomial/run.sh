#!/bin/bash
# knomial, cp_knomial and auto (the rules of 7c49f7d) at 2048 simulated ranks (cluster:64x32, ib-ddr), beside
# docs/results/bcast_2048_check; each simulation holds the machine-wide lock of big simulations.
#   BENCH=path/to/papcoll-bench-smpi docs/results/bcast_2048_knomial/run.sh
cd "$(dirname "$0")/../../.."
out=docs/results/bcast_2048_knomial
ulimit -v 10000000
for pattern in balanced late:0.2:2048; do
  for size in 8:8 8K:64K:8; do
    f="$out/${pattern//:/-}_${size//:/-}_papcoll.csv"
    [ -s "$f" ] && continue
    echo "== $pattern $size ($(date +%T))" >&2
    flock /tmp/papcoll_bigsim.lock timeout 1500 nice -n 5 env PYTHONPATH=tools python3 -m papcoll_tools.cli sim run \
      --platform=cluster:64x32 --stack-size=1024 --bench="$BENCH" -- --algo=knomial,cp_knomial,cp_binomial,auto \
      -m "$size" -i 3 -x 1 --seed=1 --format=csv --pattern="$pattern" > "$f.tmp" && mv "$f.tmp" "$f"
  done
done
