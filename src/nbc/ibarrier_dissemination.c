/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibarrier_dissemination - MPI_Ibarrier as a schedule of the dissemination
 * barrier: round k = 0 .. ceil(log2 p) - 1 sends an empty message to
 * rank + 2^k and receives one from rank - 2^k (mod p); a round starts when
 * the previous one has completed.
 *
 *   p = 5     round 0 (+1)      round 1 (+2)      round 2 (+4)
 *             0->1 1->2 2->3    0->2 1->3 2->4    0->4 1->0 2->1
 *             3->4 4->0         3->0 4->1         3->2 4->3
 *
 * Cost (Hockney): ceil(log2 p) alpha, one message sent and one received per
 * process and round, no data.
 * Late arrival: a process that arrives early posts round 0 in MPI_Ibarrier
 * and returns to its computation; the rounds that do not depend on the
 * late process complete inside the program's MPI_Test / MPI_Wait calls, so
 * after the last arrival ceil(log2 p) rounds remain, as in the blocking
 * barrier, but the early processes have not spent the wait blocked.
 * Limitations: none (any p).  The schedule advances only when the program
 * calls a completion function (docs/nonblocking.md).
 * Source: D. Hensgen, R. Finkel and U. Manber, "Two algorithms for barrier
 * synchronization", Int. J. Parallel Programming 17(1), 1988 (Hensgen
 * 1988); as a schedule: T. Hoefler, A. Lumsdaine and W. Rehm,
 * "Implementation and performance analysis of non-blocking collective
 * operations for MPI", SC 2007 (Hoefler et al. 2007, libNBC's ibarrier).
 */
#include "nbc/nbc.h"

int pc_ibarrier_dissemination(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    for (long dist = 1; dist < a->size; dist <<= 1) {
        pc_nbc_send(s, NULL, 0, MPI_BYTE, (int)((a->rank + dist) % a->size));
        pc_nbc_recv(s, NULL, 0, MPI_BYTE, (int)((a->rank - dist % a->size + a->size) % a->size));
        pc_nbc_round(s);
    }
    return s->rc;
}
