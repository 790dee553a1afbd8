/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * recursive_doubling - in step k every process swaps its partial result
 * (the combination of the aligned group of 2^k ranks it belongs to) with
 * the process whose rank differs in bit k, if there is one.  A process keeps
 * two accumulators: `partial`, the combination of its whole group (what it
 * sends), and its result, into which only what comes from below (a partner
 * of lower rank) is combined.  No fold: a partner rank >= p simply skips
 * the step, so any p works.
 *
 *   p = 6     step 0 (XOR 1)   step 1 (XOR 2)   step 2 (XOR 4)
 *             0<->1 2<->3 4<->5  0<->2 1<->3     0<->4 1<->5
 *                                4<->- 5<->-     2<->- 3<->-
 *   rank 5's result: x5, then x4 x5 (step 0), then x0..x3 x4x5 (step 2)
 *
 * Exscan (MPI_Exscan): the same exchanges; the result starts empty and takes
 * the first block from below as it is (rank 0 never receives from below:
 * its receive buffer is left untouched).
 * Order: the partner's group lies wholly below or above mine; what comes
 * from below goes on the left of both accumulators, and with a
 * non-commutative op `partial` = mine op theirs is built in the scratch
 * buffer when the partner is above, so rank order holds for every op.
 * Cost (Hockney, gamma: local reduction time per byte):
 *   ceil(log2 p) (alpha + beta m) + up to 2 ceil(log2 p) gamma m (MPICH's
 *   lgp.alpha + n.lgp.beta + 2 n.lgp.gamma); latency-optimal, the
 *   short-message scan of MPICH and Open MPI.
 * Late arrival: a process exchanges with partners above it as well as below
 * (it must hand them its partial result), so every process waits for the
 * last arrival, even rank 0, whose result does not depend on anybody;
 * after it, the remaining steps still run.  linear makes no process wait
 * for a higher rank.
 * Limitations: the whole vector crosses the network ceil(log2 p) times per
 * process (linear for long vectors).  Memory: two buffers of count
 * elements.
 * Source: MPICH src/mpi/coll/scan/scan_intra_recursive_doubling.c and
 * exscan/exscan_intra_recursive_doubling.c (R. Thakur, R. Rabenseifner and
 * W. Gropp, "Optimization of collective communication operations in MPICH",
 * IJHPCA 19(1), 2005: Thakur et al. 2005 in docs/references.md); the
 * exclusive scan by the same exchanges as P. Sanders and J. L. Traff,
 * "Parallel prefix (scan) algorithms for MPI", EuroPVM/MPI 2006 (Sanders &
 * Traff 2006); the data-parallel prefix of W. D. Hillis and G. L. Steele,
 * "Data parallel algorithms", CACM 29(12), 1986 (Hillis & Steele 1986).
 */
#include "scan/scan.h"

#include <stdlib.h>

int pc_scan_recursive_doubling(const pc_call_t *a)
{
    int p = a->ctx->size, rank = a->ctx->rank, exclusive = pc_scan_exclusive(a), rc = MPI_SUCCESS;
    int have_result = !exclusive; /* exscan: nothing from below yet */
    void *partial, *tmp, *partial_base = NULL, *tmp_base = NULL;

    if (!(partial = pc_red_alloc(a, a->count, &partial_base)) || !(tmp = pc_red_alloc(a, a->count, &tmp_base))) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    /* partial = mine; scan: the result starts as mine too (in place: it is) */
    rc = pc_red_copy(a, partial, a->sendbuf, a->count);
    if (rc == MPI_SUCCESS && !exclusive) rc = pc_red_copy(a, a->recvbuf, a->sendbuf, a->count);

    for (long mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1) {
        int dst = (int)(rank ^ mask);
        if (dst >= p) continue;
        rc = pc_red_sendrecv(a, partial, a->count, dst, tmp, a->count, dst, PC_TAG_SCAN_DATA);
        if (rc != MPI_SUCCESS) break;
        if (dst < rank) { /* from below: on the left of both */
            rc = pc_red_local(a, tmp, partial, a->count);
            if (rc != MPI_SUCCESS) break;
            if (have_result) {
                rc = pc_red_local(a, tmp, a->recvbuf, a->count);
            } else {
                rc = pc_red_copy(a, a->recvbuf, tmp, a->count);
                have_result = 1;
            }
        } else if (a->commutative) {
            rc = pc_red_local(a, tmp, partial, a->count);
        } else { /* from above: partial = partial op tmp, built in tmp */
            rc = pc_red_local(a, partial, tmp, a->count);
            void *swap = partial, *swap_base = partial_base;
            partial = tmp, partial_base = tmp_base;
            tmp = swap, tmp_base = swap_base;
        }
    }
out:
    free(partial_base);
    free(tmp_base);
    return rc;
}
