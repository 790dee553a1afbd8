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
#include "reduce_scatter/reduce_scatter.h"
#include "coll/entry.h"
#include "node/node_reduce.h"

#include <stdlib.h>

typedef struct {
    long *first;        /* [p + 1]: blocks in rank order (the caller's vector) */
    long *node_pos;     /* [p]: where rank i's block starts in node order */
    long *share;        /* [nnodes + 1]: node k's share in node order */
    int *counts;        /* [nnodes]: the leaders' counts of one chunk */
    void *ordered, *ordered_base; /* my input in node order */
    void *mine, *mine_base;       /* a leader's share of one chunk */
} hier_t;

static void hier_free(hier_t *h)
{
    free(h->first);
    free(h->node_pos);
    free(h->share);
    free(h->counts);
    free(h->ordered_base);
    free(h->mine_base);
}

/* The node-ordered layout and my input copied into it. */
static int hier_begin(const pc_call_t *a, hier_t *h)
{
    const pc_comm_t *c = a->ctx;
    h->first = pc_rs_offsets(a);
    h->node_pos = malloc((size_t)c->size * sizeof *h->node_pos);
    h->share = malloc((size_t)(c->nnodes + 1) * sizeof *h->share);
    h->counts = malloc((size_t)c->nnodes * sizeof *h->counts);
    h->ordered = pc_red_alloc(a, a->count, &h->ordered_base);
    if (!h->first || !h->node_pos || !h->share || !h->counts || !h->ordered) return MPI_ERR_NO_MEM;
    long pos = 0;
    int rc = MPI_SUCCESS;
    for (int k = 0; k < c->nnodes; k++) {
        h->share[k] = pos;
        for (int j = c->node_first[k]; j < c->node_first[k + 1] && rc == MPI_SUCCESS; j++) {
            int r = c->node_members[j];
            h->node_pos[r] = pos;
            rc = pc_red_copy(a, pc_red_at(a, h->ordered, pos), pc_red_at(a, a->sendbuf, h->first[r]),
                             pc_rs_count(a, r));
            pos += pc_rs_count(a, r);
        }
    }
    h->share[c->nnodes] = pos;
    return rc;
}

/* Elements of [lo, hi) inside [from, to). */
static long overlap(long lo, long hi, long from, long to)
{
    long a = lo > from ? lo : from, b = hi < to ? hi : to;
    return b > a ? b - a : 0;
}

/* A leader: the reduce_scatter of the chunk among leaders; my node's part
 * goes back into slot 0 where it lies in the chunk. */
static int leaders_exchange(const pc_call_t *a, hier_t *h, pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    const pc_comm_t *c = a->ctx;
    long lo = ch->first, hi = ch->first + ch->count;
    for (int k = 0; k < c->nnodes; k++) h->counts[k] = (int)overlap(lo, hi, h->share[k], h->share[k + 1]);
    char *node_result = pc_node_red_slot(r, ch, 0);
    pc_call_t chunk = pc_node_red_chunk_call(r, ch);
    chunk.vform = 1;
    chunk.recvcounts = h->counts;
    chunk.sendbuf = node_result;
    chunk.recvbuf = h->mine;
    chunk.inplace = 0;
    int rc = pc_coll_call_on(&chunk, a->params->reduce_scatter.inter, c->leaders);
    long at = h->share[c->my_node] > lo ? h->share[c->my_node] - lo : 0;
    if (rc == MPI_SUCCESS && h->counts[c->my_node] > 0)
        rc = pc_red_copy(a, pc_red_at(a, node_result, at), h->mine, h->counts[c->my_node]);
    return rc;
}

int pc_reduce_scatter_hier(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    hier_t h = {0};
    int rc = hier_begin(a, &h);
    pc_node_red_t r;
    if (rc != MPI_SUCCESS || !pc_node_red_open(a, PC_NODE_RED_SLOTS, "hier", a->params->reduce_scatter.inter, &r, &rc)) {
        hier_free(&h);
        return rc;
    }
    int is_leader = c->node_rank == 0;
    if (is_leader) h.mine = pc_red_alloc(a, r.chunk, &h.mine_base);
    if (is_leader && !h.mine) rc = MPI_ERR_NO_MEM; /* the loop still runs: the node must not hang */
    long my_lo = h.node_pos[c->rank], my_hi = my_lo + pc_rs_count(a, c->rank);
    for (long k = 0; k < r.nchunks; k++) {
        pc_node_chunk_t ch;
        pc_node_red_chunk(&r, k, &ch);
        int crc = pc_node_red_reduce_slots(&r, &ch, h.ordered); /* slot 0 holds the node's sum of the chunk */
        if (is_leader) {
            int lrc = rc == MPI_SUCCESS ? leaders_exchange(a, &h, &r, &ch) : rc;
            pc_node_red_publish(&r, &ch); /* even after an error: the node must not hang */
            if (crc == MPI_SUCCESS) crc = lrc;
        } else {
            pc_node_red_wait_result(&r, &ch);
        }
        long lo = ch.first > my_lo ? ch.first : my_lo, hi = ch.first + ch.count < my_hi ? ch.first + ch.count : my_hi;
        if (hi > lo && crc == MPI_SUCCESS)
            crc = pc_red_copy(a, pc_red_at(a, a->recvbuf, lo - my_lo), pc_red_at(a, pc_node_red_slot(&r, &ch, 0), lo - ch.first),
                              hi - lo);
        pc_node_red_done(&r, &ch);
        if (rc == MPI_SUCCESS) rc = crc;
    }
    pc_node_red_end(&r);
    hier_free(&h);
    return rc;
}
