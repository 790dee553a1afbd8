/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * knomial - whole message down a k-nomial tree of processes, radix k =
 * PAPCOLL_BCAST_KNOMIAL_RADIX (default 4): relative rank r receives from r
 * with its lowest non-zero base-k digit cleared and sends to r + d k^j
 * (d = 1..k-1) for every j below that digit, largest subtree first.
 *
 *   k = 4, p = 16:  0 -> 12, 8, 4, 3, 2, 1;  4 -> 7, 6, 5;  8 -> 11, 10, 9; ...
 *
 * Cost: ceil(log_k p) levels, a process posting up to k-1 sends per level at
 * once (nonblocking): about ceil(log_k p) (alpha + (k-1) beta m) plus the
 * send overheads, against binomial's ceil(log2 p) (alpha + beta m).  Fewer
 * latencies on the critical path, more bytes: it wins for small messages
 * when alpha dominates (SMPI's Open MPI selection takes MVAPICH2's 4-nomial
 * below 16 KiB at 256-1023 ranks; 1.3-1.5x faster than binomial at 64-512 B,
 * 256 simulated ranks, docs/performance.md).
 * Late arrival: as binomial, a late non-leaf delays its whole subtree, but
 * the tree is shallower (every process is within ceil(log_k p) levels).
 * Source: MVAPICH2's knomial broadcast; Open MPI coll/base
 * bcast_intra_knomial (radix 4 by default in both).
 */
#include "bcast/bcast.h"

int pc_bcast_knomial(const pc_call_t *a)
{
    if (a->params->bcast.knomial_radix < 2) return MPI_ERR_ARG;
    return pc_bcast_tree(a, PC_TREE_KNOMIAL, 0, 1);
}
