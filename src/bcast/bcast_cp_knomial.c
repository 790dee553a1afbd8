/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cp_knomial - competitive and pipelined k-nomial tree of nodes: cp_binomial
 * (dynamic node leaders, segments flowing between nodes while leaders copy
 * the previous segment into their node ring) with the nodes in a k-nomial
 * tree of radix k = PAPCOLL_BCAST_KNOMIAL_RADIX (default 4) instead of a
 * binomial one.
 *   parent leader =s=> L =s=> up to k-1 child leaders per level   L: ring -> node
 * Cost (Hockney, balanced, s segments, N nodes): about
 * (ceil(log_k N) + s - 1)(alpha + (k-1) beta m/s) between nodes; messages up
 * to PAPCOLL_BCAST_CP_NOSEG_MAX go whole.  Against cp_binomial: fewer
 * network latencies on the critical path (16 nodes: 2 levels instead of 4),
 * k-1 sends per leader and level instead of one: a gain for small messages.
 * Late arrival: as cp_binomial: a node starts receiving when its first
 * process arrives; late processes copy out and leave.
 * Parameters: those of cp_binomial, and PAPCOLL_BCAST_KNOMIAL_RADIX.
 * Source: the CP paper's CP method (sections 2-3) on MVAPICH2's / Open MPI's
 * knomial tree.
 */
#include "bcast/bcast.h"

int pc_bcast_cp_knomial(const pc_call_t *a)
{
    if (a->params->bcast.knomial_radix < 2) return MPI_ERR_ARG;
    size_t seg = a->bytes <= a->params->bcast.cp_noseg_max ? 0 : a->params->bcast.cp_segsize;
    return pc_bcast_leader_tree(a, PC_TREE_KNOMIAL, seg);
}
