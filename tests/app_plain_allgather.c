/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_plain_allgather - an ordinary MPI program that knows nothing of
 * papcoll, for the drop-in tests: run with LD_PRELOAD=libpapcoll_mpi.so.  It
 * checks its MPI_Allgather and MPI_Allgatherv calls (several sizes, in place
 * or not, blocks in reverse order with a zero count) and one on an
 * intercommunicator; when papcoll is present (found with dlsym) it checks
 * that papcoll ran the expected algorithm: argv[1] (or "-" to skip that
 * check), and "native" on the intercommunicator.  Its last line counts the
 * calls on intracommunicators for tests/fortran/expect_log.cmake:
 * "app_plain_allgather (papcoll preloaded): np=P allgather=N: OK".
 */
#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *(*last)(void);
static const char *want;
static int rank, size, bad;

static void check_algorithm(const char *what)
{
    if (!strcmp(want, "-") || (last && !strcmp(last(), want))) return;
    if (bad++ < 5)
        fprintf(stderr, "rank %d: %s: papcoll %s, ran \"%s\", expected \"%s\"\n", rank, what,
                last ? "present" : "absent", last ? last() : "", want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    last = (const char *(*)(void))dlsym(RTLD_DEFAULT, "papcoll_last_algorithm");
    want = argc > 1 ? argv[1] : "-";
    int calls = 0, *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
    for (int n = 1; n <= (1 << 16); n *= 16) {
        int *v = malloc((size_t)n * (size_t)size * sizeof(int));
        for (int inplace = 0; inplace < 2; inplace++) {
            int *send = inplace ? v + (size_t)rank * n : malloc((size_t)n * sizeof(int));
            for (size_t i = 0; i < (size_t)n * size; i++) v[i] = -1;
            for (int i = 0; i < n; i++) send[i] = rank * 1000003 + i;
            MPI_Allgather(inplace ? MPI_IN_PLACE : send, n, MPI_INT, v, n, MPI_INT, MPI_COMM_WORLD);
            calls++;
            for (int r = 0; r < size; r++)
                for (int i = 0; i < n; i++) bad += v[(size_t)r * n + i] != r * 1000003 + i;
            check_algorithm("MPI_Allgather");
            /* v form: rank r sends n - r (at least 0) elements; blocks in reverse rank order */
            int at = 0;
            for (int r = size - 1; r >= 0; r--) {
                counts[r] = n > r ? n - r : 0;
                displs[r] = at;
                at += counts[r];
            }
            for (size_t i = 0; i < (size_t)n * size; i++) v[i] = -1;
            int *sent = send;
            if (inplace) send = v + displs[rank];
            for (int i = 0; i < counts[rank]; i++) send[i] = rank * 1000003 + i;
            MPI_Allgatherv(inplace ? MPI_IN_PLACE : send, counts[rank], MPI_INT, v, counts, displs, MPI_INT,
                           MPI_COMM_WORLD);
            calls++;
            for (int r = 0; r < size; r++)
                for (int i = 0; i < counts[r]; i++) bad += v[displs[r] + i] != r * 1000003 + i;
            check_algorithm("MPI_Allgatherv");
            if (!inplace) free(sent);
        }
        free(v);
    }
    if (size >= 2) { /* intercommunicator: papcoll falls back to PMPI_Allgather */
        MPI_Comm half, inter;
        int color = rank < size / 2, remote, got[64];
        MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? size / 2 : 0, 7, &inter);
        MPI_Comm_remote_size(inter, &remote);
        int value = 100 * color + rank;
        MPI_Allgather(&value, 1, MPI_INT, got, 1, MPI_INT, inter);
        int base = color ? size / 2 : 0; /* the remote group's first world rank */
        for (int r = 0; r < remote && r < 64; r++) bad += got[r] != 100 * !color + base + r;
        if (last && strcmp(last(), "native")) bad++;
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    free(counts);
    free(displs);
    int total;
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("app_plain_allgather (papcoll %s): np=%d allgather=%d: %s\n", last ? "preloaded" : "absent", size, calls,
               total ? "FAIL" : "OK");
    MPI_Finalize();
    return total != 0;
}
