/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_plain_bcast - an ordinary MPI program that knows nothing of papcoll,
 * for the drop-in test: run with LD_PRELOAD=libpapcoll_mpi.so.  It checks
 * its broadcasts (several sizes, roots, an intercommunicator), and when
 * papcoll is present (found with dlsym) it checks that papcoll ran the
 * expected algorithm: argv[1] (or "-" to skip that check).
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
    for (int n = 1; n <= (1 << 20); n *= 16) {
        for (int root = 0; root < size; root++) {
            int *v = malloc((size_t)n * sizeof(int));
            for (int i = 0; i < n; i++) v[i] = rank == root ? i * 3 + root : -1;
            MPI_Bcast(v, n, MPI_INT, root, MPI_COMM_WORLD);
            for (int i = 0; i < n; i++) bad += v[i] != i * 3 + root;
            free(v);
            if (strcmp(want, "-") && (!last || strcmp(last(), want))) {
                if (!bad) fprintf(stderr, "rank %d: papcoll %s, ran \"%s\", expected \"%s\"\n", rank,
                                  last ? "present" : "absent", last ? last() : "", want);
                bad++;
            }
        }
    }
    if (size >= 2) { /* intercommunicator: papcoll falls back to PMPI_Bcast */
        MPI_Comm half, inter;
        int color = rank < size / 2;
        MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? size / 2 : 0, 7, &inter);
        int hrank, value = -1;
        MPI_Comm_rank(half, &hrank);
        if (color) value = 99;
        int root = color ? (hrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        MPI_Bcast(&value, 1, MPI_INT, root, inter);
        bad += value != 99;
        if (last && strcmp(last(), "native")) bad++;
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    int total;
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("app_plain_bcast: np=%d papcoll=%s: %s\n", size, last ? "preloaded" : "absent", total ? "FAIL" : "OK");
    MPI_Finalize();
    return total != 0;
}
