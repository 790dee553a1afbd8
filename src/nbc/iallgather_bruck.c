/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iallgather_bruck - MPI_Iallgather and MPI_Iallgatherv as a schedule of
 * Bruck's allgather: a temporary holds the blocks rotated so that position
 * j is block (rank + j) mod p (in the receive datatype, blocks packed one
 * after the other); it starts with my block, and in round k (distance
 * d = 2^k) every process sends its first min(d, p - d) positions to
 * rank - d and receives as many into positions d.. from rank + d, one
 * message each way.  At the end the positions are copied to their places in
 * the receive buffer.  Any p, ceil(log2 p) rounds.
 *
 *   p = 5, rank 0:  start [0]   d=1: [0 1]   d=2: [0 1 2 3]   d=4: [0 1 2 3 4]
 *
 * Cost (Hockney, m = all blocks together): ceil(log2 p) alpha +
 * ((p - 1)/p) m beta, plus two local copies of m (in and out of the
 * temporary).  Latency-optimal: the small-message choice.
 * Late arrival: round k needs rank + 2^k's round k - 1, so a late process
 * delays everyone by its own lateness at most once: after the last arrival
 * ceil(log2 p) rounds remain, run inside the completion calls.
 * Limitations: none (any p, v form, MPI_IN_PLACE).  Memory: a temporary of
 * all the blocks.
 * Source: J. Bruck, C.-T. Ho, S. Kipnis, E. Upfal and D. Weathersby,
 * "Efficient algorithms for all-to-all communications in multiport
 * message-passing systems", IEEE TPDS 8(11), 1997 (Bruck et al. 1997); as
 * a schedule: Hoefler et al. 2007 (libNBC's iallgather dissemination).
 */
#include "nbc/block_args.h"

#include <stdlib.h>

int pc_iallgather_bruck(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, r = a->rank;
    long *pos = malloc((size_t)(p + 1) * sizeof *pos); /* position j starts at element pos[j] */
    if (!pos) return s->rc = MPI_ERR_NO_MEM;
    pos[0] = 0;
    for (int j = 0; j < p; j++) pos[j + 1] = pos[j] + pc_nbc_rcount(a, (r + j) % p);
    char *tmp = pc_nbc_alloc(s, pos[p], a->recvtype);
    if (!tmp) {
        free(pos);
        return s->rc;
    }
    MPI_Datatype t = a->recvtype;
    if (a->sendbuf == MPI_IN_PLACE) pc_nbc_copy(s, pc_nbc_rblock(a, a->recvbuf, r), tmp, pc_nbc_rcount(a, r), t);
    else pc_nbc_convert(s, a->sendbuf, a->sendcount, a->sendtype, tmp, pc_nbc_rcount(a, r), t);
    pc_nbc_own_block(s, a, 0, r);
    for (long d = 1; d < p; d <<= 1) {
        long n = d < p - d ? d : p - d;
        pc_nbc_send_data(s, tmp, (int)pos[n], t, (int)((r - d + p) % p));
        pc_nbc_recv_data(s, pc_nbc_elem(tmp, t, pos[d]), (int)(pos[d + n] - pos[d]), t, (int)((r + d) % p));
        pc_nbc_round(s);
    }
    for (int j = 1; j < p; j++) {
        int b = (r + j) % p;
        pc_nbc_copy(s, pc_nbc_elem(tmp, t, pos[j]), pc_nbc_rblock(a, a->recvbuf, b), pc_nbc_rcount(a, b), t);
    }
    free(pos);
    return s->rc;
}
