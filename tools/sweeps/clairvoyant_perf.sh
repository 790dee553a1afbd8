#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# reduce clairvoyant (simulated): when predicting the arrival order pays.  coll_perf.sh's reduce
# comparison restricted to clairvoyant, binomial, dynleader_flat, dynleader_onesided and SMPI's
# binomial, mpich, ompi and mvapich2 reduces, on cluster:NODESxCORES, MPI_INT + MPI_SUM, root 0,
# sizes 8 B - 64 KiB, 20 repetitions after one warm-up (clairvoyant predicts from its third call on a root,
# for the first size; the medians are over the repetitions), under balanced arrival, a persistent imbalance
# (persistent:0.03:16, persistent:0.2:16: the same ranks 16 T late in every repetition) and uniform:16
# (a new random order every repetition: nothing to predict).  Then OUTDIR/clairvoyant.md (tables:
# e_root / e_bar / after the last arrival).
#   tools/sweeps/clairvoyant_perf.sh NODES CORES OUTDIR      (8 8: a few minutes; 16 16: about 20)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 3 ] || { echo "usage: $0 NODES CORES OUTDIR" >&2; exit 2; }
ALGOS=clairvoyant,binomial,dynleader_flat,dynleader_onesided BASELINES="binomial mpich ompi mvapich2" \
  PATTERNS="balanced persistent:0.03:16 persistent:0.2:16 uniform:16" SIZES="8:4K:8 64K:64K:2" \
  ITERS=${ITERS:-20} tools/sweeps/coll_perf.sh reduce "$1" "$2" "$3"
python3 tools/sweeps/reduce_table.py "$3" > "$3/clairvoyant.md"
