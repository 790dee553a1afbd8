#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The reductions' performance comparison: kept under its old name (docs and rules cite it); the
# script is coll_perf.sh, which does every collective.
#   tools/sweeps/reduce_perf.sh reduce|allreduce NODES CORES OUTDIR
exec "$(dirname "$0")/coll_perf.sh" "$@"
