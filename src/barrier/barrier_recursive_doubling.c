/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * recursive_doubling - the pairwise-exchange barrier: among the first p'
 * ranks (p' the largest power of two <= p), in round k = 0 .. log2 p' - 1
 * rank r exchanges an empty message with r XOR 2^k.  p not a power of two:
 * the p - p' others are folded in first (rank p' + i tells rank i it has
 * arrived) and released last (rank i tells it the barrier is over).
 *
 *   p = 6, p' = 4:  fold   4->0 5->1
 *                   k = 0  0<->1 2<->3
 *                   k = 1  0<->2 1<->3
 *                   unfold 0->4 1->5
 *
 * Cost (Hockney): log2 p' alpha for a power of two; log2 p' + 2 alpha
 * otherwise (the fold and the release).  Every process of the core sends and
 * receives one message per round.
 * Late arrival: after the last arrival log2 p' rounds (+2 when it is folded
 * or its partner has a folded process), like dissemination; with p not a
 * power of two, a late folded process delays its partner's whole exchange.
 * dissemination does not pay the fold.
 * Limitations: none (any p; tags PC_TAG_BARRIER_DATA, _FOLD and _UNFOLD,
 * sources known).
 * Source: MPICH's recursive-doubling exchanges (R. Thakur, R. Rabenseifner
 * and W. Gropp, "Optimization of collective communication operations in
 * MPICH", IJHPCA 19(1), 2005: Thakur et al. 2005 in docs/references.md), here with
 * empty messages; the butterfly barrier of E. D. Brooks III, "The butterfly
 * barrier", Int. J. Parallel Programming 15(4), 1986 (Brooks 1986).
 */
#include "barrier/barrier.h"

int pc_barrier_recursive_doubling(const pc_call_t *a)
{
    MPI_Comm comm = a->ctx->comm;
    int rank = a->ctx->rank, p = a->ctx->size, core = 1, rc = MPI_SUCCESS;
    while (core * 2 <= p) core *= 2;
    if (rank >= core) { /* folded: announce, then wait for the release */
        rc = pc_send(NULL, 0, rank - core, PC_TAG_BARRIER_FOLD, comm);
        if (rc == MPI_SUCCESS) rc = pc_recv(NULL, 0, rank - core, PC_TAG_BARRIER_UNFOLD, comm);
        return rc;
    }
    if (rank + core < p) rc = pc_recv(NULL, 0, rank + core, PC_TAG_BARRIER_FOLD, comm);
    for (int mask = 1; mask < core && rc == MPI_SUCCESS; mask *= 2)
        rc = pc_sendrecv(NULL, 0, rank ^ mask, NULL, 0, rank ^ mask, PC_TAG_BARRIER_DATA, comm);
    if (rc == MPI_SUCCESS && rank + core < p) rc = pc_send(NULL, 0, rank + core, PC_TAG_BARRIER_UNFOLD, comm);
    return rc;
}
