/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader - arrival-tolerant allreduce: the dynamic-leader reduce to
 * rank 0 (every process combines its data into its node's shared
 * accumulator as soon as it arrives; the node's LAST contributor sends the
 * node's result up a binomial tree of nodes to fixed mailboxes), then the
 * result back down the same tree from mailbox to mailbox, each mailbox
 * publishing it in its node's shared memory for its processes to copy out.
 *
 *   node X (children C1, C2, parent P; mailbox M = X's lowest rank):
 *     up     arrivals x2 .. x0 ...... x3 .. x1: each acc op= x, then waits
 *            M: acc op= C1's, C2's results; the last contributor -> P's M
 *     down   M <- P's M: the result, into acc; M -> C1's, C2's M; M publishes
 *     out    every process of X copies acc out
 *
 * The up phase is node/node_dynleader.c (reduce dynleader's climb): the
 * reduction of everything that has arrived goes on while the late
 * processes come (Proficz 2018's "pre-reduce"), across nodes too: a node
 * whose processes are all in sends its result up at once, so when the last
 * process arrives only its own combine and its node's path to the root are
 * left, not a whole inter-node allreduce.  The down phase needs no dynamic
 * leader: in an allreduce every process waits for the result, so each
 * node's mailbox is there to receive it.
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced, mu per byte copied): a combine m gamma per process, then
 * ceil(log2 N) hops up of (alpha + beta m + gamma m) and ceil(log2 N) hops
 * down of (alpha + beta m) (a mailbox sends to its children one after the
 * other: up to ceil(log2 N) sends), then the copy-out m mu.  Balanced that
 * is about twice recursive doubling's hops (hier): the price of letting
 * the reduction run ahead of the late ones.
 * Late arrival (allreduce: everybody waits for the last process, Wait at
 * N x N): after the last arrival, its combine, at most ceil(log2 N) hops up
 * from its node (only the nodes on its path still wait for it), the hops
 * down and the copy-out.  hier's leaders instead start their inter-node
 * allreduce only once their own node is complete, and every step of it
 * waits for the slowest node.
 * Order: arrival order (commutative ops only); PAPCOLL_REPRODUCIBLE=1
 * combines in a fixed order (node ranks, then child nodes); every process
 * receives the same bits (one result, copied).
 * Limitations: one element larger than a bank of the reduction area is
 * reduced by PAPCOLL_ALLREDUCE_INTER over the whole communicator (logged).
 * Parameters: PAPCOLL_REDUCE_LOCK, PAPCOLL_REPRODUCIBLE, PAPCOLL_SHM_SIZE;
 * under SMPI PAPCOLL_SIM_MEMBW.
 * Source: Parsons 2015 §3.7.1, Fig. 3.14 (dynamic leader reduce) and
 * 3.7.2 (broadcast through node shared memory); Proficz, "Improving
 * all-reduce collective operations for imbalanced process arrival
 * patterns", J. Supercomputing 74 (2018) (pre-reducing the arrived data).
 */
#include "allreduce/allreduce.h"
#include "node/node_dynleader.h"

#include <stdlib.h>

/* A mailbox: the result of the chunk into the node's accumulator (rank 0:
 * once its node and children are in; others: from the parent's mailbox),
 * published to the node, then sent on to the child nodes' mailboxes. */
static int pass_result_down(pc_dynleader_t *d, const pc_node_chunk_t *ch)
{
    const pc_call_t *a = d->a;
    const pc_comm_t *c = a->ctx;
    char *acc = pc_node_red_slot(&d->r, ch, 0);
    int count = (int)ch->count, rc = MPI_SUCCESS, nch = d->tree.nchildren;
    if (d->parent_mailbox < 0)
        pc_node_red_wait_arrived(&d->r, ch);
    else /* the result implies my node's result reached the parent: acc is free */
        rc = PMPI_Recv(acc, count, a->datatype, d->parent_mailbox, PC_TAG_ALLREDUCE_RESULT, c->comm,
                       MPI_STATUS_IGNORE);
    pc_node_red_publish(&d->r, ch); /* even after an error: the node must not hang */
    if (rc != MPI_SUCCESS || nch == 0) return rc;
    MPI_Request *req = malloc((size_t)nch * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    int posted = 0;
    for (; posted < nch && rc == MPI_SUCCESS; posted++)
        rc = PMPI_Isend(acc, count, a->datatype, pc_node_leader(c, d->tree.children[posted]), PC_TAG_ALLREDUCE_RESULT,
                        c->comm, &req[posted]);
    if (rc != MPI_SUCCESS) posted--;
    int wrc = pc_waitall(posted, req, MPI_STATUSES_IGNORE);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

int pc_allreduce_dynleader_tree(const pc_call_t *a, pc_tree_shape_t node_tree, const char *name)
{
    pc_dynleader_t d;
    int rc = pc_dynleader_begin(&d, a, 0, node_tree, PC_TAG_ALLREDUCE_LEADER, PC_TAG_ALLREDUCE_NODE, 0);
    if (rc == MPI_SUCCESS && d.r.chunk == 0)
        rc = pc_red_whole_comm(a, name, d.r.slot_bytes, a->params->allreduce.inter);
    if (rc != MPI_SUCCESS || d.r.chunk == 0) {
        pc_dynleader_end(&d);
        return rc;
    }
    for (long k = 0; k < d.r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&d.r, k, &ch);
        int crc = pc_dynleader_climb(&d, &ch, k);
        if (d.is_mailbox) {
            int drc = pass_result_down(&d, &ch);
            if (crc == MPI_SUCCESS) crc = drc;
        } else {
            pc_node_red_wait_result(&d.r, &ch);
        }
        int orc = pc_node_red_copy_out(&d.r, &ch, a->recvbuf);
        pc_node_red_done(&d.r, &ch);
        if (crc == MPI_SUCCESS) crc = orc;
        if (rc == MPI_SUCCESS) rc = crc;
        if (rc != MPI_SUCCESS) break; /* a lost child or parent: the tree cannot complete */
    }
    pc_dynleader_end(&d);
    return rc;
}

int pc_allreduce_dynleader(const pc_call_t *a)
{
    return pc_allreduce_dynleader_tree(a, PC_TREE_BINOMIAL, "dynleader");
}
