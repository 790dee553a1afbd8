/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * recursive_doubling - in step j every process swaps everything it has
 * gathered (the blocks of its group of 2^j processes) with the process
 * whose rank differs in bit j; after log2 p steps everyone has every block.
 *
 *   p = 4:  step 0: 0<->1, 2<->3 (one block each way)
 *           step 1: 0<->2, 1<->3 (two blocks each way)
 *
 * p not a power of two (pof2 = the largest power of two below p, rem =
 * p - pof2): the odd ranks below 2 rem first give their block to their
 * even neighbour and sit out; the pof2 others run the exchange, each
 * virtual rank owning one or two consecutive real blocks, so a group is
 * still one contiguous byte range; at the end the even ranks send every
 * block to the odd neighbour (two extra steps, the second with all m bytes).
 * MPICH instead lets the missing subtree's blocks be sent by a process that
 * has them (no extra steps, more bookkeeping).
 * Cost (Hockney, m bytes gathered in all, p a power of two): log2 p alpha +
 * (p - 1)/p m beta; otherwise + 2 alpha + (1/p + 1) m beta.
 * Late arrival: step j needs the partner of step j, which needed its own
 * partners before: after the last arrival log2 p steps remain for everyone
 * (fewer than the ring's p - 1, but each step waits for the slowest of the
 * group it joins).
 * Blocks of any size (allgatherv), empty ones included.
 * Source: MPICH src/mpi/coll/allgather/allgather_intra_recursive_doubling.c;
 * Thakur, Rabenseifner and Gropp, IJHPCA 19(1) 2005.
 */
#include "allgather/allgather.h"
#include "coll/reduction.h"

/* First and last real rank of virtual rank v (v < rem own two blocks). */
static int first_real(int v, int rem) { return v < rem ? 2 * v : v + rem; }
static int last_real(int v, int rem) { return v < rem ? 2 * v + 1 : v + rem; }

int pc_allgather_recursive_doubling(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    int pof2 = pc_red_pof2(p), rem = p - pof2;
    if (me < 2 * rem && me % 2) { /* left out: my block to my even neighbour, everything back at the end */
        rc = pc_allgather_exchange(a, me, me, me - 1, 0, -1, MPI_PROC_NULL, PC_TAG_ALLGATHER_FOLD);
        if (rc == MPI_SUCCESS) rc = pc_allgather_exchange(a, 0, -1, MPI_PROC_NULL, 0, p - 1, me - 1, PC_TAG_ALLGATHER_UNFOLD);
        return rc;
    }
    if (me < 2 * rem) rc = pc_allgather_exchange(a, 0, -1, MPI_PROC_NULL, me + 1, me + 1, me + 1, PC_TAG_ALLGATHER_FOLD);
    int v = me < 2 * rem ? me / 2 : me - rem;
    for (int mask = 1; mask < pof2 && rc == MPI_SUCCESS; mask <<= 1) {
        int mine = v & ~(mask - 1), theirs = (v ^ mask) & ~(mask - 1), partner = first_real(v ^ mask, rem);
        rc = pc_allgather_exchange(a, first_real(mine, rem), last_real(mine + mask - 1, rem), partner,
                                first_real(theirs, rem), last_real(theirs + mask - 1, rem), partner,
                                PC_TAG_ALLGATHER_DATA);
    }
    if (rc == MPI_SUCCESS && me < 2 * rem)
        rc = pc_allgather_exchange(a, 0, p - 1, me + 1, 0, -1, MPI_PROC_NULL, PC_TAG_ALLGATHER_UNFOLD);
    return rc;
}
