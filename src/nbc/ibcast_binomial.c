/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibcast_binomial - MPI_Ibcast as a schedule of the binomial tree: with
 * ranks renumbered from the root (v = rank - root mod p), v receives from
 * v - 2^k (2^k its lowest set bit), then sends to v + 2^j for every
 * 2^j < 2^k with v + 2^j < p, all at once.
 *
 *   p = 8, root 0:   0 -> 1, 2, 4    2 -> 3    4 -> 5, 6    6 -> 7
 *
 * Two rounds per process: receive (the root has none), then its sends.
 * Cost (Hockney): ceil(log2 p) (alpha + m beta) along the deepest path; the
 * root sends log2 p messages.
 * Late arrival: a process posts its receive at the call and returns; its
 * children's sends go out the first time it makes progress after its data
 * arrived, so a late inner process delays its subtree only (Patarasuk and
 * Yuan 2008 analyse the blocking binomial's exposure).  Not segmented: a
 * large message is one message per edge.
 * Limitations: none (any root, count 0, derived datatypes).
 * Source: the binomial tree of MPICH and Open MPI (Thakur et al. 2005); as a
 * schedule: Hoefler et al. 2007 (libNBC's ibcast binomial).
 */
#include "nbc/nbc.h"

int pc_ibcast_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, v = (a->rank - a->root + p) % p;
    long mask = 1;
    while (mask < p && !(v & mask)) mask <<= 1;
    if (v != 0) {
        pc_nbc_recv(s, a->recvbuf, a->count, a->type, (int)((v - mask + a->root) % p));
        pc_nbc_round(s);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < p) pc_nbc_send(s, a->recvbuf, a->count, a->type, (int)((v + mask + a->root) % p));
    pc_nbc_round(s);
    return s->rc;
}
