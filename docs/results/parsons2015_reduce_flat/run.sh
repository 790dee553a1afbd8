#!/bin/sh
# run.sh - Parsons 2015 Table 3.6's experiment (reduce under the micro-benchmark's imbalance, 512-2048
# simulated cores of 32 per node, preset gemini) for dynleader_flat, which the thesis does not have, beside
# the thesis's baseline (papcoll's MPICH binomial reduce) and SMPI's binomial reduce, in one launch per
# world size and level (the same arrivals for the three).  The benchmark's settings are those of
# `papcoll sim reproduce parsons2015` (docs/results/parsons2015.md, "Reduce set-up"); papcoll sim run's
# SMPI settings differ slightly, but papcoll's binomial takes the reproduction's times within 0.07%.
#   run.sh OUTDIR        one CSV per run: OUTDIR/wWORLD.xLEVEL.csv (a rerun skips those done)
#   BENCH=path/papcoll-bench-smpi (default build/smpi/bench/papcoll-bench-smpi)
# Then: python3 table.py OUTDIR (the tables; --to-csv e_bar.csv keeps their numbers).  Wall time here: 512
# cores about 10 s per level, 1024 about 30 s, 2048 about 2 min (one core).
set -u
mkdir -p "${1:?usage: run.sh OUTDIR}" && out=$(cd "$1" && pwd) || exit 1
repo=$(cd "$(dirname "$0")/../../.." && pwd)
bench=${BENCH:-$repo/build/smpi/bench/papcoll-bench-smpi}
cd "$repo/tools" || exit 1
for w in 512 1024 2048; do
  case $w in
    512) plat=16x32 iters=4 stack= ;;
    1024) plat=32x32 iters=4 stack=--stack-size=1024 ;;
    *) plat=64x32 iters=3 stack=--stack-size=1024 ;;
  esac
  for x in 0 10000 20000 40000 80000 160000; do
    f=$out/w$w.x$x.csv
    [ -s "$f" ] && continue
    # shellcheck disable=SC2086  # stack: empty or one option
    timeout 3600 python3 -m papcoll_tools.cli sim run --platform=cluster:$plat,preset=gemini $stack --bench="$bench" \
      --smpi-cfg=smpi/reduce:binomial -- --coll=reduce --algo=binomial,dynleader_flat,native -m 32:128K:4 \
      -i $iters -x 1 --pattern=microbench:$x --unit-time=1e-5 --shared-buffer --root=fixed:0 --format=csv \
      > "$f.tmp" 2> "$out/w$w.x$x.err" && mv "$f.tmp" "$f"
    echo "world $w, level $x: rc $?"
  done
done
