/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nonblocking.h - the nonblocking forms papcoll-bench measures
 * (--coll=ibarrier|ibcast|ireduce|iallreduce), the way the Intel MPI
 * Benchmarks' IMB-NBC does: each form is its blocking base collective's call
 * started with papcoll_i<coll>_by_name, so buffers, checks, the bound and
 * the arrival metrics are the base's (collective.h, metrics.h).  Per
 * repetition an algorithm runs twice at the same arrival pattern:
 *   pure        start, then wait: e_i = f_i - a_i (the base's metrics;
 *               t_pure = e_bar);
 *   overlapped  start, compute for t_cpu (the pure run's e_bar just
 *               before, the same on every process), then wait: t_ovrl =
 *               f_i - a_i, wait = the time spent waiting after the
 *               computation.
 * overlap = 100 max(0, min(1, (t_pure + t_cpu - t_ovrl) / min(t_pure,
 * t_cpu))) (IMB-NBC's definition), on the medians over repetitions of the
 * means over processes.  By default the computation calls no MPI (no
 * progress in it, as in IMB-NBC); --nbc-tests=N spreads N tests over it
 * (OSU's -t).  Natively it is a busy wait on the clock, under SMPI a
 * simulated sleep.  The wait is MPI_Test + papcoll_nbc_progress until complete (the
 * benchmark calls papcoll's API, not the interposer).
 *
 * A new nonblocking collective plugs in with one row of the table in
 * nonblocking.c: its --coll name (papcoll's catalogue name too), its
 * blocking base, its start function.
 */
#ifndef PB_NONBLOCKING_H
#define PB_NONBLOCKING_H

#include <mpi.h>

#include "collective.h"
#include "overlap.h"

#define BENCH_NBC_NAMES ", ibarrier, ibcast, ireduce or iallreduce"

typedef int (*bench_nbc_start_fn)(const collective_t *c, const char *algo, int root, MPI_Comm comm, MPI_Request *req);

typedef struct bench_nbc {
    const char *name;          /* --coll, and papcoll's catalogue name of its algorithms */
    bench_coll_t base;         /* the blocking collective whose data, checks and metrics it shares */
    bench_nbc_start_fn start;
} bench_nbc_t;

/* The form called name, or NULL. */
const bench_nbc_t *bench_nbc_find(const char *name);
/* Form i (0-based) or NULL: for --list and the usage text. */
const bench_nbc_t *bench_nbc_at(int i);
/* Tests *req once: MPI_Test, then papcoll_nbc_progress if not complete
 * (*done: complete; a completed request is MPI_REQUEST_NULL). */
int bench_nbc_test(MPI_Request *req, int *done);
/* Waits for *req: bench_nbc_test until complete. */
int bench_nbc_wait(MPI_Request *req);
#endif
