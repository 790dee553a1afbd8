/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * two_level_scatter_gather - two_level's node step, then a direct
 * reduce-scatter and gather among the node leaders, so that the root
 * receives about one vector.  Every process that does not lead its node
 * sends its contribution to its node's leader (pc_node_mailbox: the root on
 * its own node, the node's lowest rank elsewhere) and leaves.  The message
 * is cut into N parts (N nodes); leader i sends part j of its node's result
 * to leader j, for every other node j, all at once; leader j combines the
 * N - 1 parts it receives with its own and sends the finished part to the
 * root, which receives the N - 1 other parts straight into its buffer.
 *
 *   node step:  r1 r2 r3 --> r0 (root)       r5 r6 r7 --> r4    members leave
 *   scatter:    r0 -part 1-> r4,  r4 -part 0-> r0                (N - 1 parts each, at once)
 *   gather:     r4 -finished part 1-> r0
 *
 * Why it exists beside two_level and dynleader_scatter_gather: two_level's
 * root receives and combines k - 1 whole vectors per level of its tree of
 * nodes, so its root is slow from about 16 KiB up; dynleader_scatter_gather
 * has this exchange, but each of its processes combines into node shared
 * memory itself.  Here a member's whole cost is one send (eager below the
 * MPI library's eager limit), and the root's link carries about one vector
 * after its node's.  The exchange is one step, not Rabenseifner's
 * 2 log2(N) steps of recursive halving and binomial gather
 * (hier_scatter_gather): N - 1 messages of m/N per leader are cheaper than
 * 2 log2(N) latencies in sequence while m/N is well above the latency's
 * worth of bytes.
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced): a member alpha + beta m (eager: its overhead only); a leader
 * (q - 1)(beta m + gamma m) for its node (the segmented engine overlaps
 * receiving and combining), then alpha + ((N - 1)/N) m (beta + gamma) for
 * the exchange (N - 1 parts out and in, on independent links) and
 * alpha + (m/N) beta to send its part; the root receives ((N - 1)/N) m beta.
 * Late arrival: a member never waits (below the eager limit); a leader
 * waits for its node's last member before it sends its parts, and every
 * leader waits for every node's part, so after the last process arrives its
 * send to its leader, its leader's N - 1 parts and one part's combine and
 * send remain: about 2 (m/N) beta past the node step, wherever it is late.
 * The dynamic-leader reduces remove the leader's wait for its node.
 * Order: a leader computes mine op member[0] op ... (rank order), the owner
 * of a part combines its own node's part with the others' in node order:
 * never arrival order (PAPCOLL_REPRODUCIBLE holds by construction), but not
 * rank order: commutative ops only.
 * Memory: a leader holds an accumulator of count elements (the root's is
 * its receive buffer) and room for the other nodes' parts of its index (N slots of
 * about count / N elements), about 2 count in all.
 * Parameters: PAPCOLL_REDUCE_SEGSIZE and PAPCOLL_MAX_INFLIGHT (the node
 * step).
 * Source: MVAPICH2's two-level reduce (src/mpi/coll/reduce_osu.c, the node
 * step); Parsons 2015 §3.7.1 and Rabenseifner 2004 ("Optimization of
 * collective reduction operations", ICCS: reduce-scatter then gather, so
 * that no link carries more than about one vector), as
 * dynleader_scatter_gather.
 */
#include "reduce/reduce.h"
#include "core/phase.h"
#include "ctx/comm.h"
#include "sched/tree_engine.h"

#include <stdlib.h>

/* Leaders: send part j of acc to node j's leader for every other node j,
 * combine the parts of my node's index that the others send (posted in
 * `in`, one slot of my part's length per node) in node order, and send
 * the finished part to the root.  req holds 2 N requests. */
static int exchange_parts(const pc_call_t *a, char *acc, char *in, MPI_Request *recv, MPI_Request *send)
{
    const pc_comm_t *c = a->ctx;
    int me = c->my_node, n = c->nnodes, rc = MPI_SUCCESS;
    long first, count, mine_first, mine_n;
    pc_reduce_node_part(a, me, &mine_first, &mine_n);

    for (int k = 1; k < n && rc == MPI_SUCCESS; k++) { /* starting with the next node: no common first target */
        int j = (me + k) % n;
        pc_reduce_node_part(a, j, &first, &count);
        if (count)
            rc = PMPI_Isend(pc_red_at(a, acc, first), (int)count, a->datatype, pc_node_mailbox(c, a->root, j),
                            PC_TAG_REDUCE_SCATTER, c->comm, &send[j]);
    }
    for (int j = 0; j < n && mine_n && rc == MPI_SUCCESS; j++) {
        if (j == me) continue;
        rc = PMPI_Wait(&recv[j], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = pc_red_local(a, pc_red_at(a, in, (long)j * mine_n), pc_red_at(a, acc, mine_first), mine_n);
    }
    int wrc = PMPI_Waitall(n, send, MPI_STATUSES_IGNORE); /* acc's other parts are free again (the root's buffer) */
    if (rc == MPI_SUCCESS) rc = wrc;
    if (c->rank != a->root && mine_n && rc == MPI_SUCCESS)
        rc = pc_red_send(a, pc_red_at(a, acc, mine_first), mine_n, a->root, PC_TAG_REDUCE_GATHER);
    return rc;
}

/* The root: the other owners' finished parts, straight into its buffer. */
static int gather_parts(const pc_call_t *a, MPI_Request *recv)
{
    const pc_comm_t *c = a->ctx;
    int rc = MPI_SUCCESS;
    long first, n;
    for (int j = 0; j < c->nnodes && rc == MPI_SUCCESS; j++) {
        pc_reduce_node_part(a, j, &first, &n);
        if (j != c->my_node && n)
            rc = PMPI_Irecv(pc_red_at(a, a->recvbuf, first), (int)n, a->datatype, pc_node_mailbox(c, a->root, j),
                            PC_TAG_REDUCE_GATHER, c->comm, &recv[j]);
    }
    int wrc = PMPI_Waitall(c->nnodes, recv, MPI_STATUSES_IGNORE);
    return rc == MPI_SUCCESS ? wrc : rc;
}

int pc_reduce_two_level_scatter_gather(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int n = c->nnodes, leader = pc_node_mailbox(c, a->root, c->my_node), is_leader = c->rank == leader, rc;
    pc_tree_t star;
    char *acc = NULL, *in = NULL;
    void *acc_base = NULL, *in_base = NULL;
    MPI_Request *req = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    if (is_leader) {
        long mine_first, mine_n;
        pc_reduce_node_part(a, c->my_node, &mine_first, &mine_n);
        if (n > 1) pc_phase_mark_leader();
        acc = c->rank == a->root ? a->recvbuf : pc_red_alloc(a, a->count, &acc_base);
        in = pc_red_alloc(a, (long)n * mine_n, &in_base);
        req = malloc(2 * (size_t)n * sizeof *req);
        if (!acc || !in || !req) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        for (int j = 0; j < 2 * n; j++) req[j] = MPI_REQUEST_NULL;
        /* the other nodes' parts may land while my node's members arrive */
        rc = MPI_SUCCESS;
        for (int j = 0; j < n && mine_n && rc == MPI_SUCCESS; j++)
            if (j != c->my_node)
                rc = PMPI_Irecv(pc_red_at(a, in, (long)j * mine_n), (int)mine_n, a->datatype,
                                pc_node_mailbox(c, a->root, j), PC_TAG_REDUCE_SCATTER, c->comm, &req[j]);
        if (rc != MPI_SUCCESS) goto out;
    }
    if (pc_reduce_node_star(&star, c, leader, 0)) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = pc_tree_reduce(a, a->sendbuf, acc, a->count, pc_reduce_segment_count(a), &star, (int)a->params->max_inflight,
                        PC_TAG_REDUCE_DATA);
    pc_tree_free(&star);
    /* even after an error in the node step: the other leaders and the root must not hang */
    if (is_leader) {
        int erc = exchange_parts(a, acc, in, req, req + n);
        if (rc == MPI_SUCCESS) rc = erc;
        if (c->rank == a->root && erc == MPI_SUCCESS) {
            int grc = gather_parts(a, req);
            if (rc == MPI_SUCCESS) rc = grc;
        }
    }
out:
    for (int j = 0; req && j < 2 * n; j++) /* after an error only: a part that never came */
        if (req[j] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&req[j]);
            PMPI_Request_free(&req[j]);
        }
    free(req);
    free(acc_base);
    free(in_base);
    return rc;
}
