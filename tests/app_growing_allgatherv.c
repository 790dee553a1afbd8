/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_growing_allgatherv - an ordinary MPI program that knows nothing of
 * papcoll, for the drop-in tests (run with LD_PRELOAD=libpapcoll_mpi.so):
 * MPI_Allgatherv of doubles whose size grows a little on every call (rank r
 * sends step x (call + 1) - r elements), like a program whose data grows as
 * it runs or MPICH's test allgatherv3 (count doubling 1 .. 8192).  It checks
 * every result and, when papcoll is present (dlsym), that papcoll ran the
 * algorithm argv[1] ("-": any).  Usage: app_growing_allgatherv algo [calls
 * [step]]; last line "app_growing_allgatherv: np=P calls=N time=T s: OK".
 *
 * Run oversubscribed (10 processes on 2 cores) with multisender_* forced, it
 * guards a fixed leak: each call grew papcoll's node exchange area, and
 * every remake (MPI_Win_free + MPI_Win_allocate_shared, blocking node
 * collectives) cost about 0.45 s under MPICH, whose blocking calls poll
 * without yielding: 100 calls took over 40 s, about 2 s after the fix.
 */
#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *(*last)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "papcoll_last_algorithm");
    const char *want = argc > 1 ? argv[1] : "-";
    int calls = argc > 2 ? atoi(argv[2]) : 100, step = argc > 3 ? atoi(argv[3]) : 64;
    int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
    double t = MPI_Wtime();
    for (int c = 0; c < calls; c++) {
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = step * (c + 1) > r ? step * (c + 1) - r : 0;
            displs[r] = total;
            total += counts[r];
        }
        double *send = malloc((size_t)counts[rank] * sizeof(double) + 1), *v = malloc((size_t)total * sizeof(double) + 1);
        for (int i = 0; i < counts[rank]; i++) send[i] = rank * 1e6 + i + c;
        for (int i = 0; i < total; i++) v[i] = -1;
        MPI_Allgatherv(send, counts[rank], MPI_DOUBLE, v, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++) bad += v[displs[r] + i] != r * 1e6 + i + c;
        if (strcmp(want, "-") && (!last || strcmp(last(), want)) && bad++ < 5)
            fprintf(stderr, "rank %d: call %d: papcoll %s, ran \"%s\", expected \"%s\"\n", rank, c,
                    last ? "present" : "absent", last ? last() : "", want);
        free(send);
        free(v);
    }
    t = MPI_Wtime() - t;
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("app_growing_allgatherv: np=%d calls=%d time=%.2f s: %s\n", size, calls, t, all ? "FAILED" : "OK");
    free(counts);
    free(displs);
    MPI_Finalize();
    return all != 0;
}
