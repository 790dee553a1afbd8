/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * binomial - MPICH's binomial scatter: the root sends the upper half of the
 * blocks (in relative rank order, rank - root mod p) to relative rank p/2,
 * then a quarter to p/4 ...; each process receives its subtree's blocks
 * from its parent in one message and hands on the upper parts the same way,
 * keeping its own block.
 *
 *   p = 8, root 0 (relative ranks):
 *     step 0:  0->4 (blocks 4-7)
 *     step 1:  0->2 (2-3)   4->6 (6-7)
 *     step 2:  0->1  2->3  4->5  6->7   (one block each)
 *
 * The root sends each subtree straight from its blocks unless it wraps past
 * rank p - 1 (a root other than 0), then through a temporary buffer;
 * interior processes receive their subtree into a temporary buffer, leaves
 * straight into their block.
 * The v form (scatterv): only the root knows the counts, so every subtree
 * message is preceded by the byte sizes of the subtree's blocks (8 bytes
 * per block, PC_TAG_SCATTER_SIZES): a process learns the sizes of its own
 * subtree and no others (Parsons 2015 §2.3.1: non-global counts never made
 * global).  A process checks its own size against its receive count
 * (MPI_ERR_TRUNCATE when the block is larger).  The plain form needs no
 * sizes: every block is as large as mine.
 * Cost (Hockney, m bytes scattered in all, blocks of m/p): ceil(log2 p)
 * alpha + (p - 1)/p m beta (v form: + ceil(log2 p) alpha for the sizes);
 * interior processes keep a copy of their subtree.
 * Late arrival: the root sends the largest subtree first and in order, so a
 * late relative rank p/2 holds the root (rendezvous) and with it everyone
 * else; a late process delays its whole subtree, never its ancestors'
 * other subtrees once they are sent.
 * Source: MPICH src/mpi/coll/scatter/scatter_intra_binomial.c; Open MPI
 * ompi/mca/coll/base/coll_base_scatter.c ompi_coll_base_scatter_intra_binomial.
 */
#include "scatter/scatter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Sends relative ranks [first, first + n) of the root's blocks to dst, with
 * their sizes in the v form (through scratch when they wrap past p - 1). */
static int root_send(const pc_call_t *a, int first, int n, int dst, uint64_t *sizes)
{
    int p = a->ctx->size, lo = (a->root + first) % p, hi = (a->root + first + n - 1) % p, rc = MPI_SUCCESS;
    const pc_blocks_t *b = &a->sblocks;
    if (a->vform) {
        for (int i = 0; i < n; i++) {
            int r = (a->root + first + i) % p;
            sizes[i] = pc_blocks_span(b, r, r);
        }
        rc = pc_send(sizes, (size_t)n * sizeof *sizes, dst, PC_TAG_SCATTER_SIZES, a->ctx->comm);
    }
    if (rc != MPI_SUCCESS) return rc;
    if (hi >= lo) return pc_send(pc_blocks_at(b, lo), pc_blocks_span(b, lo, hi), dst, PC_TAG_SCATTER_DATA, a->ctx->comm);
    size_t upper = pc_blocks_span(b, lo, p - 1), lower = pc_blocks_span(b, 0, hi);
    char *scratch = malloc(upper + lower ? upper + lower : 1);
    if (!scratch) return MPI_ERR_NO_MEM;
    memcpy(scratch, pc_blocks_at(b, lo), upper);
    memcpy(scratch + upper, pc_blocks_at(b, 0), lower);
    rc = pc_send(scratch, upper + lower, dst, PC_TAG_SCATTER_DATA, a->ctx->comm);
    free(scratch);
    return rc;
}

static int root_scatter(const pc_call_t *a)
{
    int p = a->ctx->size, rc = MPI_SUCCESS, top = 1;
    while (top * 2 < p) top *= 2;
    uint64_t *sizes = a->vform ? malloc((size_t)top * sizeof *sizes) : NULL;
    if (a->vform && !sizes) return MPI_ERR_NO_MEM;
    for (int mask = top; mask >= 1 && rc == MPI_SUCCESS; mask >>= 1)
        rc = root_send(a, mask, mask < p - mask ? mask : p - mask, (a->root + mask) % p, sizes);
    free(sizes);
    return rc;
}

int pc_scatter_binomial(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rel = (me - a->root + p) % p, rc = MPI_SUCCESS;
    if (me == a->root) return root_scatter(a);
    int low = rel & -rel, n = low < p - rel ? low : p - rel; /* my subtree: relative ranks [rel, rel + n) */
    int parent = (me - low + p) % p;
    size_t mine = pc_blocks_span(&a->rblocks, 0, 0);
    uint64_t *sizes = malloc((size_t)n * sizeof *sizes);
    size_t *offset = malloc((size_t)(n + 1) * sizeof *offset);
    char *tmp = NULL;
    if (!sizes || !offset) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && a->vform) {
        rc = pc_recv(sizes, (size_t)n * sizeof *sizes, parent, PC_TAG_SCATTER_SIZES, a->ctx->comm);
        if (rc == MPI_SUCCESS && sizes[0] > mine) rc = MPI_ERR_TRUNCATE;
    } else
        for (int i = 0; i < n; i++) sizes[i] = mine;
    if (rc == MPI_SUCCESS) {
        offset[0] = 0;
        for (int i = 0; i < n; i++) offset[i + 1] = offset[i] + (size_t)sizes[i];
        if (n == 1) { /* a leaf: straight into my block */
            rc = pc_recv(a->rblocks.base, offset[1], parent, PC_TAG_SCATTER_DATA, a->ctx->comm);
            free(sizes);
            free(offset);
            return rc;
        }
        tmp = malloc(offset[n] ? offset[n] : 1);
        rc = tmp ? pc_recv(tmp, offset[n], parent, PC_TAG_SCATTER_DATA, a->ctx->comm) : MPI_ERR_NO_MEM;
    }
    for (int mask = low >> 1; mask >= 1 && rc == MPI_SUCCESS; mask >>= 1) {
        if (rel + mask >= p) continue;
        int child = (me + mask) % p, cn = mask < p - rel - mask ? mask : p - rel - mask;
        if (a->vform) rc = pc_send(sizes + mask, (size_t)cn * sizeof *sizes, child, PC_TAG_SCATTER_SIZES, a->ctx->comm);
        if (rc == MPI_SUCCESS)
            rc = pc_send(tmp + offset[mask], offset[mask + cn] - offset[mask], child, PC_TAG_SCATTER_DATA, a->ctx->comm);
    }
    if (rc == MPI_SUCCESS && offset[1]) memcpy(a->rblocks.base, tmp, offset[1]);
    free(tmp);
    free(sizes);
    free(offset);
    return rc;
}
