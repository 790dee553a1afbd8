/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.h - a global clock for the benchmark: rank 0's MPI_Wtime.
 *
 * Method (Parsons 2015 Listing 3.1, with drift): for each rank j, rank 0 and j
 * exchange `rounds` ping-pongs; the offset of j is its clock minus the
 * midpoint of rank 0's send and receive times, taken from the round with the
 * smallest round trip (the residual error is at most half that round trip).
 * A later re-synchronization gives the drift (change of offset per second),
 * so global(t) = t - (offset + drift (t - t_sync)).  Under SimGrid SMPI the
 * simulated clock is already global: offset and drift are 0.
 */
#ifndef PB_CLOCK_H
#define PB_CLOCK_H

#include <mpi.h>

typedef struct gclock {
    double offset, drift, t_sync;  /* this rank */
    double residual;               /* max over ranks of half the best round trip (rank 0 knows) */
    double prev_offset, prev_t;    /* previous synchronization, for the drift */
    int synced, simulated;
} gclock_t;

void gclock_init(gclock_t *c, int simulated);
/* Collective over comm. */
int gclock_sync(gclock_t *c, MPI_Comm comm, int rounds);
double gclock_now(const gclock_t *c);
/* Waits until global time `target` (busy-wait natively, simulated sleep
 * under SMPI); returns the global time at return. */
double gclock_wait_until(const gclock_t *c, double target);

#endif
