/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * call_site_loop - the host cost of papcoll's entry path: the mean time of a
 * small collective (8 bytes per process: MPI_Allreduce by default) made N
 * times from one call site on a fresh communicator (duplicated, first call
 * and barrier untimed), R times.  Run it with and without
 * LD_PRELOAD=libpapcoll_mpi.so (tools/overhead/entry_overhead.sh).
 *   usage: call_site_loop N R [COLLECTIVE [slowest]]
 * COLLECTIVE: allreduce, reduce, bcast, allgather, alltoall, gather, scatter,
 * reduce_scatter_block, scan, barrier.  Prints "N R US_PER_CALL COLLECTIVE"
 * on rank 0.  With `slowest`, each call is timed on its own (two clock reads
 * more per call) and rank 0 also prints, per communicator, the untimed first
 * call (which builds papcoll's context), "first COMM US", and the slowest of
 * the N: "slowest COMM CALL US" (e.g. a candidate's first use on the
 * communicator, which creates its shared-memory windows).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WORDS = 2, MAX_PROCS = 64 }; /* 2 ints (8 bytes) per process */
static int x[WORDS * MAX_PROCS], y[WORDS * MAX_PROCS];

static const char *const names[] = {"allreduce", "reduce", "bcast", "allgather", "alltoall", "gather",
                                    "scatter", "reduce_scatter_block", "scan", "barrier"};

/* One call of collective k on c, from this one call site. */
static void call(int k, MPI_Comm c)
{
    switch (k) {
    case 0: MPI_Allreduce(x, y, WORDS, MPI_INT, MPI_SUM, c); break;
    case 1: MPI_Reduce(x, y, WORDS, MPI_INT, MPI_SUM, 0, c); break;
    case 2: MPI_Bcast(x, WORDS, MPI_INT, 0, c); break;
    case 3: MPI_Allgather(x, WORDS, MPI_INT, y, WORDS, MPI_INT, c); break;
    case 4: MPI_Alltoall(x, WORDS, MPI_INT, y, WORDS, MPI_INT, c); break;
    case 5: MPI_Gather(x, WORDS, MPI_INT, y, WORDS, MPI_INT, 0, c); break;
    case 6: MPI_Scatter(x, WORDS, MPI_INT, y, WORDS, MPI_INT, 0, c); break;
    case 7: MPI_Reduce_scatter_block(x, y, WORDS, MPI_INT, MPI_SUM, c); break;
    case 8: MPI_Scan(x, y, WORDS, MPI_INT, MPI_SUM, c); break;
    default: MPI_Barrier(c); break;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, k = 0, nnames = (int)(sizeof names / sizeof names[0]);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int slowest = argc == 5 && !strcmp(argv[4], "slowest");
    if (argc >= 4)
        for (k = 0; k < nnames && strcmp(argv[3], names[k]); k++) continue;
    if (argc < 3 || argc > 5 || (argc == 5 && !slowest) || atoi(argv[1]) < 1 || atoi(argv[2]) < 1 || k == nnames ||
        size > MAX_PROCS) {
        if (rank == 0)
            fprintf(stderr, "usage: %s CALLS_PER_SITE COMMUNICATORS [COLLECTIVE [slowest]] (at most %d processes)\n",
                    argv[0], MAX_PROCS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = atoi(argv[1]), reps = atoi(argv[2]);
    double total = 0;
    for (int r = 0; r < reps; r++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        double t_first = MPI_Wtime();
        MPI_Allreduce(x, y, 1, MPI_INT, MPI_SUM, c); /* papcoll builds its context here */
        if (slowest && rank == 0) printf("first %d %.1f\n", r, 1e6 * (MPI_Wtime() - t_first));
        MPI_Barrier(c);
        double t = MPI_Wtime(), worst = 0;
        int worst_call = 0;
        for (int i = 0; i < n; i++) {
            if (!slowest) {
                call(k, c);
                continue;
            }
            double t0 = MPI_Wtime();
            call(k, c);
            double took = MPI_Wtime() - t0;
            if (took > worst) worst = took, worst_call = i;
        }
        total += MPI_Wtime() - t;
        if (slowest && rank == 0) printf("slowest %d %d %.1f\n", r, worst_call, 1e6 * worst);
        MPI_Comm_free(&c);
    }
    if (rank == 0) printf("%d %d %.3f %s\n", n, reps, 1e6 * total / ((double)n * reps), names[k]);
    MPI_Finalize();
    return 0;
}
