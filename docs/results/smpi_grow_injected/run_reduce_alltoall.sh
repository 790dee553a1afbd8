#!/bin/bash
# grow-injected-times on (runner default) vs off: reduce, allreduce and alltoall, 256 simulated ranks
# BENCH: papcoll-bench-smpi of main at 7cbeadf (the runs of output*.txt); "default" = the runner's settings then (grow-injected-times yes)
cd "$(dirname "$0")/../../../tools"
ulimit -v 10000000
for coll in reduce alltoall; do
 case $coll in
  reduce) algos=dynleader,dynleader_onesided,hier_nobarrier,native; sizes="-m 64:64K:32";;
  alltoall) algos=aware,hier,native; sizes="-m 16:1K:64";;
 esac
 for pat in balanced late:0.2:256; do
  for cfg in default no; do
   extra="--smpi-cfg=smpi/grow-injected-times:yes"; [ $cfg = no ] && extra="--smpi-cfg=smpi/grow-injected-times:no"
   echo "=== coll=$coll pattern=$pat grow=$cfg"
   /usr/bin/time -f "cpu %U+%S s wall %e s" timeout 1200 nice -n 5 python3 -m papcoll_tools.cli sim run --platform=cluster:16x16 $extra --bench="$BENCH" -- --coll=$coll --algo=$algos $sizes -i 3 -x 1 --pattern=$pat 2>&1 | grep -v "^#"
  done
 done
done
