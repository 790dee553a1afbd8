#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The host cost of papcoll's entry path, natively on 2 processes of this
# machine: an 8-byte MPI_Allreduce made N times per call site (10, 100,
# 10^4, 10^5) with Open MPI alone, through papcoll's drop-in with the default
# `auto`, the default with the early probe (PAPCOLL_ADAPT_PROBE=1), with
# PAPCOLL_ALLREDUCE=native and with PAPCOLL_ADAPT=0.  Prints a
# Markdown table of the mean microseconds per call.  The figures in
# docs/tuning.md ("What it costs") come from it.
#   usage: tools/overhead/entry_overhead.sh [BUILD_DIR]   (default: build)
set -eu
build=${1:-build}
lib=$(cd "$build" && pwd)/libpapcoll_mpi.so
[ -r "$lib" ] || { echo "no $lib: build first (make build)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc.openmpi -O2 -o "$work/loop" "$(dirname "$0")/call_site_loop.c"
run() { # label, then mpirun options
    label=$1; shift
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi -np 2 --bind-to core "$@" \
        "$work/loop" "$n" "$reps" | awk '{ printf " %s |", $3 }'
}
echo "| calls per site (communicators) | Open MPI alone | default auto | PAPCOLL_ADAPT_PROBE=1 | PAPCOLL_ALLREDUCE=native | PAPCOLL_ADAPT=0 |"
echo "|---|---|---|---|---|---|"
for nr in "10 3000" "100 300" "10000 5" "100000 2"; do
    set -- $nr
    n=$1 reps=$2
    printf "| %s (%s) |" "$n" "$reps"
    run alone
    run auto -x LD_PRELOAD="$lib"
    run probe -x LD_PRELOAD="$lib" -x PAPCOLL_ADAPT_PROBE=1
    run native -x LD_PRELOAD="$lib" -x PAPCOLL_ALLREDUCE=native
    run static -x LD_PRELOAD="$lib" -x PAPCOLL_ADAPT=0
    echo
done
