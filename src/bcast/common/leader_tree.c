/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast/common/leader_tree.c - the dynamic-leader node tree engine shared by
 * dynleader (whole message per hop), cp_binomial and cp_chain (segmented,
 * pipelined).
 *
 * Each node's leader is its first process to arrive (the root on the root's
 * node).  Leaders form a tree of nodes (binomial, or a chain for cp_chain)
 * rooted at the root's node.  Finding each other costs no round trip on the
 * data's path (node.h, node_leader.c):
 *   1. every process of a node posts the receives of one REQUEST from each
 *      child node (any source); on the root's node only the root, which
 *      leads it;
 *   2. a leader, as soon as it has claimed its node, sends its REQUEST to
 *      every process of its parent node (the root's node: to the root),
 *      then waits for its first segment from any source (the sender is
 *      whoever leads the parent; nothing else can move before it).  In a
 *      call that guesses, a process other than its node's lowest rank
 *      pauses once before claiming, so that the guess leads when they
 *      arrive together;
 *   3. then, in one progress loop: receives segments from its parent (a
 *      window of receives posted ahead, from the first segment's sender);
 *      sends a single-segment message at once to each child node that has
 *      not asked yet, to its lowest rank (the guess; the asker gets it too
 *      if it is another process, else the guess an empty message); forwards
 *      each segment to the child leaders whose REQUEST has come (at most
 *      max_inflight sends outstanding per child); and copies the received
 *      prefix into the node ring, one cell per pass, as cells become free
 *      (not while a child's REQUEST is missing, for up to 4 PAPCOLL_ALPHA:
 *      a copy holds the leader off the network);
 *   4. leaves when its children have everything (every REQUEST consumed)
 *      and the ring has the message.
 * The other processes read the ring and consume their REQUESTs (a guess
 * that does not lead also the message or empty message sent to it).
 * Balanced, nothing but the data travels before the data.  Intra-node copies
 * of segment s overlap the inter-node transfer of s+1 (the CP paper's CP); with
 * one segment it is Parsons 2015's Fig. 3.16 with the ID messages sent on
 * arrival to the whole parent node instead of asked for.
 */
#include "node/node.h"
#include "core/p2p.h"

#include <stdlib.h>

typedef struct {
    int node, rank;        /* rank: its leader, -1 until its REQUEST came */
    int guess;             /* the node's lowest rank */
    int guessed;           /* the message went to the guess before the REQUEST came */
    size_t sent, done;     /* segments sent / completed to the leader */
    MPI_Request greq;      /* to the guess: its copy, or (leader asked first) an empty message */
    MPI_Request *sreq;     /* window of send slots */
} child_t;

typedef struct {
    pc_node_call_t nc;
    pc_tree_shape_t shape; /* of the tree of nodes */
    size_t segsize, nseg;
    int window;
    int guessing;          /* single-segment message: children may be guessed */
    int parent;            /* parent leader, -1 at the root or until the first segment came */
    MPI_Request *rreq;     /* window of receive slots */
    size_t received, posted;
    int nchild;
    child_t *child;
    pc_leader_requests_t q; /* REQUESTs of the child nodes */
    size_t copied;         /* ring pieces written */
    double defer_until;    /* copy-in waits for the children's REQUESTs until then (0: not yet set) */
} engine_t;

static size_t seg_len(const engine_t *e, size_t s)
{
    return pc_min_size(e->segsize, e->nc.a->bytes - s * e->segsize);
}

static char *seg_ptr(const engine_t *e, size_t s) { return (char *)e->nc.a->buf + s * e->segsize; }

static int post_receive(engine_t *e)
{
    size_t s = e->posted++;
    MPI_Request *r = &e->rreq[s % (size_t)e->window];
    /* the first from whoever leads my parent node, the others from that process */
    int src = s > 0 ? e->parent : MPI_ANY_SOURCE, tag = s > 0 ? PC_TAG_NODE_DATA : pc_leader_first_tag(&e->nc);
    return pc_irecv(seg_ptr(e, s), seg_len(e, s), src, tag, e->nc.a->ctx->comm, r);
}

/* The first segment came: its sender is my parent. */
static int first_received(engine_t *e, const MPI_Status *st)
{
    int count, rc = PMPI_Get_count(st, MPI_BYTE, &count);
    if (rc == MPI_SUCCESS && (size_t)count != seg_len(e, 0)) rc = MPI_ERR_INTERN; /* not this call's data */
    e->parent = st->MPI_SOURCE;
    while (rc == MPI_SUCCESS && e->posted < e->nseg && e->posted < (size_t)e->window) rc = post_receive(e);
    return rc;
}

static int send_segment(engine_t *e, size_t s, int rank, MPI_Request *req)
{
    int tag = s > 0 ? PC_TAG_NODE_DATA : pc_leader_first_tag(&e->nc);
    return pc_isend(seg_ptr(e, s), seg_len(e, s), rank, tag, e->nc.a->ctx->comm, req);
}

/* The child's leader needs no stream of its own: the guess got the message and leads. */
static int served_by_guess(const child_t *ch) { return ch->guessed && ch->rank == ch->guess; }

/* Whether a child's stream has not started yet (its REQUEST, or its guess, pending). */
static int children_waiting(const engine_t *e)
{
    for (int c = 0; c < e->nchild; c++)
        if (e->child[c].rank < 0 && !e->child[c].guessed) return 1;
    return 0;
}

/* One pass over everything that can move; *moved tells whether anything did. */
static int step(engine_t *e, int *moved)
{
    int rc = MPI_SUCCESS, flag;
    while (e->received < e->posted) { /* parent's segments, in order */
        MPI_Status st;
        size_t s = e->received;
        rc = PMPI_Test(&e->rreq[s % (size_t)e->window], &flag, &st);
        if (rc != MPI_SUCCESS || !flag) break;
        e->received++, *moved = 1;
        if (s == 0) rc = first_received(e, &st);
        else if (e->posted < e->nseg) rc = post_receive(e);
        if (rc != MPI_SUCCESS) return rc;
    }
    if (rc != MPI_SUCCESS) return rc;
    for (int c = 0; e->guessing && e->received == e->nseg && c < e->nchild; c++) {
        child_t *ch = &e->child[c]; /* the guesses, at once: no test call before them */
        if (ch->rank >= 0 || ch->guessed) continue;
        ch->guessed = 1, *moved = 1;
        if ((rc = send_segment(e, 0, ch->guess, &ch->greq)) != MPI_SUCCESS) return rc;
    }
    /* children's REQUESTs, in any order: one MPI_Testany per REQUEST that
     * came, plus one (SMPI makes each test that finds nothing dearer than the
     * last, smpi/grow-injected-times) */
    for (;;) {
        int i, c, leader;
        if ((rc = PMPI_Testany(e->q.n, e->q.req, &i, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
        if (!flag || i == MPI_UNDEFINED) break;
        if ((rc = pc_leader_request_read(&e->nc, &e->q, i, &c, &leader)) != MPI_SUCCESS) return rc;
        e->child[c].rank = leader, *moved = 1;
    }
    for (int c = 0; c < e->nchild; c++) { /* forward to known children, bounded in flight */
        child_t *ch = &e->child[c];
        if (ch->rank < 0 || served_by_guess(ch)) continue;
        if (e->guessing && !ch->guessed && ch->rank != ch->guess && ch->greq == MPI_REQUEST_NULL) {
            /* its leader asked first and is not the guess: the guess gets an empty message */
            rc = PMPI_Isend(NULL, 0, MPI_BYTE, ch->guess, pc_leader_first_tag(&e->nc), e->nc.a->ctx->comm, &ch->greq);
            if (rc != MPI_SUCCESS) return rc;
        }
        while (ch->done < ch->sent) {
            rc = PMPI_Test(&ch->sreq[ch->done % (size_t)e->window], &flag, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS || !flag) break;
            ch->done++, *moved = 1;
        }
        while (rc == MPI_SUCCESS && ch->sent < e->received && ch->sent - ch->done < (size_t)e->window) {
            size_t s = ch->sent++;
            rc = send_segment(e, s, ch->rank, &ch->sreq[s % (size_t)e->window]);
            *moved = 1;
        }
        if (rc != MPI_SUCCESS) return rc;
    }
    /* copy-in, never blocking, one piece per pass (a REQUEST or a segment that
     * comes meanwhile waits for one piece's copy, not the whole message's);
     * and not before every child's stream has started, unless a child keeps
     * its REQUEST for more than a few message latencies: a copy holds the
     * leader off the network, and a child's asking is only a latency away */
    size_t avail = pc_node_pieces_within(&e->nc, e->received * e->segsize);
    if (e->copied < avail && e->received > 0 && e->defer_until == 0 && children_waiting(e))
        e->defer_until = PMPI_Wtime() + 4 * e->nc.a->params->alpha;
    if (e->copied < avail && (!children_waiting(e) || PMPI_Wtime() >= e->defer_until) &&
        pc_shm_try_acquire(e->nc.shm, e->copied)) {
        pc_node_copy_in(&e->nc, e->copied, e->copied + 1);
        e->copied++, *moved = 1;
    }
    return MPI_SUCCESS;
}

static int finished(const engine_t *e)
{
    if (e->received < e->nseg || e->copied < e->nc.npieces) return 0;
    for (int c = 0; c < e->nchild; c++) {
        const child_t *ch = &e->child[c];
        if (ch->rank < 0 || (!served_by_guess(ch) && ch->done < e->nseg)) return 0;
    }
    return 1;
}

/* Every process of a node: the child nodes (of the tree of nodes) and their REQUEST receives, if it gets them. */
static int requests_begin(engine_t *e, pc_tree_t *tree)
{
    int rc = pc_node_tree(&e->nc, e->shape, tree);
    if (rc != MPI_SUCCESS) return rc;
    e->nchild = tree->nchildren;
    e->q.n = pc_leader_messages_for_me(&e->nc) ? tree->nchildren : 0;
    e->q.nodes = tree->children;
    e->q.msg = malloc(((size_t)e->nchild + 1) * sizeof *e->q.msg);
    e->q.req = malloc(((size_t)e->nchild + 1) * sizeof *e->q.req);
    if (!e->q.msg || !e->q.req) return MPI_ERR_NO_MEM;
    return pc_leader_requests_post(&e->nc, &e->q);
}

static void requests_end(engine_t *e, pc_tree_t *tree)
{
    free(e->q.msg);
    free(e->q.req);
    pc_tree_free(tree);
}

static int lead(engine_t *e)
{
    const pc_call_t *a = e->nc.a;
    const pc_comm_t *c = a->ctx;
    pc_tree_t tree = {0};
    long long request[3];
    int is_root = c->rank == a->root, nrequest = 0, rc;
    MPI_Request *request_req = NULL;

    e->rreq = malloc((size_t)e->window * sizeof *e->rreq);
    rc = e->rreq ? requests_begin(e, &tree) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) goto out;
    e->child = calloc((size_t)e->nchild + 1, sizeof *e->child);
    if (!e->child) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int k = 0; k < e->nchild && rc == MPI_SUCCESS; k++) {
        child_t *ch = &e->child[k];
        ch->node = tree.children[k], ch->rank = -1, ch->guess = pc_node_leader(c, ch->node);
        ch->greq = MPI_REQUEST_NULL;
        ch->sreq = malloc((size_t)e->window * sizeof *ch->sreq);
        if (!ch->sreq) rc = MPI_ERR_NO_MEM;
        for (int w = 0; ch->sreq && w < e->window; w++) ch->sreq[w] = MPI_REQUEST_NULL;
    }
    if (rc != MPI_SUCCESS) goto out;

    e->parent = -1;
    if (is_root) {
        e->received = e->posted = e->nseg;
    } else {
        int parent_node = tree.parent;
        request_req = malloc((size_t)pc_leader_addressees(&e->nc, parent_node) * sizeof *request_req);
        rc = request_req ? pc_leader_request_send(&e->nc, parent_node, request, request_req, &nrequest) : MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS) rc = post_receive(e);
        if (rc == MPI_SUCCESS) { /* nothing to forward or copy before it: wait, do not poll */
            MPI_Status st;
            rc = pc_wait_request(&e->rreq[0], &st);
            if (rc == MPI_SUCCESS) e->received = 1, rc = first_received(e, &st);
        }
    }
    while (rc == MPI_SUCCESS && !finished(e)) {
        int moved = 0;
        rc = step(e, &moved);
        if (rc == MPI_SUCCESS && !moved) pc_poll_pause(e->nc.shm);
    }
    if (rc == MPI_SUCCESS) rc = pc_waitall(nrequest, request_req, MPI_STATUSES_IGNORE);
    for (int k = 0; rc == MPI_SUCCESS && k < e->nchild; k++) rc = pc_wait_request(&e->child[k].greq, MPI_STATUS_IGNORE);
out:
    for (int k = 0; e->child && k < e->nchild; k++) free(e->child[k].sreq);
    free(e->child);
    free(e->rreq);
    free(request_req);
    requests_end(e, &tree);
    return rc;
}

static int follow(engine_t *e)
{
    const pc_comm_t *c = e->nc.a->ctx;
    pc_tree_t tree = {0};
    int rc = requests_begin(e, &tree);
    if (rc == MPI_SUCCESS) pc_node_copy_out(&e->nc);
    if (rc == MPI_SUCCESS && e->guessing && c->my_node != e->nc.root_node && c->rank == pc_node_leader(c, c->my_node))
        rc = pc_leader_guess_consume(&e->nc); /* I am my node's guess and someone else leads */
    if (rc == MPI_SUCCESS) rc = pc_leader_requests_wait(&e->nc, &e->q);
    requests_end(e, &tree);
    return rc;
}

int pc_bcast_leader_tree(const pc_call_t *a, pc_tree_shape_t shape, size_t segsize)
{
    engine_t e = {0};
    e.shape = shape;
    int rc = pc_node_begin(a, &e.nc);
    if (rc != MPI_SUCCESS) return rc;
    e.segsize = segsize == 0 || segsize > a->bytes ? a->bytes : segsize;
    if (e.segsize > PC_MAX_MSG) e.segsize = PC_MAX_MSG;
    e.nseg = (a->bytes + e.segsize - 1) / e.segsize;
    e.window = a->params->max_inflight > 0 ? (int)a->params->max_inflight : 1;
    e.guessing = pc_leader_guessing(&e.nc, e.nseg);
    const pc_comm_t *c = a->ctx;
    int on_root_node = c->my_node == e.nc.root_node;
    if (e.guessing && !on_root_node && c->rank != pc_node_leader(c, c->my_node))
        pc_poll_pause(e.nc.shm); /* lets the guess claim the node if it came at the same time */
    int leads = on_root_node ? c->rank == a->root : pc_node_claim(&e.nc);
    return leads ? lead(&e) : follow(&e);
}
