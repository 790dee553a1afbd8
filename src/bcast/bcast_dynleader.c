/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader - dynamic-leader broadcast: on every node the first process to
 * arrive becomes its leader for this call.
 *
 *   node of root: root --copy-in--> ring --copy-out--> the others, who leave
 *   other nodes:  first arriver L claims the node, REQUEST -> every process
 *                 of the parent node, receives the whole message (from any
 *                 source), sends it to its child leaders, copies it into the
 *                 node ring; the others copy out and leave
 *   nodes form a binomial tree rooted at the root's node; a leader that has
 *   the message before a child's REQUEST sends it to the child's lowest rank
 *   (the guess, right when balanced) and to the asker too if it is another
 *   (see node.h)
 *
 * Cost (Hockney, balanced): ceil(log2 N) (alpha + beta m) between N nodes,
 * plus one copy-in and one copy-out of m per node, as fixed leaders: the
 * REQUESTs travel when leaders arrive, off the data path (messages above
 * PAPCOLL_BCAST_LEADER_GUESS_MAX: one alpha at a hop whose sender has the
 * message before its child asked, the root's).
 * Late arrival: a node waits only for its first process, not its last; a
 * process that arrives after the data reached its node copies it and
 * leaves at once.  Every process still waits for the root, and a leader
 * for its child nodes' first arrivals.
 * Limitations: the inter-node hop is one message (no pipelining: see
 * cp_binomial); messages larger than PAPCOLL_SHM_SIZE make the leader wait
 * for its node's slowest process to free ring cells.
 * Parameters: PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL, PAPCOLL_MAX_INFLIGHT,
 * PAPCOLL_CP_LEADER (fixed: lowest-rank leaders), PAPCOLL_BCAST_LEADER_GUESS_MAX.
 * Source: Parsons 2015 §3.7.2, Figs. 3.16-3.17 (dynamic leader broadcast).
 */
#include "bcast/bcast.h"

int pc_bcast_dynleader(const pc_call_t *a) { return pc_bcast_leader_tree(a, PC_TREE_BINOMIAL, 0); }
