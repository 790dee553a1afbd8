/*
 * bcast_leader_tree.c - the dynamic-leader node tree engine shared by
 * dynleader (whole message per hop), cp_binomial and cp_chain (segmented,
 * pipelined).
 *
 * Each node's leader is its first process to arrive (the root on the root's
 * node).  Leaders form a tree of nodes (binomial, or a chain for cp_chain)
 * rooted at the root's node.
 * A leader, as soon as it has claimed its node:
 *   1. announces itself (READY) to every process of its child nodes;
 *   2. waits for its parent leader's READY and answers with a REQUEST;
 *   3. then, in one progress loop: receives segments from its parent (a
 *      window of receives posted ahead), forwards each to the child leaders
 *      whose REQUEST has come (in the order they came; at most
 *      max_inflight sends outstanding per child), and copies the received
 *      prefix into the node ring, cell by cell, as cells become free;
 *   4. leaves when its children have everything and the ring has the message.
 * The other processes only read the ring (and consume their READY) and leave.
 * Intra-node copies of segment s overlap the inter-node transfer of s+1
 * (seed 000's CP); with one segment it is seed 001's Fig. 3.16.
 */
#include "node/node.h"
#include "core/p2p.h"

#include <stdlib.h>

typedef struct {
    int node, rank;        /* rank: -1 until its REQUEST came */
    size_t sent, done;     /* segments sent / completed */
    MPI_Request *sreq;     /* window of send slots */
} child_t;

typedef struct {
    pc_node_call_t nc;
    pc_tree_shape_t shape; /* of the tree of nodes */
    size_t segsize, nseg;
    int window;
    int parent;            /* parent leader, -1 at the root */
    MPI_Request *rreq;     /* window of receive slots */
    size_t received, posted;
    int nchild;
    child_t *child;
    MPI_Request *qreq;     /* REQUEST receives */
    long long (*qmsg)[3];  /* {seq, rank, node} */
    size_t copied;         /* ring pieces written */
} engine_t;

static size_t seg_len(const engine_t *e, size_t s)
{
    return pc_min_size(e->segsize, e->nc.a->bytes - s * e->segsize);
}

static int post_receive(engine_t *e)
{
    size_t s = e->posted++;
    return pc_irecv((char *)e->nc.a->buf + s * e->segsize, seg_len(e, s), e->parent, PC_TAG_NODE_DATA,
                    e->nc.a->ctx->comm, &e->rreq[s % (size_t)e->window]);
}

/* One pass over everything that can move; *moved tells whether anything did. */
static int step(engine_t *e, int *moved)
{
    int rc = MPI_SUCCESS, flag;
    MPI_Comm comm = e->nc.a->ctx->comm;
    while (e->received < e->posted) { /* parent's segments, in order */
        rc = PMPI_Test(&e->rreq[e->received % (size_t)e->window], &flag, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS || !flag) break;
        e->received++, *moved = 1;
        if (e->posted < e->nseg && (rc = post_receive(e)) != MPI_SUCCESS) return rc;
    }
    if (rc != MPI_SUCCESS) return rc;
    if (e->nchild) { /* children's REQUESTs, in any order */
        int n, *idx = malloc((size_t)e->nchild * sizeof *idx);
        if (!idx) return MPI_ERR_NO_MEM;
        rc = PMPI_Testsome(e->nchild, e->qreq, &n, idx, MPI_STATUSES_IGNORE);
        for (int i = 0; rc == MPI_SUCCESS && n != MPI_UNDEFINED && i < n; i++) {
            long long *m = e->qmsg[idx[i]];
            if (m[0] != (long long)e->nc.seq) rc = MPI_ERR_INTERN;
            for (int c = 0; c < e->nchild; c++)
                if (e->child[c].node == m[2]) e->child[c].rank = (int)m[1];
            *moved = 1;
        }
        free(idx);
        if (rc != MPI_SUCCESS) return rc;
    }
    for (int c = 0; c < e->nchild; c++) { /* forward to known children, bounded in flight */
        child_t *ch = &e->child[c];
        if (ch->rank < 0) continue;
        while (ch->done < ch->sent) {
            rc = PMPI_Test(&ch->sreq[ch->done % (size_t)e->window], &flag, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS || !flag) break;
            ch->done++, *moved = 1;
        }
        while (rc == MPI_SUCCESS && ch->sent < e->received && ch->sent - ch->done < (size_t)e->window) {
            size_t s = ch->sent++;
            rc = pc_isend((char *)e->nc.a->buf + s * e->segsize, seg_len(e, s), ch->rank, PC_TAG_NODE_DATA, comm,
                          &ch->sreq[s % (size_t)e->window]);
            *moved = 1;
        }
        if (rc != MPI_SUCCESS) return rc;
    }
    size_t avail = pc_node_pieces_within(&e->nc, e->received * e->segsize);
    while (e->copied < avail && pc_shm_try_acquire(e->nc.shm, e->copied)) { /* copy-in, never blocking */
        pc_node_copy_in(&e->nc, e->copied, e->copied + 1);
        e->copied++, *moved = 1;
    }
    return MPI_SUCCESS;
}

static int finished(const engine_t *e)
{
    if (e->received < e->nseg || e->copied < e->nc.npieces) return 0;
    for (int c = 0; c < e->nchild; c++)
        if (e->child[c].rank < 0 || e->child[c].done < e->nseg) return 0;
    return 1;
}

static int lead(engine_t *e)
{
    const pc_call_t *a = e->nc.a;
    pc_tree_t tree = {0};
    long long ready[2], request[3] = {(long long)e->nc.seq, a->ctx->rank, a->ctx->my_node};
    MPI_Request ready_req = MPI_REQUEST_NULL, request_req = MPI_REQUEST_NULL;
    int is_root = a->ctx->rank == a->root, rc = MPI_SUCCESS;

    if (!is_root && (rc = pc_leader_ready_post(&e->nc, ready, &ready_req)) != MPI_SUCCESS) return rc;
    if ((rc = pc_node_tree(&e->nc, e->shape, &tree)) != MPI_SUCCESS) return rc;
    e->nchild = tree.nchildren;
    e->child = calloc((size_t)e->nchild + 1, sizeof *e->child);
    e->qreq = malloc(((size_t)e->nchild + 1) * sizeof *e->qreq);
    e->qmsg = malloc(((size_t)e->nchild + 1) * sizeof *e->qmsg);
    e->rreq = malloc((size_t)e->window * sizeof *e->rreq);
    if (!e->child || !e->qreq || !e->qmsg || !e->rreq) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int c = 0; c < e->nchild && rc == MPI_SUCCESS; c++) {
        child_t *ch = &e->child[c];
        ch->node = tree.children[c], ch->rank = -1;
        ch->sreq = malloc((size_t)e->window * sizeof *ch->sreq);
        if (!ch->sreq) rc = MPI_ERR_NO_MEM;
        for (int w = 0; ch->sreq && w < e->window; w++) ch->sreq[w] = MPI_REQUEST_NULL;
        if (rc == MPI_SUCCESS)
            rc = PMPI_Irecv(e->qmsg[c], 3, MPI_LONG_LONG, MPI_ANY_SOURCE,
                            pc_window_tag(PC_TAG_LEADER_REQUEST, e->nc.seq), a->ctx->comm, &e->qreq[c]);
    }
    if (rc == MPI_SUCCESS) rc = pc_leader_announce(&e->nc, tree.children, tree.nchildren);
    if (rc != MPI_SUCCESS) goto out;

    e->parent = -1;
    if (is_root) {
        e->received = e->posted = e->nseg;
    } else {
        if ((rc = pc_leader_ready_wait(&e->nc, ready, &ready_req, &e->parent)) != MPI_SUCCESS) goto out;
        rc = PMPI_Isend(request, 3, MPI_LONG_LONG, e->parent, pc_window_tag(PC_TAG_LEADER_REQUEST, e->nc.seq),
                        a->ctx->comm, &request_req);
        while (rc == MPI_SUCCESS && e->posted < e->nseg && e->posted < (size_t)e->window) rc = post_receive(e);
    }
    while (rc == MPI_SUCCESS && !finished(e)) {
        int moved = 0;
        rc = step(e, &moved);
        if (rc == MPI_SUCCESS && !moved) pc_poll_pause(e->nc.shm);
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Wait(&request_req, MPI_STATUS_IGNORE);
out:
    for (int c = 0; e->child && c < e->nchild; c++) free(e->child[c].sreq);
    free(e->child);
    free(e->qreq);
    free(e->qmsg);
    free(e->rreq);
    pc_tree_free(&tree);
    return rc;
}

static int follow(const pc_node_call_t *nc)
{
    long long ready[2];
    MPI_Request req = MPI_REQUEST_NULL;
    int leader, rc = MPI_SUCCESS, on_root_node = nc->a->ctx->my_node == nc->root_node;
    if (!on_root_node) rc = pc_leader_ready_post(nc, ready, &req);
    if (rc != MPI_SUCCESS) return rc;
    pc_node_copy_out(nc);
    return on_root_node ? MPI_SUCCESS : pc_leader_ready_wait(nc, ready, &req, &leader);
}

int pc_bcast_leader_tree(const pc_call_t *a, pc_tree_shape_t shape, size_t segsize)
{
    engine_t e = {0};
    e.shape = shape;
    int rc = pc_node_begin(a, &e.nc);
    if (rc != MPI_SUCCESS) return rc;
    int on_root_node = a->ctx->my_node == e.nc.root_node;
    int leads = on_root_node ? a->ctx->rank == a->root : pc_node_claim(&e.nc);
    if (!leads) return follow(&e.nc);
    e.segsize = segsize == 0 || segsize > a->bytes ? a->bytes : segsize;
    if (e.segsize > PC_MAX_MSG) e.segsize = PC_MAX_MSG;
    e.nseg = (a->bytes + e.segsize - 1) / e.segsize;
    e.window = a->params->max_inflight > 0 ? (int)a->params->max_inflight : 1;
    return lead(&e);
}
