#!/bin/bash
# grow-injected-times on (runner default) vs off, 256 simulated ranks
# BENCH: papcoll-bench-smpi of main at 7cbeadf (the runs of output*.txt); "default" = the runner's settings then (grow-injected-times yes)
cd "$(dirname "$0")/../../../tools"
ulimit -v 10000000
for pat in balanced late:0.2:256; do
 for cfg in default no; do
  extra="--smpi-cfg=smpi/grow-injected-times:yes"; [ $cfg = no ] && extra="--smpi-cfg=smpi/grow-injected-times:no"
  echo "=== pattern=$pat grow=$cfg"
  /usr/bin/time -f "cpu %U+%S s wall %e s" timeout 1200 nice -n 5 python3 -m papcoll_tools.cli sim run --platform=cluster:16x16 $extra --bench="$BENCH" -- --coll=bcast --algo=dynleader,cp_chain,cp_binomial,arrival_b,arrival_nb,hier_nobarrier,binomial -m 8K:1M:128 -i 3 -x 1 --pattern=$pat 2>&1 | grep -v "^#"
 done
done
