/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cp_chain - competitive and pipelined chain of nodes: dynamic node leaders
 * (the first process of each node to arrive; the root on its node) form a
 * chain starting at the root's node; the message flows down it in segments,
 * each leader forwarding segment s while it copies segment s-1 into its
 * node ring, and the node's other processes copy out and leave.
 *
 *   L(root node) =s3=> L1 =s2=> L2 =s1=> ... => L(N-1)      each Li: segments -> ring -> its node
 *
 * Cost (Hockney, balanced, N nodes, k = m / PAPCOLL_CP_SEGSIZE segments):
 * (N - 1 + k - 1)(alpha + beta m/k) between nodes: every node link carries
 * the message once in and once out, the bandwidth optimum of the pipelined
 * chain, with the intra-node copies hidden behind the transfers.  (The SMPI bcast exercise's
 * model sqrt(m (N-2) beta/alpha) picks larger segments than measured
 * best under SMPI, whose default bandwidth factors penalize 16-64 KiB.)
 * Late arrival: a node joins the chain when its first process arrives; a
 * node whose processes all arrive late holds up the nodes after it (the
 * chain's weakness, Patarasuk & Yuan 2008), much less likely than one late process.
 * Messages up to PAPCOLL_CP_NOSEG_MAX are sent whole down the binomial tree
 * of nodes, where latency matters more than bandwidth, and larger ones go
 * as cp_binomial while the Hockney model (PAPCOLL_ALPHA, PAPCOLL_BETA) says
 * the chain's N - 1 hops cost more than a binomial tree's ceil(log2 N) whole
 * messages (32 KiB on 16 nodes: the chain took 1.34x binomial, simulated).
 * Parameters: PAPCOLL_CP_SEGSIZE, PAPCOLL_CP_NOSEG_MAX, PAPCOLL_MAX_INFLIGHT,
 * PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL, PAPCOLL_CP_LEADER (fixed: lowest-rank
 * leaders, the CP paper's P baseline).
 * Source: the CP paper's CP method (sections 2-3) applied to Patarasuk & Yuan 2008's
 * pipelined chain (section 3) among nodes.
 */
#include "bcast/bcast.h"

#include <math.h>

/* Hockney model (PAPCOLL_ALPHA, PAPCOLL_BETA): the pipelined chain of N
 * nodes, (N - 1 + k - 1)(alpha + beta m/k), against the whole message down
 * the binomial tree of nodes, ceil(log2 N)(alpha + beta m). */
static int chain_wins(const pc_call_t *a)
{
    double alpha = a->params->alpha, beta = a->params->beta, m = (double)a->bytes;
    double k = ceil(m / (double)a->params->bcast.cp_segsize), n = a->ctx->nnodes;
    return (n - 1 + k - 1) * (alpha + beta * m / k) < ceil(log2(n)) * (alpha + beta * m);
}

int pc_bcast_cp_chain(const pc_call_t *a)
{
    if (a->bytes <= a->params->bcast.cp_noseg_max) return pc_bcast_leader_tree(a, PC_TREE_BINOMIAL, 0);
    if (!chain_wins(a)) return pc_bcast_cp_binomial(a);
    return pc_bcast_leader_tree(a, PC_TREE_CHAIN, a->params->bcast.cp_segsize);
}
