/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * linear - the pipelined chain: rank i receives the prefix of ranks 0..i-1
 * from rank i - 1, combines its own contribution on the right and forwards
 * the result to rank i + 1, segment by segment (whole elements, about
 * PAPCOLL_SCAN_SEGMENT bytes each), so segment k + 1 travels down the chain
 * while segment k is combined further on.
 *
 *   rank:   0 ---> 1 ---> 2 ---> ... ---> p-1
 *   sends:  x0     x0x1   x0x1x2          (nothing)
 *   scan result at i:   what came from i-1, op x_i (rank 0: x_0)
 *   exscan result at i: what came from i-1 as it is (rank 0: untouched)
 *
 * Each process posts the receive of segment k + 1 before it combines
 * segment k, and keeps at most two sends in flight (two scratch segments):
 * a late receiver is never sent more than that.
 * Cost (Hockney, s segments of m/s bytes, gamma: local reduction per byte):
 *   (p - 2 + s) (alpha + beta m/s + gamma m/s): for long vectors about
 *   m (beta + gamma) + (p - 2) (alpha + ...) of one segment; the unsegmented
 *   chain (s = 1) costs (p - 1) (alpha + beta m + gamma m).
 * Late arrival: rank i receives only from rank i - 1 and never waits for a
 * higher rank, so it leaves once ranks 0..i have arrived and the prefix has
 * come down the chain: max over j <= i of (a_j + (i - j) hops), which is
 * what MPI_Scan's data dependences allow (rank i's result depends on
 * x_0..x_i); ranks below a late process are not held up at all (in
 * recursive_doubling everybody waits for the last arrival).  The price is
 * p - 1 hops of latency for the last rank.
 * Limitations: p - 1 latencies: for short vectors at scale recursive_doubling
 * is faster when everyone arrives together.  Memory: up to four segments of
 * scratch (two received, two sent; exscan receives into recvbuf).
 * Parameters: PAPCOLL_SCAN_SEGMENT.
 * Source: the pipelined chain of Open MPI's coll/base scan and exscan
 * (ompi_coll_base_scan_intra_linear, unsegmented) segmented as the
 * pipelined broadcast chain (Patarasuk & Yuan 2008 §3 on its behaviour
 * under arrival patterns); the linear scan's place in Sanders & Traff 2006.
 */
#include "scan/scan.h"

#include <stdlib.h>

typedef struct {
    const pc_call_t *a;
    long seg, nseg;          /* elements per segment, segments */
    void *in[2], *out[2];    /* scratch segments: received prefix (scan), what I send (exscan) */
    MPI_Request recv, send[2];
} chain_t;

static long seg_count(const chain_t *c, long k)
{
    long left = c->a->count - k * c->seg;
    return left < c->seg ? left : c->seg;
}

static char *seg_at(const chain_t *c, const void *buf, long k) { return pc_red_at(c->a, buf, k * c->seg); }

/* Posts the receive of segment k from rank - 1: scan into a scratch
 * segment; exscan straight into recvbuf (my own contribution copied out
 * first when it is there, in place, and I forward). */
static int post_recv(chain_t *c, long k, int forwards)
{
    const pc_call_t *a = c->a;
    void *into = c->in[k % 2];
    if (pc_scan_exclusive(a)) {
        into = seg_at(c, a->recvbuf, k);
        if (forwards) {
            int rc = PMPI_Wait(&c->send[k % 2], MPI_STATUS_IGNORE); /* out[k % 2] free again */
            if (rc == MPI_SUCCESS) rc = pc_red_copy(a, c->out[k % 2], seg_at(c, a->sendbuf, k), seg_count(c, k));
            if (rc != MPI_SUCCESS) return rc;
        }
    }
    return PMPI_Irecv(into, (int)seg_count(c, k), a->datatype, a->ctx->rank - 1, PC_TAG_SCAN_CHAIN, a->ctx->comm,
                      &c->recv);
}

/* Segment k at a process with a predecessor (received) and a successor or
 * not: combine, forward. */
static int step(chain_t *c, long k, int forwards)
{
    const pc_call_t *a = c->a;
    long n = seg_count(c, k);
    int rc = PMPI_Wait(&c->recv, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && k + 1 < c->nseg) rc = post_recv(c, k + 1, forwards);
    if (rc != MPI_SUCCESS) return rc;
    const void *send;
    if (pc_scan_exclusive(a)) { /* result = the prefix as received; send prefix op mine */
        if (!forwards) return MPI_SUCCESS;
        rc = pc_red_local(a, seg_at(c, a->recvbuf, k), c->out[k % 2], n);
        send = c->out[k % 2];
    } else { /* result = prefix op mine */
        void *mine = seg_at(c, a->recvbuf, k);
        rc = pc_red_copy(a, mine, seg_at(c, a->sendbuf, k), n);
        if (rc == MPI_SUCCESS) rc = pc_red_local(a, c->in[k % 2], mine, n);
        send = mine;
        if (forwards && rc == MPI_SUCCESS) rc = PMPI_Wait(&c->send[k % 2], MPI_STATUS_IGNORE);
    }
    if (rc != MPI_SUCCESS || !forwards) return rc;
    return PMPI_Isend(send, (int)n, a->datatype, a->ctx->rank + 1, PC_TAG_SCAN_CHAIN, a->ctx->comm, &c->send[k % 2]);
}

/* Rank 0: its contribution down the chain (scan: also its result). */
static int first(chain_t *c)
{
    const pc_call_t *a = c->a;
    int rc = MPI_SUCCESS;
    if (!pc_scan_exclusive(a)) rc = pc_red_copy(a, a->recvbuf, a->sendbuf, a->count);
    for (long k = 0; k < c->nseg && rc == MPI_SUCCESS; k++) {
        rc = PMPI_Wait(&c->send[k % 2], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Isend(seg_at(c, a->sendbuf, k), (int)seg_count(c, k), a->datatype, 1, PC_TAG_SCAN_CHAIN,
                            a->ctx->comm, &c->send[k % 2]);
    }
    return rc;
}

int pc_scan_linear(const pc_call_t *a)
{
    int rank = a->ctx->rank, p = a->ctx->size, forwards = rank + 1 < p, rc = MPI_SUCCESS;
    size_t type_size = a->bytes / (size_t)a->count, segment = a->params->scan.segment;
    chain_t c = {.a = a, .recv = MPI_REQUEST_NULL, .send = {MPI_REQUEST_NULL, MPI_REQUEST_NULL}};
    void *base[4] = {NULL, NULL, NULL, NULL};
    c.seg = type_size && segment / type_size > 0 ? (long)(segment / type_size) : 1;
    if (c.seg > a->count) c.seg = a->count;
    c.nseg = (a->count + c.seg - 1) / c.seg;

    if (rank == 0) {
        rc = first(&c);
        goto out;
    }
    int need_in = !pc_scan_exclusive(a), need_out = pc_scan_exclusive(a) && forwards;
    for (int i = 0; i < 2; i++)
        if ((need_in && !(c.in[i] = pc_red_alloc(a, c.seg, &base[i]))) ||
            (need_out && !(c.out[i] = pc_red_alloc(a, c.seg, &base[2 + i])))) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
    rc = post_recv(&c, 0, forwards);
    for (long k = 0; k < c.nseg && rc == MPI_SUCCESS; k++) rc = step(&c, k, forwards);
out:
    if (rc != MPI_SUCCESS && c.recv != MPI_REQUEST_NULL) { /* never free a buffer a request may still write */
        PMPI_Cancel(&c.recv);
        PMPI_Wait(&c.recv, MPI_STATUS_IGNORE);
    }
    int wrc = PMPI_Waitall(2, c.send, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS) rc = wrc;
    for (int i = 0; i < 4; i++) free(base[i]);
    return rc;
}
