#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The cost of simulating at scale: tools/sweeps/scale.toml one point at a time, then
# docs/results/scale.md's table (wall time, CPU time, peak memory per point).
#   tools/scale/run.sh          (OUT=DIR: where the sweep goes, default docs/results/scale)
# Each point is killed after TIMEOUT seconds (default 5400: 16384 ranks need about an hour of a
# core).  Resumable: finished points are kept.
set -e
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/scale}
export PYTHONPATH="$PWD/tools${PYTHONPATH:+:$PYTHONPATH}"
python3 -m papcoll_tools.cli sim sweep tools/sweeps/scale.toml --jobs=1 --out="$OUT" --timeout="${TIMEOUT:-5400}" || true
python3 -m papcoll_tools.scale_table "$OUT/sweep.csv"
