/*
 * test_allgather_matrix - every allgather algorithm (the library's own list,
 * plus "auto") x both forms (papcoll_allgather, papcoll_allgatherv) x
 * communicator shapes x counts x datatype cases x MPI_IN_PLACE or not x
 * arrival, back to back on the same buffers, each call checked
 * (tests/harness/gather_call.h): every block of every process's receive
 * buffer byte for byte, the gaps of derived datatypes, the space between
 * the v form's blocks and guard bytes untouched, the send buffer, counts
 * and displacements unchanged, and the algorithm that ran.
 *
 * Shapes: world, reversed, oddeven, vnodes3 (virtual nodes of 3 ranks),
 * vnodes3_reversed (tests/harness/shapes.h).  Counts: 0, 1, 7, 4097, 65537
 * elements per process; the v form draws each process's count from 0 to
 * twice that (zeros included) and places the blocks in a shuffled order
 * with gaps.  Cases: MPI_INT, MPI_DOUBLE, MPI_CHAR, gappy vector and struct
 * datatypes, and send datatypes other than the receive datatype with the
 * same signature (--list prints them).  Arrival: together, or each process
 * delayed by a random 0..--delay-us (per call and rank).
 *
 * --skip-native=FORM:CASE,... names what the MPI library itself gets wrong:
 * papcoll's "native" (which is that library's function) and "auto" (which
 * may choose it) are not run there.  SimGrid 3.3x's MPI_Allgather places
 * blocks by the send datatype's layout (wrong, and writing out of bounds,
 * when the send layout differs from the receive layout, e.g.
 * allgather:MPI_INTx4/contig4); its MPI_Allgatherv is right.
 *
 * Sampling: each combination is kept with probability --sample x its case's
 * weight (derived datatypes 2), decided by a hash of the seed and the
 * combination itself (not its position), so a failure replays with the
 * same --seed and --sample and narrower --forms/--algos/--cases/--min-count/
 * --max-count; the replay options are printed with the first failure.
 */
#include <papcoll.h>

#include "harness/gather_call.h"
#include "harness/lists.h"
#include "harness/shapes.h"
#include "harness/watchdog.h"
#include "test_random.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int counts[] = {0, 1, 7, 4097, 65537};
enum { NCOUNTS = sizeof counts / sizeof counts[0], NARRIVALS = 2 };
static const char *const forms[2] = {"allgather", "allgatherv"};

static struct {
    double sample;
    unsigned long long seed;
    int min_count, max_count, delay_us, call_timeout;
    const char *algos, *forms, *cases, *skip_native;
} opt = {1.0, 12345, 0, 65537, 1000, 120, NULL, "allgather,allgatherv", NULL, ""};

static int world_rank, world_size;

static void usage(const char *prog, int code)
{
    if (world_rank == 0)
        fprintf(code ? stderr : stdout,
                "usage: %s [options]\n"
                "  --sample=F        keep each combination with probability F x its case's weight (default 1)\n"
                "  --seed=N          seed of the sampling and of the data (default 12345); printed\n"
                "  --min-count=N     smallest count of {0,1,7,4097,65537} to run (default 0)\n"
                "  --max-count=N     largest count to run (default 65537)\n"
                "  --forms=a,b       forms among allgather,allgatherv (default both)\n"
                "  --algos=a,b       algorithm names (and auto) to run, 'x*' for a prefix (default: the library's\n"
                "                    list + auto)\n"
                "  --cases=a,b       datatype case names, e.g. MPI_INT,struct_cdi2/packed_cdi2 (default all)\n"
                "  --skip-native=F:C,...  form:case pairs the MPI library itself gets wrong: native and auto\n"
                "                    are not run on them, e.g. allgather:MPI_INTx4/contig4 (default none)\n"
                "  --delay-us=D      largest random arrival delay of the delayed arrival (default 1000)\n"
                "  --call-timeout=S  watchdog: abort with the call's description after S s (default 120)\n"
                "  --list            print the cases and the algorithms, and exit\n"
                "  --help            this text\n",
                prog);
    if (code) MPI_Abort(MPI_COMM_WORLD, code);
}

/* Count-0 calls while PAPCOLL_PPN is set build the communicator's context. */
static int create_contexts(MPI_Comm comm)
{
    int rc = papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm);
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
    printf("cases (%d): send datatype x sfactor / receive datatype x rfactor per element\n", ag_case_count());
    for (int i = 0; i < ag_case_count(); i++) {
        const ag_case_t *c = ag_case_at(i);
        printf("  %-26s %2zu data bytes, send %d x extent %2ld, receive %d x extent %2ld%s, weight %d\n", c->name,
               c->bytes, c->sfactor, (long)c->sext, c->rfactor, (long)c->rext, c->gaps ? ", gaps" : "", c->weight);
    }
    char **algos;
    int n = harness_algorithms("allgather", NULL, &algos);
    printf("allgather algorithms:");
    for (int a = 0; a < n; a++) printf(" %s", algos[a]);
    printf("\n");
    harness_list_free(algos, n);
}

typedef struct {
    const char *form, *algo;
    const ag_case_t *c;
    int count, delayed, shape, inplace;
} combination_t;

static ag_buffers_t buffers;
static long calls, failures, skipped;
static char *skip_native; /* [form][case]: --skip-native */


static uint64_t combination_key(const combination_t *m)
{
    return mix(name_hash(m->form) ^
               mix(name_hash(m->algo) ^
                   mix(name_hash(m->c->name) ^ mix(((uint64_t)m->count << 24) ^ ((uint64_t)m->delayed << 20) ^
                                                   ((uint64_t)m->shape << 16) ^ (uint64_t)m->inplace))));
}

/* Runs combination m on comm if the sample draws it, and reports problems. */
static void run_combination(const combination_t *m, MPI_Comm comm, int rank, int size)
{
    uint64_t key = combination_key(m);
    if (!test_sampled(opt.seed, key, opt.sample * m->c->weight)) return;
    uint64_t salt = mix(key ^ (opt.seed << 20));
    ag_call_t call = {.vform = m->form == forms[1], .algo = m->algo, .c = m->c, .count = m->count,
                      .inplace = m->inplace, .comm = comm, .rank = rank, .size = size, .salt = salt};
    long delay = m->delayed ? (long)(mix(salt ^ (uint64_t)world_rank) % (uint64_t)(opt.delay_us + 1)) : 0;
    harness_watchdog_label("%s algo=%s case=%s count=%d shape=%s p=%d%s arrival=%s", m->form, call.algo,
                           m->c->name, call.count, harness_shape_names[m->shape], size,
                           m->inplace ? " in-place" : "", m->delayed ? "delayed" : "together");
    if (delay) usleep((useconds_t)delay);
    ag_result_t res;
    ag_call_checked(&call, &buffers, &res);
    calls++;
    if (!res.problems) return;
    if (failures++ < 10)
        fprintf(stderr, "FAIL rank %d: %s (ran %s, rc %d): %s\n", world_rank, harness_watchdog_current(), res.ran,
                res.rc, res.first);
    if (failures == 1)
        fprintf(stderr,
                "  replay: --seed=%llu --sample=%g --forms=%s --algos=%s --cases=%s --min-count=%d --max-count=%d\n",
                opt.seed, opt.sample, m->form, call.algo, m->c->name, call.count, call.count);
}

/* Every named case and form must exist: a typo must not pass silently. */
static void check_names(void)
{
    char **names;
    int nnames = opt.cases ? harness_list_split(opt.cases, &names) : 0;
    for (int i = 0; i < nnames; i++)
        if (!ag_case_find(names[i])) {
            if (world_rank == 0) fprintf(stderr, "unknown case \"%s\" (--list prints them)\n", names[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    if (opt.cases) harness_list_free(names, nnames);
    nnames = harness_list_split(opt.forms, &names);
    for (int i = 0; i < nnames; i++)
        if (strcmp(names[i], forms[0]) && strcmp(names[i], forms[1])) {
            if (world_rank == 0) fprintf(stderr, "unknown form \"%s\" (allgather, allgatherv)\n", names[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    harness_list_free(names, nnames);
}

/* --skip-native as [form][case] flags (FORM:CASE words checked). */
static char *parse_skip_native(void)
{
    char **names;
    int nnames = harness_list_split(opt.skip_native, &names);
    for (int i = 0; i < nnames; i++) {
        const char *colon = strchr(names[i], ':');
        int known = colon && ag_case_find(colon + 1) &&
                    (!strncmp(names[i], "allgather:", 10) || !strncmp(names[i], "allgatherv:", 11));
        if (!known) {
            if (world_rank == 0) fprintf(stderr, "--skip-native: \"%s\" is not FORM:CASE\n", names[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    harness_list_free(names, nnames);
    char *flags = calloc((size_t)2 * (size_t)ag_case_count(), 1);
    for (int f = 0; f < 2; f++)
        for (int ci = 0; ci < ag_case_count(); ci++) {
            char pair[80];
            snprintf(pair, sizeof pair, "%s:%s", forms[f], ag_case_at(ci)->name);
            flags[f * ag_case_count() + ci] = (char)harness_list_has(opt.skip_native, pair);
        }
    return flags;
}

/* --skip-native: form f, case ci is not run with native or auto. */
static int skip(int f, int ci, const char *algo)
{
    return skip_native[f * ag_case_count() + ci] && (!strcmp(algo, "native") || !strcmp(algo, "auto"));
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
        else if (OPT("forms")) opt.forms = v;
        else if (OPT("algos")) opt.algos = v;
        else if (OPT("cases")) opt.cases = v;
        else if (OPT("skip-native")) opt.skip_native = v;
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
    ag_cases_init();
    if (list_only) {
        print_list();
        ag_cases_free();
        MPI_Finalize();
        return 0;
    }
    check_names();
    skip_native = parse_skip_native();
    char **algos;
    int nalgo = harness_algorithms("allgather", opt.algos, &algos);
    if (nalgo == 0 || papcoll_algorithm_count("allgather") < 1) {
        if (world_rank == 0)
            fprintf(stderr, "no allgather algorithm to run (library lists %d; --algos=%s)\n",
                    papcoll_algorithm_count("allgather"), opt.algos ? opt.algos : "(all)");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (world_rank == 0) {
        printf("test_allgather_matrix: np=%d seed=%llu sample=%g algorithms:", world_size, opt.seed, opt.sample);
        for (int a = 0; a < nalgo; a++) printf(" %s", algos[a]);
        printf("\n");
        fflush(stdout);
    }
    harness_watchdog_init(opt.call_timeout, 0, world_rank);

    MPI_Comm comms[HARNESS_NSHAPES];
    int csize[HARNESS_NSHAPES], crank[HARNESS_NSHAPES];
    for (int s = 0; s < HARNESS_NSHAPES; s++) {
        comms[s] = harness_matrix_shape(s, create_contexts);
        MPI_Comm_set_errhandler(comms[s], MPI_ERRORS_RETURN);
        MPI_Comm_size(comms[s], &csize[s]);
        MPI_Comm_rank(comms[s], &crank[s]);
    }

    for (int f = 0; f < 2; f++) {
        if (!harness_list_has(opt.forms, forms[f])) continue;
        for (int ci = 0; ci < ag_case_count(); ci++) {
            const ag_case_t *c = ag_case_at(ci);
            if (opt.cases && !harness_list_has(opt.cases, c->name)) continue;
            for (int n = 0; n < NCOUNTS; n++) {
                if (counts[n] < opt.min_count || counts[n] > opt.max_count) continue;
                for (int arr = 0; arr < NARRIVALS; arr++)
                    for (int s = 0; s < HARNESS_NSHAPES; s++)
                        for (int inplace = 0; inplace < 2; inplace++)
                            for (int a = 0; a < nalgo; a++) {
                                if (skip(f, ci, algos[a])) {
                                    skipped++;
                                    continue;
                                }
                                combination_t m = {forms[f], algos[a], c, counts[n], arr, s, inplace};
                                run_combination(&m, comms[s], crank[s], csize[s]);
                            }
            }
        }
    }
    harness_watchdog_off();
    long totals[3], mine[3] = {calls, failures, skipped};
    MPI_Reduce(mine, totals, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("test_allgather_matrix: np=%d forms=%s algorithms=%d cases=%d shapes=%d counts=[%d,%d] arrivals=%d "
               "sample=%g seed=%llu: %ld calls (summed over processes), %ld failures; %ld combinations (summed, before "
               "sampling) skipped by --skip-native\n",
               world_size, opt.forms, nalgo, ag_case_count(), HARNESS_NSHAPES, opt.min_count, opt.max_count,
               NARRIVALS, opt.sample, opt.seed, totals[0], totals[1], totals[2]);
    for (int s = 0; s < HARNESS_NSHAPES; s++) MPI_Comm_free(&comms[s]);
    harness_list_free(algos, nalgo);
    free(skip_native);
    ag_buffers_free(&buffers);
    ag_cases_free();
    int failed = world_rank == 0 ? totals[1] != 0 : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
