/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader_flat - dynamic-leader reduce over a flat tree of nodes: every
 * process combines its data into its node's shared accumulator as soon as
 * it arrives and leaves; the node's LAST contributor sends the node's result
 * straight to the root, which is the only process that ever waits.
 *
 *   node X (not the root's):  arrivals x2 ... x0 ........ x3 ... x1
 *                             each: acc op= x, leave; x1 completes the count
 *                             and sends acc to the root (one eager message)
 *   root's node:              the root receives the N - 1 node results (the
 *                             first chunk from MPI_ANY_SOURCE), combines each
 *                             into its node's accumulator, copies out
 *
 * It is dynleader (reduce_dynleader.c: the mailbox protocol, the
 * {seq, rank} header that names the dynamic sender, chunking) with the
 * binomial tree of nodes replaced by a flat one.  Parsons 2015 §3.7.1
 * notes that the binomial pattern "leaves an unnecessary dependency between
 * non-root nodes" (a mailbox waits for its child nodes, and so does every
 * node's last arriver whose children are late) and that a serial inter-node
 * reduction would remove it, at the price of contention at the root.  For
 * short messages that contention is a few receive overheads, and the flat
 * tree is also the shorter path: one hop instead of ceil(log2 N).
 *
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced): a process combines m gamma (PAPCOLL_REDUCE_LOCK); a node's last
 * arriver sends m once (alpha + beta m); the root receives and combines
 * N - 1 results: about alpha + (N - 1) m (beta + gamma) on its link and CPU,
 * against binomial's ceil(log2 N) (alpha + (beta + gamma) m).  Short
 * messages: the root's time falls (simulated, 256 ranks on 16 nodes, 8 B:
 * 6.5 us against dynleader's 24.3); long ones: the root's link carries
 * N - 1 messages (4 KiB: 58.6 us against 37.9), so the rules use it for
 * short messages only.
 * Late arrival: no process but the root waits for another: a non-root
 * process leaves after its own combine, and a node's last arriver after one
 * send (eager for short messages: it returns without the root).  After the
 * last arrival the root needs one hop (alpha + beta m + gamma m), not one
 * per level of a tree.  A late root delays nobody else (its node's results
 * wait in its unexpected-message queue) while messages are eager; a longer
 * message makes its sender wait for the root's receive (rendezvous).
 * Order: arrival order (commutative ops only); PAPCOLL_REPRODUCIBLE=1
 * combines in a fixed order (node ranks, then nodes) at the cost of waiting
 * for predecessors.
 * Memory: the root holds one chunk (up to a bank of the node reduction
 * area, PAPCOLL_SHM_SIZE / 2) per other node: (N - 1) x min(m, bank).
 * Limitations: as dynleader's (one element larger than a bank is reduced by
 * PAPCOLL_REDUCE_INTER over the whole communicator, logged).
 * Parameters: PAPCOLL_REDUCE_LEADER (last, or fixed: each node's lowest
 * rank sends after its whole node), PAPCOLL_REDUCE_LOCK,
 * PAPCOLL_REPRODUCIBLE, PAPCOLL_SHM_SIZE; under SMPI PAPCOLL_SIM_MEMBW.
 * Source: Parsons 2015 §3.7.1 (dynamic leader reduce, Fig. 3.14, and
 * the serial inter-node reduction it discusses after Fig. 3.14).
 */
#include "reduce/reduce.h"

int pc_reduce_dynleader_flat(const pc_call_t *a)
{
    return pc_reduce_dynleader_tree(a, PC_TREE_FLAT, "dynleader_flat");
}
