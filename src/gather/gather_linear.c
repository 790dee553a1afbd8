/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * linear - every process sends its block straight to the root; the root
 * posts a receive for every block at once (in the block view's place) and
 * waits for all of them.
 *
 *   p = 4, root 0:   1 -b1-> 0 <-b2- 2
 *                           ^
 *                           b3
 *                           3
 *
 * Cost (Hockney, m bytes gathered in all, blocks of m/p): (p - 1) alpha +
 * (p - 1)/p m beta at the root, which serializes every receive; the others
 * pay alpha + m/p beta.  The small-p and small-message choice of MPICH and
 * Open MPI (basic_linear), and with no process between a block and the root
 * the one gather whose only wait is for the root.
 * Late arrival: the receives are all posted when the root arrives, so blocks
 * land in arrival order and each process leaves as soon as its block is sent
 * (eagerly) or taken (rendezvous); the root finishes right after the last
 * block arrives: nothing is relayed, no process waits for another non-root.
 * Blocks of any size (gatherv), empty ones skipped (their sizes are known to
 * both ends).  Blocks above PC_MAX_MSG bytes are received one after the
 * other with the blocking, splitting pc_recv.
 * Source: MPICH src/mpi/coll/gatherv/gatherv_allcomm_linear.c (Irecv all,
 * Waitall); Open MPI ompi/mca/coll/base/coll_base_gather.c
 * ompi_coll_base_gather_intra_basic_linear.
 */
#include "gather/gather.h"

#include <stdlib.h>

int pc_gather_linear(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS, n = 0;
    if (me != a->root) {
        size_t bytes = pc_blocks_span(&a->sblocks, 0, 0);
        return bytes ? pc_send(a->sblocks.base, bytes, a->root, PC_TAG_GATHER_DATA, a->ctx->comm) : MPI_SUCCESS;
    }
    MPI_Request *req = malloc((size_t)p * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    for (int r = 0; r < p && rc == MPI_SUCCESS; r++) { /* every block that fits one message, at once */
        size_t bytes = pc_blocks_span(&a->rblocks, r, r);
        if (r != me && bytes && bytes <= PC_MAX_MSG)
            rc = pc_irecv(pc_blocks_at(&a->rblocks, r), bytes, r, PC_TAG_GATHER_DATA, a->ctx->comm, &req[n++]);
    }
    for (int r = 0; r < p && rc == MPI_SUCCESS; r++) { /* then the huge ones, in pieces */
        size_t bytes = pc_blocks_span(&a->rblocks, r, r);
        if (r != me && bytes > PC_MAX_MSG)
            rc = pc_recv(pc_blocks_at(&a->rblocks, r), bytes, r, PC_TAG_GATHER_DATA, a->ctx->comm);
    }
    int wrc = n ? pc_waitall(n, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}
