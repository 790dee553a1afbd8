#!/bin/sh
# run_trace.sh - the simulated application runs of docs/apps.md ("Simulated
# speedup tables") again, with the arrival tracer linked in (APP-smpi-traced,
# docs/trace.md "Under SimGrid SMPI"), and `papcoll trace report` of each.
#   run_trace.sh BINDIR OUTDIR APP PLATFORM "ALGOS" "NOISES" -- APP_ARGS...
# Same arguments as docs/results/apps/run_apps.sh.  Per run, in OUTDIR:
#   (file names write the NOISE spec's : and , as _, e.g. jitter_0.05)
#   APP.PLATFORM.ALGO.NOISE.txt      the command, then the program's output (its summary line)
#   APP.PLATFORM.ALGO.NOISE/         the report (report.md, sites.csv, calls.csv, figures; its replay/
#                                    files, 0.5 MB per run, are left out: the report of the raw trace remakes them)
#   APP.PLATFORM.ALGO.NOISE.trace.tar.gz  the raw trace (header.json, rank-R.bin/.comms/.sites)
# One simulation at a time, under timeout, nice and a memory limit.
# Environment: SIM_ARGS, extra options of papcoll sim run (--stack-size=1024 at 1024 ranks).
set -u
sim_args=${SIM_ARGS:-}
. "$(dirname "$0")/../apps/run_args.sh"
tools=$(cd "$(dirname "$0")/../../../tools" && pwd)
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
ulimit -v 10000000
for noise in $noises; do
  for algo in $algos; do
    name="$app.$(echo "$platform" | tr ':,=' '___').$algo.$(echo "$noise" | tr ':,' '__')"
    traces=$(mktemp -d /tmp/papcoll-trace-XXXXXX)
    cmd="PAPCOLL_TRACE_DIR=DIR $var=$algo papcoll sim run --platform=$platform ${sim_args:+$sim_args }--bench=$bindir/$app-smpi-traced -- $* --noise=$noise"
    echo "# $cmd" > "$outdir/$name.txt"
    start=$(date +%s)
    # shellcheck disable=SC2086  # sim_args: words on purpose
    (cd "$tools" && env "$var=$algo" PAPCOLL_TRACE_DIR="$traces" timeout 1500 nice -n 5 python3 -m papcoll_tools.cli sim run \
        --platform="$platform" $sim_args --bench="$bindir/$app-smpi-traced" -- "$@" --noise="$noise") >> "$outdir/$name.txt" 2>&1
    echo "# rc=$? wall_s=$(( $(date +%s) - start ))" >> "$outdir/$name.txt"
    run=$(ls -d "$traces"/papcoll-trace-* | head -1)
    echo "# papcoll trace report RUN -o $name" >> "$outdir/$name.txt"
    (cd "$tools" && python3 -m papcoll_tools.cli trace report "$run" -o "$outdir/$name") >> "$outdir/$name.txt" 2>&1
    rm -rf "$outdir/$name/replay"
    tar -C "$traces" -czf "$outdir/$name.trace.tar.gz" "$(basename "$run")"
    rm -rf "$traces"
    tail -3 "$outdir/$name.txt"
  done
done
