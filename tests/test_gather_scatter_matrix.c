/*
 * test_gather_scatter_matrix - every gather and scatter algorithm (the
 * library's own lists, plus "auto") x both forms (papcoll_gather(v),
 * papcoll_scatter(v)) x communicator shapes x every root x counts x
 * datatype cases x MPI_IN_PLACE at the root or not x arrival, back to back
 * on the same buffers, each call checked byte for byte on every process.
 *
 * Gather: every block of the root's receive buffer, the gaps of derived
 * datatypes, the space between the v form's blocks (zero-count blocks have
 * arbitrary displacements, even inside other blocks: nothing may be written
 * there) and guard bytes around the buffer; the non-roots' receive buffers
 * untouched; every send buffer unchanged.  Scatter: every process's receive
 * buffer (its block, gaps, guards), the root's send buffer unchanged; with
 * MPI_IN_PLACE the root's receive buffer is not passed at all.
 * Counts, displacements and the datatype cases come from
 * tests/harness/gather_call.h (ag_layout, ag_cases_init: MPI_INT, MPI_DOUBLE,
 * MPI_CHAR, a gappy vector, gappy and packed structs, a send datatype other
 * than the receive datatype with the same signature): the side with one
 * block per process (gather's receive, scatter's send) uses the case's
 * receive datatype, the one-block side its send datatype.  The v form draws
 * each process's count from 0 to twice `count`, zeros included, and places
 * the blocks in a shuffled order with gaps.
 * Shapes (tests/harness/shapes.h): world, reversed, oddeven, vnodes3
 * (virtual nodes of 3 ranks, PAPCOLL_PPN), vnodes3_reversed.
 * Arrival: together, or each process delayed by a random 0..--delay-us.
 *
 * --skip-native=CASE,... names the datatype cases the MPI library itself
 * gets wrong: papcoll's "native" (which is that library's function) and
 * "auto" (which may choose it) are not run on them.  Built against MPICH
 * the default is struct_cdi2,struct_cdi2/packed_cdi2: MPICH 4.0.2's
 * MPI_Scatter and MPI_Gather of 4097 such structs with a root other than 0
 * fail with MPI_ERR_TRUNCATE or misplace bytes (a 20-line PMPI-only program
 * shows it); every papcoll algorithm gets them right.
 *
 * Sampling: each combination is kept with probability --sample x its case's
 * weight, decided by a hash of the seed and the combination's names and
 * numbers (not its position), so a failure replays with the same --seed and
 * --sample and narrower options; the replay options are printed with the
 * first failure, and the seed with every run.
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

static const int counts_list[] = {0, 1, 7, 4097};
enum { NCOUNTS = sizeof counts_list / sizeof counts_list[0], NARRIVALS = 2, GUARD = 64 };
static const char *const colls[2] = {"gather", "scatter"};

static struct {
    double sample;
    unsigned long long seed;
    int min_count, max_count, delay_us, call_timeout;
    const char *algos, *colls, *forms, *cases, *skip_native;
} opt = {1.0, 12345, 0, 4097, 500, 120, NULL, "gather,scatter", "plain,v", NULL,
#ifdef MPICH_VERSION
         "struct_cdi2,struct_cdi2/packed_cdi2"
#else
         ""
#endif
};

static int world_rank, world_size;
static long calls, failures;

static void usage(const char *prog, int code)
{
    if (world_rank == 0)
        fprintf(code ? stderr : stdout,
                "usage: %s [options]\n"
                "  --sample=F        keep each combination with probability F x its case's weight (default 1)\n"
                "  --seed=N          seed of the sampling and of the data (default 12345); printed\n"
                "  --min-count=N     smallest count of {0,1,7,4097} to run (default 0)\n"
                "  --max-count=N     largest count to run (default 4097)\n"
                "  --colls=a,b       collectives among gather,scatter (default both)\n"
                "  --forms=a,b       forms among plain,v (default both)\n"
                "  --algos=a,b       algorithm names (and auto) to run, 'x*' for a prefix (default: each\n"
                "                    collective's list + auto)\n"
                "  --cases=a,b       datatype case names (default all; --list prints them)\n"
                "  --skip-native=C,..  cases the MPI library itself gets wrong: native and auto are not run\n"
                "                    on them (default: none; built against MPICH: the struct cases)\n"
                "  --delay-us=D      largest random arrival delay of the delayed arrival (default 500)\n"
                "  --call-timeout=S  watchdog: abort with the call's description after S s (default 120)\n"
                "  --list            print the cases and the algorithms, and exit\n"
                "  --help            this text\n",
                prog);
    if (code) MPI_Abort(MPI_COMM_WORLD, code);
}

static int create_contexts(MPI_Comm comm) { return papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm); }

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* ---- buffers --------------------------------------------------------------- */

typedef struct {
    unsigned char *p;
    size_t cap;
} buf_t;
static buf_t many, many_ref, many_copy, one, one_ref, one_copy, stream;
static int *counts, *displs, *ecounts, *counts_copy, *displs_copy;

static unsigned char *reserve(buf_t *b, size_t bytes)
{
    if (bytes > b->cap) {
        free(b->p);
        b->p = malloc(bytes);
        b->cap = bytes;
        if (!b->p) {
            fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    return b->p;
}

static unsigned char sentinel(size_t i, uint64_t salt) { return (unsigned char)(0xA5 ^ (i * 31) ^ salt); }
static void fill_sentinel(unsigned char *p, size_t bytes, uint64_t salt)
{
    for (size_t i = 0; i < bytes; i++) p[i] = sentinel(i, salt);
}

/* Rank r's contribution (n elements of the case) laid out as n x factor `type` at `at`. */
static void lay_out(const ag_case_t *c, int r, int n, MPI_Datatype type, int factor, void *at, uint64_t salt)
{
    size_t bytes = (size_t)n * c->bytes;
    unsigned char *s = reserve(&stream, bytes ? bytes : 1);
    for (size_t k = 0; k < bytes; k++) s[k] = ag_data_byte(k, r, salt);
    int pos = 0;
    if (n) MPI_Unpack(s, (int)bytes, &pos, at, n * factor, type, MPI_COMM_SELF);
}

/* ---- one call ------------------------------------------------------------- */

typedef struct {
    int scatter, vform;
    const char *algo;
    const ag_case_t *c;
    int count, delayed, shape, root, inplace;
} combination_t;

static char first_problem[400];
static int problems;

static void problem(const char *what, size_t at)
{
    if (problems++) return;
    snprintf(first_problem, sizeof first_problem, "%s (byte %zu)", what, at);
}

static void compare(const unsigned char *got, const unsigned char *want, size_t bytes, const char *what)
{
    for (size_t i = 0; i < bytes; i++)
        if (got[i] != want[i]) {
            problem(what, i);
            return;
        }
}

static void run_call(const combination_t *m, MPI_Comm comm, int rank, int size, uint64_t salt)
{
    const ag_case_t *c = m->c;
    int at_root = rank == m->root, inplace = m->inplace && at_root;
    ag_call_t layout_call = {.vform = m->vform, .algo = m->algo, .c = c, .count = m->count, .comm = comm,
                             .rank = rank, .size = size, .salt = salt};
    size_t span = ag_layout(&layout_call, counts, displs); /* rext units, the many-block side */
    /* the one-block side: my count in sext units */
    int mine = counts[rank];
    size_t one_bytes = (size_t)mine * (size_t)c->sfactor * (size_t)c->sext;
    unsigned char *mb = reserve(&many, span + 2 * GUARD), *mref = reserve(&many_ref, span + 2 * GUARD);
    unsigned char *ob = reserve(&one, one_bytes + 2 * GUARD), *oref = reserve(&one_ref, one_bytes + 2 * GUARD);
    fill_sentinel(mb, span + 2 * GUARD, salt);
    fill_sentinel(ob, one_bytes + 2 * GUARD, salt ^ 0x5a);
    memcpy(mref, mb, span + 2 * GUARD);
    memcpy(oref, ob, one_bytes + 2 * GUARD);
    for (int r = 0; r < size; r++) ecounts[r] = counts[r] * c->rfactor;
    memcpy(counts_copy, ecounts, (size_t)size * sizeof(int));
    memcpy(displs_copy, displs, (size_t)size * sizeof(int));
    unsigned char *many_at = mb + GUARD, *one_at = ob + GUARD;
    int rc;
    harness_watchdog_arm();
    if (!m->scatter) {
        /* gather: my block in the one-block buffer (or, in place at the root, in its place) */
        lay_out(c, rank, mine, c->stype, c->sfactor, one_at, salt);
        lay_out(c, rank, mine, c->stype, c->sfactor, oref + GUARD, salt);
        if (at_root) {
            for (int r = 0; r < size; r++)
                lay_out(c, r, counts[r], c->rtype, c->rfactor, mref + GUARD + (size_t)displs[r] * c->rext, salt);
            if (inplace)
                lay_out(c, rank, mine, c->rtype, c->rfactor, many_at + (size_t)displs[rank] * c->rext, salt);
        }
        memcpy(reserve(&one_copy, one_bytes + 2 * GUARD), ob, one_bytes + 2 * GUARD);
        const void *sbuf = inplace ? MPI_IN_PLACE : (const void *)one_at;
        /* non-roots pass a real receive buffer and arguments: it must stay untouched */
        if (m->vform)
            rc = papcoll_gatherv_by_name(m->algo, sbuf, mine * c->sfactor, c->stype, many_at, ecounts, displs, c->rtype,
                                         m->root, comm);
        else
            rc = papcoll_gather_by_name(m->algo, sbuf, mine * c->sfactor, c->stype, many_at, m->count * c->rfactor,
                                        c->rtype, m->root, comm);
        harness_watchdog_call_done();
        compare(mb, mref, span + 2 * GUARD, at_root ? "gather: root's receive buffer" : "gather: a non-root's receive buffer");
        compare(ob, one_copy.p, one_bytes + 2 * GUARD, "gather: send buffer changed");
    } else {
        /* scatter: the root's blocks in the many-block buffer, each process's block expected in the one-block one */
        if (at_root)
            for (int r = 0; r < size; r++)
                lay_out(c, r, counts[r], c->rtype, c->rfactor, many_at + (size_t)displs[r] * c->rext, salt);
        memcpy(mref, mb, span + 2 * GUARD);
        if (!inplace) lay_out(c, rank, mine, c->stype, c->sfactor, oref + GUARD, salt);
        void *rbuf = inplace ? MPI_IN_PLACE : (void *)one_at;
        if (m->vform)
            rc = papcoll_scatterv_by_name(m->algo, many_at, ecounts, displs, c->rtype, rbuf, mine * c->sfactor, c->stype,
                                          m->root, comm);
        else
            rc = papcoll_scatter_by_name(m->algo, many_at, m->count * c->rfactor, c->rtype, rbuf, mine * c->sfactor,
                                         c->stype, m->root, comm);
        harness_watchdog_call_done();
        compare(ob, oref, one_bytes + 2 * GUARD, "scatter: receive buffer");
        compare(mb, mref, span + 2 * GUARD, at_root ? "scatter: root's send buffer changed" : "scatter: a non-root's send buffer touched");
    }
    if (memcmp(counts_copy, ecounts, (size_t)size * sizeof(int)) || memcmp(displs_copy, displs, (size_t)size * sizeof(int)))
        problem("counts or displacements changed", 0);
    if (rc != MPI_SUCCESS) problem("return code not MPI_SUCCESS", (size_t)rc);
    const char *ran = papcoll_last_algorithm();
    if (strcmp(m->algo, "auto") ? strcmp(ran, m->algo) != 0 : !harness_is_algorithm(colls[m->scatter], ran))
        problem("papcoll_last_algorithm() is not the algorithm asked for", 0);
}

static void run_combination(const combination_t *m, MPI_Comm comm, int rank, int size)
{
    uint64_t key = mix(name_hash(colls[m->scatter]) ^
                       mix(name_hash(m->algo) ^
                           mix(name_hash(m->c->name) ^
                               mix(((uint64_t)m->count << 32) ^ ((uint64_t)m->root << 16) ^ ((uint64_t)m->vform << 12) ^
                                   ((uint64_t)m->delayed << 8) ^ ((uint64_t)m->shape << 4) ^ (uint64_t)m->inplace))));
    if (!test_sampled(opt.seed, key, opt.sample * m->c->weight)) return;
    uint64_t salt = mix(key ^ (opt.seed << 20));
    long delay = m->delayed ? (long)(mix(salt ^ (uint64_t)world_rank) % (uint64_t)(opt.delay_us + 1)) : 0;
    harness_watchdog_label("%s%s algo=%s case=%s count=%d shape=%s p=%d root=%d%s arrival=%s", colls[m->scatter],
                           m->vform ? "v" : "", m->algo, m->c->name, m->count, harness_shape_names[m->shape], size,
                           m->root, m->inplace ? " in-place" : "", m->delayed ? "delayed" : "together");
    if (delay) usleep((useconds_t)delay);
    problems = 0;
    run_call(m, comm, rank, size, salt);
    calls++;
    if (!problems) return;
    if (failures++ < 10)
        fprintf(stderr, "FAIL rank %d: %s (ran %s): %s\n", world_rank, harness_watchdog_current(), papcoll_last_algorithm(),
                first_problem);
    if (failures == 1)
        fprintf(stderr, "  replay: --seed=%llu --sample=%g --colls=%s --forms=%s --algos=%s --cases=%s --min-count=%d "
                "--max-count=%d\n", opt.seed, opt.sample, colls[m->scatter], m->vform ? "v" : "plain", m->algo,
                m->c->name, m->count, m->count);
}

static void print_list(void)
{
    if (world_rank != 0) return;
    printf("cases (%d):", ag_case_count());
    for (int i = 0; i < ag_case_count(); i++) printf(" %s", ag_case_at(i)->name);
    printf("\n");
    for (int k = 0; k < 2; k++) {
        char **algos;
        int n = harness_algorithms(colls[k], NULL, &algos);
        printf("%s algorithms:", colls[k]);
        for (int a = 0; a < n; a++) printf(" %s", algos[a]);
        printf("\n");
        harness_list_free(algos, n);
    }
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
    char **names;
    int nnames = opt.cases ? harness_list_split(opt.cases, &names) : 0;
    for (int i = 0; i < nnames; i++)
        if (!ag_case_find(names[i])) {
            if (world_rank == 0) fprintf(stderr, "unknown case \"%s\" (--list prints them)\n", names[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    if (opt.cases) harness_list_free(names, nnames);
    nnames = harness_list_split(opt.skip_native, &names);
    for (int i = 0; i < nnames; i++)
        if (!ag_case_find(names[i])) {
            if (world_rank == 0) fprintf(stderr, "--skip-native: unknown case \"%s\"\n", names[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    harness_list_free(names, nnames);
    char **algos[2];
    int nalgo[2];
    for (int k = 0; k < 2; k++) {
        nalgo[k] = harness_algorithms(colls[k], opt.algos, &algos[k]);
        if (harness_list_has(opt.colls, colls[k]) && (nalgo[k] == 0 || papcoll_algorithm_count(colls[k]) < 2)) {
            if (world_rank == 0)
                fprintf(stderr, "no %s algorithm to run (library lists %d; --algos=%s)\n", colls[k],
                        papcoll_algorithm_count(colls[k]), opt.algos ? opt.algos : "(all)");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (world_rank == 0) {
        printf("test_gather_scatter_matrix: np=%d seed=%llu sample=%g skip-native=%s", world_size, opt.seed, opt.sample,
               opt.skip_native[0] ? opt.skip_native : "(none)");
        for (int k = 0; k < 2; k++) {
            printf(" %s:", colls[k]);
            for (int a = 0; a < nalgo[k]; a++) printf(" %s", algos[k][a]);
        }
        printf("\n");
        fflush(stdout);
    }
    harness_watchdog_init(opt.call_timeout, 0, world_rank);
    counts = malloc((size_t)world_size * sizeof(int));
    displs = malloc((size_t)world_size * sizeof(int));
    ecounts = malloc((size_t)world_size * sizeof(int));
    counts_copy = malloc((size_t)world_size * sizeof(int));
    displs_copy = malloc((size_t)world_size * sizeof(int));

    MPI_Comm comms[HARNESS_NSHAPES];
    int csize[HARNESS_NSHAPES], crank[HARNESS_NSHAPES];
    for (int s = 0; s < HARNESS_NSHAPES; s++) {
        comms[s] = harness_matrix_shape(s, create_contexts);
        MPI_Comm_set_errhandler(comms[s], MPI_ERRORS_RETURN);
        MPI_Comm_size(comms[s], &csize[s]);
        MPI_Comm_rank(comms[s], &crank[s]);
    }
    for (int k = 0; k < 2; k++) {
        if (!harness_list_has(opt.colls, colls[k])) continue;
        for (int vform = 0; vform < 2; vform++) {
            if (!harness_list_has(opt.forms, vform ? "v" : "plain")) continue;
            for (int ci = 0; ci < ag_case_count(); ci++) {
                const ag_case_t *c = ag_case_at(ci);
                if (opt.cases && !harness_list_has(opt.cases, c->name)) continue;
                for (int n = 0; n < NCOUNTS; n++) {
                    if (counts_list[n] < opt.min_count || counts_list[n] > opt.max_count) continue;
                    for (int arr = 0; arr < NARRIVALS; arr++)
                        for (int s = 0; s < HARNESS_NSHAPES; s++)
                            for (int root = 0; root < csize[s]; root++)
                                for (int inplace = 0; inplace < 2; inplace++)
                                    for (int a = 0; a < nalgo[k]; a++) {
                                        if (harness_list_has(opt.skip_native, c->name) &&
                                            (!strcmp(algos[k][a], "native") || !strcmp(algos[k][a], "auto")))
                                            continue;
                                        combination_t m = {k, vform, algos[k][a], c, counts_list[n], arr, s, root,
                                                           inplace};
                                        run_combination(&m, comms[s], crank[s], csize[s]);
                                    }
                }
            }
        }
    }
    harness_watchdog_off();
    long totals[2], mine[2] = {calls, failures};
    MPI_Reduce(mine, totals, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("test_gather_scatter_matrix: np=%d colls=%s forms=%s cases=%d shapes=%d counts=[%d,%d] arrivals=%d "
               "sample=%g seed=%llu: %ld calls (summed over processes), %ld failures\n",
               world_size, opt.colls, opt.forms, ag_case_count(), HARNESS_NSHAPES, opt.min_count, opt.max_count,
               NARRIVALS, opt.sample, opt.seed, totals[0], totals[1]);
    for (int s = 0; s < HARNESS_NSHAPES; s++) MPI_Comm_free(&comms[s]);
    for (int k = 0; k < 2; k++) harness_list_free(algos[k], nalgo[k]);
    free(counts);
    free(displs);
    free(ecounts);
    free(counts_copy);
    free(displs_copy);
    free(many.p), free(many_ref.p), free(many_copy.p), free(one.p), free(one_ref.p), free(one_copy.p), free(stream.p);
    ag_cases_free();
    int failed = world_rank == 0 ? totals[1] != 0 : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
