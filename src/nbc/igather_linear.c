/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * igather_linear - MPI_Igather and MPI_Igatherv as a one-round schedule:
 * the root posts a receive from every other process at once, each into its
 * block of the receive buffer (the caller's datatype and displacements),
 * and copies its own block; every other process posts one send.  Empty
 * blocks are not sent.
 *
 *   p = 4, root 0:   1 -> 0, 2 -> 0, 3 -> 0   (all posted in the call)
 *
 * Cost (Hockney, m = all blocks together): (p - 1) alpha + ((p - 1)/p) m beta
 * at the root, alpha + (m/p) beta elsewhere.
 * Late arrival: each block travels on its own, so a late process delays
 * only its own block: the root's completion calls take the others as they
 * come, and after the last arrival one message remains.
 * Limitations: none (v form, MPI_IN_PLACE at the root, derived datatypes).
 * Source: the linear gather of MPICH and Open MPI (Thakur et al. 2005); as a
 * schedule: Hoefler et al. 2007 (libNBC's igather).
 */
#include "nbc/block_args.h"

int pc_igather_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, root = a->root;
    if (a->rank != root) {
        pc_nbc_send_data(s, a->sendbuf, a->sendcount, a->sendtype, root);
        return s->rc;
    }
    pc_nbc_own_block(s, a, 0, root);
    for (int k = 1; k < p; k++) {
        int i = (root + k) % p;
        pc_nbc_recv_data(s, pc_nbc_rblock(a, a->recvbuf, i), pc_nbc_rcount(a, i), a->recvtype, i);
    }
    return s->rc;
}
