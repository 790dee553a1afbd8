/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * multisender - multi-sender k-ary scatter over nodes: a k-nomial tree of
 * nodes of radix k = S + 1 (S = processes on the smallest node) rooted at
 * the root's node; each node's holder (the root on its node, else the node
 * leader) has its subtree's blocks, and S processes of the node send the
 * pieces of the S child subtrees of a round in parallel, one each.
 *
 *   4 nodes of 3 processes (S = 3, k = 4), root node X:
 *     X's holder gives X's processes 1 and 2 the blocks of nodes Y2 and Y3;
 *     X.0 -> Y1, X.1 -> Y2, X.2 -> Y3   (three inter-node sends at once)
 *     each holder gives its node's processes their blocks
 *   binomial (S = 1) needs log2 4 = 2 rounds; here one.
 *
 * Blocks travel in node order relative to the root's node (node n's share
 * is one range, a subtree's shares one range).  Sender s of a node handles
 * the child subtrees rn + (s + 1) k^i of every round i, largest first.
 * The v form: only the root knows the counts, so every subtree's data is
 * preceded by the sizes of its blocks (8 bytes per block,
 * PC_TAG_SCATTER_SIZES), handed on with it: a holder learns the sizes of
 * its own subtree only.  The plain form needs none: every block is as
 * large as mine.
 * Cost (Hockney, m bytes, N nodes, S senders per node): ceil(log_k N)
 * rounds of inter-node alpha + (piece) beta, with up to S messages of a
 * round in flight from one node at once (the network's injection
 * bandwidth shared by S senders instead of serialized behind one), plus
 * per round an intra-node hand-off of each piece to its sender and a
 * final intra-node copy-out of q - 1 blocks; the root copies m bytes into
 * node order once.
 * Late arrival: not arrival-tolerant, by design (Parsons 2015's point is
 * bandwidth): a late sender holds up its child subtrees, a late holder its
 * whole subtree; a late process that is neither only waits for itself.
 * Limitations: Parsons 2015's senders read the pieces from one shared-memory
 * buffer; here the holder hands each piece to its sender by point-to-point
 * inside the node (the MPI library's shared-memory path: one more copy of
 * each piece).  S is the smallest node's size, so one small node limits
 * every node's senders.  No pipelining of a piece within a round.
 * Source: Parsons 2015 §2.3.2 (multi-sender inter-node communication,
 * "multi-sender k-ary scatter": MPICH's binomial scatter turned into a
 * k-ary tree whose k messages leave from k processes of the node).
 */
#include "scatter/scatter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const pc_call_t *a;
    int nnodes, root_node, radix, senders;
    int *rel_first;   /* [nnodes + 1] ranks in the relative nodes before each one */
    int me_rel;       /* my node, relative to the root's */
} tree_t;

static int real_node(const tree_t *t, int rel) { return (t->root_node + rel) % t->nnodes; }

/* The span of the subtree of relative node rel (its top level's size). */
static int subtree_level(const tree_t *t, int rel)
{
    int level = 1;
    if (rel == 0) {
        while (level < t->nnodes) level *= t->radix;
        return level;
    }
    while ((rel / level) % t->radix == 0) level *= t->radix;
    return level;
}

static int min_int(int x, int y) { return x < y ? x : y; }

/* Holder of relative node rel: the root on its node, else the leader. */
static int holder_of(const tree_t *t, int rel)
{
    return rel == 0 ? t->a->root : pc_node_leader(t->a->ctx, real_node(t, rel));
}

/* Sender s of relative node rel: the holder, then the node's other
 * processes in rank order. */
static int sender_of(const tree_t *t, int rel, int s)
{
    const pc_comm_t *c = t->a->ctx;
    int node = real_node(t, rel), holder = holder_of(t, rel);
    if (s == 0) return holder;
    for (int j = c->node_first[node]; j < c->node_first[node + 1]; j++) {
        if (c->node_members[j] == holder) continue;
        if (--s == 0) return c->node_members[j];
    }
    return MPI_PROC_NULL; /* not reached: s < senders <= node size */
}

/* One child subtree: relative nodes [first, first + n) */
typedef struct {
    int first, n, sender;
} child_t;

/* The children of relative node rel, largest subtree first; *count set. */
static child_t *children_of(const tree_t *t, int rel, int *count)
{
    int level = subtree_level(t, rel), n = 0;
    child_t *ch = malloc((size_t)(t->radix * 32 + 1) * sizeof *ch);
    if (!ch) return NULL;
    for (int m = level / t->radix; m >= 1; m /= t->radix)
        for (int j = 1; j < t->radix && rel + j * m < t->nnodes; j++) {
            int first = rel + j * m;
            if (first >= rel + min_int(level, t->nnodes - rel)) break;
            ch[n++] = (child_t){first, min_int(m, t->nnodes - first), j - 1};
        }
    *count = n;
    return ch;
}

/* A subtree's data: sizes of its blocks (relative node order) and bytes. */
typedef struct {
    int nranks;
    uint64_t *size;
    size_t *offset;   /* [nranks + 1] */
    char *data;
} piece_t;

static void piece_free(piece_t *p)
{
    free(p->size);
    free(p->offset);
    free(p->data);
}

/* Allocates sizes and offsets for relative nodes [first, first + n). */
static int piece_init(const tree_t *t, int first, int n, piece_t *p)
{
    p->nranks = t->rel_first[first + n] - t->rel_first[first];
    p->size = malloc((size_t)(p->nranks ? p->nranks : 1) * sizeof *p->size);
    p->offset = malloc((size_t)(p->nranks + 1) * sizeof *p->offset);
    p->data = NULL;
    return p->size && p->offset ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static void piece_offsets(piece_t *p)
{
    p->offset[0] = 0;
    for (int i = 0; i < p->nranks; i++) p->offset[i + 1] = p->offset[i] + (size_t)p->size[i];
}

/* Receives a subtree's sizes (v form; else all `block`) and data from src. */
static int piece_recv(const tree_t *t, piece_t *p, size_t block, int src, int data_tag)
{
    const pc_call_t *a = t->a;
    int rc = MPI_SUCCESS;
    if (a->vform) rc = pc_recv(p->size, (size_t)p->nranks * sizeof *p->size, src, PC_TAG_SCATTER_SIZES, a->ctx->comm);
    else
        for (int i = 0; i < p->nranks; i++) p->size[i] = block;
    if (rc != MPI_SUCCESS) return rc;
    piece_offsets(p);
    p->data = malloc(p->offset[p->nranks] ? p->offset[p->nranks] : 1);
    if (!p->data) return MPI_ERR_NO_MEM;
    return pc_recv(p->data, p->offset[p->nranks], src, data_tag, a->ctx->comm);
}

/* Sends ranks [i, i + n) of p (sizes in the v form, then data) to dst. */
static int piece_send(const tree_t *t, const piece_t *p, int i, int n, int dst, int data_tag, MPI_Request *req,
                      int *nreq)
{
    const pc_call_t *a = t->a;
    int rc = MPI_SUCCESS;
    if (a->vform)
        rc = pc_scatter_post(p->size + i, (size_t)n * sizeof *p->size, dst, PC_TAG_SCATTER_SIZES, a->ctx->comm, req,
                             nreq);
    if (rc == MPI_SUCCESS)
        rc = pc_scatter_post(p->data + p->offset[i], p->offset[i + n] - p->offset[i], dst, data_tag, a->ctx->comm, req,
                             nreq);
    return rc;
}

/* The root's blocks in relative node order. */
static int root_piece(const tree_t *t, piece_t *p)
{
    const pc_call_t *a = t->a;
    const pc_comm_t *c = a->ctx;
    int rc = piece_init(t, 0, t->nnodes, p), i = 0;
    if (rc != MPI_SUCCESS) return rc;
    for (int rel = 0; rel < t->nnodes; rel++) {
        int node = real_node(t, rel);
        for (int j = c->node_first[node]; j < c->node_first[node + 1]; j++, i++)
            p->size[i] = pc_blocks_span(&a->sblocks, c->node_members[j], c->node_members[j]);
    }
    piece_offsets(p);
    p->data = malloc(p->offset[p->nranks] ? p->offset[p->nranks] : 1);
    if (!p->data) return MPI_ERR_NO_MEM;
    i = 0;
    for (int rel = 0; rel < t->nnodes; rel++) {
        int node = real_node(t, rel);
        for (int j = c->node_first[node]; j < c->node_first[node + 1]; j++, i++)
            if (p->size[i])
                memcpy(p->data + p->offset[i], pc_blocks_at(&a->sblocks, c->node_members[j]), (size_t)p->size[i]);
    }
    return MPI_SUCCESS;
}

/* The holder: children's pieces to their senders (its own straight to the
 * child's holder), then its node's blocks to their processes. */
static int hold(const tree_t *t, const piece_t *p)
{
    const pc_call_t *a = t->a;
    const pc_comm_t *c = a->ctx;
    int nch, rc = MPI_SUCCESS, nreq = 0;
    child_t *ch = children_of(t, t->me_rel, &nch);
    MPI_Request *req = malloc((size_t)(2 * nch + c->node_size) * sizeof *req);
    if (!ch || !req) rc = MPI_ERR_NO_MEM;
    for (int i = 0; i < nch && rc == MPI_SUCCESS; i++) {
        int from = t->rel_first[ch[i].first] - t->rel_first[t->me_rel], n = t->rel_first[ch[i].first + ch[i].n] -
                                                                             t->rel_first[ch[i].first];
        if (ch[i].sender == 0)
            rc = piece_send(t, p, from, n, holder_of(t, ch[i].first), PC_TAG_SCATTER_MULTISENDER, req, &nreq);
        else
            rc = piece_send(t, p, from, n, sender_of(t, t->me_rel, ch[i].sender), PC_TAG_SCATTER_HANDOFF, req, &nreq);
    }
    /* my node: the first node_size ranks of the piece, in node rank order */
    for (int j = 0; j < c->node_size && rc == MPI_SUCCESS; j++) {
        int r = c->node_members[c->node_first[c->my_node] + j];
        size_t len = (size_t)p->size[j];
        if (r == a->root || !len) continue;
        if (r == c->rank) memcpy(a->rblocks.base, p->data + p->offset[j], len);
        else rc = pc_scatter_post(p->data + p->offset[j], len, r, PC_TAG_SCATTER_DATA, c->comm, req, &nreq);
    }
    int wrc = nreq ? pc_waitall(nreq, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    free(ch);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* A sender other than the holder: each of its children's pieces from the
 * holder, on to the child's holder. */
static int send_on(const tree_t *t, int s, size_t block)
{
    int nch, rc = MPI_SUCCESS, nreq = 0, holder = holder_of(t, t->me_rel);
    child_t *ch = children_of(t, t->me_rel, &nch);
    piece_t *got = calloc((size_t)(nch ? nch : 1), sizeof *got);
    MPI_Request *req = malloc((size_t)(2 * nch + 1) * sizeof *req);
    if (!ch || !got || !req) rc = MPI_ERR_NO_MEM;
    for (int i = 0; i < nch && rc == MPI_SUCCESS; i++) {
        if (ch[i].sender != s) continue;
        rc = piece_init(t, ch[i].first, ch[i].n, &got[i]);
        if (rc == MPI_SUCCESS) rc = piece_recv(t, &got[i], block, holder, PC_TAG_SCATTER_HANDOFF);
        if (rc == MPI_SUCCESS)
            rc = piece_send(t, &got[i], 0, got[i].nranks, holder_of(t, ch[i].first), PC_TAG_SCATTER_MULTISENDER, req,
                            &nreq);
    }
    int wrc = nreq ? pc_waitall(nreq, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    for (int i = 0; got && i < nch; i++) piece_free(&got[i]);
    free(got);
    free(ch);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

int pc_scatter_multisender(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int me = c->rank, rc = MPI_SUCCESS;
    tree_t t = {a, c->nnodes, c->node_of[a->root], 2, c->node_size, NULL, 0};
    for (int k = 0; k < c->nnodes; k++) t.senders = min_int(t.senders, c->node_first[k + 1] - c->node_first[k]);
    t.radix = t.senders + 1;
    t.me_rel = (c->my_node - t.root_node + c->nnodes) % c->nnodes;
    t.rel_first = malloc((size_t)(c->nnodes + 1) * sizeof *t.rel_first);
    if (!t.rel_first) return MPI_ERR_NO_MEM;
    t.rel_first[0] = 0;
    for (int rel = 0; rel < c->nnodes; rel++) {
        int node = real_node(&t, rel);
        t.rel_first[rel + 1] = t.rel_first[rel] + c->node_first[node + 1] - c->node_first[node];
    }
    size_t block = me == a->root ? pc_blocks_span(&a->sblocks, me, me) : pc_blocks_span(&a->rblocks, 0, 0);
    int holder = holder_of(&t, t.me_rel), s = -1;
    for (int i = 1; i < t.senders && s < 0; i++)
        if (sender_of(&t, t.me_rel, i) == me) s = i;
    piece_t p = {0, NULL, NULL, NULL};
    if (me == a->root) rc = root_piece(&t, &p);
    else if (me == holder) { /* my subtree from the parent node's sender */
        int level = subtree_level(&t, t.me_rel), digit = (t.me_rel / level) % t.radix;
        int parent = t.me_rel - digit * level;
        rc = piece_init(&t, t.me_rel, min_int(level, t.nnodes - t.me_rel), &p);
        if (rc == MPI_SUCCESS)
            rc = piece_recv(&t, &p, block, sender_of(&t, parent, digit - 1), PC_TAG_SCATTER_MULTISENDER);
    }
    if (rc == MPI_SUCCESS && me == holder) rc = hold(&t, &p);
    else if (rc == MPI_SUCCESS) {
        if (s > 0) rc = send_on(&t, s, block);
        size_t mine = pc_blocks_span(&a->rblocks, 0, 0);
        if (rc == MPI_SUCCESS && mine) rc = pc_recv(a->rblocks.base, mine, holder, PC_TAG_SCATTER_DATA, c->comm);
    }
    piece_free(&p);
    free(t.rel_first);
    return rc;
}
