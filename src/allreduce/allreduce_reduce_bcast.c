/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_bcast - papcoll's reduce binomial to rank 0, then papcoll's
 * broadcast binomial of the result from rank 0: the textbook allreduce, and
 * the one that keeps the rank order of a non-commutative op for any p
 * without folding.
 *
 *   reduce:  1->0 3->2 5->4 7->6 | 2->0 6->4 | 4->0      (up the binomial tree)
 *   bcast:   0->4 | 0->2 4->6 | 0->1 2->3 4->5 6->7      (down the same tree)
 *
 * Cost (Hockney, gamma: local reduction time per byte):
 *   2 ceil(log2 p) (alpha + beta m) + ceil(log2 p) gamma m, twice
 *   recursive_doubling's latency and bandwidth; PAPCOLL_REDUCE_SEGSIZE
 *   segments the reduce half (the broadcast half sends whole messages).
 * Late arrival: unlike the exchange-based allreduces, a process is needed
 * only by its ancestors in the reduce and its subtree in the broadcast: a
 * late leaf delays the result by its ancestors' remaining hops up, and the
 * broadcast then starts at once.  Every process still waits for the last
 * arrival (no process can have the result before it).
 * Limitations: the root combines every level's message in turn and sends
 * log2 p messages (ring or rabenseifner for long messages).  Non-contiguous
 * datatypes: the result is packed at rank 0 and unpacked by the others for
 * the broadcast (a buffer of m bytes each).
 * Parameters: those of reduce binomial (PAPCOLL_REDUCE_SEGSIZE,
 * PAPCOLL_MAX_INFLIGHT).
 * Source: MPICH src/mpi/coll/iallreduce/iallreduce_intra_naive.c ("reduce
 * followed by bcast", also MPICH's allreduce for heterogeneous systems);
 * Open MPI ompi/mca/coll/basic (allreduce_intra: reduce to 0, then bcast);
 * Mamidala et al. 2004 (Parsons 2015 ref. [38]): binomial-tree reduction then
 * dissemination as an imbalance-tolerant allreduce.
 */
#include "allreduce/allreduce.h"
#include "bcast/bcast.h"
#include "coll/entry.h"
#include "core/args.h"
#include "reduce/reduce.h"

#include <stdlib.h>

int pc_allreduce_reduce_bcast(const pc_call_t *a)
{
    int rc;
    void *packed = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    pc_call_t reduce = *a;
    reduce.root = 0;
    rc = pc_reduce_binomial(&reduce);
    if (rc != MPI_SUCCESS) goto out;

    /* broadcast is a byte collective: the result as contiguous bytes */
    pc_call_t bcast = {.coll = &pc_bcast_coll, .ctx = a->ctx, .params = a->params, .seq = a->seq, .root = 0,
                       .buf = (char *)a->recvbuf + a->true_lb, .bytes = a->bytes, .user_buf = a->recvbuf,
                       .count = a->count, .datatype = a->datatype, .op = MPI_OP_NULL, .commutative = 1,
                       .extent = a->extent, .true_lb = a->true_lb, .true_extent = a->true_extent,
                       .contiguous = a->contiguous};
    if (!a->contiguous) {
        if (!(packed = malloc(a->bytes))) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        bcast.buf = packed;
        if (a->ctx->rank == 0) rc = pc_pack(a->recvbuf, a->count, a->datatype, packed, a->bytes, a->ctx->comm);
    }
    if (rc == MPI_SUCCESS) rc = pc_bcast_binomial(&bcast);
    if (rc == MPI_SUCCESS && !a->contiguous && a->ctx->rank != 0)
        rc = pc_unpack(packed, a->bytes, a->recvbuf, a->count, a->datatype, a->ctx->comm);
out:
    free(packed);
    return rc;
}
