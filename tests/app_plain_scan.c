/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_plain_scan - an ordinary MPI program that knows nothing of papcoll,
 * for the drop-in tests: run with LD_PRELOAD=libpapcoll_mpi.so.  It checks
 * its MPI_Scan and MPI_Exscan calls (sums of int vectors of 1 to 65536
 * elements, in place or not; rank 0's exscan buffer left alone), and when
 * papcoll is present (found with dlsym) that papcoll ran the expected
 * algorithm: argv[1] (or "-" to skip that check).  It runs them on
 * MPI_COMM_WORLD and on the world's even ranks followed by its odd ones
 * (with virtual nodes of consecutive world ranks, nodes interleaved in that
 * communicator's order).  Its last line counts the calls for
 * tests/fortran/expect_log.cmake:
 * "app_plain_scan: np=P scan=S exscan=E: OK".
 */
#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every count, form and in-place variant on comm; returns the failures. */
static int run(MPI_Comm comm, const char *want, int *in, int *out, int *scans, int *exscans)
{
    int rank, bad = 0;
    MPI_Comm_rank(comm, &rank);
    const char *(*last)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "papcoll_last_algorithm");
    for (int n = 1; n <= (1 << 16); n *= 16)
        for (int exclusive = 0; exclusive < 2; exclusive++)
            for (int inplace = 0; inplace < 2; inplace++) {
                for (int i = 0; i < n; i++) in[i] = (rank + 1) * (i % 1000 + 1), out[i] = inplace ? in[i] : -7;
                const void *send = inplace ? MPI_IN_PLACE : in;
                int rc = exclusive ? MPI_Exscan(send, out, n, MPI_INT, MPI_SUM, comm)
                                   : MPI_Scan(send, out, n, MPI_INT, MPI_SUM, comm);
                exclusive ? (*exscans)++ : (*scans)++;
                int ranks = exclusive ? rank : rank + 1; /* prefix of ranks 0..ranks-1: sum of r + 1 */
                for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
                    int expect = exclusive && rank == 0 ? (inplace ? in[i] : -7) : ranks * (ranks + 1) / 2 * (i % 1000 + 1);
                    if (out[i] != expect) {
                        if (bad++ < 5)
                            fprintf(stderr, "rank %d: %s n=%d%s: element %d = %d, expected %d\n", rank,
                                    exclusive ? "MPI_Exscan" : "MPI_Scan", n, inplace ? " in place" : "", i, out[i],
                                    expect);
                        break;
                    }
                }
                if (rc != MPI_SUCCESS && bad++ < 5) fprintf(stderr, "rank %d: error %d\n", rank, rc);
                if (strcmp(want, "-") && (!last || strcmp(last(), want)) && bad++ < 5)
                    fprintf(stderr, "rank %d: papcoll %s, ran \"%s\", expected \"%s\"\n", rank,
                            last ? "present" : "absent", last ? last() : "", want);
            }
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0, scans = 0, exscans = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *want = argc > 1 ? argv[1] : "-";
    int *in = malloc((1 << 16) * sizeof(int)), *out = malloc((1 << 16) * sizeof(int));
    MPI_Comm interleaved;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank % 2 * size + rank, &interleaved);
    bad += run(MPI_COMM_WORLD, want, in, out, &scans, &exscans);
    bad += run(interleaved, want, in, out, &scans, &exscans);
    MPI_Comm_free(&interleaved);
    int all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int preloaded = dlsym(RTLD_DEFAULT, "papcoll_last_algorithm") != NULL;
    if (rank == 0)
        printf("app_plain_scan%s: np=%d scan=%d exscan=%d: %s\n", preloaded ? " (papcoll preloaded)" : "", size, scans,
               exscans, all_bad ? "FAILED" : "OK");
    free(in);
    free(out);
    MPI_Finalize();
    return all_bad != 0;
}
