/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * smpi_plain_colls - an ordinary MPI program that knows nothing of papcoll,
 * for the SMPI drop-in tests (tests/smpi/CMakeLists.txt, docs/simulation.md
 * "Unmodified programs under SMPI"): built with smpicc and linked with
 * papcoll_mpi_smpi, run under smpirun with PAPCOLL_LOG=debug.  It calls
 * every collective papcoll serves -- MPI_Bcast, MPI_Reduce, MPI_Allreduce,
 * MPI_Reduce_scatter(_block), MPI_Allgather(v), MPI_Alltoall(v,w),
 * MPI_Gather(v), MPI_Scatter(v), MPI_Barrier -- at a small and a larger count, from a few
 * roots, in place where MPI allows it, and checks every result on every
 * rank.  Its last line counts the calls by the name papcoll logs them under
 * (a v or w form or reduce_scatter_block under its base collective), for
 * tests/fortran/expect_log.cmake:
 *   "smpi_plain_colls: np=P bcast=B reduce=R ... reduce_scatter=S barrier=N: OK"
 * Exit status 1 on a wrong result.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

enum { C_BCAST, C_REDUCE, C_ALLREDUCE, C_ALLGATHER, C_ALLTOALL, C_GATHER, C_SCATTER, C_REDUCE_SCATTER, C_BARRIER,
       C_N };
static const char *const names[C_N] = {"bcast",  "reduce",  "allreduce", "allgather",     "alltoall",
                                       "gather", "scatter", "reduce_scatter", "barrier"};
static int calls[C_N];
static int rank, size, bad;

/* The value rank r contributes at index i (small: exact sums of int). */
static int val(int r, long i)
{
    return (int)((r * 7 + i * 3) % 1000);
}

static void expect(int ok, const char *what, int n)
{
    if (!ok && bad++ < 10) fprintf(stderr, "rank %d: %s, count %d: wrong result\n", rank, what, n);
}

static void rooted(int n, int root, int *a, int *b, int *counts, int *displs)
{
    /* bcast */
    for (long i = 0; i < n; i++) a[i] = rank == root ? val(root, i) : -1;
    MPI_Bcast(a, n, MPI_INT, root, MPI_COMM_WORLD);
    calls[C_BCAST]++;
    int ok = 1;
    for (long i = 0; i < n; i++) ok &= a[i] == val(root, i);
    expect(ok, "MPI_Bcast", n);
    /* reduce, in place at the root every other call */
    int inplace = (root & 1) && rank == root;
    for (long i = 0; i < n; i++) a[i] = val(rank, i), b[i] = inplace ? val(rank, i) : -1;
    MPI_Reduce(inplace ? MPI_IN_PLACE : a, b, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    calls[C_REDUCE]++;
    ok = 1;
    for (long i = 0; rank == root && i < n; i++) {
        long sum = 0;
        for (int r = 0; r < size; r++) sum += val(r, i);
        ok &= b[i] == sum;
    }
    expect(ok, "MPI_Reduce", n);
    /* gather and gatherv (rank r sends n - r % 3 elements, displaced by n per rank) */
    for (long i = 0; i < n; i++) a[i] = val(rank, i);
    for (long i = 0; i < (long)n * size; i++) b[i] = -1;
    MPI_Gather(a, n, MPI_INT, b, n, MPI_INT, root, MPI_COMM_WORLD);
    calls[C_GATHER]++;
    ok = 1;
    for (int r = 0; rank == root && r < size; r++)
        for (long i = 0; i < n; i++) ok &= b[(long)r * n + i] == val(r, i);
    expect(ok, "MPI_Gather", n);
    for (int r = 0; r < size; r++) counts[r] = n - r % 3, displs[r] = r * n;
    for (long i = 0; i < (long)n * size; i++) b[i] = -1;
    MPI_Gatherv(a, counts[rank], MPI_INT, b, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
    calls[C_GATHER]++;
    ok = 1;
    for (int r = 0; rank == root && r < size; r++)
        for (long i = 0; i < counts[r]; i++) ok &= b[displs[r] + i] == val(r, i);
    expect(ok, "MPI_Gatherv", n);
    /* scatter and scatterv (the same blocks back) */
    for (int r = 0; r < size; r++)
        for (long i = 0; i < n; i++) b[(long)r * n + i] = val(r, i + root);
    for (long i = 0; i < n; i++) a[i] = -1;
    MPI_Scatter(b, n, MPI_INT, a, n, MPI_INT, root, MPI_COMM_WORLD);
    calls[C_SCATTER]++;
    ok = 1;
    for (long i = 0; i < n; i++) ok &= a[i] == val(rank, i + root);
    expect(ok, "MPI_Scatter", n);
    for (long i = 0; i < n; i++) a[i] = -1;
    MPI_Scatterv(b, counts, displs, MPI_INT, a, counts[rank], MPI_INT, root, MPI_COMM_WORLD);
    calls[C_SCATTER]++;
    ok = 1;
    for (long i = 0; i < counts[rank]; i++) ok &= a[i] == val(rank, i + root);
    expect(ok, "MPI_Scatterv", n);
}

static void unrooted(int n, int *a, int *b, int *counts, int *displs)
{
    if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) expect(0, "MPI_Barrier", 0);
    calls[C_BARRIER]++;
    /* allreduce, in place */
    for (long i = 0; i < n; i++) a[i] = val(rank, i);
    MPI_Allreduce(MPI_IN_PLACE, a, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    calls[C_ALLREDUCE]++;
    int ok = 1;
    for (long i = 0; i < n; i++) {
        long sum = 0;
        for (int r = 0; r < size; r++) sum += val(r, i);
        ok &= a[i] == sum;
    }
    expect(ok, "MPI_Allreduce", n);
    /* allgather, and allgatherv with unequal counts in reverse rank order */
    for (long i = 0; i < n; i++) a[i] = val(rank, i);
    MPI_Allgather(a, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD);
    calls[C_ALLGATHER]++;
    ok = 1;
    for (int r = 0; r < size; r++)
        for (long i = 0; i < n; i++) ok &= b[(long)r * n + i] == val(r, i);
    expect(ok, "MPI_Allgather", n);
    for (int r = 0; r < size; r++) counts[r] = n - r % 3, displs[r] = (size - 1 - r) * n;
    MPI_Allgatherv(a, counts[rank], MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD);
    calls[C_ALLGATHER]++;
    ok = 1;
    for (int r = 0; r < size; r++)
        for (long i = 0; i < counts[r]; i++) ok &= b[displs[r] + i] == val(r, i);
    expect(ok, "MPI_Allgatherv", n);
    /* alltoall: block j of rank r holds val(r, j * n + i); alltoallv sends counts[j] to rank j */
    for (int j = 0; j < size; j++)
        for (long i = 0; i < n; i++) a[(long)j * n + i] = val(rank, (long)j * n + i);
    MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD);
    calls[C_ALLTOALL]++;
    ok = 1;
    for (int r = 0; r < size; r++)
        for (long i = 0; i < n; i++) ok &= b[(long)r * n + i] == val(r, (long)rank * n + i);
    expect(ok, "MPI_Alltoall", n);
    int *rcounts = malloc((size_t)size * sizeof(int)), *rdispls = malloc((size_t)size * sizeof(int));
    for (int r = 0; r < size; r++) {
        counts[r] = n - (rank + r) % 3, displs[r] = r * n;          /* what this rank sends to r */
        rcounts[r] = n - (r + rank) % 3, rdispls[r] = (size - 1 - r) * n; /* what r sends to it */
    }
    MPI_Alltoallv(a, counts, displs, MPI_INT, b, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    calls[C_ALLTOALL]++;
    ok = 1;
    for (int r = 0; r < size; r++)
        for (long i = 0; i < rcounts[r]; i++) ok &= b[rdispls[r] + i] == val(r, (long)rank * n + i);
    expect(ok, "MPI_Alltoallv", n);
    /* alltoallw: the same blocks, byte displacements, one datatype per peer */
    MPI_Datatype *types = malloc((size_t)size * sizeof *types);
    for (int r = 0; r < size; r++) {
        displs[r] *= (int)sizeof(int), rdispls[r] *= (int)sizeof(int);
        types[r] = MPI_INT;
    }
    for (long i = 0; i < (long)n * size; i++) b[i] = -1;
    MPI_Alltoallw(a, counts, displs, types, b, rcounts, rdispls, types, MPI_COMM_WORLD);
    calls[C_ALLTOALL]++;
    ok = 1;
    for (int r = 0; r < size; r++)
        for (long i = 0; i < rcounts[r]; i++) ok &= b[rdispls[r] / (int)sizeof(int) + i] == val(r, (long)rank * n + i);
    expect(ok, "MPI_Alltoallw", n);
    free(types);
    /* reduce_scatter_block and reduce_scatter (rank r gets n - r % 3 of the sums) */
    for (long i = 0; i < (long)n * size; i++) a[i] = val(rank, i);
    MPI_Reduce_scatter_block(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    calls[C_REDUCE_SCATTER]++;
    ok = 1;
    for (long i = 0; i < n; i++) {
        long sum = 0;
        for (int r = 0; r < size; r++) sum += val(r, (long)rank * n + i);
        ok &= b[i] == sum;
    }
    expect(ok, "MPI_Reduce_scatter_block", n);
    long first = 0;
    for (int r = 0; r < size; r++) {
        rcounts[r] = n - r % 3;
        if (r < rank) first += rcounts[r];
    }
    MPI_Reduce_scatter(a, b, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    calls[C_REDUCE_SCATTER]++;
    ok = 1;
    for (long i = 0; i < rcounts[rank]; i++) {
        long sum = 0;
        for (int r = 0; r < size; r++) sum += val(r, first + i);
        ok &= b[i] == sum;
    }
    expect(ok, "MPI_Reduce_scatter", n);
    free(rcounts);
    free(rdispls);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int ns[] = {3, 1000};
    int maxn = 1000;
    int *a = malloc((size_t)maxn * (size_t)size * sizeof(int)), *b = malloc((size_t)maxn * (size_t)size * sizeof(int));
    int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
    for (int k = 0; k < 2; k++) {
        int roots[] = {0, size - 1, size / 2 + 1};
        for (int j = 0; j < 3; j++) rooted(ns[k], roots[j] % size, a, b, counts, displs);
        unrooted(ns[k], a, b, counts, displs);
    }
    int all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    calls[C_ALLREDUCE]++;
    if (rank == 0) {
        printf("smpi_plain_colls: np=%d", size);
        for (int c = 0; c < C_N; c++) printf(" %s=%d", names[c], calls[c]);
        printf(": %s\n", all_bad ? "FAIL" : "OK");
        fflush(stdout);
    }
    free(a);
    free(b);
    free(counts);
    free(displs);
    MPI_Finalize();
    return all_bad ? 1 : 0;
}
