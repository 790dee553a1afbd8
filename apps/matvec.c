/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * matvec.c - dense matrix-vector multiply with a rotating reduce root, the
 * reduction application benchmark of Parsons 2015 (§3.9.4, Table 3.10:
 * "a dense matrix vector multiply with a rotating root for each iteration
 * and an 8k x 8k matrix of floats").
 *
 * Input: an N x N matrix A of floats in [0, 1) and a start vector x, drawn by
 * app_unit from (--seed, i, j) so that they do not depend on the number of
 * processes.  Distribution: A by block columns (rank r holds columns
 * app_block_range(n, p, r), column-major) and x by the same blocks.
 * Iteration t (of --iters): every rank computes its partial product
 * A[:, cols_r] x[cols_r] (N floats), MPI_Reduce with MPI_SUM combines them at
 * root t mod p (the root rotates with the iteration, as in Parsons 2015), and
 * that root normalises y (divided by its largest magnitude: a power
 * iteration, so values stay bounded) and hands every rank its block of the
 * next x with MPI_Scatterv.  The reduction moves N floats per rank per
 * iteration and is the collective timed; the scatter moves only the N floats
 * of x in total, so the reduce dominates the communication, as in Parsons 2015's
 * benchmark that isolates it.
 *
 * --check: every iteration's root records a weighted digest of its y, the
 * digests are summed on rank 0 (untimed) and compared with a serial power
 * iteration in double precision there, relative tolerance 1e-4 (float sums in
 * another order, and papcoll's arrival-order reductions, change the last
 * bits).  Checking every iteration, not only the last, matters: a power
 * iteration forgets an early error.  Computation model (app_compute.h): 2
 * flops per multiply-add of the partial product (2 N COUNT per rank and
 * iteration) and 2 N for the root's normalisation.  Natively the program calls plain
 * MPI_Reduce (papcoll only through LD_PRELOAD=libpapcoll_mpi.so); the SMPI
 * flavour (matvec-smpi) links papcoll in (papcoll_mpi_smpi), see app_common.h.
 */
#include "app_common.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define APP "matvec"
#define CHECK_TOLERANCE 1e-4

/* Independent streams of app_unit for A, x0 and the digest weights. */
static uint64_t stream(uint64_t seed, uint64_t which) { return seed * 3u + which; }

static float matrix_entry(uint64_t seed, long i, long j) { return (float)app_unit(stream(seed, 0), (uint64_t)i, (uint64_t)j); }
static float start_entry(uint64_t seed, long j) { return (float)(0.5 + 0.5 * app_unit(stream(seed, 1), 0, (uint64_t)j)); }
static double digest_weight(uint64_t seed, long i) { return app_unit(stream(seed, 2), 0, (uint64_t)i); }

/* The digest of Y: its sum weighted by digest_weight. */
static double digest(const float *y, long n, uint64_t seed)
{
    double v = 0.0;
    for (long i = 0; i < n; i++) v += digest_weight(seed, i) * y[i];
    return v;
}

/* Y (N floats) = A[:, cols] X for the COUNT local columns (column-major). */
static void partial_product(const float *a, const float *x, long n, long count, float *y)
{
    for (long i = 0; i < n; i++) y[i] = 0.0f;
    for (long j = 0; j < count; j++) {
        const float *col = a + j * n;
        float xj = x[j];
        for (long i = 0; i < n; i++) y[i] += col[i] * xj;
    }
}

/* X = Y / max |Y| (Y zero: X = Y). */
static void normalise(const float *y, long n, float *x)
{
    float m = 0.0f;
    for (long i = 0; i < n; i++) m = fmaxf(m, fabsf(y[i]));
    for (long i = 0; i < n; i++) x[i] = m > 0.0f ? y[i] / m : y[i];
}

/* Rank 0: a serial power iteration of ITERS steps in double, each step's
 * digest compared with DIGESTS (tolerance relative to the digest of |y|);
 * returns 1 when all match. */
static int serial_check(const double *digests, long n, long iters, uint64_t seed, int p)
{
    double *a = malloc((size_t)n * (size_t)n * sizeof(double));
    double *x = malloc((size_t)n * sizeof(double)), *y = malloc((size_t)n * sizeof(double));
    if (!a || !x || !y) app_fail(APP, "--check: out of memory on rank 0");
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) a[i * n + j] = matrix_entry(seed, i, j);
    for (long j = 0; j < n; j++) x[j] = start_entry(seed, j);
    int ok = 1;
    for (long t = 0; t < iters && ok; t++) {
        double m = 0.0, v = 0.0, s = 0.0;
        for (long i = 0; i < n; i++) {
            double sum = 0.0;
            for (long j = 0; j < n; j++) sum += a[i * n + j] * x[j];
            y[i] = sum;
            m = fmax(m, fabs(sum));
            double w = digest_weight(seed, i);
            v += w * sum;
            s += w * fabs(sum);
        }
        if (fabs(digests[t] - v) > CHECK_TOLERANCE * s + 1e-30) {
            fprintf(stderr, APP ": --check: iteration %ld (root %ld): digest %.9g, serial computation gives %.9g\n", t,
                    t % p, digests[t], v);
            ok = 0;
        }
        for (long i = 0; i < n; i++) x[i] = m > 0.0 ? y[i] / m : y[i];
    }
    free(a);
    free(x);
    free(y);
    return ok;
}

int main(int argc, char **argv)
{
    int rank, p;
    app_options_t opt = {.n = 2048, .seed = 1, .iters = 20, .check = 0};
    int status = app_start(&argc, &argv, APP,
                           "Dense y = A x on an N x N float matrix distributed by block columns: each\n"
                           "iteration reduces the partial y vectors (MPI_Reduce, MPI_SUM) to a root that\n"
                           "rotates with the iteration, which normalises y and scatters it as the next x\n"
                           "(Parsons 2015 Table 3.10).",
                           &opt, &rank, &p);
    if (status >= 0) return status;
    MPI_Comm comm = MPI_COMM_WORLD;
    if (opt.n > INT_MAX) app_fail(APP, "--n too large (a vector's count must fit an int)");

    long first, count;
    app_block_range(opt.n, p, rank, &first, &count);
    size_t nz = (size_t)opt.n;
    float *a = malloc((size_t)(count > 0 ? count : 1) * nz * sizeof(float));
    float *x = malloc((size_t)(count > 0 ? count : 1) * sizeof(float));
    float *partial = malloc(nz * sizeof(float)), *y = malloc(nz * sizeof(float)), *xnext = malloc(nz * sizeof(float));
    int *counts = malloc((size_t)p * sizeof(int)), *displs = malloc((size_t)p * sizeof(int));
    double *digests = calloc((size_t)opt.iters, sizeof(double)), *digests_all = calloc((size_t)opt.iters, sizeof(double));
    if (!a || !x || !partial || !y || !xnext || !counts || !displs || !digests || !digests_all)
        app_fail(APP, "out of memory");
    for (long j = 0; j < count; j++)
        for (long i = 0; i < opt.n; i++) a[j * opt.n + i] = matrix_entry(opt.seed, i, first + j);
    for (int r = 0; r < p; r++) {
        long f, c;
        app_block_range(opt.n, p, r, &f, &c);
        counts[r] = (int)c;
        displs[r] = (int)f;
    }

    app_timer_t reduce_time = {0.0, 0, NULL};
    for (long j = 0; j < count; j++) x[j] = start_entry(opt.seed, first + j);
    APP_CHECK(MPI_Barrier(comm));
    app_resume();
    double t0 = MPI_Wtime();
    for (long t = 0; t < opt.iters; t++) {
        int root = (int)(t % p);
        partial_product(a, x, opt.n, count, partial);
        app_work(2.0 * (double)opt.n * (double)count);
        APP_CHECK(app_reduce(partial, y, (int)opt.n, MPI_FLOAT, MPI_SUM, root, comm, &reduce_time));
        if (rank == root) {
            normalise(y, opt.n, xnext);
            app_work(2.0 * (double)opt.n);
            if (opt.check) digests[t] = digest(y, opt.n, opt.seed); /* the check's, not the model's */
        }
        app_settle();
        APP_CHECK(MPI_Scatterv(xnext, counts, displs, MPI_FLOAT, x, (int)count, MPI_FLOAT, root, comm));
        app_resume();
    }
    app_settle();
    double seconds = MPI_Wtime() - t0;

    int ok = 1;
    if (opt.check) {
        APP_CHECK(MPI_Reduce(digests, digests_all, (int)opt.iters, MPI_DOUBLE, MPI_SUM, 0, comm));
        if (rank == 0) ok = serial_check(digests_all, opt.n, opt.iters, opt.seed, p);
        APP_CHECK(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
    }
    APP_CHECK(app_report(APP, &opt, "reduce", seconds, &reduce_time, opt.check ? (ok ? "ok" : "FAIL") : "off", comm));

    free(a);
    free(x);
    free(partial);
    free(y);
    free(xnext);
    free(counts);
    free(displs);
    free(digests);
    free(digests_all);
    MPI_Finalize();
    return ok ? 0 : 1;
}
