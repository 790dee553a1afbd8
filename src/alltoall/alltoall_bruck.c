/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bruck - ceil(log2 p) steps of one exchange each, blocks stored and
 * forwarded: process r first lays out its blocks rotated, position j
 * holding its block for rank r + j; in step k every process sends the
 * positions j whose bit k is set to rank r + 2^k and receives the same
 * positions from rank r - 2^k.  A block at position j so travels j ranks
 * in all, to its destination, where position j holds the block from rank
 * r - j: one inverse rotation puts them in rank order.
 *
 *   p = 4, process 0:  positions [0->0 0->1 0->2 0->3]
 *     step 0 (bit 0): positions 1 3 to rank 1, from rank 3
 *     step 1 (bit 1): positions 2 3 to rank 2, from rank 2   -> [0 3 2 1]'s blocks
 *
 * A position is final after the step of its highest set bit: it is copied
 * into its receive block then, not after the last step.
 * The v form: a process knows only the sizes of its own blocks, and the
 * positions it forwards carry other processes' blocks, so every step first
 * sends the sizes of the positions it forwards (n 8-byte sizes, n <= p/2),
 * then the data; the plain form's blocks all have the size of one block and
 * need no sizes.  (MPICH has no Bruck alltoallv for that reason; the sizes
 * cost one more latency per step, the price of the v form here.)
 * Cost (Hockney, m bytes sent in all by one process): ceil(log2 p) alpha +
 * ceil(log2 p) m/2 beta + copies of m per step (pack, unpack); the v form
 * adds ceil(log2 p) (alpha + 4 p beta).  Fewer latencies than isend and
 * pairwise, more bytes: the small-message choice of MPICH (<= 256 bytes per
 * block, p >= 8).
 * Late arrival: every step forwards what the previous ones brought, so a
 * late process delays rank r + 2^k in each step k and, after the last
 * arrival, ceil(log2 p) steps remain for everyone.
 * Source: MPICH src/mpi/coll/alltoall/alltoall_intra_brucks.c; Bruck, Ho,
 * Kipnis, Upfal and Weathersby, "Efficient algorithms for all-to-all
 * communications in multiport message-passing systems", IEEE TPDS 8(11) 1997.
 */
#include "alltoall/alltoall.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char **at;          /* [p] where position j's block is now */
    uint64_t *len;      /* [p] its size */
    int *sel;           /* [p] the positions of this step */
    uint64_t *ssizes, *rsizes; /* [p] sizes sent and received in this step */
    char **bufs;        /* received data of each step (positions point into them) */
    int nbufs;
} bruck_t;

static void bruck_free(bruck_t *b)
{
    for (int i = 0; i < b->nbufs; i++) free(b->bufs[i]);
    free(b->bufs);
    free(b->at);
    free(b->len);
    free(b->sel);
    free(b->ssizes);
    free(b->rsizes);
}

/* One step: positions with bit `dist` to me + dist, from me - dist. */
static int step(const pc_call_t *a, bruck_t *b, int dist)
{
    int p = a->ctx->size, me = a->ctx->rank, n = 0, rc;
    int dst = (me + dist) % p, src = (me - dist + p) % p;
    size_t sbytes = 0, rbytes = 0;
    for (int j = 1; j < p; j++)
        if (j & dist) {
            b->ssizes[n] = b->len[j];
            sbytes += b->len[j];
            b->sel[n++] = j;
        }
    char *sbuf = malloc(sbytes ? sbytes : 1);
    if (!sbuf) return MPI_ERR_NO_MEM;
    size_t off = 0; /* pack */
    for (int i = 0; i < n; i++) {
        memcpy(sbuf + off, b->at[b->sel[i]], b->len[b->sel[i]]);
        off += b->len[b->sel[i]];
    }
    rc = MPI_SUCCESS;
    if (a->vform) /* the sizes first: the receiver cannot know them */
        rc = pc_sendrecv(b->ssizes, (size_t)n * sizeof *b->ssizes, dst, b->rsizes, (size_t)n * sizeof *b->rsizes, src,
                         PC_TAG_ALLTOALL_BRUCK_SIZES, a->ctx->comm);
    else
        for (int i = 0; i < n; i++) b->rsizes[i] = pc_blocks_span(&a->rblocks, 0, 0);
    for (int i = 0; i < n; i++) rbytes += b->rsizes[i];
    char *rbuf = rc == MPI_SUCCESS ? malloc(rbytes ? rbytes : 1) : NULL;
    if (rc == MPI_SUCCESS && !rbuf) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = pc_sendrecv(sbuf, sbytes, dst, rbuf, rbytes, src, PC_TAG_ALLTOALL_BRUCK, a->ctx->comm);
    free(sbuf);
    if (rc != MPI_SUCCESS) {
        free(rbuf);
        return rc;
    }
    b->bufs[b->nbufs++] = rbuf;
    off = 0;
    for (int i = 0; i < n; i++) {
        int j = b->sel[i];
        b->at[j] = rbuf + off;
        b->len[j] = b->rsizes[i];
        off += b->rsizes[i];
        if (j < 2 * dist) { /* highest bit: final, the block from me - j */
            int from = (me - j + p) % p;
            size_t want = pc_blocks_span(&a->rblocks, from, from);
            if (b->len[j] > want) rc = MPI_ERR_TRUNCATE;
            memcpy(pc_blocks_at(&a->rblocks, from), b->at[j], b->len[j] < want ? b->len[j] : want);
        }
    }
    return rc;
}

int pc_alltoall_bruck(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS, steps = 0;
    for (int dist = 1; dist < p; dist <<= 1) steps++;
    bruck_t b = {malloc((size_t)p * sizeof(char *)), malloc((size_t)p * sizeof(uint64_t)), malloc((size_t)p * sizeof(int)),
                 malloc((size_t)p * sizeof(uint64_t)), malloc((size_t)p * sizeof(uint64_t)),
                 calloc((size_t)steps + 1, sizeof(char *)), 0};
    if (!b.at || !b.len || !b.sel || !b.ssizes || !b.rsizes || !b.bufs) {
        bruck_free(&b);
        return MPI_ERR_NO_MEM;
    }
    for (int j = 0; j < p; j++) { /* the rotation: position j holds my block for me + j */
        int to = (me + j) % p;
        b.at[j] = pc_blocks_at(&a->sblocks, to);
        b.len[j] = pc_blocks_span(&a->sblocks, to, to);
    }
    for (int dist = 1; dist < p && rc == MPI_SUCCESS; dist <<= 1) rc = step(a, &b, dist);
    bruck_free(&b);
    return rc;
}
