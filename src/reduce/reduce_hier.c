/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the universal hierarchical reduce with barriers: every process
 * copies its data into its slot of the node's reduction area, the node
 * reduces its share in parallel (each process reduces a 1/ppn slice of the
 * elements across the node's slots), and fixed node leaders (node rank 0)
 * run any flat reduce among nodes to the root's node; node barriers
 * separate the phases.
 *
 *   node:   x0 x1 x2 x3        copy-in: slot k <- x_k         | barrier
 *           [s0|s1|s2|s3]      process k: slot 0 = x3 op x2 op x1 op x0 on slice k | barrier
 *   leaders: slot 0 --PAPCOLL_REDUCE_INTER (pc_reduce_on over ctx->leaders)--> root's node leader
 *   root's node: the leader reduces in place in slot 0 and publishes it,
 *                the root copies it out (or receives it directly if it leads)
 *
 * The message goes in chunks of whole elements that fit a slot (the area's
 * bank, PAPCOLL_SHM_SIZE / 2, divided by the node's processes); two banks
 * let a node copy chunk c + 1 in while its leader still reduces chunk c.
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced, mu per byte copied): per process a copy-in m mu + a slice reduce
 * (q - 1)(m / q) gamma + two node barriers per chunk, then the inter-node
 * algorithm on N leaders (binomial: ceil(log2 N)(alpha + beta m + gamma m)),
 * then the root's copy-out m mu when it does not lead its node.
 * Late arrival: both barriers wait for the whole node, so a node reduces at
 * the pace of its last process and a late leader delays every node above
 * it; an early process waits at the first barrier (Scalasca's Early
 * Reduce): the baseline hier_nobarrier and dynleader improve on.
 * Order: each node combines x_{q-1} op ... op x_1 op x_0 (node ranks), the
 * inter-node algorithm combines node results in its own order: results do
 * not depend on timing, but need a commutative op.
 * Limitations: a datatype whose single element does not fit a slot is
 * reduced by PAPCOLL_REDUCE_INTER over the whole communicator (logged).
 * Parameters: PAPCOLL_REDUCE_INTER (default binomial; any flat reduce,
 * native, auto), PAPCOLL_SHM_SIZE; under SMPI PAPCOLL_SIM_MEMBW charges the
 * copies and local reductions.
 * Source: Parsons 2015 §2.3.1, Fig. 2.1 (universal hierarchical
 * algorithm; for reductions the copy-in phase does the intra-node
 * reduction); section 3.7.1 (the naive hierarchical reduce with barriers).
 */
#include "reduce/reduce.h"
#include "node/node_reduce.h"
#include "core/phase.h"

int pc_reduce_hier(const pc_call_t *a)
{
    pc_node_red_t r;
    int rc;
    if (!pc_node_red_open(a, PC_NODE_RED_SLOTS, "hier", a->params->reduce.inter, &r, &rc)) return rc;
    const pc_comm_t *c = a->ctx;
    int root_node = c->node_of[a->root];
    int is_root = c->rank == a->root, is_leader = c->node_rank == 0, on_root_node = c->my_node == root_node;
    if (is_leader && c->nnodes > 1) pc_phase_mark_leader();
    for (long k = 0; k < r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&r, k, &ch);
        int crc = pc_node_red_reduce_slots(&r, &ch, a->sendbuf); /* slot 0 holds the node's result */
        if (is_leader) {
            pc_call_t chunk = pc_node_red_chunk_call(&r, &ch);
            char *node_result = pc_node_red_slot(&r, &ch, 0);
            void *target = !on_root_node ? NULL : is_root ? pc_red_at(a, a->recvbuf, ch.first) : node_result;
            int irc = pc_reduce_on(&chunk, a->params->reduce.inter, node_result, target, root_node, c->leaders);
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
