/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast/common/cp_allgather.c - the engine of cp_rdb and cp_ring: competitive
 * (dynamic) node leaders run a binomial scatter and then an allgather
 * (recursive doubling, or ring) among the nodes; every block a leader
 * receives is copied into its node ring while the next transfer is on the
 * network, and the node's other processes copy pieces out as they become
 * valid (the CP paper Fig. 7, the long-message branch).
 *
 * Nodes are numbered relative to the root's node (rel 0); the message of a
 * pass is cut into N blocks, block b for rel node b.  Messages larger than
 * the node ring go in passes of one ring each.
 *
 * Finding the leaders.  A leader must know the leader of every node it
 * sends to (its destinations: scatter children, allgather partners); it
 * never needs to know who sends to it (each step has its own tag within the
 * call's tag window, so it receives with MPI_ANY_SOURCE).  So each leader
 * announces itself (READY) to every process of each node that sends to it
 * (its sources), and every process of a node receives one READY from the
 * leader of each of its node's destinations.  A non-leader waits for those
 * too, which costs it nothing: in a scatter-allgather no node completes
 * before every node has a leader.  On the root's node, which the root leads,
 * the root alone receives them (its other processes leave once they have the
 * message).
 *
 * The root's node already holds the message: nobody sends it blocks
 * (which also leaves the root's buffer untouched).
 */
#include "node/node.h"
#include "core/p2p.h"

#include <math.h>
#include <stdlib.h>

enum { PC_CP_STEP_TAGS = PC_TAG_SLOTS - PC_TAG_CP_DATA }; /* per call: tag step 0 = scatter, 1.. = allgather steps */

typedef struct {
    pc_node_call_t nc;
    int rdb;              /* recursive doubling (N a power of two), else ring */
    int nnodes, rel;      /* nodes, my node relative to the root's */
    int ndst, nsrc;
    int dst[2 * 32 + 2];  /* relative destination / source nodes (distinct) */
    int src[2 * 32 + 2];
    int *leader;          /* leader of each destination (by relative node), -1 = not known yet */
    MPI_Request *ready_req;
    long long (*ready_msg)[2];
    /* the current pass: bytes [base, base + len) */
    size_t base, len, bsize;
    char *have;           /* blocks held, by relative node */
    size_t first_piece, npieces;
    char *published;      /* pieces of the pass in the ring */
} cp_t;

static int cp_tag(const cp_t *e, int step)
{
    return pc_window_tag(PC_TAG_CP_DATA + step, e->nc.seq);
}

static int to_node(const cp_t *e, int rel) { return (rel + e->nc.root_node) % e->nnodes; }

static long lowbit(long v) { return v & -v; }

static void add_peer(int *list, int *n, int rel)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == rel) return;
    list[(*n)++] = rel;
}

/* The nodes rel sends to / receives from in the whole call. */
static void peers(const cp_t *e, int rel, int *dst, int *ndst, int *src, int *nsrc)
{
    int n = e->nnodes;
    long top = rel ? lowbit(rel) : 1;
    if (!rel)
        while (top < n) top <<= 1;
    *ndst = *nsrc = 0;
    if (rel) add_peer(src, nsrc, (int)(rel - lowbit(rel)));
    for (long mask = top >> 1; mask > 0; mask >>= 1)
        if (rel + mask < n) add_peer(dst, ndst, (int)(rel + mask));
    if (e->rdb) {
        for (long mask = 1; mask < n; mask <<= 1) {
            int partner = (int)(rel ^ mask);
            if (partner != 0) add_peer(dst, ndst, partner); /* the root's node needs no block */
            if (rel != 0) add_peer(src, nsrc, partner);
        }
    } else if (n > 1) {
        if ((rel + 1) % n != 0) add_peer(dst, ndst, (rel + 1) % n);
        if (rel != 0) add_peer(src, nsrc, (rel - 1 + n) % n);
    }
}

static size_t block_off(const cp_t *e, long b)
{
    size_t off = (size_t)b * e->bsize;
    return off < e->len ? off : e->len;
}
static size_t blocks_len(const cp_t *e, long first, long n) { return block_off(e, first + n) - block_off(e, first); }
static char *block_ptr(const cp_t *e, long b) { return (char *)e->nc.a->buf + e->base + block_off(e, b); }

/* Waits until the leader of relative node rel has announced itself. */
static int leader_of(cp_t *e, int rel, int *rank)
{
    int rc = MPI_SUCCESS;
    while (rc == MPI_SUCCESS && e->leader[rel] < 0) {
        int i;
        rc = PMPI_Waitany(e->ndst, e->ready_req, &i, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS || i == MPI_UNDEFINED) return rc != MPI_SUCCESS ? rc : MPI_ERR_INTERN;
        if (e->ready_msg[i][0] != (long long)e->nc.seq) return MPI_ERR_INTERN; /* another call's READY */
        int from = (int)e->ready_msg[i][1];
        e->leader[(e->nc.a->ctx->node_of[from] - e->nc.root_node + e->nnodes) % e->nnodes] = from;
    }
    *rank = e->leader[rel];
    return rc;
}

/* Copies into the ring every piece of the pass whose blocks are all held. */
static void publish_held(cp_t *e)
{
    size_t cell = pc_shm_cell_size(e->nc.shm);
    for (size_t j = 0; j < e->npieces; j++) {
        if (e->published[j]) continue;
        size_t k = e->first_piece + j, lo = k * cell - e->base, hi = pc_min_size(lo + cell, e->len);
        long b0 = (long)(lo / e->bsize), b1 = (long)((hi - 1) / e->bsize);
        int held = 1;
        for (long b = b0; b <= b1 && held; b++) held = e->have[b];
        if (!held) continue;
        pc_shm_put_pieces(e->nc.shm, e->nc.seq, e->nc.a->buf, e->nc.a->bytes, k, k + 1);
        e->published[j] = 1;
    }
}

static void mark(cp_t *e, long first, long n)
{
    for (long b = first; b < first + n && b < e->nnodes; b++) e->have[b] = 1;
}

static int scatter(cp_t *e)
{
    MPI_Comm comm = e->nc.a->ctx->comm;
    int rc = MPI_SUCCESS, n = e->nnodes, nreq = 0;
    long top = e->rel ? lowbit(e->rel) : 1;
    if (e->rel) {
        if (blocks_len(e, e->rel, top))
            rc = pc_recv(block_ptr(e, e->rel), blocks_len(e, e->rel, top), MPI_ANY_SOURCE, cp_tag(e, 0), comm);
        mark(e, e->rel, top);
    } else {
        while (top < n) top <<= 1;
        mark(e, 0, n);
    }
    MPI_Request req[32];
    for (long mask = top >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        long child = e->rel + mask;
        int to;
        if (child >= n || !blocks_len(e, child, mask)) continue;
        rc = leader_of(e, (int)child, &to);
        if (rc == MPI_SUCCESS)
            rc = pc_isend(block_ptr(e, child), blocks_len(e, child, mask), to, cp_tag(e, 0), comm, &req[nreq++]);
    }
    if (rc == MPI_SUCCESS) publish_held(e); /* overlaps the sends */
    int wrc = pc_waitall(nreq, req, MPI_STATUSES_IGNORE);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* One allgather step: send blocks [sfirst, +sn) to relative node `to_rel`
 * (unless it is the root's node), receive [rfirst, +rn) (unless I am). */
static int exchange(cp_t *e, int step, int to_rel, long sfirst, long sn, long rfirst, long rn)
{
    MPI_Comm comm = e->nc.a->ctx->comm;
    MPI_Request req[2];
    int nreq = 0, rc = MPI_SUCCESS, to;
    if (e->rel != 0 && blocks_len(e, rfirst, rn))
        rc = pc_irecv(block_ptr(e, rfirst), blocks_len(e, rfirst, rn), MPI_ANY_SOURCE, cp_tag(e, step), comm,
                      &req[nreq++]);
    if (rc == MPI_SUCCESS && to_rel != 0 && blocks_len(e, sfirst, sn) && (rc = leader_of(e, to_rel, &to)) == MPI_SUCCESS)
        rc = pc_isend(block_ptr(e, sfirst), blocks_len(e, sfirst, sn), to, cp_tag(e, step), comm, &req[nreq++]);
    if (rc == MPI_SUCCESS) publish_held(e); /* the previous step's blocks, while this one moves */
    int wrc = pc_waitall(nreq, req, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS && e->rel != 0) mark(e, rfirst, rn);
    return rc != MPI_SUCCESS ? rc : wrc;
}

static int allgather(cp_t *e)
{
    int n = e->nnodes, rel = e->rel, rc = MPI_SUCCESS;
    if (e->rdb) {
        int step = 1;
        for (long mask = 1; mask < n && rc == MPI_SUCCESS; mask <<= 1, step++) {
            long partner = rel ^ mask, mine = rel & ~(mask - 1), theirs = partner & ~(mask - 1);
            rc = exchange(e, step, (int)partner, mine, mask, theirs, mask);
        }
    } else {
        for (int i = 0; i < n - 1 && rc == MPI_SUCCESS; i++)
            rc = exchange(e, 1, (rel + 1) % n, (rel - i + n) % n, 1, (rel - i - 1 + n) % n, 1);
    }
    return rc;
}

static int lead(cp_t *e)
{
    const pc_call_t *a = e->nc.a;
    size_t cell = pc_shm_cell_size(e->nc.shm), chunk = cell * pc_shm_ncells(e->nc.shm);
    int srcs[2 * 32 + 2], rc = MPI_SUCCESS;
    e->leader = malloc((size_t)e->nnodes * sizeof *e->leader);
    e->ready_req = malloc(((size_t)e->ndst + 1) * sizeof *e->ready_req);
    e->ready_msg = malloc(((size_t)e->ndst + 1) * sizeof *e->ready_msg);
    e->have = malloc((size_t)e->nnodes);
    e->published = malloc(pc_shm_ncells(e->nc.shm));
    if (!e->leader || !e->ready_req || !e->ready_msg || !e->have || !e->published) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 0; i < e->nnodes; i++) e->leader[i] = -1;
    for (int i = 0; i < e->ndst && rc == MPI_SUCCESS; i++)
        rc = pc_leader_ready_post(&e->nc, e->ready_msg[i], &e->ready_req[i]);
    for (int i = 0; i < e->nsrc; i++) srcs[i] = to_node(e, e->src[i]);
    if (rc == MPI_SUCCESS) rc = pc_leader_announce(&e->nc, srcs, e->nsrc);

    for (e->base = 0; rc == MPI_SUCCESS && e->base < a->bytes; e->base += chunk) {
        e->len = pc_min_size(chunk, a->bytes - e->base);
        e->bsize = (e->len + (size_t)e->nnodes - 1) / (size_t)e->nnodes;
        e->first_piece = e->base / cell;
        e->npieces = (e->len + cell - 1) / cell;
        for (int b = 0; b < e->nnodes; b++) e->have[b] = 0;
        for (size_t j = 0; j < e->npieces; j++) e->published[j] = 0;
        rc = scatter(e);
        if (rc == MPI_SUCCESS) rc = allgather(e);
        if (rc == MPI_SUCCESS) publish_held(e);
    }
    for (int i = 0; rc == MPI_SUCCESS && i < e->ndst; i++) { /* every READY of the call is consumed */
        int unused;
        rc = leader_of(e, e->dst[i], &unused);
    }
out:
    free(e->leader);
    free(e->ready_req);
    free(e->ready_msg);
    free(e->have);
    free(e->published);
    return rc;
}

static int follow(cp_t *e)
{
    long long msg[2 * 32 + 2][2];
    MPI_Request req[2 * 32 + 2];
    int rc = MPI_SUCCESS, leader, nready = pc_leader_messages_for_me(&e->nc) ? e->ndst : 0;
    for (int i = 0; i < nready && rc == MPI_SUCCESS; i++) rc = pc_leader_ready_post(&e->nc, msg[i], &req[i]);
    if (rc != MPI_SUCCESS) return rc;
    pc_node_copy_out(&e->nc);
    for (int i = 0; i < nready && rc == MPI_SUCCESS; i++) rc = pc_leader_ready_wait(&e->nc, msg[i], &req[i], &leader);
    return rc;
}

/* Hockney model (PAPCOLL_ALPHA, PAPCOLL_BETA): scatter + ring allgather
 * among N nodes, (ceil(log2 N) + N - 1) alpha + 2 (N-1)/N m beta, against
 * the whole message down the binomial tree of nodes, ceil(log2 N)(alpha +
 * beta m).  Recursive doubling (2 log2 N alpha + the same bytes) always wins
 * above PAPCOLL_CP_NOSEG_MAX. */
static int ring_wins(const pc_call_t *a)
{
    double alpha = a->params->alpha, beta = a->params->beta, m = (double)a->bytes, n = a->ctx->nnodes;
    double lg = ceil(log2(n));
    return (lg + n - 1) * alpha + 2 * (n - 1) / n * m * beta < lg * (alpha + beta * m);
}

int pc_bcast_cp_allgather(const pc_call_t *a, int rdb)
{
    const pc_comm_t *c = a->ctx;
    if (a->bytes <= a->params->bcast.cp_noseg_max || c->nnodes == 1) /* the CP paper: short messages by the binomial tree */
        return pc_bcast_leader_tree(a, PC_TREE_BINOMIAL, 0);
    int pow2 = (c->nnodes & (c->nnodes - 1)) == 0;
    if (!(rdb && pow2) && !ring_wins(a)) return pc_bcast_cp_binomial(a); /* the ring's N - 1 steps cost more */
    cp_t e = {0};
    int rc = pc_node_begin(a, &e.nc);
    if (rc != MPI_SUCCESS) return rc;
    e.nnodes = c->nnodes;
    e.rdb = rdb && (e.nnodes & (e.nnodes - 1)) == 0;
    e.rel = (c->my_node - e.nc.root_node + e.nnodes) % e.nnodes;
    peers(&e, e.rel, e.dst, &e.ndst, e.src, &e.nsrc);
    int on_root_node = e.rel == 0;
    int leads = on_root_node ? c->rank == a->root : pc_node_claim(&e.nc);
    return leads ? lead(&e) : follow(&e);
}
