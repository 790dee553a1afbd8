/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier_nobarrier - the "intra-node optimized" hierarchical reduce: each
 * process reduces its data into its node's shared accumulator as soon as
 * it arrives (the first to reach a cell copies, the others combine) and,
 * unless it leads its node or is the root, leaves at once.  The fixed
 * leader (node rank 0) waits for its node's count, then runs any flat
 * reduce among the node leaders to the root's node.
 *
 *   arrivals:  x2 ....... x0 ... x3 ........... x1
 *   acc:       =x2        +x0    +x3            +x1 -> count = 4
 *   leave:     p2         .      p3             p1     (leader p0 waits for the count)
 *   leaders:   acc --PAPCOLL_REDUCE_INTER (pc_reduce_on over ctx->leaders)--> root's node leader
 *   root's node: the leader reduces in place in acc and publishes it, the
 *                root copies it out (or receives it directly if it leads)
 *
 * Locking (PAPCOLL_REDUCE_LOCK, node/node_reduce.h): serial locks the whole
 * chunk; parallel cuts it into up to ppn cells of whole elements with a lock
 * each, a process starting at its own cell and skipping busy ones, so
 * simultaneous arrivals combine different cells at once; auto is serial
 * below a cache line (false sharing), else parallel.  PAPCOLL_REPRODUCIBLE=1
 * combines in node-rank order instead (rank r waits for rank r - 1's mark on
 * each cell), so the bits never depend on arrival order: the same bits as
 * hier.
 * The message goes in chunks of whole elements that fit a bank of the
 * reduction area (PAPCOLL_SHM_SIZE / 2); with two banks a process may run
 * two chunks ahead of its leader, no further.
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced): a process combines m gamma (serial: the node's q combines queue
 * on one lock, q m gamma for the last; parallel: about m gamma each when they
 * arrive together), then the inter-node algorithm on N leaders (binomial:
 * ceil(log2 N)(alpha + beta m + gamma m)), then the root's copy-out.
 * Late arrival: a non-leader pays only its own combine (no Early Reduce
 * wait); the leader waits for its node's last process, so a late process
 * delays its node's leader and, through the inter-node tree, the root; a
 * late leader delays only what goes up through it.  dynleader removes the
 * fixed leader's wait.  Ordered (reproducible) mode brings back a wait for
 * lower node ranks.
 * Limitations: messages larger than two banks make non-leaders wait for
 * their leader to free a bank; a datatype whose single element does not fit
 * a bank is reduced by PAPCOLL_REDUCE_INTER over the whole communicator
 * (logged).  Commutative ops only (arrival order).
 * Parameters: PAPCOLL_REDUCE_INTER, PAPCOLL_REDUCE_LOCK, PAPCOLL_REPRODUCIBLE,
 * PAPCOLL_SHM_SIZE; under SMPI PAPCOLL_SIM_MEMBW charges copies and combines.
 * Source: Parsons 2015 §3.7.1 (MPICH hierarchical reduce with optimized
 * intra-node communication, serial and parallel locking schemes).
 */
#include "reduce/reduce.h"
#include "node/node_reduce.h"
#include "core/phase.h"

int pc_reduce_hier_nobarrier_inter(const pc_call_t *a, const char *inter, const char *name)
{
    pc_node_red_t r;
    int rc;
    if (!pc_node_red_open(a, PC_NODE_RED_SHARED, name, inter, &r, &rc)) return rc;
    const pc_comm_t *c = a->ctx;
    int root_node = c->node_of[a->root];
    int is_root = c->rank == a->root, is_leader = c->node_rank == 0, on_root_node = c->my_node == root_node;
    if (is_leader && c->nnodes > 1) pc_phase_mark_leader();
    for (long k = 0; k < r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&r, k, &ch);
        int crc = pc_node_red_combine(&r, &ch, pc_red_at(a, a->sendbuf, ch.first), c->node_rank, NULL);
        if (is_leader) {
            pc_node_red_wait_arrived(&r, &ch);
            pc_call_t chunk = pc_node_red_chunk_call(&r, &ch);
            char *node_result = pc_node_red_slot(&r, &ch, 0);
            void *target = !on_root_node ? NULL : is_root ? pc_red_at(a, a->recvbuf, ch.first) : node_result;
            int irc = pc_reduce_on(&chunk, inter, node_result, target, root_node, c->leaders);
            if (on_root_node && !is_root) pc_node_red_publish(&r, &ch); /* even after an error: the root must not hang */
            if (crc == MPI_SUCCESS) crc = irc;
        } else if (is_root) {
            pc_node_red_wait_result(&r, &ch);
            int orc = pc_node_red_copy_out(&r, &ch, a->recvbuf);
            if (crc == MPI_SUCCESS) crc = orc;
        }
        pc_node_red_done(&r, &ch);
        if (rc == MPI_SUCCESS) rc = crc;
    }
    pc_node_red_end(&r);
    return rc;
}

int pc_reduce_hier_nobarrier(const pc_call_t *a)
{
    return pc_reduce_hier_nobarrier_inter(a, a->params->reduce.inter, "hier_nobarrier");
}
