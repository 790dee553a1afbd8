/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ireduce_scatter_pairwise - MPI_Ireduce_scatter and
 * MPI_Ireduce_scatter_block as a schedule of the pairwise exchange: my
 * block's accumulator starts as my own input's block; in round k = 1 ..
 * p - 1 every process sends its input's block of rank + k to rank + k and
 * receives rank - k's input for its own block, which the next round starts
 * by combining into the accumulator.  Empty blocks are not sent.
 * MPI_IN_PLACE: the accumulator is a temporary, copied to the start of the
 * receive buffer once every block has been sent.
 *
 *   p = 4, rank 0: round 1 sends block 1 to 1, gets 3's block 0; round 2
 *                  sends block 2 to 2, gets 2's; round 3 block 3, gets 1's
 *
 * Cost (Hockney, gamma per byte reduced, m = all blocks): (p - 1) alpha +
 * ((p - 1)/p) m (beta + gamma); one message each way in flight per process.
 * Late arrival: round k waits for rank - k's input, which that process
 * sends in its round k: a late process holds up each other process at the
 * round that involves it; after the last arrival up to p - 1 rounds remain.
 * Limitations: commutative ops (the contributions are combined in the order
 * rank - 1, rank - 2, ...): front_reduce_scatter.c runs linear for the
 * others, logged.  Memory: one temporary of my block (two with
 * MPI_IN_PLACE).
 * Source: the pairwise-exchange reduce-scatter of MPICH (Thakur et al.
 * 2005); as a schedule: Hoefler et al. 2007.
 */
#include "nbc/block_args.h"

#include <stdlib.h>

int pc_ireduce_scatter_pairwise(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, r = a->rank, n = pc_nbc_rcount(a, r);
    MPI_Datatype t = a->type;
    long *first = pc_nbc_block_starts(s, a);
    if (!first) return s->rc;
    int inplace = a->sendbuf == MPI_IN_PLACE;
    const void *in = inplace ? a->recvbuf : a->sendbuf;
    void *acc = inplace ? pc_nbc_alloc(s, n, t) : a->recvbuf, *tmp = pc_nbc_alloc(s, n, t);
    if (acc && tmp) {
        pc_nbc_copy(s, pc_nbc_elem(in, t, first[r]), acc, n, t);
        for (int k = 1; k < p; k++) {
            int dst = (r + k) % p;
            pc_nbc_send_data(s, pc_nbc_elem(in, t, first[dst]), pc_nbc_rcount(a, dst), t, dst);
            pc_nbc_recv_data(s, tmp, n, t, (r - k + p) % p);
            pc_nbc_round(s);
            pc_nbc_reduce(s, tmp, acc, n, t, a->op);
        }
        pc_nbc_copy(s, acc, a->recvbuf, n, t);
    }
    free(first);
    return s->rc;
}
