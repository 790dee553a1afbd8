/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * linear - the root sends every process its block straight from the block
 * view, all sends posted at once; every other process receives its block.
 *
 *   p = 4, root 0:   1 <-b1- 0 -b2-> 2
 *                            |
 *                            b3
 *                            v
 *                            3
 *
 * Cost (Hockney, m bytes scattered in all, blocks of m/p): (p - 1) alpha +
 * (p - 1)/p m beta at the root, which injects every block; the others pay
 * alpha + m/p beta.  MPICH's and Open MPI's basic_linear (small p).
 * Late arrival: the root does not wait for anyone in order: small blocks go
 * out eagerly and a late process finds its block waiting; with rendezvous
 * blocks the root waits until the last process has arrived and taken its
 * own, but no process ever waits for another non-root (nothing is relayed).
 * Blocks of any size (scatterv), empty ones skipped (their sizes are known
 * to both ends).  Blocks above PC_MAX_MSG bytes go one after the other with
 * the blocking, splitting pc_send.
 * Source: MPICH src/mpi/coll/scatterv/scatterv_allcomm_linear.c (Isend all,
 * Waitall); Open MPI ompi/mca/coll/base/coll_base_scatter.c
 * ompi_coll_base_scatter_intra_basic_linear.
 */
#include "scatter/scatter.h"

#include <stdlib.h>

int pc_scatter_linear(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS, n = 0;
    if (me != a->root) {
        size_t bytes = pc_blocks_span(&a->rblocks, 0, 0);
        return bytes ? pc_recv(a->rblocks.base, bytes, a->root, PC_TAG_SCATTER_DATA, a->ctx->comm) : MPI_SUCCESS;
    }
    MPI_Request *req = malloc((size_t)p * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    for (int i = 1; i < p && rc == MPI_SUCCESS; i++) { /* from the root's right neighbour on, like MPICH */
        int r = (me + i) % p;
        size_t bytes = pc_blocks_span(&a->sblocks, r, r);
        if (bytes && bytes <= PC_MAX_MSG)
            rc = pc_isend(pc_blocks_at(&a->sblocks, r), bytes, r, PC_TAG_SCATTER_DATA, a->ctx->comm, &req[n++]);
    }
    for (int i = 1; i < p && rc == MPI_SUCCESS; i++) {
        int r = (me + i) % p;
        size_t bytes = pc_blocks_span(&a->sblocks, r, r);
        if (bytes > PC_MAX_MSG) rc = pc_send(pc_blocks_at(&a->sblocks, r), bytes, r, PC_TAG_SCATTER_DATA, a->ctx->comm);
    }
    int wrc = n ? pc_waitall(n, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}
