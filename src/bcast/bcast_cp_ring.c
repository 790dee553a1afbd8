/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cp_ring - competitive and pipelined scatter + ring allgather among nodes
 * (CP-RingAAS): dynamic node leaders (the first process of each node to
 * arrive; the root on its node) scatter the message over the nodes along a
 * binomial tree, then pass blocks around the ring of nodes; each block a
 * leader receives is copied into its node ring while the next block is on
 * the network, and the node's other processes copy out and leave.
 *
 *   scatter over nodes     L0 -> {L4..7} -> L4, {L2,L3} -> L2, ...
 *   allgather over nodes   L0 -> L1 -> L2 -> ... -> L(N-1)   (N-1 steps, one block each -> node ring)
 *
 * Cost (Hockney, balanced, N nodes): (ceil(log2 N) + N - 1) alpha +
 * 2 ((N-1)/N) m beta between nodes (the root's node receives nothing), plus
 * one copy-in and one copy-out per node mostly hidden behind the steps.
 * Late arrival: a node joins when its first process arrives; the ring needs
 * every node's leader, so the broadcast waits for the last node's first
 * arriver (processes after it copy out and leave).  Messages up to
 * PAPCOLL_CP_NOSEG_MAX go by the competitive binomial tree (the CP paper), as
 * does a single node; larger ones go as cp_binomial while the Hockney model
 * (PAPCOLL_ALPHA, PAPCOLL_BETA) says the ring's N - 1 steps cost more than
 * a binomial tree's ceil(log2 N) whole messages (32 KiB on 16 nodes: the
 * ring took 1.27x binomial, simulated).
 * Parameters: PAPCOLL_CP_NOSEG_MAX, PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL,
 * PAPCOLL_CP_LEADER (fixed: lowest-rank leaders, the CP paper's P baseline).
 * Source: the CP paper §3 and Fig. 7 (CP-RingAAS; Figs. 16-17).
 */
#include "bcast/bcast.h"

int pc_bcast_cp_ring(const pc_call_t *a) { return pc_bcast_cp_allgather(a, 0); }
