/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pairwise - in step k (1 .. p-1) every process sends its input for rank +
 * k to that rank and combines what rank - k sends it for its own block: no
 * forwarding, every element crosses the network once.
 *
 *   p = 4, rank 0:  step 1: x0[b1] -> 1, x3[b0] <- 3
 *                   step 2: x0[b2] -> 2, x2[b0] <- 2
 *                   step 3: x0[b3] -> 3, x1[b0] <- 1      r0 = x0[b0] op ...
 *
 * Cost (Hockney, m bytes in all, gamma per byte reduced): (p - 1) alpha +
 * (p - 1)/p m (beta + gamma); the large-message choice of MPICH for
 * commutative ops.
 * Late arrival: step k pairs me with rank + k and rank - k: a late process
 * delays each of the others in one step, and everybody finishes only after
 * exchanging with it (all-to-all dependence: Wait at N x N); after the last
 * arrival up to p - 1 steps remain for the processes it reaches last.
 * Order: blocks are combined in step order, not rank order: commutative
 * ops only.
 * Source: MPICH src/mpi/coll/reduce_scatter/reduce_scatter_intra_pairwise.c.
 */
#include "reduce_scatter/reduce_scatter.h"

#include <stdlib.h>

int pc_reduce_scatter_pairwise(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    long *first = pc_rs_offsets(a), mine = pc_rs_count(a, me);
    void *acc = NULL, *acc_base = NULL, *tmp = NULL, *tmp_base = NULL;
    if (first) acc = pc_red_alloc(a, mine, &acc_base);
    if (acc) tmp = pc_red_alloc(a, mine, &tmp_base);
    if (!tmp) rc = MPI_ERR_NO_MEM;
    /* my own input first; with MPI_IN_PLACE it is in recvbuf, which receives the result */
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, acc, pc_red_at(a, a->sendbuf, first[me]), mine);
    for (int k = 1; k < p && rc == MPI_SUCCESS; k++) {
        int dst = (me + k) % p, src = (me - k + p) % p;
        rc = pc_red_sendrecv(a, pc_red_at(a, a->sendbuf, first[dst]), pc_rs_count(a, dst), dst, tmp, mine, src,
                             PC_TAG_REDUCE_SCATTER_DATA);
        if (rc == MPI_SUCCESS) rc = pc_red_local(a, tmp, acc, mine);
    }
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, a->recvbuf, acc, mine);
    free(acc_base);
    free(tmp_base);
    free(first);
    return rc;
}
