/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cp_rdb - competitive and pipelined scatter + recursive-doubling allgather
 * among nodes (CP-RDAAS): dynamic node leaders (the first process of each
 * node to arrive; the root on its node) scatter the message over the nodes
 * along a binomial tree, then swap blocks by recursive doubling; each block
 * a leader receives is copied into its node ring while the next exchange is
 * on the network, and the node's other processes copy out and leave.
 *
 *   scatter over nodes     L0 -> {L4..7} -> L4, {L2,L3} -> L2, ...
 *   allgather over nodes   Li <-> Li^1, Li <-> Li^2, Li <-> Li^4   (blocks -> node ring)
 *
 * Cost (Hockney, balanced, N nodes a power of two): 2 log2(N) alpha +
 * 2 ((N-1)/N) m beta between nodes, plus one copy-in and one copy-out per
 * node mostly hidden behind the exchanges.  When N is not a power of two
 * the allgather is the ring one (cp_ring), as in the CP paper Fig. 7.
 * Late arrival: a node joins when its first process arrives, not its
 * lowest rank; but an allgather needs every node, so the whole broadcast
 * waits for the last node's first arriver (processes after it copy out and
 * leave).  Messages up to PAPCOLL_CP_NOSEG_MAX go by the competitive
 * binomial tree (the CP paper: short messages), as does a single node.
 * Limitations: leaders wait for each destination's leader to announce itself
 * (READY) before sending to it, one destination at a time.
 * Parameters: PAPCOLL_CP_NOSEG_MAX, PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL,
 * PAPCOLL_CP_LEADER (fixed: lowest-rank leaders, the CP paper's P baseline).
 * Source: the CP paper §3 and Fig. 7 (CP-RDAAS; Figs. 14-15).
 */
#include "bcast/bcast.h"

int pc_bcast_cp_rdb(const pc_call_t *a) { return pc_bcast_cp_allgather(a, 1); }
