/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace_overhead - the time per call of MPI_Barrier and of an 8-byte
 * MPI_Allreduce (MPI_DOUBLE, MPI_SUM) on MPI_COMM_WORLD, for measuring what
 * libpapcoll_trace.so adds to a call (docs/trace.md): run it with and
 * without LD_PRELOAD=libpapcoll_trace.so and compare.  It knows nothing of
 * the tracer.
 *
 *   trace_overhead [--calls=N] [--repetitions=R]
 *
 * Each repetition times N calls back to back; rank 0 prints, per
 * collective, the fastest repetition's time per call (the least disturbed
 * by other processes) and the median repetition's, in microseconds.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int calls = 100000, reps = 11;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--calls=", 8)) calls = atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "--repetitions=", 14)) reps = atoi(argv[i] + 14);
        else {
            fprintf(stderr, "usage: trace_overhead [--calls=N] [--repetitions=R]\n");
            return 2;
        }
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *t = malloc((size_t)reps * sizeof(double)), x = 1, y;
    for (int c = 0; c < 2; c++) {
        for (int r = 0; r < reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < calls; i++) {
                if (c == 0) MPI_Barrier(MPI_COMM_WORLD);
                else MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            }
            double mine = MPI_Wtime() - t0, slowest;
            MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            t[r] = slowest / calls * 1e6;
        }
        qsort(t, (size_t)reps, sizeof *t, cmp);
        if (rank == 0)
            printf("trace_overhead: np=%d %-9s %d calls x %d: fastest %.3f us/call, median %.3f us/call\n", size,
                   c ? "allreduce" : "barrier", calls, reps, t[0], t[reps / 2]);
    }
    free(t);
    MPI_Finalize();
    return 0;
}
