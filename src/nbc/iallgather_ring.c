/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iallgather_ring - MPI_Iallgather and MPI_Iallgatherv as a schedule of the
 * ring allgather: my own block goes to its place, then in round k = 0 ..
 * p - 2 every process sends block (rank - k) to rank + 1 and receives block
 * (rank - k - 1) from rank - 1, straight from and into the receive buffer
 * (the caller's datatype and displacements; nothing packed).  Empty blocks
 * (the v form) are not sent.
 *
 *   p = 4, round 0: 0->1 block 0, 1->2 block 1, 2->3 block 2, 3->0 block 3
 *          round 1: 0->1 block 3, 1->2 block 0, ...     (p - 1 rounds)
 *
 * Cost (Hockney, m = all blocks together): (p - 1) alpha + ((p - 1)/p) m beta
 * for equal blocks; each process sends and receives one message per round.
 * Bandwidth-optimal, latency linear in p: the large-message choice.
 * Late arrival: round k needs the left neighbour's round k - 1, so a late
 * process stalls the ring behind it: after the last arrival up to p - 1
 * rounds remain (the early processes have posted their first round and
 * returned).  The rounds advance inside the program's completion calls.
 * Limitations: none (any p, v form, MPI_IN_PLACE, derived datatypes).
 * Source: the ring allgather of MPICH (Thakur et al. 2005); as a schedule:
 * Hoefler et al. 2007 (libNBC's iallgather).
 */
#include "nbc/block_args.h"

int pc_iallgather_ring(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, r = a->rank;
    pc_nbc_own_block(s, a, 0, r);
    for (int k = 0; k < p - 1; k++) {
        int sb = (r - k + p) % p, rb = (r - k - 1 + p) % p;
        pc_nbc_send_data(s, pc_nbc_rblock(a, a->recvbuf, sb), pc_nbc_rcount(a, sb), a->recvtype, (r + 1) % p);
        pc_nbc_recv_data(s, pc_nbc_rblock(a, a->recvbuf, rb), pc_nbc_rcount(a, rb), a->recvtype, (r - 1 + p) % p);
        pc_nbc_round(s);
    }
    return s->rc;
}
