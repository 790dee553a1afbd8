/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader_flat - arrival-tolerant allreduce over a flat tree of nodes:
 * allreduce dynleader (the dynamic-leader reduce to rank 0, then the result
 * back to every node's mailbox) with every node a child of rank 0's.
 *
 *   up     each process: acc op= x on arrival; a node's LAST contributor
 *          sends the node's result straight to rank 0 (the first chunk from
 *          MPI_ANY_SOURCE there), which combines the N - 1 results
 *   down   rank 0 sends the result to the N - 1 other mailboxes (each
 *          node's lowest rank), one after the other; each mailbox and rank 0
 *          publish it in their node's shared memory
 *   out    every process copies it out
 *
 * Against the binomial tree of nodes: one hop up and one down instead of
 * ceil(log2 N) each, and no node waits for another on its way up (Parsons 2015
 * section 3.7.1's "serial inter-node reduction"); the price is rank 0's
 * link and CPU, which receive, combine and send N - 1 messages.
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced, mu per byte copied): a combine m gamma per process; up: alpha +
 * (N - 1) m (beta + gamma) at rank 0; down: alpha + (N - 1) m beta (rank 0's
 * sends, one after the other); then the copy-out m mu.  For short messages
 * that is about 2 alpha plus 2 (N - 1) send overheads, against hier's
 * 2 ceil(log2 N) alpha; for long ones rank 0's link makes it slow (the rules
 * use it for short messages only).
 * Late arrival (everybody waits for the last process): after the last
 * arrival, its combine, one hop up (its node's last contributor sends), one
 * hop down and the copy-out, whichever node it is on.
 * Order: arrival order (commutative ops only); PAPCOLL_REPRODUCIBLE=1
 * combines in a fixed order (node ranks, then nodes); every process
 * receives the same bits.
 * Memory: rank 0 holds one chunk (up to a bank of the node reduction area,
 * PAPCOLL_SHM_SIZE / 2) per other node.
 * Limitations, parameters: as allreduce dynleader's.
 * Source: Parsons 2015 §3.7.1 (Fig. 3.14 and the serial inter-node
 * reduction discussed after it); Proficz 2018 (pre-reducing the arrived
 * data).
 */
#include "allreduce/allreduce.h"

int pc_allreduce_dynleader_flat(const pc_call_t *a)
{
    return pc_allreduce_dynleader_tree(a, PC_TREE_FLAT, "dynleader_flat");
}
