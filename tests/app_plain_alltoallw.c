/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_plain_alltoallw - an ordinary MPI program that knows nothing of
 * papcoll, for the drop-in tests: run with LD_PRELOAD=libpapcoll_mpi.so.
 * It checks its MPI_Alltoallw calls: n = 1, 7, 1000 ints per pair, to each
 * peer either n contiguous MPI_INT or one vector of n ints with a hole after
 * each (received as the other, the same signature), byte displacements in
 * reverse rank order on the receive side, in place or not; every int of
 * the receive buffer is checked (holes untouched).  When papcoll is present
 * (found with dlsym) it checks that papcoll ran argv[1] ("-": skip).  Its
 * last line counts the calls for tests/fortran/expect_log.cmake:
 * "app_plain_alltoallw: np=P alltoall=N: OK".
 */
#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int value(int from, int to, int i) { return 100000 * from + 1000 * to + i; }

int main(int argc, char **argv)
{
    int rank, size, bad = 0, calls = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *(*last)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "papcoll_last_algorithm");
    const char *want = argc > 1 ? argv[1] : "-";
    const int ns[] = {1, 7, 1000};
    for (int k = 0; k < 3; k++)
        for (int inplace = 0; inplace < 2; inplace++) {
            int n = ns[k];
            MPI_Datatype holes; /* n ints, a hole after each */
            MPI_Type_vector(n, 1, 2, MPI_INT, &holes);
            MPI_Type_commit(&holes);
            int *s = malloc((size_t)size * 2 * n * sizeof(int)), *r = malloc((size_t)size * 2 * n * sizeof(int));
            int *sc = malloc(4 * (size_t)size * sizeof(int)), *sd = sc + size, *rc = sc + 2 * size, *rd = sc + 3 * size;
            MPI_Datatype *st = malloc(2 * (size_t)size * sizeof *st), *rt = st + size;
            for (int p = 0; p < size; p++) {
                /* in place: one datatype per pair both ways; else the sender's and receiver's differ */
                int s_holes = (rank + p) % 2, r_holes = inplace ? s_holes : !s_holes;
                st[p] = s_holes ? holes : MPI_INT, sc[p] = s_holes ? 1 : n, sd[p] = p * 2 * n * (int)sizeof(int);
                rt[p] = r_holes ? holes : MPI_INT, rc[p] = r_holes ? 1 : n;
                rd[p] = (size - 1 - p) * 2 * n * (int)sizeof(int);
            }
            for (long i = 0; i < (long)size * 2 * n; i++) s[i] = -2, r[i] = -1;
            for (int p = 0; p < size; p++) { /* my data for p, where the send (or, in place, receive) layout wants it */
                int *at = inplace ? r + rd[p] / (int)sizeof(int) : s + sd[p] / (int)sizeof(int);
                int stride = (inplace ? rt[p] : st[p]) == holes ? 2 : 1;
                for (int i = 0; i < n; i++) at[i * stride] = value(rank, p, i);
            }
            int rc_ = MPI_Alltoallw(inplace ? MPI_IN_PLACE : s, sc, sd, st, r, rc, rd, rt, MPI_COMM_WORLD);
            calls++;
            for (int p = 0; p < size && !bad; p++) {
                const int *at = r + rd[p] / (int)sizeof(int);
                int stride = rt[p] == holes ? 2 : 1;
                for (int i = 0; i < 2 * n; i++) {
                    int expect = i % stride || i / stride >= n ? -1 : value(p, rank, i / stride);
                    if (at[i] != expect) {
                        fprintf(stderr, "rank %d: n=%d%s: from %d int %d = %d, expected %d\n", rank, n,
                                inplace ? " in place" : "", p, i, at[i], expect);
                        bad++;
                        break;
                    }
                }
            }
            if (rc_ != MPI_SUCCESS && bad++ < 5) fprintf(stderr, "rank %d: error %d\n", rank, rc_);
            if (strcmp(want, "-") && (!last || strcmp(last(), want)) && bad++ < 5)
                fprintf(stderr, "rank %d: papcoll %s, ran \"%s\", expected \"%s\"\n", rank, last ? "present" : "absent",
                        last ? last() : "", want);
            free(s), free(r), free(sc), free(st);
            MPI_Type_free(&holes);
        }
    int all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("app_plain_alltoallw%s: np=%d alltoall=%d: %s\n", last ? " (papcoll preloaded)" : "", size, calls,
               all_bad ? "FAILED" : "OK");
    MPI_Finalize();
    return all_bad != 0;
}
