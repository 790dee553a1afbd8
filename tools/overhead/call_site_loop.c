/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * call_site_loop - the host cost of papcoll's entry path: the mean time of an
 * 8-byte MPI_Allreduce made N times from one call site on a fresh
 * communicator (duplicated, first call and barrier untimed), R times.  Run it
 * with and without LD_PRELOAD=libpapcoll_mpi.so (tools/overhead/entry_overhead.sh).
 *   usage: call_site_loop N R
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, x = 1, y;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 3 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1) {
        if (rank == 0) fprintf(stderr, "usage: %s CALLS_PER_SITE COMMUNICATORS\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = atoi(argv[1]), reps = atoi(argv[2]);
    double total = 0;
    for (int r = 0; r < reps; r++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c); /* papcoll builds its context here */
        MPI_Barrier(c);
        double t = MPI_Wtime();
        for (int i = 0; i < n; i++) MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
        total += MPI_Wtime() - t;
        MPI_Comm_free(&c);
    }
    if (rank == 0) printf("%d %d %.3f\n", n, reps, 1e6 * total / ((double)n * reps));
    MPI_Finalize();
    return 0;
}
