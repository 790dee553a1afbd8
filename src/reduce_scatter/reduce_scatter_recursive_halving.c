/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * recursive_halving - log2 p steps that halve both the group and the data:
 * in the step of distance d (p/2, p/4, ..., 1) every process keeps the half
 * of its group's blocks on its side, sends the other half to the process d
 * away and combines what that one sends of its own half; at the end a
 * process holds its own block, complete.
 *
 *   p = 4:  d = 2: 0<->2, 1<->3 swap halves {b0 b1 | b2 b3}
 *           d = 1: 0<->1, 2<->3 swap quarters
 *
 * p not a power of two (pof2 = the largest power of two below p, rem =
 * p - pof2): MPICH's fold: of the first 2 rem ranks the even ones hand all
 * their data to their odd neighbour and sit out; the pof2 others halve over
 * their blocks, an odd one standing for its pair (two consecutive blocks);
 * at the end it sends its even neighbour its block.
 * Cost (Hockney, m bytes in all, gamma per byte reduced, p a power of two):
 * log2 p alpha + (p - 1)/p m (beta + gamma); otherwise one more step of m
 * (beta + gamma) and one of the block; the short-message choice of MPICH for
 * commutative ops.
 * Late arrival: every step pairs processes across the group, so a late
 * process delays its partners and, through them, everybody: log2 p steps
 * remain after the last arrival.
 * Order: halves are combined in the order they meet: commutative ops only.
 * Source: MPICH src/mpi/coll/reduce_scatter/reduce_scatter_intra_recursive_halving.c;
 * Thakur, Rabenseifner and Gropp, IJHPCA 19(1) 2005.
 */
#include "reduce_scatter/reduce_scatter.h"

#include <stdlib.h>

/* First and last communicator rank that group member v stands for. */
static int first_real(long v, int rem) { return (int)(v < rem ? 2 * v : v + rem); }
static int last_real(long v, int rem) { return (int)(v < rem ? 2 * v + 1 : v + rem); }

int pc_reduce_scatter_recursive_halving(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    int pof2 = pc_red_pof2(p), rem = p - pof2;
    long *first = pc_rs_offsets(a), newrank = -1;
    void *acc = NULL, *acc_base = NULL, *tmp = NULL, *tmp_base = NULL;
    if (first) acc = pc_red_alloc(a, a->count, &acc_base);
    if (acc) tmp = pc_red_alloc(a, a->count, &tmp_base);
    if (!tmp) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, acc, a->sendbuf, a->count);
    if (rc == MPI_SUCCESS) rc = pc_red_fold(a, acc, tmp, rem, PC_TAG_REDUCE_SCATTER_FOLD, &newrank);
    long lo = 0, hi = pof2; /* my group of members [lo, hi) */
    for (long d = pof2 / 2; newrank >= 0 && d >= 1 && rc == MPI_SUCCESS; d /= 2) {
        long mid = lo + d, partner = newrank ^ d;
        long keep_lo = newrank < mid ? lo : mid, give_lo = newrank < mid ? mid : lo;
        long keep_from = first[first_real(keep_lo, rem)], keep_to = first[last_real(keep_lo + d - 1, rem) + 1];
        long give_from = first[first_real(give_lo, rem)], give_to = first[last_real(give_lo + d - 1, rem) + 1];
        int dst = last_real(partner, rem); /* a folded pair is represented by its odd member */
        rc = pc_red_sendrecv(a, pc_red_at(a, acc, give_from), give_to - give_from, dst, tmp, keep_to - keep_from, dst,
                             PC_TAG_REDUCE_SCATTER_DATA);
        if (rc == MPI_SUCCESS) rc = pc_red_local(a, tmp, pc_red_at(a, acc, keep_from), keep_to - keep_from);
        lo = keep_lo;
        hi = keep_lo + d;
    }
    (void)hi;
    /* unfold: a representative gives its even neighbour that one's block */
    if (rc == MPI_SUCCESS && me < 2 * rem) {
        if (me % 2)
            rc = pc_red_send(a, pc_red_at(a, acc, first[me - 1]), pc_rs_count(a, me - 1), me - 1,
                             PC_TAG_REDUCE_SCATTER_UNFOLD);
        else
            rc = pc_red_recv(a, pc_red_at(a, acc, first[me]), pc_rs_count(a, me), me + 1, PC_TAG_REDUCE_SCATTER_UNFOLD);
    }
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, a->recvbuf, pc_red_at(a, acc, first[me]), pc_rs_count(a, me));
    free(acc_base);
    free(tmp_base);
    free(first);
    return rc;
}
