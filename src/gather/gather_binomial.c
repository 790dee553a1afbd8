/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * binomial - MPICH's binomial gather: in step j a process whose relative
 * rank (rank - root mod p) has bit j set sends everything it has gathered
 * (its subtree's blocks, in relative rank order, one message) to the
 * process 2^j below it and leaves; the others receive their child's
 * subtree after their own.
 *
 *   p = 8, root 0 (relative ranks):
 *     step 0:  1->0  3->2  5->4  7->6      (one block each)
 *     step 1:  2->0  6->4                  (two blocks)
 *     step 2:  4->0                        (four blocks)
 *
 * Interior processes gather into a temporary buffer; the root receives each
 * subtree straight into its blocks unless the subtree wraps past rank p - 1
 * (a root other than 0), then through a temporary buffer.
 * The v form (gatherv): a process knows only its own block's size, so every
 * subtree message is preceded by its byte total (8 bytes, PC_TAG_GATHER_SIZES):
 * the counts travel up with the data and are never made global (Parsons 2015
 * 2.3.1's "non-global data is never made global").  The root knows every
 * size and checks the totals (MPI_ERR_TRUNCATE when they differ from its
 * counts).  The plain form needs no sizes: every block is as large as mine.
 * Cost (Hockney, m bytes gathered in all, blocks of m/p): ceil(log2 p) alpha
 * + (p - 1)/p m beta (v form: + ceil(log2 p) alpha for the totals); interior
 * processes copy their subtree once more.
 * Late arrival: a process can only send once its whole subtree has come in,
 * so a late process holds up its ancestors' sends (up to log2 p of them,
 * each waiting in turn); the root finishes at best log2 p steps after the
 * last arrival.  Processes that are leaves leave right after their send.
 * Source: MPICH src/mpi/coll/gather/gather_intra_binomial.c; Open MPI
 * ompi/mca/coll/base/coll_base_gather.c ompi_coll_base_gather_intra_binomial.
 */
#include "gather/gather.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Relative ranks [first, first + n) of a child's subtree into the root's
 * blocks (through scratch when they wrap past rank p - 1). */
static int root_receive(const pc_call_t *a, int first, int n, int src)
{
    int p = a->ctx->size, lo = (a->root + first) % p, hi = (a->root + first + n - 1) % p, rc;
    const pc_blocks_t *b = &a->rblocks;
    size_t bytes = hi >= lo ? pc_blocks_span(b, lo, hi) : pc_blocks_span(b, lo, p - 1) + pc_blocks_span(b, 0, hi);
    if (a->vform) { /* the child's total, checked against the counts */
        uint64_t total;
        rc = pc_recv(&total, sizeof total, src, PC_TAG_GATHER_SIZES, a->ctx->comm);
        if (rc == MPI_SUCCESS && total != bytes) rc = MPI_ERR_TRUNCATE;
        if (rc != MPI_SUCCESS) return rc;
    }
    if (hi >= lo) return pc_recv(pc_blocks_at(b, lo), bytes, src, PC_TAG_GATHER_DATA, a->ctx->comm);
    char *scratch = malloc(bytes ? bytes : 1);
    if (!scratch) return MPI_ERR_NO_MEM;
    rc = pc_recv(scratch, bytes, src, PC_TAG_GATHER_DATA, a->ctx->comm);
    if (rc == MPI_SUCCESS) {
        size_t upper = pc_blocks_span(b, lo, p - 1);
        memcpy(pc_blocks_at(b, lo), scratch, upper);
        memcpy(pc_blocks_at(b, 0), scratch + upper, bytes - upper);
    }
    free(scratch);
    return rc;
}

static int root_gather(const pc_call_t *a)
{
    int p = a->ctx->size, rc = MPI_SUCCESS;
    for (int mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1)
        rc = root_receive(a, mask, mask < p - mask ? mask : p - mask, (a->root + mask) % p);
    return rc;
}

int pc_gather_binomial(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rel = (me - a->root + p) % p, rc = MPI_SUCCESS;
    if (me == a->root) return root_gather(a);
    size_t mine = pc_blocks_span(&a->sblocks, 0, 0), have = mine, cap = mine;
    int low = rel & -rel; /* my subtree: relative ranks [rel, rel + low) */
    char *tmp = NULL;
    if (low > 1) { /* interior: my block, then each child's subtree */
        cap = a->vform ? mine : mine * (size_t)(low < p - rel ? low : p - rel);
        tmp = malloc(cap ? cap : 1);
        if (!tmp) return MPI_ERR_NO_MEM;
        if (mine) memcpy(tmp, a->sblocks.base, mine);
    }
    for (int mask = 1; mask < low && rel + mask < p && rc == MPI_SUCCESS; mask <<= 1) {
        int child = (me + mask) % p, nblocks = mask < p - rel - mask ? mask : p - rel - mask;
        size_t bytes = mine * (size_t)nblocks;
        if (a->vform) {
            uint64_t total;
            rc = pc_recv(&total, sizeof total, child, PC_TAG_GATHER_SIZES, a->ctx->comm);
            bytes = (size_t)total;
            if (rc == MPI_SUCCESS && have + bytes > cap) {
                char *grown = realloc(tmp, have + bytes);
                if (!grown) rc = MPI_ERR_NO_MEM;
                else tmp = grown, cap = have + bytes;
            }
        }
        if (rc == MPI_SUCCESS) rc = pc_recv(tmp + have, bytes, child, PC_TAG_GATHER_DATA, a->ctx->comm);
        have += bytes;
    }
    int parent = (me - low + p) % p;
    uint64_t total = have;
    if (rc == MPI_SUCCESS && a->vform) rc = pc_send(&total, sizeof total, parent, PC_TAG_GATHER_SIZES, a->ctx->comm);
    if (rc == MPI_SUCCESS) rc = pc_send(tmp ? tmp : a->sblocks.base, have, parent, PC_TAG_GATHER_DATA, a->ctx->comm);
    free(tmp);
    return rc;
}
