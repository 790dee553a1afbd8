/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tree_engine.c - the segmented tree engine, down (pc_tree_bcast) and up
 * (pc_tree_reduce); see tree_engine.h.
 *
 * Cost (Hockney, message m in k segments, tree of height h, at most c
 * children per process, all arriving together; gamma: time per byte of a
 * local reduction):
 *   down, blocking:    about (h + k - 1) * c * (alpha + beta m / k)
 *   down, nonblocking: the same bound; sends to children overlap where the network allows.
 *   up:                about (h + k - 1) * c * (alpha + (beta + gamma) m / k): receives
 *                      from the children overlap, combinations are serial.
 * Late arrival: down, a process forwards only what it has received, so a
 * late process delays its whole subtree; a sender has at most max_inflight
 * segments outstanding towards a late child (bounded memory and flooding).
 * Up, a process can send segment s only when its whole subtree has
 * contributed to it, so a late process delays its ancestors up to the root;
 * its early siblings' segments are received meanwhile (receives posted
 * ahead) and combined as soon as the late one's segment is in.
 * Error path: every posted request is completed before its buffer is freed
 * (receives are cancelled first: their sender may never come).
 */
#include "sched/tree_engine.h"
#include "coll/reduction.h"
#include "core/p2p.h"

#include <stdlib.h>

/* Completes req[0..n-1] after an error, cancelling receives (cancel != 0)
 * whose sender may have given up; errors here are not reported (the first
 * error is). */
static void drain(MPI_Request *req, int n, int cancel)
{
    for (int i = 0; req && i < n; i++) {
        if (req[i] == MPI_REQUEST_NULL) continue;
        if (cancel) PMPI_Cancel(&req[i]);
        pc_wait_request(&req[i], MPI_STATUS_IGNORE);
    }
}

static size_t seg_len(size_t bytes, size_t segsize, size_t s)
{
    return pc_min_size(segsize, bytes - s * segsize);
}

static int blocking(char *buf, size_t bytes, size_t segsize, size_t nseg, const pc_tree_t *t, MPI_Comm comm,
                    int tag)
{
    for (size_t s = 0; s < nseg; s++) {
        char *seg = buf + s * segsize;
        size_t len = seg_len(bytes, segsize, s);
        int rc = t->parent >= 0 ? pc_recv(seg, len, t->parent, tag, comm) : MPI_SUCCESS;
        for (int c = 0; rc == MPI_SUCCESS && c < t->nchildren; c++) rc = pc_send(seg, len, t->children[c], tag, comm);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

static int nonblocking(char *buf, size_t bytes, size_t segsize, size_t nseg, const pc_tree_t *t, int window,
                       MPI_Comm comm, int tag)
{
    int nc = t->nchildren, rc = MPI_SUCCESS;
    MPI_Request *rreq = malloc((size_t)window * sizeof *rreq);
    MPI_Request *sreq = malloc((size_t)window * (size_t)(nc ? nc : 1) * sizeof *sreq);
    if (!rreq || !sreq) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 0; i < window; i++) rreq[i] = MPI_REQUEST_NULL;
    for (int i = 0; i < window * nc; i++) sreq[i] = MPI_REQUEST_NULL;

    if (t->parent >= 0)
        for (size_t s = 0; s < nseg && s < (size_t)window && rc == MPI_SUCCESS; s++)
            rc = pc_irecv(buf + s * segsize, seg_len(bytes, segsize, s), t->parent, tag, comm, &rreq[s]);
    for (size_t s = 0; s < nseg && rc == MPI_SUCCESS; s++) {
        int slot = (int)(s % (size_t)window);
        char *seg = buf + s * segsize;
        if (t->parent >= 0) {
            rc = pc_wait_request(&rreq[slot], MPI_STATUS_IGNORE);
            size_t next = s + (size_t)window;
            if (rc == MPI_SUCCESS && next < nseg)
                rc = pc_irecv(buf + next * segsize, seg_len(bytes, segsize, next), t->parent, tag, comm, &rreq[slot]);
        }
        for (int c = 0; c < nc && rc == MPI_SUCCESS; c++) {
            MPI_Request *r = &sreq[c * window + slot];
            rc = pc_wait_request(r, MPI_STATUS_IGNORE); /* bounded in flight towards child c */
            if (rc == MPI_SUCCESS) rc = pc_isend(seg, seg_len(bytes, segsize, s), t->children[c], tag, comm, r);
        }
    }
    if (rc == MPI_SUCCESS) rc = pc_waitall(window * nc, sreq, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS) rc = pc_waitall(window, rreq, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) {
        drain(rreq, window, 1);
        drain(sreq, window * nc, 0);
    }
out:
    free(rreq);
    free(sreq);
    return rc;
}

int pc_tree_bcast(void *buf, size_t bytes, size_t segsize, const pc_tree_t *tree, pc_send_mode_t mode,
                  int max_inflight, MPI_Comm comm, int tag)
{
    if (bytes == 0) return MPI_SUCCESS;
    if (segsize == 0 || segsize > bytes) segsize = bytes;
    if (segsize > PC_MAX_MSG) segsize = PC_MAX_MSG;
    size_t nseg = (bytes + segsize - 1) / segsize;
    if (mode == PC_SEND_BLOCKING) return blocking(buf, bytes, segsize, nseg, tree, comm, tag);
    return nonblocking(buf, bytes, segsize, nseg, tree, max_inflight > 0 ? max_inflight : 1, comm, tag);
}

/* ---- up: reduction ---------------------------------------------------- */

/* One reduction up the tree, as one process sees it. */
typedef struct up {
    const pc_call_t *a;
    const pc_tree_t *t;
    long count, seg, nseg; /* elements, elements per segment, segments */
    int tag;
    int window;            /* sends outstanding towards the parent */
    int sync;              /* synchronous sends (flow control: more segments than window) */
    MPI_Request *sreq;     /* [window] sends to the parent, slot s % window */
    int nslots;            /* receives posted ahead, receive k in slot k % nslots */
    MPI_Request *rreq;     /* [nslots] */
    void **slot, **slot_base; /* [nslots] receive buffers of seg elements */
} up_t;

static long seg_count_of(const up_t *u, long s)
{
    long n = u->count - s * u->seg;
    return n < u->seg ? n : u->seg;
}

/* Receive k of a process with children: segment k / nchildren of child k % nchildren. */
static int post_recv(up_t *u, long k)
{
    int nc = u->t->nchildren, i = (int)(k % u->nslots);
    long s = k / nc;
    return PMPI_Irecv(u->slot[i], (int)seg_count_of(u, s), u->a->datatype, u->t->children[k % nc], u->tag,
                      u->a->ctx->comm, &u->rreq[i]);
}

/* Sends segment s of buf to the parent once slot s % window is free. */
static int send_up(up_t *u, const void *buf, long s)
{
    MPI_Request *r = &u->sreq[s % u->window];
    int rc = pc_wait_request(r, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    const void *seg = pc_red_at(u->a, buf, s * u->seg);
    int n = (int)seg_count_of(u, s);
    MPI_Comm comm = u->a->ctx->comm;
    return u->sync ? PMPI_Issend(seg, n, u->a->datatype, u->t->parent, u->tag, comm, r)
                   : PMPI_Isend(seg, n, u->a->datatype, u->t->parent, u->tag, comm, r);
}

/* acc = acc op child for n elements: the child's subtree follows mine. */
static int combine(const up_t *u, void *child, void *acc, long n)
{
    if (u->a->commutative) return pc_red_local(u->a, child, acc, n); /* acc = child op acc */
    int rc = pc_red_local(u->a, acc, child, n);                       /* child = acc op child */
    return rc == MPI_SUCCESS ? pc_red_copy(u->a, acc, child, n) : rc;
}

int pc_tree_reduce(const pc_call_t *a, const void *sendbuf, void *result, long count, long seg_count,
                   const pc_tree_t *tree, int max_inflight, int tag)
{
    if (count <= 0) return MPI_SUCCESS;
    up_t u = {.a = a, .t = tree, .count = count, .seg = seg_count > 0 && seg_count < count ? seg_count : count,
              .tag = tag, .window = max_inflight > 0 ? max_inflight : 1};
    u.nseg = (count + u.seg - 1) / u.seg;
    u.sync = u.nseg > u.window;
    int nc = tree->nchildren, is_root = tree->parent < 0, rc = MPI_SUCCESS;
    long nrecv = u.nseg * nc;
    u.nslots = nrecv < u.window ? (int)nrecv : u.window;
    void *acc = is_root ? result : (void *)sendbuf, *acc_base = NULL; /* a leaf sends its own data */

    if (is_root && !result) return MPI_ERR_BUFFER;
    if (!is_root) {
        if (!(u.sreq = malloc((size_t)u.window * sizeof *u.sreq))) return MPI_ERR_NO_MEM;
        for (int i = 0; i < u.window; i++) u.sreq[i] = MPI_REQUEST_NULL;
    }
    if (nc > 0) {
        if ((u.rreq = malloc((size_t)u.nslots * sizeof *u.rreq)))
            for (int i = 0; i < u.nslots; i++) u.rreq[i] = MPI_REQUEST_NULL;
        u.slot = calloc((size_t)u.nslots, sizeof *u.slot);
        u.slot_base = calloc((size_t)u.nslots, sizeof *u.slot_base);
        if (!is_root) acc = pc_red_alloc(a, count, &acc_base);
        if (!u.rreq || !u.slot || !u.slot_base || !acc) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        for (int i = 0; i < u.nslots; i++)
            if (!(u.slot[i] = pc_red_alloc(a, u.seg, &u.slot_base[i]))) {
                rc = MPI_ERR_NO_MEM;
                goto out;
            }
        for (long k = 0; k < u.nslots && rc == MPI_SUCCESS; k++) rc = post_recv(&u, k);
    }
    if (rc == MPI_SUCCESS && acc != sendbuf) rc = pc_red_copy(a, acc, sendbuf, count); /* my own value first */
    for (long s = 0; s < u.nseg && rc == MPI_SUCCESS; s++) {
        void *acc_seg = pc_red_at(a, acc, s * u.seg);
        for (int c = 0; c < nc && rc == MPI_SUCCESS; c++) {
            long k = s * nc + c;
            int i = (int)(k % u.nslots);
            rc = pc_wait_request(&u.rreq[i], MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS) rc = combine(&u, u.slot[i], acc_seg, seg_count_of(&u, s));
            if (rc == MPI_SUCCESS && k + u.nslots < nrecv) rc = post_recv(&u, k + u.nslots);
        }
        if (rc == MPI_SUCCESS && !is_root) rc = send_up(&u, acc, s);
    }
    if (rc == MPI_SUCCESS && u.sreq) rc = pc_waitall(u.window, u.sreq, MPI_STATUSES_IGNORE);
out:
    if (rc != MPI_SUCCESS) {
        drain(u.rreq, u.rreq ? u.nslots : 0, 1);
        drain(u.sreq, u.window, 0);
    }
    for (int i = 0; u.slot_base && i < u.nslots; i++) free(u.slot_base[i]);
    free(u.slot_base);
    free(u.slot);
    free(u.rreq);
    free(u.sreq);
    free(acc_base);
    return rc;
}
