/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iscan_linear - MPI_Iscan and MPI_Iexscan as a schedule of a chain: rank i
 * receives the prefix of ranks 0 .. i - 1 from rank i - 1, puts it on the
 * left of its own contribution (iscan: its result; iexscan: the prefix it
 * received is its result) and sends the prefix of ranks 0 .. i to i + 1.
 * Rank 0 sends its contribution as it is; rank 0's iexscan buffer is left
 * untouched.
 *
 *   p = 4:  0 --x0--> 1 --x0x1--> 2 --x0x1x2--> 3
 *
 * Cost (Hockney, gamma per byte reduced): (p - 1)(alpha + m beta + m gamma)
 * from end to end, one message per process: the whole vector in one
 * message (no segments, unlike the blocking linear).
 * Late arrival: a process waits only for the ranks below it, never for a
 * higher one: rank i completes once ranks 0 .. i have arrived and the chain
 * has reached it, inside its own completion calls; a late rank delays every
 * rank above it.
 * Limitations: none (any op, derived datatypes, MPI_IN_PLACE).  Memory: one
 * temporary of count elements (iexscan: two, below the last rank).
 * Source: the linear scan of Sanders & Traff 2006 (§2, the sequential
 * chain); as a schedule: Hoefler et al. 2007 (libNBC's iscan is this chain).
 */
#include "nbc/nbc.h"

int pc_iscan_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, rank = a->rank, n = a->count;
    int last = rank == p - 1;
    const void *out = a->sendbuf; /* what goes to rank + 1: the prefix up to me */
    void *below = NULL;
    if (rank > 0 && !(below = pc_nbc_alloc(s, n, a->type))) return s->rc;
    if (!a->exclusive && a->sendbuf != a->recvbuf) pc_nbc_copy(s, a->sendbuf, a->recvbuf, n, a->type);
    if (rank > 0) {
        pc_nbc_recv(s, below, n, a->type, rank - 1);
        pc_nbc_round(s);
        if (!a->exclusive) {
            pc_nbc_reduce(s, below, a->recvbuf, n, a->type, a->op);
            out = a->recvbuf;
        } else {
            if (!last) { /* mine, before the result overwrites it in place */
                void *mine = pc_nbc_alloc(s, n, a->type);
                if (!mine) return s->rc;
                pc_nbc_copy(s, a->sendbuf, mine, n, a->type);
                pc_nbc_reduce(s, below, mine, n, a->type, a->op);
                out = mine;
            }
            pc_nbc_copy(s, below, a->recvbuf, n, a->type);
        }
    }
    if (!last) pc_nbc_send(s, out, n, a->type, rank + 1);
    pc_nbc_round(s);
    return s->rc;
}
