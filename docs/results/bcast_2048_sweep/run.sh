#!/bin/bash
# The broadcasts of bcast_2048_sweep at 2048 simulated ranks (cluster:64x32, ib-ddr); an existing file is kept.
#   BENCH=path/to/papcoll-bench-smpi docs/results/bcast_2048_sweep/run.sh
cd "$(dirname "$0")/../../.."
out=docs/results/bcast_2048_sweep
ulimit -v 12000000
sim() { nice -n 5 timeout 2400 env PYTHONPATH=tools python3 -m papcoll_tools.cli sim run --platform=cluster:64x32 \
          --stack-size=1024 --bench="$BENCH" "$@"; }
for pattern in balanced late:0.2:2048 uniform:2048; do
  for size in 64:64 512:512 4K:4K 32K:32K 256K:256K 1M:1M 8:8 8K:8K 64K:64K; do
    case "$pattern:$size" in balanced:8:8|balanced:8K:8K|balanced:64K:64K|late*:8:8|late*:8K:8K|late*:64K:64K) continue ;; esac
    f="$out/${pattern//:/-}_${size//:/-}_papcoll.csv"
    [ -s "$f" ] && continue
    echo "== $pattern $size ($(date +%T))" >&2
    sim -- --algo=auto,knomial,cp_knomial,cp_binomial,cp_rdb,cp_chain,binomial -m "$size" -i 3 -x 1 --seed=1 \
      --format=csv --pattern="$pattern" > "$f.tmp" && mv "$f.tmp" "$f"
  done
done
for b in mvapich2 ompi; do
  for size in 512:512 4K:4K; do
    f="$out/balanced_${size//:/-}_smpi-$b.csv"
    [ -s "$f" ] && continue
    sim --baseline="$b" -- --algo=native -m "$size" -i 3 -x 1 --seed=1 --format=csv --pattern=balanced > "$f.tmp" \
      && mv "$f.tmp" "$f"
  done
done
