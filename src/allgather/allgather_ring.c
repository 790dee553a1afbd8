/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ring - in step s (0 .. p-2) every process sends the block it received in
 * the previous step (its own first) to its right neighbour and receives the
 * next one from its left: after p - 1 steps every block has gone round.
 *
 *   step 0:  0 -b0-> 1 -b1-> 2 -b2-> 3 -b3-> 0
 *   step 1:  0 -b3-> 1 -b0-> 2 -b1-> 3 -b2-> 0    ...
 *
 * Cost (Hockney, m bytes gathered in all): (p - 1) alpha + (p - 1)/p m beta;
 * nearest-neighbour traffic only, so no link carries more than one message
 * at a time (the large-message choice of MPICH and Open MPI).
 * Late arrival: a late process holds up its right neighbour at once and,
 * step by step, everyone: after the last arrival up to p - 1 steps remain
 * (a process can only forward what it has received).  Under the all-to-all
 * dependence of an allgather nobody can finish before the last process is
 * in (Scalasca's Wait at N x N); the ring adds the most steps after it.
 * Blocks of any size (allgatherv), empty ones included.
 * Source: MPICH src/mpi/coll/allgather/allgather_intra_ring.c; Thakur,
 * Rabenseifner and Gropp, "Optimization of collective communication
 * operations in MPICH", IJHPCA 19(1) 2005.
 */
#include "allgather/allgather.h"

int pc_allgather_ring(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    int right = (me + 1) % p, left = (me - 1 + p) % p;
    for (int s = 0; s < p - 1 && rc == MPI_SUCCESS; s++) {
        int send = (me - s + p) % p, recv = (me - s - 1 + p) % p;
        rc = pc_allgather_exchange(a, send, send, right, recv, recv, left, PC_TAG_ALLGATHER_DATA);
    }
    return rc;
}
