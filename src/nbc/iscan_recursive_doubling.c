/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iscan_recursive_doubling - MPI_Iscan and MPI_Iexscan as a schedule of
 * the recursive-doubling scan (scan/scan_recursive_doubling.c): in round k
 * every process swaps its partial result (the combination of its aligned
 * group of 2^k ranks) with rank XOR 2^k, if there is one; what comes from
 * below goes on the left of the partial result and of my result, what
 * comes from above on the right of the partial result only.  The choice of
 * buffers depends only on the ranks, so it is made while building: with a
 * non-commutative op the partial result is built in the receive buffer,
 * which becomes the next round's partial result (the buffers swap roles).
 * Exscan: my result starts empty and takes the first block from below as it
 * is; rank 0 never receives from below (its receive buffer is untouched).
 *
 *   p = 6   round 0: 0<->1 2<->3 4<->5   round 1: 0<->2 1<->3   round 2: 0<->4 1<->5
 *
 * Cost (Hockney, gamma per byte reduced): ceil(log2 p) (alpha + m beta) +
 * up to 2 ceil(log2 p) m gamma; latency-optimal, the short-vector choice.
 * Late arrival: early processes post their first exchange and return; every
 * round needs the partner's previous one, so all processes complete only
 * after the last arrival plus the rounds it still has; even rank 0, whose
 * result depends on nobody, must hand its partial result upward.
 * Limitations: none (any op, derived datatypes, MPI_IN_PLACE).  Memory: two
 * temporaries of count elements.
 * Source: MPICH's recursive-doubling scan and exscan (Thakur et al. 2005;
 * Sanders & Traff 2006 for the exclusive scan); as a schedule: Hoefler et
 * al. 2007 (libNBC).
 */
#include "nbc/nbc.h"

int pc_iscan_recursive_doubling(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, rank = a->rank, n = a->count, commutative = 0;
    int have_result = !a->exclusive; /* iexscan: nothing from below yet */
    void *partial = pc_nbc_alloc(s, n, a->type), *tmp = pc_nbc_alloc(s, n, a->type);
    if (!partial || !tmp) return s->rc;
    PMPI_Op_commutative(a->op, &commutative);
    pc_nbc_copy(s, a->sendbuf, partial, n, a->type);
    if (!a->exclusive && a->sendbuf != a->recvbuf) pc_nbc_copy(s, a->sendbuf, a->recvbuf, n, a->type);
    for (long mask = 1; mask < p; mask <<= 1) {
        int peer = (int)(rank ^ mask);
        if (peer >= p) continue;
        pc_nbc_send(s, partial, n, a->type, peer);
        pc_nbc_recv(s, tmp, n, a->type, peer);
        pc_nbc_round(s);
        /* the next round starts with the combination */
        if (peer < rank) { /* from below: on the left of both */
            pc_nbc_reduce(s, tmp, partial, n, a->type, a->op);
            if (have_result) pc_nbc_reduce(s, tmp, a->recvbuf, n, a->type, a->op);
            else pc_nbc_copy(s, tmp, a->recvbuf, n, a->type);
            have_result = 1;
        } else if (commutative) {
            pc_nbc_reduce(s, tmp, partial, n, a->type, a->op);
        } else { /* from above: partial op tmp, built in tmp, which becomes the partial result */
            pc_nbc_reduce(s, partial, tmp, n, a->type, a->op);
            void *swap = partial;
            partial = tmp;
            tmp = swap;
        }
    }
    pc_nbc_round(s);
    return s->rc;
}
