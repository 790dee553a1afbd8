/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.h - the tracer's clock: each rank's CLOCK_MONOTONIC in nanoseconds,
 * and Cristian's synchronization of every rank's clock against rank 0's
 * (Parsons 2015 §3.4.2, Listing 3.1: N ping-pongs per rank, the median
 * of the N offset estimates).
 *
 * A synchronization gives, for every rank r (on rank 0), the offset o_r such
 * that rank 0's time = rank r's time + o_r, the local time t_r of rank r at
 * which it holds, and the error bound of that estimate: half the round trip
 * of the ping-pong whose estimate is the median (Cristian: the true offset
 * lies within RTT/2 of an exchange's estimate).  The tracer synchronizes in
 * MPI_Init, periodically during the run (PAPCOLL_TRACE_RESYNC, run.h) and
 * in MPI_Finalize; the report interpolates linearly between consecutive
 * synchronizations (piecewise-linear drift correction, Parsons 2015 §3.4.2
 * after Jones & Koenig 2010, re-synchronized as §3.4.3 proposes).
 *
 * PAPCOLL_TRACE_TEST_SKEW=OFFSET_US,DRIFT_PPM[,ACCEL_PPM_PER_S] (a testing
 * aid) makes rank r's clock read r * OFFSET_US microseconds ahead and run
 * r * DRIFT_PPM parts per million fast, the rate growing by r *
 * ACCEL_PPM_PER_S ppm per second from the moment the skew is set (a drift
 * that is not linear: the skew grows with the square of the time), so that
 * tests can check the synchronization recovers them.
 *
 * Under SimGrid SMPI (PAPCOLL_SMPI) every rank reads the one simulated
 * clock (SimGrid's, in ns), as MPI_Wtime does (the pending host computation
 * accounted first: smpi_bench_end / smpi_bench_begin) but without the
 * simulated time MPI_Wtime injects per call (smpi/wtime, 10 ns), so that
 * tracing does not move the program in simulated time.  The ranks' offsets
 * are 0 by construction: pt_clock_sync exchanges no message and records
 * offsets and error bounds of 0; the test skew is not applied.
 */
#ifndef PAPCOLL_TRACE_CLOCK_H
#define PAPCOLL_TRACE_CLOCK_H

#include <mpi.h>

#include <stdint.h>
#include <time.h>
#ifdef PAPCOLL_SMPI
#include <math.h>
#include <simgrid/engine.h>
#endif

typedef struct {
    int active;
    int64_t offset_ns; /* added */
    double rate;       /* extra ns per ns */
    double accel;      /* extra ns per ns^2: accel * (t - base)^2 is added */
    int64_t base;      /* raw clock when the skew was set */
} pt_skew_t;

extern pt_skew_t pt_skew;

#ifdef PAPCOLL_SMPI
static inline int64_t pt_clock_now(void)
{
    smpi_bench_end(); /* what the rank computed since its last MPI call, when SMPI charges it, comes first */
    double now = simgrid_get_clock();
    smpi_bench_begin();
    return (int64_t)llround(now * 1e9);
}
#else
static inline int64_t pt_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (__builtin_expect(pt_skew.active, 0)) {
        double since = (double)(t - pt_skew.base);
        t += pt_skew.offset_ns + (int64_t)(pt_skew.rate * (double)t + pt_skew.accel * since * since);
    }
    return t;
}
#endif

/* Sets the test skew of this rank from PAPCOLL_TRACE_TEST_SKEW (if set). */
void pt_clock_set_test_skew(const char *spec, int world_rank);

/* One synchronization point, every rank's values (meaningful on rank 0). */
typedef struct {
    int64_t *t_local; /* rank r's local time at the median exchange */
    int64_t *offset;  /* rank 0's time - rank r's time, ns */
    int64_t *error;   /* bound of |offset error|: half the median exchange's round trip, ns */
} pt_sync_t;

/* Collective over comm (rank 0 = the reference).  Allocates sync's arrays
 * on rank 0 (free with pt_clock_sync_free).  Returns an MPI error code. */
int pt_clock_sync(MPI_Comm comm, int rounds, pt_sync_t *sync);
void pt_clock_sync_free(pt_sync_t *sync);

#endif
