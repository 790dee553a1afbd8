/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the universal hierarchical reduce_scatter: the node reduces the
 * whole vector in shared memory, each process combining a 1/ppn slice of
 * every round across its node's copies (the node's share of the reduction
 * work done in parallel during copy-in), the node leaders run any flat
 * reduce_scatter on the node results, each leader receiving its node's
 * share, and every process copies its own block out of shared memory.
 *
 *   blocks in node order (node A = ranks 0 2, node B = ranks 1 3):
 *     [b0 b2 | b1 b3]       each process copies its input in that order
 *     node A slots -> slot 0 = x0 op x2 (slices in parallel), node B likewise
 *     leaders: reduce_scatter of the round, A gets [b0 b2], B gets [b1 b3]
 *     rank 2 copies b2 out of node A's slot 0
 *
 * Node order makes each node's share one contiguous range, so the leaders'
 * reduce_scatter moves whole node shares and ranks may sit on nodes in any
 * pattern.  The vector goes through the node reduction area (node/
 * node_reduce.h, slots layout, PAPCOLL_SHM_SIZE) in rounds that each fit a
 * chunk of it: round k holds the k-th piece of every node's share
 * (ceil(share / rounds) elements), so the leaders' collective of every round
 * spreads over every node.  (Contiguous chunks of the node-ordered vector
 * would each hold the shares of a few nodes, and each chunk's exchange would
 * converge on them, one group after the other: at 512 simulated ranks,
 * 2 MiB, that made hier 16.9 ms against flat pairwise's 14.7.)  When the
 * nodes outnumber a chunk's elements, the rounds are contiguous chunks.
 * Cost (Hockney, m bytes in all, N nodes of q processes, gamma per byte
 * reduced, mu per byte copied): a local reordering copy m mu, copy-in m mu,
 * the slice reduction (q - 1)(m / q) gamma, two node barriers per round,
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
 * Source: Parsons 2015 §2.3.1 (reduce-scatter in the universal
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
    free(n->width);
    free(n->part_at);
    free(n->part_len);
    free(n->part_lo);
    free(n->ordered_base);
}

/* The node shares: node k's ranks' blocks in node-rank order. */
static int node_order(const pc_call_t *a, pc_rs_node_t *n)
{
    const pc_comm_t *c = a->ctx;
    size_t N = (size_t)c->nnodes;
    n->a = a;
    n->first = pc_rs_offsets(a);
    n->node_pos = malloc((size_t)c->size * sizeof *n->node_pos);
    n->share = malloc((N + 1) * sizeof *n->share);
    n->width = malloc(N * sizeof *n->width);
    n->part_at = malloc(N * sizeof *n->part_at);
    n->part_len = malloc(N * sizeof *n->part_len);
    n->part_lo = malloc(N * sizeof *n->part_lo);
    n->ordered = pc_red_alloc(a, a->count, &n->ordered_base);
    if (!n->first || !n->node_pos || !n->share || !n->width || !n->part_at || !n->part_len || !n->part_lo ||
        !n->ordered)
        return MPI_ERR_NO_MEM;
    long pos = 0;
    for (int k = 0; k < c->nnodes; k++) {
        n->share[k] = pos;
        for (int j = c->node_first[k]; j < c->node_first[k + 1]; j++) {
            int r = c->node_members[j];
            n->node_pos[r] = pos - n->share[k];
            pos += pc_rs_count(a, r);
        }
    }
    n->share[c->nnodes] = pos;
    return MPI_SUCCESS;
}

static long share_of(const pc_rs_node_t *n, int k) { return n->share[k + 1] - n->share[k]; }

/* Node k's piece of round `round`: [*lo, *lo + return) of its share. */
static long piece(const pc_rs_node_t *n, long round, int k, long *lo)
{
    long from = round * n->width[k], left = share_of(n, k) - from;
    *lo = from;
    return left <= 0 ? 0 : left < n->width[k] ? left : n->width[k];
}

/* Node k's width, ceil(share / rounds), for every node; returns their sum. */
static long set_widths(pc_rs_node_t *n)
{
    long total = 0;
    for (int k = 0; k < n->a->ctx->nnodes; k++) {
        n->width[k] = (share_of(n, k) + n->rounds - 1) / n->rounds;
        total += n->width[k];
    }
    return total;
}

/* The rounds (every node process, and every node, computes the same):
 * R = ceil(m / chunk) when the pieces, ceil(share / R) per node, fit one
 * chunk of the area, else ceil(m / (chunk - nodes)), which always fits
 * (the pieces add up to at most m / R + nodes).  When the nodes outnumber a
 * chunk's elements, each round is one chunk-sized range of the node-ordered
 * vector instead (width -1: a node's piece is its share's overlap with it). */
static void plan_rounds(pc_rs_node_t *n)
{
    const pc_comm_t *c = n->a->ctx;
    long m = n->share[c->nnodes], C = n->r.chunk, N = c->nnodes;
    n->rounds = (m + C - 1) / C;
    if (C <= N || m == 0) {
        for (int k = 0; k < c->nnodes; k++) n->width[k] = -1; /* contiguous rounds of C elements */
        return;
    }
    if (set_widths(n) > C) {
        n->rounds = (m + (C - N) - 1) / (C - N); /* sum of ceil(s_k / R) <= m / R + N <= C */
        set_widths(n);
    }
}

/* Round `round`: its pieces (part_lo, part_at, part_len) and its place in
 * the ordered vector; called for rounds 0, 1, ... in order. */
static void round_layout(pc_rs_node_t *n, long round)
{
    const pc_comm_t *c = n->a->ctx;
    long at = 0, C = n->r.chunk;
    for (int k = 0; k < c->nnodes; k++) {
        long lo, len;
        if (n->width[k] >= 0) {
            len = piece(n, round, k, &lo);
        } else {
            long from = round * C > n->share[k] ? round * C : n->share[k];
            long to = (round + 1) * C < n->share[k + 1] ? (round + 1) * C : n->share[k + 1];
            lo = from - n->share[k];
            len = to > from ? to - from : 0;
        }
        n->part_lo[k] = lo;
        n->part_at[k] = at;
        n->part_len[k] = len;
        at += len;
    }
    n->round_first = round == 0 ? 0 : n->round_first + n->round_count;
    n->round_count = at;
}

/* Copies share elements [lo, lo + len) of node k from my input (its ranks'
 * blocks) to dst. */
static int copy_share_in(pc_rs_node_t *n, int k, long lo, long len, void *dst)
{
    const pc_call_t *a = n->a;
    const pc_comm_t *c = a->ctx;
    int rc = MPI_SUCCESS;
    for (int j = c->node_first[k]; j < c->node_first[k + 1] && len > 0 && rc == MPI_SUCCESS; j++) {
        int r = c->node_members[j];
        long b0 = n->node_pos[r], b1 = b0 + pc_rs_count(a, r);
        long x0 = lo > b0 ? lo : b0, x1 = lo + len < b1 ? lo + len : b1;
        if (x1 > x0)
            rc = pc_red_copy(a, pc_red_at(a, dst, x0 - lo), pc_red_at(a, a->sendbuf, n->first[r] + x0 - b0), x1 - x0);
    }
    return rc;
}

/* My input in round order: round by round, node by node, each node's piece. */
static int fill_ordered(pc_rs_node_t *n)
{
    const pc_call_t *a = n->a;
    int rc = MPI_SUCCESS;
    for (long round = 0; round < n->rounds && rc == MPI_SUCCESS; round++) {
        round_layout(n, round);
        for (int k = 0; k < a->ctx->nnodes && rc == MPI_SUCCESS; k++)
            rc = copy_share_in(n, k, n->part_lo[k], n->part_len[k],
                               pc_red_at(a, n->ordered, n->round_first + n->part_at[k]));
    }
    return rc;
}

long pc_rs_node_part(const pc_rs_node_t *n, int k, long *at)
{
    if (at) *at = n->part_at[k];
    return n->part_len[k];
}

/* The node step (reduce_scatter_hier.h), shared with multisender: the
 * rounds, then per round the node's reduction, the algorithm's exchange,
 * publication by node rank 0 and the copy-out of my block's part. */
int pc_rs_node_run(const pc_call_t *a, const char *algorithm, pc_rs_node_exchange_fn exchange, void *arg)
{
    const pc_comm_t *c = a->ctx;
    pc_rs_node_t n = {0};
    int rc = node_order(a, &n);
    if (rc != MPI_SUCCESS || !pc_node_red_open(a, PC_NODE_RED_SLOTS, algorithm, a->params->reduce_scatter.inter, &n.r, &rc)) {
        node_free(&n);
        return rc;
    }
    plan_rounds(&n);
    rc = fill_ordered(&n); /* (on failure the rounds still run: the node must not hang) */
    long my_lo = n.node_pos[c->rank], my_hi = my_lo + pc_rs_count(a, c->rank);
    for (long k = 0; k < n.rounds; k++) {
        pc_node_chunk_t ch;
        round_layout(&n, k);
        pc_node_red_range(&n.r, n.round_first, n.round_count, &ch);
        int crc = pc_node_red_reduce_slots(&n.r, &ch, n.ordered); /* slot 0 holds the node's sum of the round */
        int xrc = exchange(&n, &ch, rc, arg);
        if (c->node_rank == 0) pc_node_red_publish(&n.r, &ch); /* even after an error: the node must not hang */
        else pc_node_red_wait_result(&n.r, &ch);
        if (crc == MPI_SUCCESS) crc = xrc;
        long lo = n.part_lo[c->my_node], len = n.part_len[c->my_node];
        long x0 = lo > my_lo ? lo : my_lo, x1 = lo + len < my_hi ? lo + len : my_hi;
        if (x1 > x0 && crc == MPI_SUCCESS)
            crc = pc_red_copy(a, pc_red_at(a, a->recvbuf, x0 - my_lo),
                              pc_red_at(a, pc_node_red_slot(&n.r, &ch, 0), n.part_at[c->my_node] + x0 - lo), x1 - x0);
        pc_node_red_done(&n.r, &ch);
        if (rc == MPI_SUCCESS) rc = crc;
    }
    pc_node_red_end(&n.r);
    node_free(&n);
    return rc;
}

/* hier's exchange: the leaders' counts of one round and a leader's share of it. */
typedef struct {
    int *counts;        /* [nnodes] */
    void *mine, *mine_base;
} leaders_t;

/* A leader: the reduce_scatter of the round among leaders; my node's part
 * goes back into slot 0 where it lies in the round. */
static int leaders_exchange(pc_rs_node_t *n, const pc_node_chunk_t *ch, int earlier_rc, void *arg)
{
    const pc_call_t *a = n->a;
    const pc_comm_t *c = a->ctx;
    leaders_t *l = arg;
    if (c->node_rank != 0) return MPI_SUCCESS;
    if (earlier_rc != MPI_SUCCESS) return earlier_rc;
    if (!l->mine) l->mine = pc_red_alloc(a, n->r.chunk, &l->mine_base);
    if (!l->mine) return MPI_ERR_NO_MEM;
    for (int k = 0; k < c->nnodes; k++) l->counts[k] = (int)pc_rs_node_part(n, k, NULL);
    char *node_result = pc_node_red_slot(&n->r, ch, 0);
    pc_call_t chunk = pc_node_red_chunk_call(&n->r, ch);
    chunk.vform = 1;
    chunk.recvcounts = l->counts;
    chunk.sendbuf = node_result;
    chunk.recvbuf = l->mine;
    chunk.inplace = 0;
    int rc = pc_coll_call_on(&chunk, a->params->reduce_scatter.inter, c->leaders);
    long at;
    long mine = pc_rs_node_part(n, c->my_node, &at);
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
