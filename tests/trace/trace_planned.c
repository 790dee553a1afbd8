/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace_planned - an ordinary MPI program (it knows nothing of the tracer)
 * with a planned arrival pattern, for the tracer's tests
 * (tests/trace/check_trace.py): every iteration runs every collective of
 * MPI-3, blocking then nonblocking (posted, then waited for), call k of
 * rank r starting at T0 + k x PERIOD + r x DELAY on CLOCK_MONOTONIC (rank
 * r sleeps, then spins, until its time), so rank r reaches each call r x DELAY after
 * rank 0.  CLOCK_MONOTONIC is one clock for every process of a machine:
 * the plan holds on one node (the tests' setting).  T0 comes from rank 0
 * in the first call, an MPI_Bcast.  Then a few calls on other communicators
 * (halves of the world, a duplicate of it).
 *
 *   trace_planned [--delay-us=D] [--iterations=K] [--only=bcast,allreduce,...] [--arrivals=PREFIX]
 *
 * --arrivals: each rank writes PREFIX.RANK, one line "CALL T_NS" per planned
 * call, its CLOCK_MONOTONIC just before calling MPI, the call's arguments
 * already allocated (what a busy machine made of the plan: a process
 * descheduled after its wait arrives late).  Allocated after the clock
 * read, they put 4-6 us of the program's own work between this clock and
 * the tracer's on an idle machine, more under load, against the resync
 * test's margin of 20 us.
 *
 * Rank 0 prints the plan as one line "PLAN {json}" (T0 and PERIOD in ns,
 * the collectives in order, the calls on other communicators), and
 * "trace_planned: OK" at the end.
 */
#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BLOCK = 4 }; /* ints per block */

static const char *names[] = {"barrier", "bcast", "reduce", "allreduce", "allgather", "allgatherv", "alltoall",
                              "alltoallv", "alltoallw", "gather", "gatherv", "scatter", "scatterv", "reduce_scatter",
                              "reduce_scatter_block", "scan", "exscan"};
enum { NCOLL = sizeof names / sizeof names[0] };

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Sleeps until 200 us before t, then spins to t: a process that spun through the whole period would keep
 * every core busy when the test oversubscribes them (4 ranks on 2 cores), and the scheduler would then
 * deschedule ranks at random points, between the program's clock read and the call among them. */
static void wait_until(long long t)
{
    long long wake = t - 200000;
    if (now_ns() < wake) {
        struct timespec ts = {.tv_sec = wake / 1000000000LL, .tv_nsec = wake % 1000000000LL};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
        }
    }
    while (now_ns() < t) {
    }
}

/* One call of collective c (nonblocking if nb) on comm with root; *arrived (if not null): the clock just before
 * the MPI call, its arguments ready. */
static void call(int c, int nb, int root, MPI_Comm comm, long long *arrived)
{
    int p, rank;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    int *s = calloc((size_t)p * BLOCK, sizeof(int)), *r = calloc((size_t)p * BLOCK, sizeof(int));
    int *counts = malloc((size_t)p * sizeof(int)), *displs = malloc((size_t)p * sizeof(int));
    MPI_Datatype *types = malloc((size_t)p * sizeof(MPI_Datatype));
    int *wdispls = malloc((size_t)p * sizeof(int));
    for (int i = 0; i < p; i++) {
        counts[i] = BLOCK;
        displs[i] = i * BLOCK;
        wdispls[i] = i * BLOCK * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    for (int i = 0; i < p * BLOCK; i++) s[i] = rank + i;
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Request *req = nb ? &q : NULL;
#define RUN(blocking, nonblocking) ((void)(nb ? nonblocking : blocking))
    if (arrived) *arrived = now_ns();
    switch (c) {
    case 0: RUN(MPI_Barrier(comm), MPI_Ibarrier(comm, req)); break;
    case 1: RUN(MPI_Bcast(s, BLOCK, MPI_INT, root, comm), MPI_Ibcast(s, BLOCK, MPI_INT, root, comm, req)); break;
    case 2:
        RUN(MPI_Reduce(s, r, BLOCK, MPI_INT, MPI_SUM, root, comm),
            MPI_Ireduce(s, r, BLOCK, MPI_INT, MPI_SUM, root, comm, req));
        break;
    case 3:
        RUN(MPI_Allreduce(s, r, BLOCK, MPI_INT, MPI_SUM, comm), MPI_Iallreduce(s, r, BLOCK, MPI_INT, MPI_SUM, comm, req));
        break;
    case 4:
        RUN(MPI_Allgather(s, BLOCK, MPI_INT, r, BLOCK, MPI_INT, comm),
            MPI_Iallgather(s, BLOCK, MPI_INT, r, BLOCK, MPI_INT, comm, req));
        break;
    case 5:
        RUN(MPI_Allgatherv(s, BLOCK, MPI_INT, r, counts, displs, MPI_INT, comm),
            MPI_Iallgatherv(s, BLOCK, MPI_INT, r, counts, displs, MPI_INT, comm, req));
        break;
    case 6:
        RUN(MPI_Alltoall(s, BLOCK, MPI_INT, r, BLOCK, MPI_INT, comm),
            MPI_Ialltoall(s, BLOCK, MPI_INT, r, BLOCK, MPI_INT, comm, req));
        break;
    case 7:
        RUN(MPI_Alltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, comm),
            MPI_Ialltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, comm, req));
        break;
    case 8:
        RUN(MPI_Alltoallw(s, counts, wdispls, types, r, counts, wdispls, types, comm),
            MPI_Ialltoallw(s, counts, wdispls, types, r, counts, wdispls, types, comm, req));
        break;
    case 9:
        RUN(MPI_Gather(s, BLOCK, MPI_INT, r, BLOCK, MPI_INT, root, comm),
            MPI_Igather(s, BLOCK, MPI_INT, r, BLOCK, MPI_INT, root, comm, req));
        break;
    case 10:
        RUN(MPI_Gatherv(s, BLOCK, MPI_INT, r, counts, displs, MPI_INT, root, comm),
            MPI_Igatherv(s, BLOCK, MPI_INT, r, counts, displs, MPI_INT, root, comm, req));
        break;
    case 11:
        RUN(MPI_Scatter(s, BLOCK, MPI_INT, r, BLOCK, MPI_INT, root, comm),
            MPI_Iscatter(s, BLOCK, MPI_INT, r, BLOCK, MPI_INT, root, comm, req));
        break;
    case 12:
        RUN(MPI_Scatterv(s, counts, displs, MPI_INT, r, BLOCK, MPI_INT, root, comm),
            MPI_Iscatterv(s, counts, displs, MPI_INT, r, BLOCK, MPI_INT, root, comm, req));
        break;
    case 13:
        RUN(MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, comm),
            MPI_Ireduce_scatter(s, r, counts, MPI_INT, MPI_SUM, comm, req));
        break;
    case 14:
        RUN(MPI_Reduce_scatter_block(s, r, BLOCK, MPI_INT, MPI_SUM, comm),
            MPI_Ireduce_scatter_block(s, r, BLOCK, MPI_INT, MPI_SUM, comm, req));
        break;
    case 15: RUN(MPI_Scan(s, r, BLOCK, MPI_INT, MPI_SUM, comm), MPI_Iscan(s, r, BLOCK, MPI_INT, MPI_SUM, comm, req)); break;
    case 16:
        RUN(MPI_Exscan(s, r, BLOCK, MPI_INT, MPI_SUM, comm), MPI_Iexscan(s, r, BLOCK, MPI_INT, MPI_SUM, comm, req));
        break;
    }
#undef RUN
    if (nb) MPI_Wait(&q, MPI_STATUS_IGNORE);
    free(s);
    free(r);
    free(counts);
    free(displs);
    free(types);
    free(wdispls);
}

int main(int argc, char **argv)
{
    double delay_us = 2000;
    int iterations = 3;
    const char *only = NULL, *arrivals = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--delay-us=", 11)) delay_us = atof(argv[i] + 11);
        else if (!strncmp(argv[i], "--iterations=", 13)) iterations = atoi(argv[i] + 13);
        else if (!strncmp(argv[i], "--only=", 7)) only = argv[i] + 7;
        else if (!strncmp(argv[i], "--arrivals=", 11)) arrivals = argv[i] + 11;
        else {
            fprintf(stderr, "usage: trace_planned [--delay-us=D] [--iterations=K] [--only=bcast,allreduce,...] "
                            "[--arrivals=PREFIX]\n");
            return 2;
        }
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int selected[NCOLL], nselected = 0;
    for (int c = 0; c < NCOLL; c++) {
        char padded[64];
        snprintf(padded, sizeof padded, ",%s,", names[c]);
        char list[1024];
        snprintf(list, sizeof list, ",%s,", only ? only : "");
        if (!only || strstr(list, padded)) selected[nselected++] = c;
    }
    /* Call 0 on MPI_COMM_WORLD: T0 from rank 0; then the planned calls 1, 2, ... */
    long long t0 = now_ns() + 50000000LL, period = (long long)(((size - 1) * delay_us + 5000) * 1e3);
    MPI_Bcast(&t0, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("PLAN {\"np\": %d, \"delay_us\": %g, \"iterations\": %d, \"t0_ns\": %lld, \"period_ns\": %lld, "
               "\"sequence\": [",
               size, delay_us, iterations, t0, period);
        for (int nb = 0, first = 1; nb < 2; nb++)
            for (int k = 0; k < nselected; k++, first = 0)
                printf("%s{\"coll\": \"%s\", \"nonblocking\": %s}", first ? "" : ", ", names[selected[k]],
                       nb ? "true" : "false");
        printf("], \"others\": {\"half_allreduce\": 2, \"dup_bcast\": 1}}\n");
        fflush(stdout);
    }
    long long call_index = 0, *arrived = malloc((size_t)(iterations * 2 * nselected + 1) * sizeof(long long));
    for (int it = 0; it < iterations; it++)
        for (int nb = 0; nb < 2; nb++)
            for (int k = 0; k < nselected; k++, call_index++) {
                wait_until(t0 + call_index * period + (long long)(rank * delay_us * 1e3));
                call(selected[k], nb, it % size, MPI_COMM_WORLD, &arrived[call_index]);
            }
    if (arrivals) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%d", arrivals, rank);
        FILE *f = fopen(path, "w");
        for (long long i = 0; f && i < call_index; i++) fprintf(f, "%lld %lld\n", i + 1, arrived[i]);
        if (!f || fclose(f)) {
            perror(path);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    free(arrived);
    /* Other communicators: each half of the world, and a duplicate of the world. */
    MPI_Comm half, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    call(3, 0, 0, half, NULL);
    call(3, 0, 0, half, NULL);
    call(1, 0, size - 1, dup, NULL);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    if (rank == 0) printf("trace_planned: OK\n");
    return 0;
}
