/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pairwise - p - 1 steps of one exchange each: in step k (1 .. p - 1) every
 * process sends its block for dst and receives the block from src, with
 * dst = src = rank XOR k when p is a power of two (pairs that swap), else
 * dst = rank + k and src = rank - k (mod p).
 *
 *   p = 4:  step 1: 0<->1 2<->3   step 2: 0<->2 1<->3   step 3: 0<->3 1<->2
 *
 * Cost (Hockney, m bytes sent in all by one process): (p - 1) alpha + (p -
 * 1)/p m beta, one message in and one out per process at a time, so no
 * receiver is flooded (MPICH's long-message choice).
 * Late arrival: step k waits for the step's partner, so a late process
 * holds up its step-1 partner at once and, through the chain of steps,
 * everyone: after the last arrival up to p - 1 steps remain for the
 * processes whose exchange with the late one comes last.
 * Blocks of any size (alltoallv), empty ones included (no data either way).
 * Source: MPICH src/mpi/coll/alltoall/alltoall_intra_pairwise.c; Thakur,
 * Rabenseifner and Gropp, "Optimization of collective communication
 * operations in MPICH", IJHPCA 19(1) 2005.
 */
#include "alltoall/alltoall.h"

int pc_alltoall_pairwise(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    int pof2 = (p & (p - 1)) == 0;
    for (int k = 1; k < p && rc == MPI_SUCCESS; k++) {
        int dst = pof2 ? me ^ k : (me + k) % p, src = pof2 ? me ^ k : (me - k + p) % p;
        rc = pc_blocks_sendrecv(a, &a->sblocks, dst, dst, dst, &a->rblocks, src, src, src, PC_TAG_ALLTOALL_DATA);
    }
    return rc;
}
