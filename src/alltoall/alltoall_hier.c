/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the universal hierarchical alltoall(v): every process hands its
 * blocks to its node leader (node rank 0), packed by destination node; the
 * leader lays its node's blocks out node-contiguously (for destination node
 * k: every member's blocks for k's members), the leaders run any flat
 * alltoallv on these node-to-node blocks (PAPCOLL_ALLTOALL_INTER), and each
 * leader hands every member of its node the blocks for it.
 *
 *   nodes A = {0 2}, B = {1 3}; xy = block from x to y:
 *     copy-in   A's leader: 0 -> [01 03 | 00 02]  2 -> [21 23 | 20 22]
 *     layout    to B: [01 03 21 23]   to A: [00 02 20 22] (kept: own node)
 *     leaders   A <-> B: A gets [10 12 30 32]
 *     copy-out  0 <- [00 10 20 30]   2 <- [02 12 22 32]  (rank order)
 *
 * The v form (ExchangeCntData): a process knows only its own counts, so the
 * node's send and receive sizes (2 p per process) are gathered at the
 * leader first; they stay inside the node.  My own block (already in place)
 * never moves.  Copy-in and copy-out are point-to-point on the node
 * communicator (the MPI library's shared-memory path), in pieces of at most
 * PC_MAX_MSG, so nothing is limited by int counts there.
 * Cost (Hockney, m bytes sent by each process, N nodes of q processes, mu
 * per byte copied): copy-in q - 1 messages into the leader (q m bytes), 2 q
 * m mu of layout at the leader, the inter-node alltoallv on N leaders with
 * blocks of q^2 m/p bytes (isend: (N - 1) alpha + (N - 1)/N q m beta), then
 * q - 1 messages out; the v form adds a node gather of 16 p bytes per
 * process.  Against flat: (N - 1) instead of (p - 1) network latencies, as
 * in Parsons 2015 T_AlltoallHier = (p/ns - 1) alpha + (p - ns)/p n beta, but
 * every inter-node byte passes through one process per node.
 * Late arrival: a leader starts the inter-node exchange only when its whole
 * node is in, and its node's processes wait for it: one late process holds
 * up its node's traffic with every node, and every node waits for the last
 * node (alltoall's all-to-all dependence).  `aware` (Parsons 2015 §3.7.3) is the
 * answer to the first part.
 * Limitations: node-to-node blocks beyond INT_MAX bytes run the leaders'
 * exchange with isend (no int counts) instead of native or auto; in the v
 * form the leaders agree on that with a one-int allreduce among them unless
 * PAPCOLL_ALLTOALL_INTER names a non-native algorithm.  The leaders'
 * collective sees bytes=-1 (PC_BYTES_VARY) in the selection rules.
 * Parameters: PAPCOLL_ALLTOALL_INTER (default auto).
 * Source: Parsons 2015 §§2.3.1 (Fig. 2.1, ExchangeCntData) and the
 * alltoall of 2.3.1 (Fig. 2.2: node-contiguous packing by destination node).
 */
#include "alltoall/alltoall.h"
#include "core/log.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t *ssize, *rsize; /* leader: [q][p] bytes member j sends to / receives from rank r (0 for itself) */
    size_t *soff, *roff;     /* leader: [nnodes + 1] node k's part of the leaders' send / receive buffer */
    char *in;                /* my blocks, node order; leader: then every member's, [j][k][d] */
    char *send, *recv;       /* leader: the leaders' alltoall buffers, [k][j][d] and [k'][j'][d] */
    char *out;               /* my blocks from everyone, node order; leader: every member's, [d][k'][j'] */
    size_t *in_off, *out_off; /* leader: [q + 1] member j's part of in and out */
} hier_t;

static void hier_free(hier_t *h)
{
    free(h->ssize);
    free(h->rsize);
    free(h->soff);
    free(h->roff);
    free(h->in);
    free(h->send);
    free(h->recv);
    free(h->out);
    free(h->in_off);
    free(h->out_off);
}

static void *alloc(size_t bytes) { return malloc(bytes ? bytes : 1); }

/* My blocks for everyone but me, in node order (node_members). */
static size_t pack_mine(const pc_call_t *a, char *to)
{
    const pc_comm_t *c = a->ctx;
    size_t at = 0;
    for (int i = 0; i < c->size; i++) {
        int r = c->node_members[i];
        size_t len = r == c->rank ? 0 : pc_blocks_span(&a->sblocks, r, r);
        if (to) memcpy(to + at, pc_blocks_at(&a->sblocks, r), len);
        at += len;
    }
    return at;
}

/* The leader's sizes: gathered (the v form) or known (every block one size). */
static int exchange_counts(const pc_call_t *a, hier_t *h)
{
    const pc_comm_t *c = a->ctx;
    int p = c->size, q = c->node_size, leader = c->node_rank == 0;
    if (!a->vform) {
        uint64_t b = pc_blocks_span(&a->sblocks, 0, 0);
        for (int j = 0; leader && j < q; j++)
            for (int r = 0; r < p; r++) {
                int self = r == c->node_members[c->node_first[c->my_node] + j];
                h->ssize[(size_t)j * p + r] = h->rsize[(size_t)j * p + r] = self ? 0 : b;
            }
        return MPI_SUCCESS;
    }
    uint64_t *mine = malloc(2 * (size_t)p * sizeof *mine), *all = NULL;
    if (!mine) return MPI_ERR_NO_MEM;
    for (int r = 0; r < p; r++) {
        mine[r] = r == c->rank ? 0 : pc_blocks_span(&a->sblocks, r, r);
        mine[p + r] = r == c->rank ? 0 : pc_blocks_span(&a->rblocks, r, r);
    }
    if (leader && !(all = malloc(2 * (size_t)p * (size_t)q * sizeof *all))) {
        free(mine);
        return MPI_ERR_NO_MEM; /* (the node then hangs in the gather: out of memory is fatal anyway) */
    }
    int rc = PMPI_Gather(mine, 2 * p, MPI_UINT64_T, all, 2 * p, MPI_UINT64_T, 0, c->node);
    for (int j = 0; leader && j < q; j++) {
        memcpy(h->ssize + (size_t)j * p, all + 2 * (size_t)j * p, (size_t)p * sizeof *all);
        memcpy(h->rsize + (size_t)j * p, all + 2 * (size_t)j * p + p, (size_t)p * sizeof *all);
    }
    free(mine);
    free(all);
    return rc;
}

/* Leader: receives every member's blocks into h->in (after its own). */
static int gather_in(const pc_call_t *a, hier_t *h)
{
    const pc_comm_t *c = a->ctx;
    int q = c->node_size, nreq = 0, npieces = 0, rc = MPI_SUCCESS;
    for (int j = 1; j < q; j++) npieces += pc_alltoall_pieces(h->in_off[j + 1] - h->in_off[j]);
    MPI_Request *req = malloc(((size_t)npieces + 1) * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    for (int j = 1; j < q && rc == MPI_SUCCESS; j++)
        rc = pc_alltoall_post(0, h->in + h->in_off[j], h->in_off[j + 1] - h->in_off[j], j, PC_TAG_ALLTOALL_NODE_IN,
                              c->node, req, &nreq);
    int wrc = pc_waitall(nreq, req, MPI_STATUSES_IGNORE);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* Leader: h->in ([j][k][d]) -> h->send ([k][j][d]), node k's part at soff[k]. */
static void lay_out_send(const pc_comm_t *c, hier_t *h, size_t *cursor)
{
    int p = c->size, q = c->node_size;
    size_t at = 0;
    for (int j = 0; j < q; j++) cursor[j] = h->in_off[j];
    for (int k = 0; k < c->nnodes; k++) {
        h->soff[k] = at;
        for (int j = 0; j < q; j++) {
            size_t len = 0;
            for (int i = c->node_first[k]; i < c->node_first[k + 1]; i++) len += h->ssize[(size_t)j * p + c->node_members[i]];
            memcpy(h->send + at, h->in + cursor[j], len);
            cursor[j] += len;
            at += len;
        }
    }
    h->soff[c->nnodes] = at;
}

/* Leader: the receive layout, node k' sends [j' of k'][d of mine]. */
static void lay_out_recv(const pc_comm_t *c, hier_t *h)
{
    int p = c->size, q = c->node_size;
    size_t at = 0;
    for (int k = 0; k < c->nnodes; k++) {
        h->roff[k] = at;
        for (int i = c->node_first[k]; i < c->node_first[k + 1]; i++)
            for (int d = 0; d < q; d++) at += h->rsize[(size_t)d * p + c->node_members[i]];
    }
    h->roff[c->nnodes] = at;
    for (int d = 0; d < q; d++) { /* member d's part of out: its blocks from everyone */
        size_t len = 0;
        for (int r = 0; r < p; r++) len += h->rsize[(size_t)d * p + r];
        h->out_off[d + 1] = h->out_off[d] + len;
    }
}

/* Leader: h->recv ([k'][j'][d]) -> h->out ([d][k'][j']). */
static void lay_out_out(const pc_comm_t *c, hier_t *h, size_t *cursor)
{
    int p = c->size, q = c->node_size;
    size_t at = 0;
    for (int d = 0; d < q; d++) cursor[d] = h->out_off[d];
    for (int i = 0; i < p; i++) {
        int r = c->node_members[i];
        for (int d = 0; d < q; d++) {
            size_t len = h->rsize[(size_t)d * p + r];
            memcpy(h->out + cursor[d], h->recv + at, len);
            cursor[d] += len;
            at += len;
        }
    }
}

/* Leader: every member's blocks out of h->out. */
static int scatter_out(const pc_call_t *a, hier_t *h)
{
    const pc_comm_t *c = a->ctx;
    int q = c->node_size, nreq = 0, npieces = 0, rc = MPI_SUCCESS;
    for (int d = 1; d < q; d++) npieces += pc_alltoall_pieces(h->out_off[d + 1] - h->out_off[d]);
    MPI_Request *req = malloc(((size_t)npieces + 1) * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    for (int d = 1; d < q && rc == MPI_SUCCESS; d++)
        rc = pc_alltoall_post(1, h->out + h->out_off[d], h->out_off[d + 1] - h->out_off[d], d,
                              PC_TAG_ALLTOALL_NODE_OUT, c->node, req, &nreq);
    int wrc = pc_waitall(nreq, req, MPI_STATUSES_IGNORE);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* My blocks from everyone (node order, without mine) into the receive blocks. */
static void unpack_mine(const pc_call_t *a, const char *from)
{
    const pc_comm_t *c = a->ctx;
    for (int i = 0; i < c->size; i++) {
        int r = c->node_members[i];
        if (r == c->rank) continue;
        size_t len = pc_blocks_span(&a->rblocks, r, r);
        memcpy(pc_blocks_at(&a->rblocks, r), from, len);
        from += len;
    }
}

/* The leaders' algorithm: isend when a node-to-node block or an offset does
 * not fit an int (native's counts), the same decision on every leader. */
static int inter_name(const pc_call_t *a, const hier_t *h, const char **name)
{
    const pc_comm_t *c = a->ctx;
    const char *inter = a->params->alltoall.inter;
    *name = inter;
    int big = h->soff[c->nnodes] > (size_t)INT_MAX || h->roff[c->nnodes] > (size_t)INT_MAX, rc = MPI_SUCCESS;
    if (!a->vform) /* every leader knows every node's sizes: the largest node decides */
        big = (size_t)c->max_ppn * (size_t)c->size * pc_blocks_span(&a->sblocks, 0, 0) > (size_t)INT_MAX;
    else if (!strcmp(inter, "auto") || !strcmp(inter, "native")) {
        int any;
        rc = PMPI_Allreduce(&big, &any, 1, MPI_INT, MPI_MAX, c->leaders);
        big = any;
    } else
        big = 0;
    if (big) {
        if (c->rank == 0)
            pc_log(PC_LOG_INFO, "alltoall hier: node-to-node blocks beyond INT_MAX bytes: isend among the leaders "
                   "instead of %s", inter);
        *name = "isend";
    }
    return rc;
}

static int leader_part(const pc_call_t *a, hier_t *h)
{
    const pc_comm_t *c = a->ctx;
    int q = c->node_size, m = c->my_node, rc;
    size_t *cursor = malloc((size_t)q * sizeof *cursor);
    h->soff = malloc((size_t)(c->nnodes + 1) * sizeof(size_t));
    h->roff = malloc((size_t)(c->nnodes + 1) * sizeof(size_t));
    h->out_off = calloc((size_t)q + 1, sizeof(size_t));
    if (!cursor || !h->soff || !h->roff || !h->out_off) {
        free(cursor);
        return MPI_ERR_NO_MEM;
    }
    lay_out_recv(c, h);
    h->send = alloc(h->in_off[q]);
    h->recv = alloc(h->roff[c->nnodes]);
    h->out = alloc(h->out_off[q]);
    rc = h->send && h->recv && h->out ? gather_in(a, h) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        lay_out_send(c, h, cursor);
        free(h->in);
        h->in = NULL;
        /* my node's part stays: the leaders' alltoall finds it in place */
        memcpy(h->recv + h->roff[m], h->send + h->soff[m], h->soff[m + 1] - h->soff[m]);
    }
    if (rc == MPI_SUCCESS && c->nnodes > 1) {
        const char *name;
        rc = inter_name(a, h, &name);
        pc_blocks_t send = {h->send, h->soff}, recv = {h->recv, h->roff};
        if (rc == MPI_SUCCESS) rc = pc_alltoall_on(a, name, &send, &recv, c->leaders);
    }
    /* copy-out: even after an error, so the node does not hang */
    if (!h->recv || !h->out) {
        free(cursor);
        return MPI_ERR_NO_MEM; /* (the node then hangs: out of memory is fatal anyway) */
    }
    lay_out_out(c, h, cursor);
    free(cursor);
    int rc2 = scatter_out(a, h);
    if (rc == MPI_SUCCESS) unpack_mine(a, h->out);
    return rc != MPI_SUCCESS ? rc : rc2;
}

int pc_alltoall_hier(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int p = c->size, q = c->node_size, leader = c->node_rank == 0, rc;
    hier_t h = {0};
    size_t sent = pack_mine(a, NULL), received = 0;
    for (int r = 0; r < p; r++)
        if (r != c->rank) received += pc_blocks_span(&a->rblocks, r, r);
    if (leader) {
        h.ssize = malloc((size_t)q * (size_t)p * sizeof(uint64_t));
        h.rsize = malloc((size_t)q * (size_t)p * sizeof(uint64_t));
        h.in_off = malloc(((size_t)q + 1) * sizeof(size_t));
        if (!h.ssize || !h.rsize || !h.in_off) {
            hier_free(&h);
            return MPI_ERR_NO_MEM;
        }
    }
    rc = exchange_counts(a, &h);
    if (rc == MPI_SUCCESS && leader) { /* member j's part of in: all it sends */
        h.in_off[0] = 0;
        for (int j = 0; j < q; j++) {
            size_t len = 0;
            for (int r = 0; r < p; r++) len += h.ssize[(size_t)j * p + r];
            h.in_off[j + 1] = h.in_off[j] + len;
        }
    }
    h.in = alloc(leader && rc == MPI_SUCCESS ? h.in_off[q] : sent);
    if (rc == MPI_SUCCESS && !h.in) rc = MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        hier_free(&h);
        return rc;
    }
    pack_mine(a, h.in);
    if (leader) {
        rc = leader_part(a, &h);
    } else {
        char *mine = alloc(received);
        rc = mine ? MPI_SUCCESS : MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS && sent) rc = pc_send(h.in, sent, 0, PC_TAG_ALLTOALL_NODE_IN, c->node);
        if (rc == MPI_SUCCESS && received) rc = pc_recv(mine, received, 0, PC_TAG_ALLTOALL_NODE_OUT, c->node);
        if (rc == MPI_SUCCESS) unpack_mine(a, mine);
        free(mine);
    }
    hier_free(&h);
    return rc;
}
