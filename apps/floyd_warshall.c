/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * floyd_warshall.c - all-pairs shortest paths (Floyd-Warshall), the
 * broadcast application benchmark of the CP paper (§4.2, "ASP") and Parsons 2015
 * (§3.9.4, Table 3.9).
 *
 * Input: a directed graph of --n vertices, edge i -> j present with
 * probability 1/4 with an integer weight in [1, 99], drawn by app_unit from
 * (--seed, i, j) so that the graph does not depend on the number of
 * processes.  Distribution: the distance matrix by block rows (rank r holds
 * rows app_block_range(n, p, r)).  Iteration k of the n iterations needs row
 * k on every rank: its owner broadcasts it with MPI_Bcast (the root rotates
 * with k across the owners, n ints per call), then every rank relaxes its
 * rows, d[i][j] = min(d[i][j], d[i][k] + d[k][j]).  The broadcasts are the
 * only communication, and the relaxation between two of them is the same
 * work on every rank, so the broadcast sees the arrival imbalance that the
 * machine itself creates (the CP paper Fig. 22) - what papcoll's algorithms are
 * for.
 *
 * --pivots=K (default N) runs only K of the N pivot steps, pivots
 * floor(s N / K) for s = 0..K-1: each step costs what it costs in the full
 * solve (N ints broadcast, COUNT x N relaxations), and K >= p still rotates
 * the root over every rank, so a large graph can be simulated for K steps
 * instead of N (Floyd-Warshall's result after a subset of pivots is the
 * shortest paths through those intermediates, which --check verifies).
 * Computation model (app_compute.h): 2 flops (an add and a compare) per
 * element of every row relaxed (rows with d[i][k] infinite are skipped).
 *
 * --iters repeats the whole solve from the initial graph (regenerated,
 * untimed); --check gathers the last solve's matrix on rank 0 and compares it
 * exactly with a serial Floyd-Warshall over the same pivots.  Natively the program calls plain
 * MPI_Bcast (papcoll only through LD_PRELOAD=libpapcoll_mpi.so); the SMPI
 * flavour (floyd_warshall-smpi) links papcoll in (papcoll_mpi_smpi), see app_common.h.
 */
#include "app_common.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP "floyd_warshall"
/* No edge.  Relaxation skips d[i][k] >= INF, so a sum is at most INF + 99 n. */
#define INF (INT_MAX / 2)

static int edge_weight(uint64_t seed, long i, long j)
{
    if (i == j) return 0;
    double u = app_unit(seed, (uint64_t)i, (uint64_t)j);
    if (u >= 0.25) return INF;
    return 1 + (int)(u * 4.0 * 99.0); /* [1, 99] */
}

/* Rows FIRST .. FIRST + COUNT - 1 of the initial distance matrix into D. */
static void init_rows(int *d, long first, long count, long n, uint64_t seed)
{
    for (long i = 0; i < count; i++)
        for (long j = 0; j < n; j++) d[i * n + j] = edge_weight(seed, first + i, j);
}

/* Pivot step S of K over N vertices. */
static long pivot_of(long s, long k, long n) { return (long)((double)s * (double)n / (double)k); }

/* d[i][j] = min(d[i][j], d[i][k] + rowk[j]) for the COUNT local rows;
 * returns the number of rows relaxed. */
static long relax(int *d, long count, long n, long k, const int *rowk)
{
    long relaxed = 0;
    for (long i = 0; i < count; i++) {
        int *di = d + i * n;
        int dik = di[k];
        if (dik >= INF) continue;
        relaxed++;
        for (long j = 0; j < n; j++) {
            int via = dik + rowk[j];
            if (via < di[j]) di[j] = via;
        }
    }
    return relaxed;
}

/* Removes --pivots=K from ARGV into *PIVOTS (0 when absent); 0, or -1 with a message in ERR. */
static int take_pivots_option(int *argc, char **argv, long *pivots, char *err, size_t errlen)
{
    int out = 1;
    *pivots = 0;
    for (int a = 1; a < *argc; a++) {
        if (!strncmp(argv[a], "--pivots=", 9)) {
            char *end;
            long v = strtol(argv[a] + 9, &end, 10);
            if (end == argv[a] + 9 || *end || v <= 0) {
                snprintf(err, errlen, "--pivots needs a positive integer, not '%s'", argv[a] + 9);
                return -1;
            }
            *pivots = v;
        } else {
            argv[out++] = argv[a];
        }
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

/* One distributed solve; returns this rank's seconds. */
static double solve(int *d, int *rowk, long first, long count, long n, long pivots, int rank, int p, MPI_Comm comm,
                    app_timer_t *bcast_time)
{
    APP_CHECK(MPI_Barrier(comm));
    app_resume();
    double t0 = MPI_Wtime();
    for (long s = 0; s < pivots; s++) {
        long k = pivot_of(s, pivots, n);
        int owner = app_block_owner(n, p, k);
        if (owner == rank) memcpy(rowk, d + (k - first) * n, (size_t)n * sizeof(int));
        APP_CHECK(app_bcast(rowk, (int)n, MPI_INT, owner, comm, bcast_time));
        app_work(2.0 * (double)relax(d, count, n, k, rowk) * (double)n);
    }
    app_settle();
    return MPI_Wtime() - t0;
}

/* Gathers the distributed matrix on rank 0 and compares it with a serial
 * solve there; returns 1 when every rank agrees it matches, else 0. */
static int check(const int *d, long count, long n, long pivots, uint64_t seed, int rank, int p, MPI_Comm comm)
{
    int *all = NULL, *ref = NULL, *counts = NULL, *displs = NULL;
    if (rank == 0) {
        all = malloc((size_t)n * (size_t)n * sizeof(int));
        ref = malloc((size_t)n * (size_t)n * sizeof(int));
        counts = malloc((size_t)p * sizeof(int));
        displs = malloc((size_t)p * sizeof(int));
        if (!all || !ref || !counts || !displs) app_fail(APP, "--check: out of memory on rank 0");
        for (int r = 0; r < p; r++) {
            long f, c;
            app_block_range(n, p, r, &f, &c);
            counts[r] = (int)(c * n);
            displs[r] = (int)(f * n);
        }
    }
    APP_CHECK(MPI_Gatherv(d, (int)(count * n), MPI_INT, all, counts, displs, MPI_INT, 0, comm));
    int ok = 1;
    if (rank == 0) {
        init_rows(ref, 0, n, n, seed);
        for (long s = 0; s < pivots; s++) {
            long k = pivot_of(s, pivots, n);
            relax(ref, n, n, k, ref + k * n);
        }
        for (long e = 0; e < n * n && ok; e++) {
            if (all[e] != ref[e]) {
                fprintf(stderr, APP ": --check: d[%ld][%ld] = %d, serial Floyd-Warshall gives %d\n", e / n, e % n,
                        all[e], ref[e]);
                ok = 0;
            }
        }
    }
    APP_CHECK(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
    free(all);
    free(ref);
    free(counts);
    free(displs);
    return ok;
}

int main(int argc, char **argv)
{
    int rank, p;
    long pivots;
    char pivots_err[120];
    int pivots_bad = take_pivots_option(&argc, argv, &pivots, pivots_err, sizeof pivots_err);
    app_options_t opt = {.n = 512, .seed = 1, .iters = 1, .check = 0};
    int status = app_start(&argc, &argv, APP,
                           "All-pairs shortest paths by Floyd-Warshall on a random directed graph of N\n"
                           "vertices, rows distributed in blocks; each of the N steps broadcasts the pivot row\n"
                           "from its owner (MPI_Bcast, rotating root; the CP paper ASP, Parsons 2015 Table 3.9).\n"
                           "  --pivots=K  run K of the N pivot steps (pivots floor(s N / K), s < K; default N,\n"
                           "              the full solve): each costs what it costs in the full solve, so a\n"
                           "              large graph simulates in K steps; --check covers the same pivots.\n"
                           "  Computation model: 2 flops per element of each row relaxed.",
                           &opt, &rank, &p);
    if (status >= 0) return status;
    if (pivots_bad || pivots > opt.n) {
        if (rank == 0)
            fprintf(stderr, APP ": %s\n", pivots_bad ? pivots_err : "--pivots must not exceed --n");
        MPI_Finalize();
        return 2;
    }
    if (!pivots) pivots = opt.n;
    MPI_Comm comm = MPI_COMM_WORLD;
    if (opt.n > INT_MAX / 2 || (double)opt.n * (double)opt.n > (double)INT_MAX)
        app_fail(APP, "--n too large (n * n must fit an int for the gather of --check and the counts)");

    long first, count;
    app_block_range(opt.n, p, rank, &first, &count);
    int *d = malloc((size_t)(count > 0 ? count : 1) * (size_t)opt.n * sizeof(int));
    int *rowk = malloc((size_t)opt.n * sizeof(int));
    if (!d || !rowk) app_fail(APP, "out of memory");

    app_timer_t bcast_time = {0.0, 0, NULL};
    double seconds = 0.0;
    for (long it = 0; it < opt.iters; it++) {
        init_rows(d, first, count, opt.n, opt.seed);
        seconds += solve(d, rowk, first, count, opt.n, pivots, rank, p, comm, &bcast_time);
    }
    if (rank == 0) printf(APP ": pivots=%ld of %ld\n", pivots, opt.n);
    int ok = opt.check ? check(d, count, opt.n, pivots, opt.seed, rank, p, comm) : 1;
    APP_CHECK(app_report(APP, &opt, "bcast", seconds, &bcast_time, opt.check ? (ok ? "ok" : "FAIL") : "off", comm));

    free(d);
    free(rowk);
    MPI_Finalize();
    return ok ? 0 : 1;
}
