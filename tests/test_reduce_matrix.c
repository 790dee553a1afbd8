/*
 * test_reduce_matrix - every reduce, allreduce and reduce_scatter algorithm
 * (the library's own lists, plus "auto") x communicator shapes x every root
 * (reduce) or both forms (reduce_scatter: MPI_Reduce_scatter with unequal
 * blocks, some empty, and MPI_Reduce_scatter_block) x counts x
 * (datatype, operation) cases x MPI_IN_PLACE or not x arrival, back to back
 * on the same buffers, each call checked (tests/harness/reduce_call.h):
 * exact results in rank order (a tolerance only for the inexact
 * floating-point cases), gaps and guard bytes untouched, send buffers
 * unchanged, non-roots' receive buffers untouched or NULL, the algorithm that
 * ran, and MPI_ERR_OP from algorithms forced on an operation they do not take
 * (non-commutative or user-defined) while "auto" runs it.
 *
 * Shapes: world, reversed, oddeven, vnodes3 (virtual nodes of 3 ranks),
 * vnodes3_reversed (tests/harness/shapes.h).  Cases: every predefined
 * operation on every datatype MPI allows it on, a gappy derived datatype, a
 * commutative and a non-commutative user operation
 * (tests/harness/reduce_cases.h; --list prints them).  Arrival: together, or
 * each process delayed by a random 0..--delay-us (per call and rank).
 *
 * Sampling: each combination is kept with probability --sample x its case's
 * weight (user operations and derived datatypes 4, inexact cases 2), decided
 * by a hash of the seed and the combination itself (not its position), so a
 * failure replays with the same --seed and --sample and narrower
 * --colls/--algos/--cases/--min-count/--max-count; the replay options are
 * printed with the first failure.
 */
#include <papcoll.h>

#include "harness/lists.h"
#include "harness/reduce_call.h"
#include "harness/reduce_cases.h"
#include "harness/shapes.h"
#include "harness/watchdog.h"
#include "test_random.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int counts[] = {0, 1, 7, 4097, 262147};
enum { NCOUNTS = sizeof counts / sizeof counts[0], NARRIVALS = 2 };
enum { NCOLLS = 3 };
static const char *const collectives[NCOLLS] = {"reduce", "allreduce", "reduce_scatter"};

static struct {
    double sample;
    unsigned long long seed;
    int min_count, max_count, delay_us, call_timeout;
    const char *algos, *colls, *cases;
} opt = {1.0, 12345, 0, 262147, 1000, 120, NULL, "reduce,allreduce,reduce_scatter", NULL};

static int world_rank, world_size;

static void usage(const char *prog, int code)
{
    if (world_rank == 0)
        fprintf(code ? stderr : stdout,
                "usage: %s [options]\n"
                "  --sample=F        keep each combination with probability F x its case's weight (default 1)\n"
                "  --seed=N          seed of the sampling and of the data (default 12345); printed\n"
                "  --min-count=N     smallest count of {0,1,7,4097,262147} to run (default 0)\n"
                "  --max-count=N     largest count to run (default 262147)\n"
                "  --colls=a,b       collectives among reduce,allreduce,reduce_scatter (default all)\n"
                "  --algos=a,b       algorithm names (and auto) to run (default: the library's lists + auto)\n"
                "  --cases=a,b       case names, e.g. MPI_INT/MPI_SUM,mat2x2/user_noncommutative (default all)\n"
                "  --delay-us=D      largest random arrival delay of the delayed arrival (default 1000)\n"
                "  --call-timeout=S  watchdog: abort with the call's description after S s (default 120)\n"
                "  --list            print the cases and the algorithms, and exit\n"
                "  --help            this text\n",
                prog);
    if (code) MPI_Abort(MPI_COMM_WORLD, code);
}

/* Count-0 calls while PAPCOLL_PPN is set build the contexts of every collective. */
static int create_contexts(MPI_Comm comm)
{
    int in = 0, out = 0, rc = papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_reduce(&in, &out, 0, MPI_INT, MPI_SUM, 0, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_allreduce(&in, &out, 0, MPI_INT, MPI_SUM, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_reduce_scatter_block(&in, &out, 0, MPI_INT, MPI_SUM, comm);
    return rc;
}

/* A hash of a string (the combination key is built from names, not indices,
 * so that filtering does not change which combinations are drawn). */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void print_list(void)
{
    if (world_rank != 0) return;
    printf("cases (%d):\n", rc_case_count());
    for (int i = 0; i < rc_case_count(); i++) {
        const rc_case_t *c = rc_case_at(i);
        printf("  %-40s extent %2ld%s%s%s weight %d\n", c->name, (long)c->extent, c->commutative ? "" : " non-commutative",
               c->predefined ? "" : " user-op", c->gaps ? " gaps" : "", c->weight);
    }
    for (int k = 0; k < NCOLLS; k++) {
        char **algos;
        int n = harness_algorithms(collectives[k], NULL, &algos);
        printf("%s algorithms:", collectives[k]);
        for (int a = 0; a < n; a++) printf(" %s", algos[a]);
        printf("\n");
        harness_list_free(algos, n);
    }
}

typedef struct {
    const char *collective, *algo;
    const rc_case_t *c;
    int count, delayed, shape, root_index, inplace;
} combination_t;

static rc_buffers_t buffers;
static long calls, refused, failures;

/* Key of a combination: a hash of its names and values (not of its position
 * in the loops, so that filters keep the draw). */
static uint64_t combination_key(const combination_t *m)
{
    return mix(name_hash(m->collective) ^
               mix(name_hash(m->algo) ^
                   mix(name_hash(m->c->name) ^ mix(((uint64_t)m->count << 24) ^ ((uint64_t)m->delayed << 20) ^
                                                   ((uint64_t)m->shape << 16) ^ ((uint64_t)m->root_index << 1) ^
                                                   (uint64_t)m->inplace))));
}

/* Runs combination m on comm if the sample draws it, and reports problems. */
static void run_combination(const combination_t *m, MPI_Comm comm, int rank, int size)
{
    uint64_t key = combination_key(m);
    if (!test_sampled(opt.seed, key, opt.sample * m->c->weight)) return;
    uint64_t salt = mix(key ^ (opt.seed << 20));
    int is_rs = !strcmp(m->collective, "reduce_scatter"); /* root_index: its form */
    rc_call_t call = {.collective = m->collective, .algo = m->algo, .c = m->c, .count = m->count,
                      .root = is_rs ? 0 : m->root_index % size, .inplace = m->inplace, .null_recv = (int)(salt >> 63),
                      .comm = comm, .rank = rank, .size = size, .salt = salt, .block_form = is_rs && m->root_index};
    long delay = m->delayed ? (long)(mix(salt ^ (uint64_t)world_rank) % (uint64_t)(opt.delay_us + 1)) : 0;
    harness_watchdog_label("%s%s algo=%s case=%s count=%d shape=%s p=%d root=%d%s arrival=%s", call.collective,
                           call.block_form ? "_block" : "", call.algo, m->c->name, call.count,
                           harness_shape_names[m->shape], size, call.root, m->inplace ? " in-place" : "",
                           m->delayed ? "delayed" : "together");
    if (delay) usleep((useconds_t)delay);
    rc_result_t res;
    rc_call_checked(&call, &buffers, &res);
    calls++;
    refused += res.refused;
    if (!res.problems) return;
    if (failures++ < 10)
        fprintf(stderr, "FAIL rank %d: %s (ran %s, rc %d): %s\n", world_rank, harness_watchdog_current(), res.ran,
                res.rc, res.first);
    if (failures == 1)
        fprintf(stderr, "  replay: --seed=%llu --sample=%g --colls=%s --algos=%s --cases=%s --min-count=%d --max-count=%d\n",
                opt.seed, opt.sample, call.collective, call.algo, m->c->name, call.count, call.count);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    int list_only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=');
        v = v ? v + 1 : "";
#define OPT(name) (!strncmp(a, "--" name "=", strlen(name) + 3))
        if (OPT("sample")) opt.sample = atof(v);
        else if (OPT("seed")) opt.seed = strtoull(v, NULL, 10);
        else if (OPT("min-count")) opt.min_count = atoi(v);
        else if (OPT("max-count")) opt.max_count = atoi(v);
        else if (OPT("colls")) opt.colls = v;
        else if (OPT("algos")) opt.algos = v;
        else if (OPT("cases")) opt.cases = v;
        else if (OPT("delay-us")) opt.delay_us = atoi(v);
        else if (OPT("call-timeout")) opt.call_timeout = atoi(v);
        else if (!strcmp(a, "--list")) list_only = 1;
        else if (!strcmp(a, "--help")) {
            usage(argv[0], 0);
            MPI_Finalize();
            return 0;
        } else usage(argv[0], 2);
#undef OPT
    }
    rc_cases_init();
    if (list_only) {
        print_list();
        rc_cases_free();
        MPI_Finalize();
        return 0;
    }
    if (opt.cases) { /* every named case must exist: a typo must not pass silently */
        char **v;
        int n = harness_list_split(opt.cases, &v);
        for (int i = 0; i < n; i++)
            if (!rc_case_find(v[i])) {
                if (world_rank == 0) fprintf(stderr, "unknown case \"%s\" (--list prints them)\n", v[i]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        harness_list_free(v, n);
    }
    harness_watchdog_init(opt.call_timeout, 0, world_rank);

    char **algos[NCOLLS];
    int nalgo[NCOLLS];
    for (int k = 0; k < NCOLLS; k++) nalgo[k] = harness_algorithms(collectives[k], opt.algos, &algos[k]);
    MPI_Comm comms[HARNESS_NSHAPES];
    int csize[HARNESS_NSHAPES], crank[HARNESS_NSHAPES], max_csize = 0;
    for (int s = 0; s < HARNESS_NSHAPES; s++) {
        comms[s] = harness_matrix_shape(s, create_contexts);
        MPI_Comm_set_errhandler(comms[s], MPI_ERRORS_RETURN);
        MPI_Comm_size(comms[s], &csize[s]);
        MPI_Comm_rank(comms[s], &crank[s]);
        if (csize[s] > max_csize) max_csize = csize[s];
    }

    for (int k = 0; k < NCOLLS; k++) {
        if (!harness_list_has(opt.colls, collectives[k])) continue;
        int nroots = k == 0 ? max_csize : k == 2 ? 2 : 1; /* reduce: every root; reduce_scatter: both forms */
        for (int ci = 0; ci < rc_case_count(); ci++) {
            const rc_case_t *c = rc_case_at(ci);
            if (opt.cases && !harness_list_has(opt.cases, c->name)) continue;
            for (int n = 0; n < NCOUNTS; n++) {
                if (counts[n] < opt.min_count || counts[n] > opt.max_count) continue;
                for (int arr = 0; arr < NARRIVALS; arr++)
                    for (int s = 0; s < HARNESS_NSHAPES; s++)
                        for (int r = 0; r < nroots; r++) /* root r % size of shape s */
                            for (int inplace = 0; inplace < 2; inplace++)
                                for (int a = 0; a < nalgo[k]; a++) {
                                    combination_t m = {collectives[k], algos[k][a], c, counts[n], arr, s, r, inplace};
                                    run_combination(&m, comms[s], crank[s], csize[s]);
                                }
            }
        }
    }
    harness_watchdog_off();
    long totals[3], mine[3] = {calls, refused, failures};
    MPI_Reduce(mine, totals, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("test_reduce_matrix: np=%d colls=%s algorithms reduce=%d allreduce=%d reduce_scatter=%d cases=%d shapes=%d "
               "counts=[%d,%d] arrivals=%d sample=%g seed=%llu: %ld calls (summed over processes), %ld refused "
               "with MPI_ERR_OP as expected, %ld failures\n",
               world_size, opt.colls, nalgo[0], nalgo[1], nalgo[2], rc_case_count(), HARNESS_NSHAPES, opt.min_count,
               opt.max_count, NARRIVALS, opt.sample, opt.seed, totals[0], totals[1], totals[2]);
    for (int s = 0; s < HARNESS_NSHAPES; s++) MPI_Comm_free(&comms[s]);
    for (int k = 0; k < NCOLLS; k++) harness_list_free(algos[k], nalgo[k]);
    rc_buffers_free(&buffers);
    rc_cases_free();
    int failed = world_rank == 0 ? totals[2] != 0 : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
