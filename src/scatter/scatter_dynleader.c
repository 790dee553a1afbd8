/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader - the hierarchical scatter with dynamic node leaders: on every
 * node but the root's, the first process to arrive leads the node.  It asks
 * the root for its node's blocks (REQUEST), receives them in one message
 * and hands every other process of its node its block.  The root serves the
 * nodes in the order their REQUESTs come, and the processes of its own node
 * directly.
 *
 *   root r on node R, nodes A = {a0 a1 a2} and B = {b0 b1}; a1, b0 first:
 *     a1 -REQUEST-> r,  b0 -REQUEST-> r
 *     r -[A's blocks]-> a1;  a1 -> a0: its block, a1 -> a2: its block
 *     r -[B's blocks]-> b0;  b0 -> b1: its block
 *     r -> every process of R: its block
 *
 * The guess: in the plain form, a node whose blocks add up to at most
 * PAPCOLL_SCATTER_GUESS_MAX gets them from the root at once, sent to its
 * lowest rank (the guess) without waiting for the REQUEST; the node's other
 * processes pause once before claiming it, so that the guess leads when they
 * arrive together.  Whoever leads still sends its REQUEST (the root counts
 * one per node) and the root sends the blocks again only to a leader that is
 * not the guess; the guess then takes its own block from the root's message
 * and the leader sends it nothing.
 * Cost (Hockney, balanced, m bytes scattered in all, N nodes of q
 * processes): the root's N - 1 node shares ((N - 1) alpha + (N - 1)/N m beta
 * at the root, as hier with a linear scatter among leaders; hier's default
 * binomial takes log2 N latencies), one REQUEST latency before them above
 * the guess size, then q - 1 intra-node messages from each leader.
 * Late arrival: a node is served as soon as its first process arrives (hier:
 * when its lowest rank does, and a tree among leaders also waits for the
 * leaders above), so a late process holds up nobody but itself: its block
 * waits for it (eager sizes).  With blocks above the MPI library's eager
 * limit a leader, like linear's root, stays until each of its node's
 * processes has taken its block.  The root stays until the first process
 * of every node has asked.  A guessed node whose lowest rank is late gets
 * its blocks twice (to the guess, and to the leader that asked).
 * Memory: a leader (and a guess that does not lead) holds its node's blocks
 * for the call; the root packs the blocks of nodes with gaps in their ranks.
 * Messages: the REQUEST and each process's block carry the call's sequence
 * number, in the payload (checked) and in the tag (pc_window_tag): a
 * process does not know who leads its node and receives its block with
 * MPI_ANY_SOURCE.  The v form: only the root knows the sizes, so it sends a
 * leader its node's block sizes ahead of the blocks.  A node whose ranks are
 * consecutive gets its blocks straight from the root's buffer; otherwise
 * the root packs them first.  No size limit: shares and blocks above
 * PC_MAX_MSG go in several messages.
 * Parameters: PAPCOLL_SCATTER_GUESS_MAX.
 * Source: the CP paper's competitive leaders (the first process to arrive leads
 * its node) applied to Parsons 2015's hierarchical scatter (section 2.3.1,
 * Fig. 2.1); the REQUEST and the guess as the dynamic-leader broadcasts'
 * (node/node.h).
 */
#include "scatter/scatter.h"
#include "ctx/early.h"
#include "ctx/shm.h"
#include "core/log.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Whether the root sends node's blocks to its lowest rank before any REQUEST
 * (the same answer on every process: plain form, sizes known everywhere). */
static int guessing(const pc_call_t *a, int node, size_t my_bytes)
{
    const pc_comm_t *c = a->ctx;
    size_t share = (size_t)(c->node_first[node + 1] - c->node_first[node]) * my_bytes;
    return !a->vform && node != c->node_of[a->root] && share <= a->params->scatter_guess_max;
}

/* Process dst's block: {seq} and the block's first PC_MAX_MSG bytes in one
 * message (posted into req[*n]), the rest after it (blocking).  *seq must
 * stay valid until req completes. */
static int member_send(const pc_call_t *a, long long *seq, const char *buf, size_t bytes, int dst, MPI_Request *req,
                       int *n)
{
    size_t first = pc_min_size(bytes, PC_MAX_MSG);
    MPI_Datatype t;
    int rc = pc_header_type(seq, 1, buf, (int)first, MPI_BYTE, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Isend(MPI_BOTTOM, 1, t, dst, pc_window_tag(PC_TAG_SCATTER_MEMBER, a->seq), a->ctx->comm, &req[(*n)++]);
    PMPI_Type_free(&t);
    if (rc == MPI_SUCCESS && bytes > first)
        rc = pc_send(buf + first, bytes - first, dst, PC_TAG_SCATTER_REST, a->ctx->comm);
    return rc;
}

/* My block, from my node's leader (or the root on its node), whoever that is:
 * a block of a later call that comes first is kept for it (ctx/early.h). */
static int member_recv(const pc_call_t *a, char *buf, size_t bytes)
{
    size_t first = pc_min_size(bytes, PC_MAX_MSG);
    int on_root_node = a->ctx->my_node == a->ctx->node_of[a->root], from;
    int rc = pc_recv_call(a->ctx, pc_window_tag(PC_TAG_SCATTER_MEMBER, a->seq), a->seq,
                          on_root_node ? a->root : MPI_ANY_SOURCE, buf, first, &from);
    if (rc == MPI_SUCCESS && bytes > first)
        rc = pc_recv(buf + first, bytes - first, from, PC_TAG_SCATTER_REST, a->ctx->comm);
    return rc;
}

/* The root's side: node's blocks to its leader, in node order (the sizes
 * first in the v form, into sizes[], kept until the sends complete); packed
 * into *packed when the node's ranks are not consecutive. */
static int send_share(const pc_call_t *a, int node, int leader, uint64_t *sizes, char **packed, MPI_Request *req,
                      int *n)
{
    const pc_comm_t *c = a->ctx;
    const int *member = c->node_members + c->node_first[node];
    int q = c->node_first[node + 1] - c->node_first[node], rc = MPI_SUCCESS;
    size_t total = 0;
    for (int j = 0; j < q; j++) {
        sizes[j] = pc_blocks_span(&a->sblocks, member[j], member[j]);
        total += (size_t)sizes[j];
    }
    if (a->vform)
        rc = pc_scatter_post(sizes, (size_t)q * sizeof *sizes, leader, PC_TAG_SCATTER_SHARE, c->comm, req, n);
    const char *share = pc_blocks_at(&a->sblocks, member[0]);
    if (member[q - 1] - member[0] != q - 1) { /* not consecutive ranks: packed once (the guess's copy serves twice) */
        char *p = *packed ? NULL : (*packed = malloc(total ? total : 1));
        if (!*packed) return MPI_ERR_NO_MEM;
        for (int j = 0; p && j < q; j++) p = (char *)memcpy(p, pc_blocks_at(&a->sblocks, member[j]), sizes[j]) + sizes[j];
        share = *packed;
    }
    return rc != MPI_SUCCESS ? rc : pc_scatter_post(share, total, leader, PC_TAG_SCATTER_SHARE, c->comm, req, n);
}

typedef struct {
    long long (*msg)[2];  /* [nodes - 1] REQUESTs */
    MPI_Request *wanted;  /* [nodes - 1] their receives (those not kept by an earlier call) */
    MPI_Request *sent;    /* [3 nodes + node_size] sizes, shares (guessed and asked for), my node's blocks */
    uint64_t *sizes;      /* [size] the block sizes sent, node by node */
    char **packed;        /* [nodes] packed shares (a guessed node's kept for its leader) */
    char *served;         /* [nodes] */
} root_state_t;

static void root_free(root_state_t *s, int nodes, int nwanted)
{
    for (int i = 0; s->wanted && i < nwanted; i++) /* after an error only: a REQUEST that never came */
        if (s->wanted[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&s->wanted[i]);
            pc_wait_request(&s->wanted[i], MPI_STATUS_IGNORE);
        }
    for (int i = 0; s->packed && i < nodes; i++) free(s->packed[i]);
    free(s->msg);
    free(s->wanted);
    free(s->sent);
    free(s->sizes);
    free(s->packed);
    free(s->served);
}

/* The REQUEST of `from`'s node has come: its blocks go to `from`, unless
 * they went to it as the guess already. */
static int serve_request(const pc_call_t *a, root_state_t *s, long long msg[2], int from, size_t my_bytes, int *n)
{
    const pc_comm_t *c = a->ctx;
    int node = c->node_of[from];
    if (msg[0] != (long long)a->seq || msg[1] != from || node == c->my_node || s->served[node]) {
        pc_log(PC_LOG_WARN, "scatter dynleader: unexpected REQUEST (call %lld, from %d) in call %lu", msg[0], from,
               a->seq);
        return MPI_ERR_INTERN;
    }
    s->served[node] = 1;
    if (guessing(a, node, my_bytes) && from == pc_node_leader(c, node)) return MPI_SUCCESS;
    return send_share(a, node, from, s->sizes + c->node_first[node], &s->packed[node], s->sent, n);
}

static int root_serves(const pc_call_t *a)
{
    pc_comm_t *c = a->ctx;
    int nodes = c->nnodes, root_node = c->my_node, rc = MPI_SUCCESS, n = 0, kept = 0, from;
    int tag = pc_window_tag(PC_TAG_SCATTER_REQUEST, a->seq);
    long long seq = (long long)a->seq;
    root_state_t s = {malloc((size_t)nodes * sizeof *s.msg), malloc((size_t)nodes * sizeof *s.wanted),
                      malloc((size_t)(3 * nodes + c->node_size) * sizeof *s.sent),
                      malloc((size_t)c->size * sizeof *s.sizes), calloc((size_t)nodes, sizeof *s.packed),
                      calloc((size_t)nodes, 1)};
    if (!s.msg || !s.wanted || !s.sent || !s.sizes || !s.packed || !s.served) {
        free(s.wanted);
        s.wanted = NULL; /* nothing posted */
        root_free(&s, nodes, 0);
        return MPI_ERR_NO_MEM;
    }
    size_t my_bytes = pc_blocks_span(&a->sblocks, a->root, a->root), got;
    while (kept < nodes - 1 && pc_early_take(c, tag, a->seq, MPI_ANY_SOURCE, s.msg[kept], sizeof s.msg[kept], &from,
                                             &got))
        kept++; /* REQUESTs that an earlier call of mine received: served below, after the guesses */
    int want = nodes - 1 - kept;
    for (int i = 0; i < want; i++) s.wanted[i] = MPI_REQUEST_NULL;
    for (int i = 0; i < want && rc == MPI_SUCCESS; i++)
        rc = PMPI_Irecv(s.msg[kept + i], 2, MPI_LONG_LONG, MPI_ANY_SOURCE, tag, c->comm, &s.wanted[i]);
    for (int node = 0; node < nodes && rc == MPI_SUCCESS; node++)
        if (guessing(a, node, my_bytes))
            rc = send_share(a, node, pc_node_leader(c, node), s.sizes + c->node_first[node], &s.packed[node], s.sent,
                            &n);
    for (int j = 0; j < c->node_size && rc == MPI_SUCCESS; j++) { /* my node's processes: straight from me */
        int r = c->node_members[c->node_first[root_node] + j];
        size_t bytes = pc_blocks_span(&a->sblocks, r, r);
        if (r != a->root && bytes) rc = member_send(a, &seq, pc_blocks_at(&a->sblocks, r), bytes, r, s.sent, &n);
    }
    for (int i = 0; i < kept && rc == MPI_SUCCESS; i++)
        rc = serve_request(a, &s, s.msg[i], (int)s.msg[i][1], my_bytes, &n);
    for (int served = 0; served < want && rc == MPI_SUCCESS;) { /* the other nodes, first come first served */
        int i;
        MPI_Status st;
        rc = PMPI_Waitany(want, s.wanted, &i, &st);
        if (rc != MPI_SUCCESS) break;
        long long *msg = s.msg[kept + i];
        if (msg[0] > seq) { /* a later call's REQUEST, from a leader a whole tag window ahead: kept for it */
            rc = pc_early_keep(c, tag, (unsigned long)msg[0], st.MPI_SOURCE, msg, sizeof s.msg[0]);
            if (rc == MPI_SUCCESS) rc = PMPI_Irecv(msg, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, tag, c->comm, &s.wanted[i]);
            continue;
        }
        rc = serve_request(a, &s, msg, st.MPI_SOURCE, my_bytes, &n);
        served++;
    }
    int wrc = n ? pc_waitall(n, s.sent, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    root_free(&s, nodes, want);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* My node's leader: asks the root, receives the node's blocks, keeps mine
 * and sends the others theirs (not the guess's, when guessed: the root sent
 * it them all). */
static int lead_node(const pc_call_t *a, size_t my_bytes, int guessed)
{
    const pc_comm_t *c = a->ctx;
    int q = c->node_size, rc, n = 0;
    long long seq = (long long)a->seq, request[2] = {seq, c->rank};
    uint64_t *sizes = malloc((size_t)q * sizeof *sizes);
    MPI_Request *req = malloc((size_t)q * sizeof *req);
    if (!sizes || !req) {
        free(sizes);
        free(req);
        return MPI_ERR_NO_MEM;
    }
    rc = PMPI_Send(request, 2, MPI_LONG_LONG, a->root, pc_window_tag(PC_TAG_SCATTER_REQUEST, a->seq), c->comm);
    if (a->vform && rc == MPI_SUCCESS)
        rc = pc_recv(sizes, (size_t)q * sizeof *sizes, a->root, PC_TAG_SCATTER_SHARE, c->comm);
    else
        for (int j = 0; j < q; j++) sizes[j] = my_bytes; /* plain form: every block is as large as mine */
    size_t total = 0;
    for (int j = 0; j < q; j++) total += (size_t)sizes[j];
    char *share = rc == MPI_SUCCESS ? malloc(total ? total : 1) : NULL;
    if (rc == MPI_SUCCESS && !share) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = pc_recv(share, total, a->root, PC_TAG_SCATTER_SHARE, c->comm);
    size_t pos = 0;
    for (int j = 0; j < q && rc == MPI_SUCCESS; j++) {
        int r = c->node_members[c->node_first[c->my_node] + j];
        if (r == c->rank)
            memcpy(a->rblocks.base, share + pos, sizes[j]);
        else if (sizes[j] && !(guessed && j == 0)) /* node member 0, the lowest rank, is the guess */
            rc = member_send(a, &seq, share + pos, sizes[j], r, req, &n);
        pos += sizes[j];
    }
    int wrc = n ? pc_waitall(n, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    free(share);
    free(sizes);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* The guess, not leading: my block is the first of the node's blocks that
 * the root sent me. */
static int take_guess(const pc_call_t *a, size_t my_bytes)
{
    size_t total = (size_t)a->ctx->node_size * my_bytes;
    char *share = malloc(total);
    if (!share) return MPI_ERR_NO_MEM;
    int rc = pc_recv(share, total, a->root, PC_TAG_SCATTER_SHARE, a->ctx->comm);
    if (rc == MPI_SUCCESS) memcpy(a->rblocks.base, share, my_bytes);
    free(share);
    return rc;
}

int pc_scatter_dynleader(const pc_call_t *a)
{
    pc_comm_t *c = a->ctx;
    int at_root = c->rank == a->root;
    size_t my_bytes = at_root ? pc_blocks_span(&a->sblocks, c->rank, c->rank) : pc_blocks_span(&a->rblocks, 0, 0);
    if (!a->vform && my_bytes == 0) return MPI_SUCCESS; /* every block is empty: nothing moves */
    if (at_root) return root_serves(a);
    if (c->my_node != c->node_of[a->root]) {
        pc_shm_t *shm;
        int rc = pc_shm_get(c, &shm); /* every process of my node calls it in this call */
        if (rc != MPI_SUCCESS) return rc;
        int guessed = guessing(a, c->my_node, my_bytes), is_guess = c->rank == pc_node_leader(c, c->my_node);
        if (guessed && !is_guess) pc_poll_pause(shm); /* lets the guess claim the node if it came at the same time */
        if (pc_shm_claim(shm, a->seq)) return lead_node(a, my_bytes, guessed);
        if (guessed && is_guess) return take_guess(a, my_bytes);
    }
    return my_bytes ? member_recv(a, a->rblocks.base, my_bytes) : MPI_SUCCESS;
}
