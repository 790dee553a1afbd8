/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ireduce_scatter_linear - MPI_Ireduce_scatter and
 * MPI_Ireduce_scatter_block as a two-round schedule that keeps rank order:
 * every process posts at once a receive of every other process's input for
 * its own block (one temporary each) and a send of its input's block i to
 * each process i; once all have arrived it combines them from the highest
 * rank down, acc = block(q) op acc, so the result is
 * x_0 op x_1 op ... op x_{p-1} for any op, commutative or not.  Empty
 * blocks are not sent.  MPI_IN_PLACE: the result is copied to the start of
 * the receive buffer once every block has been sent.
 *
 *   p = 3, rank 1: round 1 receives 0's and 2's block 1, sends block 0 to 0
 *                  and block 2 to 2; round 2: acc = x0 op (x1 op x2)
 *
 * Cost (Hockney, gamma per byte reduced, m = all blocks): (p - 1) alpha +
 * ((p - 1)/p) m (beta + gamma), 2 (p - 1) messages in flight per process.
 * Late arrival: every contribution travels on its own, so a late process
 * delays only its own blocks; the combining waits for the last one and
 * then takes ((p - 1)/p) m gamma.
 * Limitations: none (any op, v form, MPI_IN_PLACE, derived datatypes).
 * Memory: p - 1 temporaries of my block (one more with MPI_IN_PLACE).
 * Source: the linear exchange of libNBC's ialltoall (Hoefler et al. 2007)
 * with the rank-ordered combination of MPICH's non-commutative
 * reduce-scatter (Thakur et al. 2005).
 */
#include "nbc/block_args.h"

#include <stdlib.h>

int pc_ireduce_scatter_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, r = a->rank, n = pc_nbc_rcount(a, r);
    MPI_Datatype t = a->type;
    long *first = pc_nbc_block_starts(s, a);
    void **from = calloc((size_t)p, sizeof *from); /* from[q]: rank q's input for my block */
    if (!first || !from) {
        free(first);
        return s->rc = MPI_ERR_NO_MEM;
    }
    int inplace = a->sendbuf == MPI_IN_PLACE;
    const void *in = inplace ? a->recvbuf : a->sendbuf;
    void *acc = inplace ? pc_nbc_alloc(s, n, t) : a->recvbuf;
    from[r] = pc_nbc_elem(in, t, first[r]);
    for (int k = 1; k < p && s->rc == MPI_SUCCESS; k++) {
        int src = (r - k + p) % p, dst = (r + k) % p;
        if ((from[src] = pc_nbc_alloc(s, n, t))) pc_nbc_recv_data(s, from[src], n, t, src);
        pc_nbc_send_data(s, pc_nbc_elem(in, t, first[dst]), pc_nbc_rcount(a, dst), t, dst);
    }
    pc_nbc_round(s);
    if (s->rc == MPI_SUCCESS) {
        pc_nbc_copy(s, from[p - 1], acc, n, t);
        for (int q = p - 2; q >= 0; q--) pc_nbc_reduce(s, from[q], acc, n, t, a->op); /* lower ranks on the left */
        pc_nbc_copy(s, acc, a->recvbuf, n, t);
    }
    free(from);
    free(first);
    return s->rc;
}
