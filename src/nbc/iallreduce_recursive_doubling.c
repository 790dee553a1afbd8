/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iallreduce_recursive_doubling - MPI_Iallreduce as a schedule of the
 * recursive-doubling allreduce: in round j every process swaps its whole
 * partial result with rank XOR 2^j and combines, lower ranks on the left,
 * so rank order is kept and non-commutative ops are served.  p not a power
 * of two: with p' the largest power of two <= p and r = p - p', the even
 * ranks below 2r first hand their data to rank + 1 (fold) and get the result
 * back at the end (unfold); the renumbering keeps rank order.
 *
 *   p = 4   round 0: 0<->1 2<->3   round 1: 0<->2 1<->3   (each: combine)
 *
 * Cost (Hockney, gamma per byte reduced): log2(p') (alpha + m beta + m gamma),
 * plus 2 (alpha + m beta) + m gamma for the fold and unfold.  Latency-
 * optimal: the small-message choice.
 * Late arrival: early processes post their first exchange and return; each
 * later round needs its partner's previous round, so after the last
 * arrival log2(p') rounds (and the unfold) remain.  The combining happens
 * inside the program's completion calls.
 * Limitations: none (any op and datatype, MPI_IN_PLACE).  Memory: one
 * temporary of count elements.
 * Source: R. Thakur, R. Rabenseifner and W. Gropp, "Optimization of
 * collective communication operations in MPICH", IJHPCA 19(1), 2005
 * (Thakur et al. 2005); as a schedule: Hoefler et al. 2007 (libNBC).
 */
#include "nbc/nbc.h"

#include "coll/reduction.h" /* pc_red_pof2, pc_red_fold_rank */

int pc_iallreduce_recursive_doubling(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, n = a->count;
    int pof2 = pc_red_pof2(p), rem = p - pof2;
    void *acc = a->recvbuf, *tmp = pc_nbc_alloc(s, n, a->type);
    if (!tmp) return s->rc;
    pc_nbc_copy(s, a->sendbuf, acc, n, a->type);

    long newrank = pc_nbc_fold(s, a, acc, tmp, rem);

    if (newrank >= 0) {
        int commutative = 0;
        PMPI_Op_commutative(a->op, &commutative);
        for (int mask = 1; mask < pof2; mask <<= 1) {
            long peer = newrank ^ mask;
            pc_nbc_send(s, acc, n, a->type, pc_red_fold_rank(peer, rem));
            pc_nbc_recv(s, tmp, n, a->type, pc_red_fold_rank(peer, rem));
            pc_nbc_round(s);
            /* the next round starts with the combination */
            if (commutative || peer < newrank) {
                pc_nbc_reduce(s, tmp, acc, n, a->type, a->op);
            } else {
                pc_nbc_reduce(s, acc, tmp, n, a->type, a->op);
                pc_nbc_copy(s, tmp, acc, n, a->type);
            }
        }
    }

    pc_nbc_unfold(s, a, acc, rem); /* the result back to the even ranks that sat out */
    return s->rc;
}
