/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dissemination - the dissemination barrier: in round k = 0, 1, ...,
 * ceil(log2 p) - 1 every process sends an empty message to rank + 2^k and
 * receives one from rank - 2^k (mod p).  After round k a process has heard,
 * directly or through others, from the 2^(k+1) - 1 ranks before it; after
 * the last round from all p - 1.  No process is special and p need not be a
 * power of two.  With radix r = PAPCOLL_BARRIER_RADIX (default 4) each
 * round sends to the r - 1 ranks j r^k ahead (j = 1 .. r - 1) and hears from
 * the r - 1 behind: ceil(log_r p) rounds (the picture is r = 2).
 *
 *   p = 5     round 0 (+1)      round 1 (+2)      round 2 (+4)
 *             0->1 1->2 2->3    0->2 1->3 2->4    0->4 1->0 2->1
 *             3->4 4->0         3->0 4->1         3->2 4->3
 *
 * Cost (Hockney): ceil(log_r p) alpha, every process sending and receiving
 * r - 1 messages per round (no data: beta plays no part; a network's
 * per-message overhead o adds (r - 2) o per round over the binary one).
 * Late arrival: the last process to arrive, L, sends its round-0 message at
 * once; everyone else has done every round it could without L, so after the
 * last arrival the barrier still takes ceil(log2 p) rounds for L's arrival
 * to reach every process (rank L + 2^k - 1 hears of it only in round k):
 * ceil(log_r p) alpha after the last arrival, the lower bound for messages
 * of one latency with r - 1 messages sent per process and round.
 * Limitations: none (any p; tag PC_TAG_BARRIER_DATA, sources known, each
 * pair used once per call, so MPI's non-overtaking keeps calls apart).
 * Source: D. Hensgen, R. Finkel and U. Manber, "Two algorithms for barrier
 * synchronization", Int. J. Parallel Programming 17(1), 1988 (Hensgen 1988
 * in docs/references.md), the dissemination algorithm; the r-ary form as
 * T. Hoefler, T. Mehlan, F. Mietke, W. Rehm, "Fast barrier synchronization
 * for InfiniBand", IPDPS (CAC workshop) 2006, and MPICH's
 * barrier_intra_k_dissemination.
 */
#include "barrier/barrier.h"

int pc_barrier_dissemination(const pc_call_t *a)
{
    return pc_barrier_disseminate(a->ctx->comm, a->ctx->rank, a->ctx->size, PC_TAG_BARRIER_DATA, a->params->barrier.radix);
}
