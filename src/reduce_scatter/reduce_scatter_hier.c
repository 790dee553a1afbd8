/*
 * hier - the universal hierarchical reduce_scatter: the node reduces the
 * whole vector in shared memory, each process combining a 1/ppn slice of
 * every chunk across its node's copies (the node's share of the reduction
 * work done in parallel during copy-in), the node leaders run any flat
 * reduce_scatter on the node results, each leader receiving its node's
 * share, and every process copies its own block out of shared memory.
 *
 *   blocks in node order (node A = ranks 0 2, node B = ranks 1 3):
 *     [b0 b2 | b1 b3]       each process copies its input in that order
 *     node A slots -> slot 0 = x0 op x2 (slices in parallel), node B likewise
 *     leaders: reduce_scatter of the chunk, A gets [b0 b2], B gets [b1 b3]
 *     rank 2 copies b2 out of node A's slot 0
 *
 * Node order makes each node's share one contiguous range, so the leaders'
 * reduce_scatter moves whole node shares and ranks may sit on nodes in any
 * pattern.  The vector goes through the node reduction area in chunks of
 * whole elements (node/node_reduce.h, slots layout, PAPCOLL_SHM_SIZE); the
 * leaders' collective runs once per chunk, with each node's part of it.
 * Cost (Hockney, m bytes in all, N nodes of q processes, gamma per byte
 * reduced, mu per byte copied): a local reordering copy m mu, copy-in m mu,
 * the slice reduction (q - 1)(m / q) gamma, two node barriers per chunk,
 * the inter-node reduce_scatter on N leaders (pairwise: (N - 1) alpha +
 * (N - 1)/N m (beta + gamma)), then the copy-out of my block.
 * Late arrival: the barriers wait for the whole node, and the leaders'
 * collective for every node: after the last arrival, its node's copy-in and
 * slice reduction plus the whole inter-node reduce_scatter.
 * Order: node ranks within a node, then the inter-node algorithm's order:
 * commutative ops only.
 * Limitations: a datatype whose single element does not fit a slot runs
 * PAPCOLL_REDUCE_SCATTER_INTER over the whole communicator (logged).
 * Parameters: PAPCOLL_REDUCE_SCATTER_INTER (default auto), PAPCOLL_SHM_SIZE;
 * under SMPI PAPCOLL_SIM_MEMBW.
 * Source: seed 001 section 2.3.1 (reduce-scatter in the universal
 * hierarchical algorithm: "the node reduces its share in parallel during
 * copy-in").
 */
#include "reduce_scatter/reduce_scatter_hier.h"
#include "coll/entry.h"

#include <stdlib.h>

static void node_free(pc_rs_node_t *n)
{
    free(n->first);
    free(n->node_pos);
    free(n->share);
    free(n->ordered_base);
}

/* The node-ordered layout and my input copied into it. */
static int node_order(const pc_call_t *a, pc_rs_node_t *n)
{
    const pc_comm_t *c = a->ctx;
    n->a = a;
    n->first = pc_rs_offsets(a);
    n->node_pos = malloc((size_t)c->size * sizeof *n->node_pos);
    n->share = malloc((size_t)(c->nnodes + 1) * sizeof *n->share);
    n->ordered = pc_red_alloc(a, a->count, &n->ordered_base);
    if (!n->first || !n->node_pos || !n->share || !n->ordered) return MPI_ERR_NO_MEM;
    long pos = 0;
    int rc = MPI_SUCCESS;
    for (int k = 0; k < c->nnodes; k++) {
        n->share[k] = pos;
        for (int j = c->node_first[k]; j < c->node_first[k + 1] && rc == MPI_SUCCESS; j++) {
            int r = c->node_members[j];
            n->node_pos[r] = pos;
            rc = pc_red_copy(a, pc_red_at(a, n->ordered, pos), pc_red_at(a, a->sendbuf, n->first[r]),
                             pc_rs_count(a, r));
            pos += pc_rs_count(a, r);
        }
    }
    n->share[c->nnodes] = pos;
    return rc;
}

long pc_rs_node_part(const pc_rs_node_t *n, const pc_node_chunk_t *ch, int k, long *at)
{
    long lo = ch->first, hi = ch->first + ch->count;
    long from = n->share[k] > lo ? n->share[k] : lo, to = n->share[k + 1] < hi ? n->share[k + 1] : hi;
    if (at) *at = from - lo;
    return to > from ? to - from : 0;
}

/* The node step (reduce_scatter_hier.h), shared with multisender: node
 * order, then per chunk the node's reduction, the algorithm's exchange,
 * publication by node rank 0 and the copy-out of my block. */
int pc_rs_node_run(const pc_call_t *a, const char *algorithm, pc_rs_node_exchange_fn exchange, void *arg)
{
    const pc_comm_t *c = a->ctx;
    pc_rs_node_t n = {0};
    int rc = node_order(a, &n);
    if (rc != MPI_SUCCESS || !pc_node_red_open(a, PC_NODE_RED_SLOTS, algorithm, a->params->reduce_scatter.inter, &n.r, &rc)) {
        node_free(&n);
        return rc;
    }
    long my_lo = n.node_pos[c->rank], my_hi = my_lo + pc_rs_count(a, c->rank);
    for (long k = 0; k < n.r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&n.r, k, &ch);
        int crc = pc_node_red_reduce_slots(&n.r, &ch, n.ordered); /* slot 0 holds the node's sum of the chunk */
        int xrc = exchange(&n, &ch, rc, arg);
        if (c->node_rank == 0) pc_node_red_publish(&n.r, &ch); /* even after an error: the node must not hang */
        else pc_node_red_wait_result(&n.r, &ch);
        if (crc == MPI_SUCCESS) crc = xrc;
        long lo = ch.first > my_lo ? ch.first : my_lo, hi = ch.first + ch.count < my_hi ? ch.first + ch.count : my_hi;
        if (hi > lo && crc == MPI_SUCCESS)
            crc = pc_red_copy(a, pc_red_at(a, a->recvbuf, lo - my_lo), pc_red_at(a, pc_node_red_slot(&n.r, &ch, 0), lo - ch.first),
                              hi - lo);
        pc_node_red_done(&n.r, &ch);
        if (rc == MPI_SUCCESS) rc = crc;
    }
    pc_node_red_end(&n.r);
    node_free(&n);
    return rc;
}

/* hier's exchange: the leaders' counts of one chunk and a leader's share of it. */
typedef struct {
    int *counts;        /* [nnodes] */
    void *mine, *mine_base;
} leaders_t;

/* A leader: the reduce_scatter of the chunk among leaders; my node's part
 * goes back into slot 0 where it lies in the chunk. */
static int leaders_exchange(pc_rs_node_t *n, const pc_node_chunk_t *ch, int earlier_rc, void *arg)
{
    const pc_call_t *a = n->a;
    const pc_comm_t *c = a->ctx;
    leaders_t *l = arg;
    if (c->node_rank != 0) return MPI_SUCCESS;
    if (earlier_rc != MPI_SUCCESS) return earlier_rc;
    if (!l->mine) l->mine = pc_red_alloc(a, n->r.chunk, &l->mine_base);
    if (!l->mine) return MPI_ERR_NO_MEM;
    for (int k = 0; k < c->nnodes; k++) l->counts[k] = (int)pc_rs_node_part(n, ch, k, NULL);
    char *node_result = pc_node_red_slot(&n->r, ch, 0);
    pc_call_t chunk = pc_node_red_chunk_call(&n->r, ch);
    chunk.vform = 1;
    chunk.recvcounts = l->counts;
    chunk.sendbuf = node_result;
    chunk.recvbuf = l->mine;
    chunk.inplace = 0;
    int rc = pc_coll_call_on(&chunk, a->params->reduce_scatter.inter, c->leaders);
    long at;
    long mine = pc_rs_node_part(n, ch, c->my_node, &at);
    if (rc == MPI_SUCCESS && mine > 0) rc = pc_red_copy(a, pc_red_at(a, node_result, at), l->mine, mine);
    return rc;
}

int pc_reduce_scatter_hier(const pc_call_t *a)
{
    leaders_t l = {0};
    l.counts = malloc((size_t)a->ctx->nnodes * sizeof *l.counts);
    int rc = l.counts ? pc_rs_node_run(a, "hier", leaders_exchange, &l) : MPI_ERR_NO_MEM;
    free(l.counts);
    free(l.mine_base);
    return rc;
}
