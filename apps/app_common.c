/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_common.c - see app_common.h.
 */
#include "app_common.h"
#include "../src/core/mix64.h"

#ifndef PAPCOLL_APP_SMPI
#include <dlfcn.h>
#endif

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_fail_mpi(int rc, const char *what, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) snprintf(msg, sizeof msg, "MPI error %d", rc);
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, what, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2); /* MPI_Abort does not return; in case it does */
}

void app_fail(const char *app, const char *message)
{
    fprintf(stderr, "%s: %s\n", app, message);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* A positive long from TEXT into *OUT; 0 on success. */
static int parse_positive(const char *text, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v <= 0) return -1;
    *out = v;
    return 0;
}

int app_parse_options(int argc, char **argv, int rank, const char *app, const char *description,
                      app_options_t *opt)
{
    static const struct option longopts[] = {
        {"n", required_argument, NULL, 'n'},     {"seed", required_argument, NULL, 's'},
        {"iters", required_argument, NULL, 'i'}, {"check", no_argument, NULL, 'c'},
        {"noise", required_argument, NULL, 'N'}, {"compute", required_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    int c;
    char err[200];
    opt->compute = app_compute_default();
    if (app_noise_parse("none", &opt->noise, err, sizeof err)) return -1;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        long v;
        switch (c) {
        case 'n':
        case 'i':
            if (parse_positive(optarg, &v)) {
                if (rank == 0) fprintf(stderr, "%s: --%s needs a positive integer, not '%s'\n", app, c == 'n' ? "n" : "iters", optarg);
                return -1;
            }
            if (c == 'n') opt->n = v;
            else opt->iters = v;
            break;
        case 's': {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(optarg, &end, 10);
            if (errno || end == optarg || *end) {
                if (rank == 0) fprintf(stderr, "%s: --seed needs an unsigned integer, not '%s'\n", app, optarg);
                return -1;
            }
            opt->seed = (uint64_t)s;
            break;
        }
        case 'c': opt->check = 1; break;
        case 'N':
        case 'C':
            if (c == 'N' ? app_noise_parse(optarg, &opt->noise, err, sizeof err)
                         : app_compute_parse(optarg, &opt->compute, err, sizeof err)) {
                if (rank == 0) fprintf(stderr, "%s: %s\n", app, err);
                return -1;
            }
            break;
        case 'h':
            if (rank == 0)
                printf("Usage: %s [--n=N] [--seed=S] [--iters=I] [--check] [--compute=MODE] [--noise=SPEC] [--help]\n%s\n"
                       "  --n=N      problem size: vertices, or matrix order (default %ld)\n"
                       "  --seed=S   seed of the deterministic random input; the same S gives the same input\n"
                       "             whatever the number of processes (default %" PRIu64 ")\n"
                       "  --iters=I  repetitions (default %ld)\n"
                       "  --check    compare the result with a serial computation on rank 0 (untimed);\n"
                       "             exit status 1 on a mismatch\n"
                       "  --compute=MODE  what the computation costs (default: model under SMPI, host natively):\n"
                       "             host  its real time (native runs; the only native mode)\n"
                       "             model SMPI: each phase between collectives is charged its modelled flop\n"
                       "                   count (smpi_execute_flops, at the simulated host's speed)\n"
                       "             none  SMPI: computation is free (every rank arrives together)\n"
                       "  --noise=SPEC  arrival-imbalance model applied to each phase's cost (default none):\n"
                       "             a comma-separated list of  jitter:F  (every rank and phase: F x Exp(1) of\n"
                       "             its work more), spike:P:F  (with probability P per rank and phase: F x Exp(1)\n"
                       "             more), slow:P:F  (each rank with probability P is F slower for the whole\n"
                       "             run), seed:S  (the noise's seed, default 1); or a preset: xe6 =\n"
                       "             jitter:0.0072,spike:0.01:0.026 (Parsons 2015 Table 3.5: its micro-benchmark\n"
                       "             on the Cray XE6), xe6-nas = jitter:0.05 (the order of NAS FT's imbalance,\n"
                       "             Parsons 2015 Table 3.1), which further terms may follow (xe6,seed:2).  F is a\n"
                       "             fraction of the phase's work.  Draws hash (S, rank, phase): the\n"
                       "             same spec gives the same imbalance.  Natively the rank busy-waits the\n"
                       "             noise's share of the phase's measured time.\n"
                       "  --help     this text\n"
                       "Output: one line on rank 0,\n"
                       "  app=,n=,p=,iters=,collective=,impl=,solve_s=,<coll>_mean_s=,<coll>_max_s=,check=,\n"
                       "  compute=,noise=,work_mean_s=,noise_mean_s=\n"
                       "  solve_s: seconds per repetition (this rank's total / iters), max over ranks;\n"
                       "  <coll>_mean_s, <coll>_max_s: seconds per repetition inside the timed collective,\n"
                       "  mean and max over ranks; impl: mpi (the MPI library's collective) or\n"
                       "  papcoll:ALGORITHM (libpapcoll_mpi.so preloaded, or the SMPI flavour; PAPCOLL_BCAST /\n"
                       "  PAPCOLL_REDUCE / PAPCOLL_ALLTOALL choose the algorithm); check: ok, FAIL or off;\n"
                       "  work_mean_s, noise_mean_s: seconds per repetition of computation (noise included)\n"
                       "  and of the noise model alone, mean over ranks.\n",
                       app, description, opt->n, opt->seed, opt->iters);
            return 1;
        default:
            if (rank == 0) fprintf(stderr, "%s: unknown or incomplete option '%s' (--help lists them)\n", app, argv[optind - 1]);
            return -1;
        }
    }
    if (optind < argc) {
        if (rank == 0) fprintf(stderr, "%s: unexpected argument '%s'\n", app, argv[optind]);
        return -1;
    }
    return 0;
}

void app_block_range(long n, int p, int r, long *first, long *count)
{
    long base = n / p, extra = n % p;
    *count = base + (r < extra);
    *first = (long)r * base + (r < extra ? r : extra);
}

int app_block_owner(long n, int p, long i)
{
    long base = n / p, extra = n % p;
    if (i < extra * (base + 1)) return (int)(i / (base + 1));
    return (int)(extra + (i - extra * (base + 1)) / base);
}

double app_unit(uint64_t seed, uint64_t i, uint64_t j)
{
    uint64_t h = pc_splitmix64(pc_splitmix64(pc_splitmix64(seed) ^ i) ^ j);
    return (double)(h >> 11) * (1.0 / 9007199254740992.0); /* 53 bits */
}

#ifdef PAPCOLL_APP_SMPI
/* papcoll's (include/papcoll.h), weak: null when the program is linked without papcoll. */
extern const char *papcoll_last_algorithm(void) __attribute__((weak));
#endif

/* The name of papcoll's last algorithm, or NULL when papcoll is absent. */
static const char *papcoll_algorithm_now(void)
{
#ifdef PAPCOLL_APP_SMPI
    /* linked into the program with papcoll's interposer (papcoll_mpi_smpi)? */
    return papcoll_last_algorithm ? papcoll_last_algorithm() : NULL;
#else
    /* libpapcoll_mpi.so preloaded (it links libpapcoll, which defines it)? */
    const char *(*last)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "papcoll_last_algorithm");
    return last ? last() : NULL;
#endif
}

/* Adds one call that started at t0 to t, with what ran; returns the call's rc. */
static int timed(app_timer_t *t, double t0, int rc)
{
    t->seconds += MPI_Wtime() - t0;
    t->calls++;
    app_resume();
    t->algorithm = papcoll_algorithm_now();
    return rc;
}

int app_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, app_timer_t *t)
{
    app_settle();
    double t0 = MPI_Wtime();
    int rc = MPI_Bcast(buf, count, type, root, comm);
    return timed(t, t0, rc);
}

int app_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm, app_timer_t *t)
{
    app_settle();
    double t0 = MPI_Wtime();
    int rc = MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    return timed(t, t0, rc);
}

int app_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm, app_timer_t *t)
{
    app_settle();
    double t0 = MPI_Wtime();
    int rc = MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return timed(t, t0, rc);
}

int app_report(const char *app, const app_options_t *opt, const char *coll, double solve_seconds,
               const app_timer_t *t, const char *check, MPI_Comm comm)
{
    int rc, rank, p;
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_size(comm, &p)) != MPI_SUCCESS) return rc;
    double work, noise;
    app_compute_totals(&work, &noise);
    double iters = (double)opt->iters;
    double mine[4] = {solve_seconds / iters, t->seconds / iters, work / iters, noise / iters}, maxv[4], sum[4];
    if ((rc = MPI_Reduce(mine, maxv, 4, MPI_DOUBLE, MPI_MAX, 0, comm)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Reduce(mine, sum, 4, MPI_DOUBLE, MPI_SUM, 0, comm)) != MPI_SUCCESS) return rc;
    if (rank == 0) {
        char impl[128];
        if (t->algorithm) snprintf(impl, sizeof impl, "papcoll:%s", t->algorithm);
        else snprintf(impl, sizeof impl, "mpi");
        printf("app=%s,n=%ld,p=%d,iters=%ld,collective=%s,impl=%s,solve_s=%.6e,%s_mean_s=%.6e,%s_max_s=%.6e,check=%s,"
               "compute=%s,noise=%s,work_mean_s=%.6e,noise_mean_s=%.6e\n",
               app, opt->n, p, opt->iters, coll, impl, maxv[0], coll, sum[1] / p, coll, maxv[1], check,
               app_compute_name(opt->compute), opt->noise.spec, sum[2] / p, sum[3] / p);
        fflush(stdout);
    }
    return MPI_SUCCESS;
}

int app_start(int *argc, char ***argv, const char *app, const char *description, app_options_t *opt, int *rank,
              int *p)
{
    int rc = MPI_Init(argc, argv);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "%s: MPI_Init failed (%d)\n", app, rc);
        return 2;
    }
    APP_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    APP_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, rank));
    APP_CHECK(MPI_Comm_size(MPI_COMM_WORLD, p));
    int parsed = app_parse_options(*argc, *argv, *rank, app, description, opt);
    if (!parsed) {
        app_compute_init(opt->compute, &opt->noise, *rank);
        return -1;
    }
    MPI_Finalize();
    return parsed > 0 ? 0 : 2;
}
