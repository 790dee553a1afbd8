/*
 * app_common.c - see app_common.h.
 */
#include "app_common.h"
#include "../src/core/mix64.h"

#ifdef PAPCOLL_APP_USE_API
#include <papcoll.h>
#else
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
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    int c;
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
        case 'h':
            if (rank == 0)
                printf("Usage: %s [--n=N] [--seed=S] [--iters=I] [--check] [--help]\n%s\n"
                       "  --n=N      problem size: vertices, or matrix order (default %ld)\n"
                       "  --seed=S   seed of the deterministic random input; the same S gives the same input\n"
                       "             whatever the number of processes (default %" PRIu64 ")\n"
                       "  --iters=I  repetitions (default %ld)\n"
                       "  --check    compare the result with a serial computation on rank 0 (untimed);\n"
                       "             exit status 1 on a mismatch\n"
                       "  --help     this text\n"
                       "Output: one line on rank 0,\n"
                       "  app=,n=,p=,iters=,collective=,impl=,solve_s=,<coll>_mean_s=,<coll>_max_s=,check=\n"
                       "  solve_s: seconds per repetition (this rank's total / iters), max over ranks;\n"
                       "  <coll>_mean_s, <coll>_max_s: seconds per repetition inside the timed collective,\n"
                       "  mean and max over ranks; impl: mpi (the MPI library's collective) or\n"
                       "  papcoll:ALGORITHM (libpapcoll_mpi.so preloaded, or the SMPI flavour; PAPCOLL_BCAST /\n"
                       "  PAPCOLL_REDUCE / PAPCOLL_ALLTOALL choose the algorithm); check: ok, FAIL or off.\n",
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

/* The name of papcoll's last algorithm, or NULL when papcoll is absent. */
static const char *papcoll_algorithm_now(void)
{
#ifdef PAPCOLL_APP_USE_API
    return papcoll_last_algorithm();
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
    t->algorithm = papcoll_algorithm_now();
    return rc;
}

int app_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, app_timer_t *t)
{
    double t0 = MPI_Wtime();
#ifdef PAPCOLL_APP_USE_API
    int rc = papcoll_bcast(buf, count, type, root, comm);
#else
    int rc = MPI_Bcast(buf, count, type, root, comm);
#endif
    return timed(t, t0, rc);
}

int app_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm, app_timer_t *t)
{
    double t0 = MPI_Wtime();
#ifdef PAPCOLL_APP_USE_API
    int rc = papcoll_reduce(sendbuf, recvbuf, count, type, op, root, comm);
#else
    int rc = MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
#endif
    return timed(t, t0, rc);
}

int app_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm, app_timer_t *t)
{
    double t0 = MPI_Wtime();
#ifdef PAPCOLL_APP_USE_API
    int rc = papcoll_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
#else
    int rc = MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
#endif
    return timed(t, t0, rc);
}

int app_report(const char *app, const app_options_t *opt, const char *coll, double solve_seconds,
               const app_timer_t *t, const char *check, MPI_Comm comm)
{
    int rc, rank, p;
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Comm_size(comm, &p)) != MPI_SUCCESS) return rc;
    double mine[2] = {solve_seconds / (double)opt->iters, t->seconds / (double)opt->iters}, maxv[2], sum[2];
    if ((rc = MPI_Reduce(mine, maxv, 2, MPI_DOUBLE, MPI_MAX, 0, comm)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, comm)) != MPI_SUCCESS) return rc;
    if (rank == 0) {
        char impl[128];
        if (t->algorithm) snprintf(impl, sizeof impl, "papcoll:%s", t->algorithm);
        else snprintf(impl, sizeof impl, "mpi");
        printf("app=%s,n=%ld,p=%d,iters=%ld,collective=%s,impl=%s,solve_s=%.6e,%s_mean_s=%.6e,%s_max_s=%.6e,check=%s\n",
               app, opt->n, p, opt->iters, coll, impl, maxv[0], coll, sum[1] / p, coll, maxv[1], check);
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
    if (!parsed) return -1;
    MPI_Finalize();
    return parsed > 0 ? 0 : 2;
}
