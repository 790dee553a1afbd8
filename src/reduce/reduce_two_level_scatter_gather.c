/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * two_level_scatter_gather - two_level's node step, then a direct
 * reduce-scatter and gather among the node leaders, so that the root
 * receives about one vector.  Every process that does not lead its node
 * sends its contribution to its node's leader (pc_node_mailbox: the root on
 * its own node, the node's lowest rank elsewhere) and leaves.  The message
 * is cut into K parts, one per owner node (PAPCOLL_REDUCE_PART_OWNERS: K of
 * the N nodes, the root's first; default every node); every leader sends
 * part o of its node's result to owner o's leader, for every other owner, all
 * at once; an owner combines the N - 1 parts it receives with its own and
 * sends the finished part to the root, which receives the K - 1 other parts
 * straight into its buffer.  A leader that owns nothing leaves once its parts
 * are sent.
 *
 *   node step:  r1 r2 r3 --> r0 (root)       r5 r6 r7 --> r4    members leave
 *   scatter:    r0 -part 1-> r4,  r4 -part 0-> r0                (K - 1 or K parts each, at once)
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
 * Cost (Hockney, balanced, every node an owner, m bytes, N nodes of q processes, gamma per byte
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
 * Fewer owners (K < N) trade the root's time for e_bar: N - K leaders leave
 * after sending, but an owner receives N - 1 parts of m/K.  SIMULATED
 * (cluster:16x16, 256 ranks, 16 KiB; docs/performance.md): K = 16: e_bar
 * 2.32 us, root 63.9 us; K = 8: 1.38, 52.9; K = 4: 1.12, 64.9; K = 2: 0.88,
 * 79.1 (two_level: 1.24, 96.8); from parts of about 8 KiB every node should
 * own one.  Those gains come from SimGrid's message-size model (every
 * node's parts, 1 KiB here, fall in its slow bands): with a flat model fewer
 * owners only delay the root (K = 8: e_bar 0.86, root 32.6 us; every node:
 * 0.97, 25.5), so every node is the default.
 * Memory: a leader holds an accumulator of count elements (the root's is
 * its receive buffer), an owner room for the other nodes' parts of its index
 * (N slots of about count / K elements): about 2 count with every node an
 * owner, (1 + N / K) count with fewer.
 * Parameters: PAPCOLL_REDUCE_SEGSIZE and PAPCOLL_MAX_INFLIGHT (the node
 * step), PAPCOLL_REDUCE_PART_OWNERS.
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

/* The part owners (PAPCOLL_REDUCE_PART_OWNERS, k of the n nodes): owner o
 * is node (root's node + o) mod n and holds part o of k (pc_reduce_part),
 * so the root's node owns part 0 and never sends it.  mine: this node's
 * owner index, -1 when it owns no part; [mine_first, mine_first + mine_n)
 * its part's elements (mine_n 0 then). */
typedef struct {
    int k, n, root_node, mine;
    long mine_first, mine_n;
} owners_t;

static owners_t owners_of(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    long k = a->params->reduce.part_owners;
    owners_t w = {k > 0 && k < c->nnodes ? (int)k : c->nnodes, c->nnodes, c->node_of[a->root], -1, 0, 0};
    int o = (c->my_node - w.root_node + w.n) % w.n;
    if (o < w.k) {
        w.mine = o;
        pc_reduce_part(a, w.k, o, &w.mine_first, &w.mine_n);
    }
    return w;
}

static int owner_node(const owners_t *w, int o) { return (w->root_node + o) % w->n; }

/* Leaders: send part o of acc to owner o's leader for every other owner o,
 * and, an owner, combine the parts of its index that the other nodes send
 * (posted in `in`, one slot of its part's length per node) in node order and
 * send the finished part to the root.  recv and send hold n requests each. */
static int exchange_parts(const pc_call_t *a, const owners_t *w, char *acc, char *in, MPI_Request *recv,
                          MPI_Request *send)
{
    const pc_comm_t *c = a->ctx;
    int me = c->my_node, rc = MPI_SUCCESS;
    long first, count, mine_first = w->mine_first, mine_n = w->mine_n;

    /* starting after my own index (owners) or at my node's (the others): no common first target */
    int start = w->mine >= 0 ? w->mine : me % w->k;
    for (int t = w->mine >= 0 ? 1 : 0; t < w->k && rc == MPI_SUCCESS; t++) {
        int o = (start + t) % w->k;
        pc_reduce_part(a, w->k, o, &first, &count);
        if (count)
            rc = PMPI_Isend(pc_red_at(a, acc, first), (int)count, a->datatype,
                            pc_node_mailbox(c, a->root, owner_node(w, o)), PC_TAG_REDUCE_SCATTER, c->comm, &send[o]);
    }
    for (int j = 0; j < w->n && mine_n && rc == MPI_SUCCESS; j++) {
        if (j == me) continue;
        rc = PMPI_Wait(&recv[j], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = pc_red_local(a, pc_red_at(a, in, (long)j * mine_n), pc_red_at(a, acc, mine_first), mine_n);
    }
    int wrc = PMPI_Waitall(w->k, send, MPI_STATUSES_IGNORE); /* acc's other parts are free again (the root's buffer) */
    if (rc == MPI_SUCCESS) rc = wrc;
    if (c->rank != a->root && mine_n && rc == MPI_SUCCESS)
        rc = pc_red_send(a, pc_red_at(a, acc, mine_first), mine_n, a->root, PC_TAG_REDUCE_GATHER);
    return rc;
}

/* The root: the other owners' finished parts, straight into its buffer. */
static int gather_parts(const pc_call_t *a, const owners_t *w, MPI_Request *recv)
{
    const pc_comm_t *c = a->ctx;
    int rc = MPI_SUCCESS;
    long first, n;
    for (int o = 1; o < w->k && rc == MPI_SUCCESS; o++) {
        pc_reduce_part(a, w->k, o, &first, &n);
        if (n)
            rc = PMPI_Irecv(pc_red_at(a, a->recvbuf, first), (int)n, a->datatype,
                            pc_node_mailbox(c, a->root, owner_node(w, o)), PC_TAG_REDUCE_GATHER, c->comm, &recv[o]);
    }
    int wrc = PMPI_Waitall(w->k, recv, MPI_STATUSES_IGNORE);
    return rc == MPI_SUCCESS ? wrc : rc;
}

int pc_reduce_two_level_scatter_gather(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int n = c->nnodes, leader = pc_node_mailbox(c, a->root, c->my_node), is_leader = c->rank == leader, rc;
    owners_t w = owners_of(a);
    pc_tree_t star;
    char *acc = NULL, *in = NULL;
    void *acc_base = NULL, *in_base = NULL;
    MPI_Request *req = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    if (is_leader) {
        long mine_n = w.mine_n;
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
        int erc = exchange_parts(a, &w, acc, in, req, req + n);
        if (rc == MPI_SUCCESS) rc = erc;
        if (c->rank == a->root && erc == MPI_SUCCESS) {
            int grc = gather_parts(a, &w, req);
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
