/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_threads - papcoll under MPI_THREAD_MULTIPLE: --threads threads per
 * process, each on its OWN communicator (an MPI_Comm_dup of MPI_COMM_WORLD
 * made by the main thread, in the same order on every process), run
 * --iterations broadcasts, reductions, allreductions and allgathers (both
 * forms) concurrently with the other threads: random collective, algorithm
 * (the library's or auto), root, count, (datatype, operation) or datatype
 * case and MPI_IN_PLACE, one seeded sequence per thread (the same on every
 * process), random per-process delays.  Each call is checked
 * (tests/harness/reduce_call.h, bcast_call.h, gather_call.h),
 * including papcoll_last_algorithm(), which must name what THIS thread
 * forced (the record is per thread): it is read right after the call and
 * again after a pause during which the other threads run their own calls.
 * The library's communicator contexts are created by the threads' first
 * calls, concurrently; with --renew=N each thread also replaces its
 * communicator by a duplicate of it every N calls, so that contexts are
 * built (and freed) concurrently all along, beside other threads' calls and
 * builds.
 *
 * Exit code 77 (ctest SKIP_RETURN_CODE) when the MPI library does not
 * provide MPI_THREAD_MULTIPLE.
 *
 *   test_threads [--threads=N] [--iterations=N] [--max-count=N] [--seed=N]
 *                [--call-timeout=S] [--auto-only] [--renew=N] [--help]
 */
#include <papcoll.h>

#include "harness/bcast_call.h"
#include "harness/gather_call.h"
#include "harness/lists.h"
#include "harness/reduce_call.h"
#include "harness/reduce_cases.h"
#include "harness/watchdog.h"
#include "test_random.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
    int threads, iterations, max_count, call_timeout;
    unsigned long long seed;
    int auto_only; /* every call selects automatically: adaptive selection's agreements on every thread's communicator */
    int renew;     /* every `renew` calls a thread's communicator is replaced by a duplicate of it (0: never) */
} opt = {3, 200, 4096, 60, 20261123ULL, 0, 0};

enum { NCOLLS = 4 };
static const char *const collectives[NCOLLS] = {"bcast", "reduce", "allreduce", "allgather"};
static char **algos[NCOLLS];
static int nalgo[NCOLLS], world_rank;
static atomic_long total_failures, total_calls, total_refused;

typedef struct {
    int index;
    MPI_Comm comm; /* the thread's own; renewed by the thread with --renew */
} thread_arg_t;

/* A fresh duplicate in place of the thread's communicator: papcoll builds
 * its context at the next call, while the other threads run theirs. */
static void renew_communicator(thread_arg_t *arg)
{
    MPI_Comm fresh;
    MPI_Comm_dup(arg->comm, &fresh);
    MPI_Comm_set_errhandler(fresh, MPI_ERRORS_RETURN);
    MPI_Comm_free(&arg->comm);
    arg->comm = fresh;
}

static void report(int t, long *failures, const char *ran, const char *what)
{
    if ((*failures)++ < 5)
        fprintf(stderr, "FAIL rank %d thread %d: %s (ran %s): %s\n", world_rank, t, harness_watchdog_text(t), ran,
                what);
}

static void *thread_main(void *p)
{
    thread_arg_t *arg = p;
    const int t = arg->index;
    int rank, size;
    MPI_Comm_rank(arg->comm, &rank);
    MPI_Comm_size(arg->comm, &size);
    test_rng_t rng;
    test_rng_seed(&rng, mix(opt.seed ^ ((uint64_t)(t + 1) << 32) ^ 0x7417eadULL));
    rc_buffers_t rbuf = {0};
    harness_buffer_t bbuf = {0};
    ag_buffers_t gbuf = {0};
    long failures = 0, calls = 0, refused = 0;
    for (int it = 0; it < opt.iterations; it++) {
        if (opt.renew > 0 && it > 0 && it % opt.renew == 0) {
            harness_watchdog_label_slot(t, "thread %d iteration %d: MPI_Comm_dup of its communicator", t, it);
            renew_communicator(arg);
        }
        int k = test_rng_below(&rng, NCOLLS);
        const char *algo = algos[k][test_rng_below(&rng, nalgo[k])];
        if (opt.auto_only) algo = "auto";
        int root = test_rng_below(&rng, size);
        int count = test_rng_unit(&rng) < 0.5 ? test_rng_below(&rng, 65) : test_rng_below(&rng, opt.max_count + 1);
        uint64_t draw = test_rng_next(&rng);
        const rc_case_t *c = rc_case_at(test_rng_below(&rng, rc_case_count()));
        int inplace = test_rng_below(&rng, 2);
        usleep((useconds_t)(mix(draw ^ (uint64_t)rank) % 201));
        const char *ran;
        int checked_name; /* the call succeeded: papcoll_last_algorithm() must name algo */
        if (k == 0) {
            harness_watchdog_label_slot(t, "thread %d iteration %d bcast algo=%s root=%d count=%d", t, it, algo, root,
                                        count);
            harness_bcast_result_t res;
            harness_bcast_checked(algo, arg->comm, rank, root, count, MPI_INT, draw, &bbuf, &res);
            ran = res.ran;
            checked_name = res.rc == MPI_SUCCESS;
            if (!harness_bcast_ok(&res)) {
                char what[160];
                snprintf(what, sizeof what, "rc %d, %ld bad bytes, %ld guard bytes, last algorithm %s", res.rc, res.bad,
                         res.guard_bad, res.name_ok ? "right" : "WRONG");
                report(t, &failures, ran, what);
            }
        } else if (k == 3) {
            const ag_case_t *g = ag_case_at(test_rng_below(&rng, ag_case_count()));
            int vform = test_rng_below(&rng, 2), n = count / size; /* blocks of every process: similar totals */
            harness_watchdog_label_slot(t, "thread %d iteration %d %s algo=%s case=%s count=%d%s", t, it,
                                        vform ? "allgatherv" : "allgather", algo, g->name, n,
                                        inplace ? " in-place" : "");
            ag_call_t call = {.vform = vform, .algo = algo, .c = g, .count = n, .inplace = inplace, .comm = arg->comm,
                              .rank = rank, .size = size, .salt = draw};
            ag_result_t res;
            ag_call_checked(&call, &gbuf, &res);
            ran = res.ran;
            checked_name = res.rc == MPI_SUCCESS;
            if (res.problems) report(t, &failures, ran, res.first);
        } else {
            harness_watchdog_label_slot(t, "thread %d iteration %d %s algo=%s root=%d case=%s count=%d%s", t, it,
                                        collectives[k], algo, root, c->name, count, inplace ? " in-place" : "");
            rc_call_t call = {.collective = collectives[k], .algo = algo, .c = c, .count = count, .root = root,
                              .inplace = inplace, .null_recv = (int)(draw >> 63), .comm = arg->comm, .rank = rank,
                              .size = size, .salt = draw};
            rc_result_t res;
            rc_call_checked(&call, &rbuf, &res);
            ran = res.ran;
            refused += res.refused;
            checked_name = res.rc == MPI_SUCCESS;
            if (res.problems) report(t, &failures, ran, res.first);
        }
        calls++;
        if (checked_name) { /* again, after the other threads had time to run calls of their own */
            usleep(50);
            const char *again = papcoll_last_algorithm();
            if (!harness_ran_ok(algo, again) || strcmp(again, ran))
                report(t, &failures, again, "papcoll_last_algorithm() changed under another thread's calls");
        }
    }
    harness_watchdog_label_slot(t, "thread %d: done", t);
    rc_buffers_free(&rbuf);
    harness_buffer_free(&bbuf);
    ag_buffers_free(&gbuf);
    total_failures += failures;
    total_calls += calls;
    total_refused += refused;
    return NULL;
}

static int usage(const char *prog, int code)
{
    if (world_rank == 0)
        fprintf(code ? stderr : stdout,
                "usage: %s [options]\n"
                "  --threads=N       threads per process, each on its own communicator (default 3)\n"
                "  --iterations=N    calls per thread (default 200)\n"
                "  --max-count=N     largest element count (default 4096)\n"
                "  --seed=N          seed of the threads' sequences (default 20261123); printed\n"
                "  --call-timeout=S  watchdog: abort when no call started or ended for S s (default 60)\n"
                "  --auto-only       every call selects its algorithm automatically (adaptive selection)\n"
                "  --renew=N         each thread replaces its communicator by a duplicate every N calls\n"
                "                    (papcoll's contexts built concurrently all along; default 0: never)\n"
                "  --help            this text\n",
                prog);
    MPI_Finalize();
    return code;
}

int main(int argc, char **argv)
{
    int provided, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=');
        v = v ? v + 1 : "";
#define OPT(name) (!strncmp(a, "--" name "=", strlen(name) + 3))
        if (OPT("threads")) opt.threads = atoi(v);
        else if (OPT("iterations")) opt.iterations = atoi(v);
        else if (OPT("max-count")) opt.max_count = atoi(v);
        else if (OPT("seed")) opt.seed = strtoull(v, NULL, 10);
        else if (OPT("call-timeout")) opt.call_timeout = atoi(v);
        else if (!strcmp(a, "--auto-only")) opt.auto_only = 1;
        else if (OPT("renew")) opt.renew = atoi(v);
        else return usage(argv[0], strcmp(a, "--help") ? 2 : 0);
#undef OPT
    }
    if (opt.threads < 1 || opt.threads > HARNESS_WATCHDOG_SLOTS) {
        if (world_rank == 0) fprintf(stderr, "--threads must be 1..%d\n", HARNESS_WATCHDOG_SLOTS);
        return usage(argv[0], 2);
    }
    if (provided < MPI_THREAD_MULTIPLE) {
        if (world_rank == 0)
            printf("test_threads: SKIP: the MPI library provides thread level %d, not MPI_THREAD_MULTIPLE (%d)\n",
                   provided, MPI_THREAD_MULTIPLE);
        MPI_Finalize();
        return 77;
    }
    harness_watchdog_init(opt.call_timeout, 1, world_rank);
    rc_cases_init();
    ag_cases_init();
    for (int k = 0; k < NCOLLS; k++) nalgo[k] = harness_algorithms(collectives[k], NULL, &algos[k]);
    if (world_rank == 0) {
        printf("test_threads: np=%d threads=%d iterations=%d seed=%llu algorithms: bcast %d, reduce %d, allreduce %d, "
               "allgather %d\n",
               size, opt.threads, opt.iterations, opt.seed, nalgo[0], nalgo[1], nalgo[2], nalgo[3]);
        fflush(stdout);
    }
    thread_arg_t *args = calloc((size_t)opt.threads, sizeof *args);
    pthread_t *tids = calloc((size_t)opt.threads, sizeof *tids);
    for (int t = 0; t < opt.threads; t++) {
        args[t].index = t;
        MPI_Comm_dup(MPI_COMM_WORLD, &args[t].comm);
        MPI_Comm_set_errhandler(args[t].comm, MPI_ERRORS_RETURN);
    }
    double t0 = MPI_Wtime();
    for (int t = 0; t < opt.threads; t++) pthread_create(&tids[t], NULL, thread_main, &args[t]);
    for (int t = 0; t < opt.threads; t++) pthread_join(tids[t], NULL);
    double elapsed = MPI_Wtime() - t0;
    harness_watchdog_off();
    long mine[3] = {total_failures, total_calls, total_refused}, sums[3];
    MPI_Reduce(mine, sums, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("test_threads: %ld calls (summed over processes and threads, %ld refused with MPI_ERR_OP as "
               "expected), %ld failures, %.2f s\n",
               sums[1], sums[2], sums[0], elapsed);
    for (int t = 0; t < opt.threads; t++) MPI_Comm_free(&args[t].comm);
    free(args);
    free(tids);
    for (int k = 0; k < NCOLLS; k++) harness_list_free(algos[k], nalgo[k]);
    rc_cases_free();
    ag_cases_free();
    int failed = world_rank == 0 ? sums[0] != 0 : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
