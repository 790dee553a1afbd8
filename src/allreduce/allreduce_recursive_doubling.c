/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * recursive_doubling - in step j every process swaps its whole partial
 * result with the process whose rank differs in bit j and combines, so after
 * log2 p steps everyone holds the full result (MPICH's recursive doubling).
 * p not a power of two: with p' the largest power of two <= p and
 * r = p - p', the even ranks below 2r first hand their data to rank + 1
 * (fold) and get the result back from it at the end (unfold).
 *
 *   step 0:  0<->1  2<->3  4<->5  6<->7     each holds (ab) (cd) (ef) (gh)
 *   step 1:  0<->2  1<->3  4<->6  5<->7     (abcd) (efgh)
 *   step 2:  0<->4  1<->5  2<->6  3<->7     (abcdefgh) everywhere
 *
 * Order: after step j a process holds the combination of an aligned group
 * of 2^(j+1) processes, whose ranks are consecutive (folded pairs keep their
 * place); the partner's group lies wholly below or above, and the lower one
 * goes on the left, so non-commutative ops are combined in rank order.
 * Cost (Hockney, gamma: local reduction time per byte):
 *   log2(p) (alpha + beta m + gamma m) for p a power of two (MPICH's
 *   lgp.alpha + n.lgp.beta + n.lgp.gamma); otherwise two more
 *   alpha + beta m (fold, unfold) and one more gamma m.
 *   Latency-optimal: the short-message allreduce of MPICH and Open MPI.
 * Late arrival: every step pairs processes across the whole communicator,
 * so every process waits for the last arrival, after which the remaining
 * log2 p' steps (and the unfold) still run: the late process's first
 * partner waits in step 0, its other partners from the step their own
 * partner chain reaches it.
 * Limitations: the whole message crosses the network log2 p times per
 * process (ring or rabenseifner for long messages).  Memory: one buffer of
 * count elements.
 * Source: MPICH src/mpi/coll/allreduce/allreduce_intra_recursive_doubling.c;
 * Open MPI coll_base_allreduce.c (recursivedoubling).
 */
#include "allreduce/allreduce.h"

#include <stdlib.h>

int pc_allreduce_recursive_doubling(const pc_call_t *a)
{
    int p = a->ctx->size, rank = a->ctx->rank, rc = MPI_SUCCESS;
    int pof2 = pc_red_pof2(p), rem = p - pof2;
    long newrank;
    void *acc = a->recvbuf, *tmp, *tmp_base = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    if (!(tmp = pc_red_alloc(a, a->count, &tmp_base))) return MPI_ERR_NO_MEM;
    rc = pc_red_copy(a, acc, a->sendbuf, a->count);
    if (rc != MPI_SUCCESS) goto out;

    /* fold: even ranks below 2 rem hand their data to rank + 1 and sit out */
    rc = pc_red_fold(a, acc, tmp, rem, PC_TAG_ALLREDUCE_FOLD, &newrank);

    for (long mask = 1; newrank >= 0 && mask < pof2 && rc == MPI_SUCCESS; mask <<= 1) {
        long newdst = newrank ^ mask;
        int dst = (int)(newdst < rem ? newdst * 2 + 1 : newdst + rem);
        rc = pc_red_sendrecv(a, acc, a->count, dst, tmp, a->count, dst, PC_TAG_ALLREDUCE_DATA);
        if (rc != MPI_SUCCESS) break;
        if (a->commutative || dst < rank) {
            rc = pc_red_local(a, tmp, acc, a->count); /* acc = partner's op mine */
        } else {
            rc = pc_red_local(a, acc, tmp, a->count); /* tmp = mine op partner's: it becomes the accumulator */
            void *swap = acc;
            acc = tmp;
            tmp = swap;
        }
    }
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, a->recvbuf, acc, a->count); /* nothing when acc is recvbuf */

    /* unfold: the result back to the even ranks that sat out */
    if (rc == MPI_SUCCESS) rc = pc_red_unfold(a, a->recvbuf, rem, PC_TAG_ALLREDUCE_UNFOLD);
out:
    free(tmp_base);
    return rc;
}
