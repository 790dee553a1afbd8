/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cp_binomial - competitive and pipelined binomial tree (CP-BT): dynamic
 * (competitive) node leaders as in dynleader, and the message cut into
 * segments that flow down the binomial tree of nodes; a leader copies
 * segment s into its node ring while segment s+1 is on the network.
 *
 *   parent leader =s2=> L =s1=> child leaders        L: s0 -> ring -> node processes
 *
 * Cost (Hockney, balanced, k segments, N nodes): about
 * (ceil(log2 N) + k - 1)(alpha + beta m/k) between nodes (a leader sends each
 * segment to up to log2 N children), with the intra-node copies hidden
 * behind the transfers; messages up to PAPCOLL_CP_NOSEG_MAX are sent whole.
 * Leaders find each other as in dynleader (REQUEST to the parent node on
 * arrival; an unsegmented message goes to the guessed leader at once).
 * Late arrival: as dynleader: a node starts receiving when its first process
 * arrives; late processes copy out and leave.
 * Limitations: the root's node has the root as its fixed leader.
 * Parameters: PAPCOLL_CP_SEGSIZE, PAPCOLL_CP_NOSEG_MAX, PAPCOLL_MAX_INFLIGHT,
 * PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL, PAPCOLL_CP_LEADER (fixed: lowest-rank
 * leaders, the CP paper's P baseline).
 * Source: the CP paper §§2-3 (CP method, CP-BT; Figs. 5-7).
 */
#include "bcast/bcast.h"

int pc_bcast_cp_binomial(const pc_call_t *a)
{
    size_t seg = a->bytes <= a->params->bcast.cp_noseg_max ? 0 : a->params->bcast.cp_segsize;
    return pc_bcast_leader_tree(a, PC_TREE_BINOMIAL, seg);
}
