/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bruck - the gathered blocks are kept rotated (my block first): in step j
 * every process sends the first min(2^j, p - 2^j) blocks it holds to rank
 * - 2^j and appends as many from rank + 2^j; after ceil(log2 p) steps it
 * holds all p, and one local rotation puts them in rank order.
 *
 *   p = 5, process 0 holds (rotated):  [0] -> [0 1] -> [0 1 2 3] -> [0 1 2 3 4]
 *
 * Cost (Hockney, m bytes gathered in all): ceil(log2 p) alpha + (p - 1)/p m
 * beta + a local copy of m (the rotation); any p without extra steps (the
 * small-message choice of MPICH for p not a power of two).
 * Late arrival: like recursive doubling, log2 p steps remain after the last
 * arrival, and every step depends on the one before; a late process delays
 * rank - 2^j in each step j.
 * Blocks of any size (allgatherv), empty ones included.
 * Source: MPICH src/mpi/coll/allgather/allgather_intra_brucks.c; Bruck,
 * Ho, Kipnis, Upfal and Weathersby, "Efficient algorithms for all-to-all
 * communications in multiport message-passing systems", IEEE TPDS 8(11) 1997.
 */
#include "allgather/allgather.h"

#include <stdlib.h>
#include <string.h>

int pc_allgather_bruck(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    const pc_blocks_t *b = &a->rblocks;
    size_t total = b->offset[p];
    size_t *at = malloc((size_t)(p + 1) * sizeof *at); /* rotated position j holds block (me + j) % p */
    char *held = malloc(total ? total : 1);
    if (!at || !held) {
        free(at);
        free(held);
        return MPI_ERR_NO_MEM;
    }
    at[0] = 0;
    for (int j = 0; j < p; j++) {
        at[j + 1] = at[j] + pc_blocks_span(b, (me + j) % p, (me + j) % p);
    }
    memcpy(held, pc_blocks_at(b, me), at[1]);
    for (int dist = 1; dist < p && rc == MPI_SUCCESS; dist <<= 1) {
        int n = dist < p - dist ? dist : p - dist;
        int src = (me + dist) % p, dst = (me - dist + p) % p;
        /* the source's first n blocks are blocks src .. src + n - 1: my positions dist .. dist + n - 1 */
        rc = pc_sendrecv(held, at[n], dst, held + at[dist], at[dist + n] - at[dist], src, PC_TAG_ALLGATHER_DATA,
                         a->ctx->comm);
    }
    if (rc == MPI_SUCCESS) { /* rotate back: positions 0 .. p-me-1 are blocks me .. p-1 */
        memcpy(pc_blocks_at(b, me), held, at[p - me]);
        memcpy(b->base, held + at[p - me], total - at[p - me]);
    }
    free(at);
    free(held);
    return rc;
}
