/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iscatter_linear - MPI_Iscatter and MPI_Iscatterv as a one-round
 * schedule: the root posts a send of every other process's block at once
 * (the caller's datatype and displacements) and copies its own; every other
 * process posts one receive.  Empty blocks are not sent.
 *
 *   p = 4, root 0:   0 -> 1, 0 -> 2, 0 -> 3   (all posted in the call)
 *
 * Cost (Hockney, m = all blocks together): (p - 1) alpha + ((p - 1)/p) m beta
 * at the root, alpha + (m/p) beta elsewhere.
 * Late arrival: a late non-root delays only its own block; a late root
 * delays everyone by its lateness, then one message remains for each.
 * Limitations: none (v form, MPI_IN_PLACE at the root, derived datatypes).
 * Source: the linear scatter of MPICH and Open MPI (Thakur et al. 2005); as
 * a schedule: Hoefler et al. 2007 (libNBC's iscatter).
 */
#include "nbc/block_args.h"

int pc_iscatter_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int p = a->size, root = a->root;
    if (a->rank != root) {
        pc_nbc_recv_data(s, a->recvbuf, a->recvcount, a->recvtype, root);
        return s->rc;
    }
    if (a->recvbuf != MPI_IN_PLACE)
        pc_nbc_convert(s, pc_nbc_sblock(a, a->sendbuf, root), pc_nbc_scount(a, root), a->sendtype, a->recvbuf,
                       a->recvcount, a->recvtype);
    for (int k = 1; k < p; k++) {
        int i = (root + k) % p;
        pc_nbc_send_data(s, pc_nbc_sblock(a, a->sendbuf, i), pc_nbc_scount(a, i), a->sendtype, i);
    }
    return s->rc;
}
