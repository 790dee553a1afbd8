/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader - dynamic-leader reduce: every process combines its data into
 * its node's shared accumulator as soon as it arrives and leaves; the node's
 * LAST contributor sends the node's result up a binomial tree of nodes.
 *
 *   node X (children C1, C2 in the tree of nodes, parent P):
 *     arrivals   x2 ... x0 ........ x3 ... x1     each: acc op= x, leave
 *     mailbox    M = X's lowest rank: receives C1's and C2's results, acc op= each
 *     leader     whoever completes the count (ppn + children) -- here x1 or M --
 *                sends acc to P's mailbox
 *   root's node: the root is the mailbox and the end: it waits for its node
 *                and its children, copies the result out
 *
 * Finding the parent's leader (Parsons 2015 Fig. 3.14 sends leader IDs to every
 * process of the child nodes and cancels the ones nobody received; we may
 * neither cancel nor leave messages for a later call).  A message must name
 * its destination rank, and only a process still in the call can receive
 * it, while a dynamic leader is known only when the last process arrives
 * and everyone else is gone.  So the destination is fixed and the
 * shared memory of the receiving node does the rest: each node has a fixed
 * mailbox (its lowest rank; the root on the root's node) known to everyone.
 * A child node's leader sends the mailbox of its parent node its first
 * chunk with a header {seq, rank} in front (one message of a struct
 * datatype: windowed tag PC_TAG_REDUCE_LEADER, received with MPI_ANY_SOURCE
 * because the sender is dynamic, as MPI_PACKED into room for a whole bank;
 * the sequence number is checked, and a later call's first chunk, from a
 * leader a whole tag window of calls ahead, is kept for that call:
 * ctx/early.h), then its other chunks (PC_TAG_REDUCE_NODE, received from the
 * first chunk's source: per-sender order keeps chunks and calls apart).
 * The mailbox combines each child's result into the node's accumulator as
 * one more contribution, so the node's leader is simply the contributor
 * that completes the count, local process or mailbox: no control message
 * goes down, every message is received in its own call by a process that is
 * bound to be there, and no process waits for a leader ID.
 * The leader is chosen on the message's first chunk and sends every chunk
 * (chunks of whole elements that fit a bank of the node reduction area,
 * node/node_reduce.h), so a parent receives each child's chunks from one
 * sender, in order.
 *
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced): a process combines m gamma (under PAPCOLL_REDUCE_LOCK), a
 * mailbox also receives and combines its c <= ceil(log2 N) children's m;
 * ceil(log2 N) hops of (alpha + beta m) up the tree.
 * Late arrival: a process leaves after its own combine, whether its node's
 * other processes have arrived or not (no Early Reduce wait); a node's
 * result leaves as soon as its last process (or last child) is in, sent by
 * that last one.  Who waits: the root (for everything: the result), and a
 * mailbox for its children's results (a leaf node's mailbox waits for
 * nobody).  Against hier_nobarrier: a late process no longer holds back an
 * early fixed leader; it carries its node's result itself.
 * Order: arrival order (commutative ops only); PAPCOLL_REPRODUCIBLE=1
 * combines in a fixed order (node ranks, then children) at the cost of
 * waiting for predecessors.
 * Limitations: one element larger than a bank is reduced by
 * PAPCOLL_REDUCE_INTER over the whole communicator (logged); a mailbox holds
 * one chunk per child in private memory.
 * Parameters: PAPCOLL_REDUCE_LEADER (last: the last contributor leads;
 * fixed: the mailbox always sends, after its whole node), PAPCOLL_REDUCE_LOCK,
 * PAPCOLL_REPRODUCIBLE, PAPCOLL_SHM_SIZE; under SMPI PAPCOLL_SIM_MEMBW.
 * Code: the climb (combine, mailboxes, sending up) is node/node_dynleader.c,
 * shared with allreduce dynleader; this file adds the root's copy-out, for
 * any tree of nodes (pc_reduce_dynleader_tree: dynleader_flat is the flat one).
 * Source: Parsons 2015 §3.7.1, Figs. 3.14-3.15 (dynamic leader reduce).
 */
#include "reduce/reduce.h"
#include "node/node_dynleader.h"

#include <string.h>

int pc_reduce_dynleader_tree(const pc_call_t *a, pc_tree_shape_t node_tree, const char *name)
{
    pc_dynleader_t d;
    int fixed = !strcmp(a->params->reduce.leader, "fixed");
    int rc = pc_dynleader_begin(&d, a, a->root, node_tree, PC_TAG_REDUCE_LEADER, PC_TAG_REDUCE_NODE, fixed);
    if (rc == MPI_SUCCESS && d.r.chunk == 0)
        rc = pc_red_whole_comm(a, name, d.r.slot_bytes, a->params->reduce.inter);
    if (rc != MPI_SUCCESS || d.r.chunk == 0) {
        pc_dynleader_end(&d);
        return rc;
    }
    int is_root = a->ctx->rank == a->root;
    for (long k = 0; k < d.r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&d.r, k, &ch);
        int crc = pc_dynleader_climb(&d, &ch, k);
        if (is_root) { /* the end of the climb: the root waits for its node and its children */
            pc_node_red_wait_arrived(&d.r, &ch);
            int orc = pc_node_red_copy_out(&d.r, &ch, a->recvbuf);
            if (crc == MPI_SUCCESS) crc = orc;
        }
        pc_node_red_done(&d.r, &ch);
        if (rc == MPI_SUCCESS) rc = crc;
        if (rc != MPI_SUCCESS) break; /* a lost child or parent: the tree cannot complete */
    }
    pc_dynleader_end(&d);
    return rc;
}

int pc_reduce_dynleader(const pc_call_t *a)
{
    return pc_reduce_dynleader_tree(a, PC_TREE_BINOMIAL, "dynleader");
}
