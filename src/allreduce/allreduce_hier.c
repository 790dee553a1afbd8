/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the universal hierarchical allreduce: node reduction in shared
 * memory (as reduce hier: copy-in to a slot per process, each process
 * reduces a 1/ppn slice across the slots, node barriers), any flat
 * allreduce among fixed node leaders (node rank 0) in place on the node's
 * result, then every process of the node copies the result out of the
 * same shared slot.
 *
 *   node:    x0 x1 x2 x3     copy-in: slot k <- x_k                | barrier
 *            [s0|s1|s2|s3]   process k: slot 0 = x3 op .. op x0 on slice k | barrier
 *   leaders: slot 0 <-PAPCOLL_ALLREDUCE_INTER (pc_allreduce_on over ctx->leaders, in place)-> slot 0
 *   leader publishes; every process: recvbuf <- slot 0 (copy-out)
 *
 * The message goes in chunks of whole elements that fit a slot (the area's
 * bank, PAPCOLL_SHM_SIZE / 2, divided by the node's processes); two banks
 * let a node copy chunk c + 1 in while its leader still exchanges chunk c.
 * The copy-out waits on the leader's publication stamp, not on a third
 * barrier: a process leaves as soon as it has its copy.
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced, mu per byte copied): copy-in m mu + slice reduce (q - 1)(m / q)
 * gamma + two barriers per chunk + the inter-node allreduce on N leaders
 * (recursive doubling: log2 N (alpha + beta m + gamma m)) + copy-out m mu.
 * Late arrival: nobody can leave before the last process arrives
 * (allreduce: Scalasca's Wait at N x N); the barriers add little to that
 * wait, but a node's leader starts the inter-node exchange only once its
 * own last process is in, so the time after the last arrival is the
 * inter-node allreduce plus the copies of the last node.
 * Order: each node combines x_{q-1} op ... op x_0 (node ranks), the
 * inter-node algorithm combines node results in its order: results do not
 * depend on timing and are the same bits on every process (one copy);
 * commutative ops only.
 * Limitations: a datatype whose single element does not fit a slot is
 * reduced by PAPCOLL_ALLREDUCE_INTER over the whole communicator (logged).
 * Parameters: PAPCOLL_ALLREDUCE_INTER (default recursive_doubling; any flat
 * allreduce, native, auto), PAPCOLL_SHM_SIZE; under SMPI PAPCOLL_SIM_MEMBW.
 * Source: Parsons 2015 §2.3.1, Fig. 2.1 (universal hierarchical
 * algorithm: copy-in with the intra-node reduction, the collective among
 * leaders on the shared buffer, copy-out).
 */
#include "allreduce/allreduce.h"
#include "node/node_reduce.h"
#include "core/phase.h"

int pc_allreduce_hier(const pc_call_t *a)
{
    pc_node_red_t r;
    int rc;
    if (!pc_node_red_open(a, PC_NODE_RED_SLOTS, "hier", a->params->allreduce.inter, &r, &rc)) return rc;
    int is_leader = a->ctx->node_rank == 0;
    if (is_leader && a->ctx->nnodes > 1) pc_phase_mark_leader();
    for (long k = 0; k < r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&r, k, &ch);
        int crc = pc_node_red_reduce_slots(&r, &ch, a->sendbuf); /* slot 0 holds the node's result */
        if (is_leader) {
            pc_call_t chunk = pc_node_red_chunk_call(&r, &ch);
            char *node_result = pc_node_red_slot(&r, &ch, 0);
            int irc = pc_allreduce_on(&chunk, a->params->allreduce.inter, node_result, node_result, a->ctx->leaders);
            pc_node_red_publish(&r, &ch); /* even after an error: the node must not hang */
            if (crc == MPI_SUCCESS) crc = irc;
        } else {
            pc_node_red_wait_result(&r, &ch);
        }
        int orc = pc_node_red_copy_out(&r, &ch, a->recvbuf);
        pc_node_red_done(&r, &ch);
        if (crc == MPI_SUCCESS) crc = orc;
        if (rc == MPI_SUCCESS) rc = crc;
    }
    pc_node_red_end(&r);
    return rc;
}
