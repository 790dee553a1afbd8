#!/bin/sh
# run_apps.sh - the simulated application runs of docs/apps.md ("Simulated
# speedup tables"), one at a time, each under timeout, nice and a memory limit.
#   run_apps.sh BINDIR OUTDIR APP PLATFORM "ALGOS" "NOISES" -- APP_ARGS...
# APP: floyd_warshall, matvec or fft3d (BINDIR/APP-smpi); ALGOS: the values of
# PAPCOLL_BCAST / PAPCOLL_REDUCE / PAPCOLL_ALLTOALL (native = SMPI's own
# collective, as configured by papcoll sim run); NOISES: --noise specs.
# One raw output per run: OUTDIR/APP.PLATFORM.ALGO.NOISE.txt (the command first).
set -u
bindir=$1 outdir=$2 app=$3 platform=$4 algos=$5 noises=$6
shift 6
[ "${1:-}" = "--" ] && shift
case $app in
  floyd_warshall) var=PAPCOLL_BCAST ;;
  matvec) var=PAPCOLL_REDUCE ;;
  fft3d) var=PAPCOLL_ALLTOALL ;;
  *) echo "run_apps.sh: unknown app $app" >&2; exit 2 ;;
esac
tools=$(dirname "$0")/../../../tools
mkdir -p "$outdir"
ulimit -v 10000000
for noise in $noises; do
  for algo in $algos; do
    plat=$(echo "$platform" | tr ':,=' '___')
    out="$outdir/$app.$plat.$algo.$noise.txt"
    cmd="$var=$algo papcoll sim run --platform=$platform --bench=$bindir/$app-smpi -- $* --noise=$noise"
    echo "# $cmd" > "$out"
    start=$(date +%s)
    (cd "$tools" && env "$var=$algo" timeout 1200 nice -n 5 python3 -m papcoll_tools.cli sim run \
        --platform="$platform" --bench="$bindir/$app-smpi" -- "$@" --noise="$noise") >> "$out" 2>&1
    echo "# rc=$? wall_s=$(( $(date +%s) - start ))" >> "$out"
    tail -2 "$out"
  done
done
