#!/bin/sh
# run_apps.sh - the simulated application runs of docs/apps.md ("Simulated
# speedup tables"), one at a time, each under timeout, nice and a memory limit.
#   run_apps.sh BINDIR OUTDIR APP PLATFORM "ALGOS" "NOISES" -- APP_ARGS...
# APP: floyd_warshall, matvec or fft3d (BINDIR/APP-smpi); ALGOS: the values of
# PAPCOLL_BCAST / PAPCOLL_REDUCE / PAPCOLL_ALLTOALL (native = SMPI's own
# collective, as configured by papcoll sim run); NOISES: --noise specs.
# One raw output per run: OUTDIR/APP.PLATFORM.ALGO.NOISE.txt (the command first;
# ':' ',' and '=' are written '_' in file names, e.g. jitter_0.05).
# Environment: SIM_ARGS, extra options of papcoll sim run (e.g. --stack-size=1024
# at >= 1024 ranks); LOCK, a file to hold with flock around each run (the
# machine-wide lock of big simulations, e.g. /tmp/papcoll_bigsim.lock);
# TIMEOUT, seconds allowed per run (default 1200); SETTINGS, more VAR=VALUE
# settings for every run (e.g. PAPCOLL_ADAPT_PROBE=1), written into the
# command line and into the file names' ALGO field (auto-PAPCOLL_ADAPT_PROBE_1:
# summarize.py shows it as that algorithm).
set -u
limit=${TIMEOUT:-1200}
settings=${SETTINGS:-}
sim_args=${SIM_ARGS:-}
lock=${LOCK:-}
. "$(dirname "$0")/run_args.sh"
tools=$(dirname "$0")/../../../tools
mkdir -p "$outdir"
ulimit -v 10000000
for noise in $noises; do
  for algo in $algos; do
    plat=$(echo "$platform" | tr ':,=' '___')
    label=$algo${settings:+-$(echo "$settings" | tr '= ' '_-')}
    out="$outdir/$app.$plat.$label.$(echo "$noise" | tr ':,' '__').txt"
    cmd="$var=$algo ${settings:+$settings }papcoll sim run --platform=$platform ${sim_args:+$sim_args }--bench=$bindir/$app-smpi -- $* --noise=$noise"
    echo "# $cmd" > "$out"
    start=$(date +%s)
    # shellcheck disable=SC2086  # sim_args, settings: words on purpose
    (cd "$tools" && env "$var=$algo" $settings ${lock:+flock "$lock"} timeout "$limit" nice -n 5 python3 -m papcoll_tools.cli sim run \
        --platform="$platform" $sim_args --bench="$bindir/$app-smpi" -- "$@" --noise="$noise") >> "$out" 2>&1
    echo "# rc=$? wall_s=$(( $(date +%s) - start ))" >> "$out"
    tail -2 "$out"
  done
done
