#!/bin/bash
# auto with and without PAPCOLL_ADAPT=1 in steady state (SIMULATED: 256 ranks, cluster:16x16, ib-ddr): 200
# untimed calls per size, then 64 timed calls; the per-call e_bar from --raw, summary.md against the 256-rank
# regret sweep. BENCH: papcoll-bench-smpi of main at the commit of the ADAPT backoff (the broadcast rules with
# complementary candidates of 7c49f7d). (Run first by this file's earlier form; tools/sweeps/adapt_steady.sh now
# does the same for any collective and platform.)
#   BENCH=... docs/results/adapt_backoff_16x16/run.sh     (from anywhere)
cd "$(dirname "$0")/../../.."
exec tools/sweeps/adapt_steady.sh bcast cluster:16x16 docs/results/adapt_backoff_16x16 docs/results/regret_16x16
