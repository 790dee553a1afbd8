/* SPDX-License-Identifier: BSD-3-Clause */
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

#include "harness/buffers.h"
#include "harness/gather_call.h"
#include "harness/lists.h"
#include "harness/matrix.h"
#include "harness/shapes.h"
#include "harness/watchdog.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int counts_list[] = {0, 1, 7, 4097};
enum { NCOUNTS = sizeof counts_list / sizeof counts_list[0], GUARD = HARNESS_GUARD };
static const char *const colls[2] = {"gather", "scatter"};

/* --colls, --forms, --skip-native */
static const char *colls_opt = "gather,scatter", *forms_opt = "plain,v", *skip_native_opt =
#ifdef MPICH_VERSION
    "struct_cdi2,struct_cdi2/packed_cdi2";
#else
    "";
#endif
static const harness_opt_t own_options[] = {{"colls", HARNESS_OPT_STRING, &colls_opt},
                                            {"forms", HARNESS_OPT_STRING, &forms_opt},
                                            {"skip-native", HARNESS_OPT_STRING, &skip_native_opt},
                                            {NULL}};
static void print_list(void);
static int known_case(const char *name);
static const matrix_spec_t spec = {
    counts_list, NCOUNTS, 500,
    "  --colls=a,b       collectives among gather,scatter (default both)\n"
    "  --forms=a,b       forms among plain,v (default both)\n"
    "  --algos=a,b       algorithm names (and auto) to run, 'x*' for a prefix (default: each\n"
    "                    collective's list + auto)\n"
    "  --cases=a,b       datatype case names (default all; --list prints them)\n"
    "  --skip-native=C,..  cases the MPI library itself gets wrong: native and auto are not run\n"
    "                    on them (default: none; built against MPICH: the struct cases)\n",
    own_options, ag_cases_init, print_list, known_case};

static matrix_t m;
static harness_matrix_shapes_t shapes;
static char **algos[2];
static int nalgo[2];

static int create_contexts(MPI_Comm comm) { return papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm); }

static int known_case(const char *name) { return ag_case_find(name) != NULL; }

/* ---- buffers --------------------------------------------------------------- */

typedef struct {
    unsigned char *p;
    size_t cap;
} buf_t;
static buf_t many, many_ref, many_copy, one, one_ref, one_copy, stream;
static int *counts, *displs, *ecounts, *counts_copy, *displs_copy;

static unsigned char *reserve(buf_t *b, size_t bytes)
{
    harness_reserve(&b->p, &b->cap, bytes);
    return b->p;
}

/* Not harness_pattern_byte: that would equal rank 0's data (ag_data_byte) at the same offsets. */
static unsigned char sentinel(size_t i, uint64_t salt) { return (unsigned char)(0xA5 ^ (i * 31) ^ salt); }
static void fill_sentinel(unsigned char *p, size_t bytes, uint64_t salt)
{
    for (size_t i = 0; i < bytes; i++) p[i] = sentinel(i, salt);
}

/* Rank r's contribution (n elements of the case) laid out as n x factor `type` at `at`. */
static void lay_out(const ag_case_t *c, int r, int n, MPI_Datatype type, int factor, void *at, uint64_t salt)
{
    ag_lay_out(&stream.p, &stream.cap, c, r, n, type, factor, salt, at);
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
    harness_problem(&problems, first_problem, sizeof first_problem, "%s (byte %zu)", what, at);
}

static void compare(const unsigned char *got, const unsigned char *want, size_t bytes, const char *what)
{
    size_t at;
    if (harness_differences(got, want, bytes, &at)) problem(what, at);
}

/* Returns the call's return code. */
static int run_call(const combination_t *cm, MPI_Comm comm, int rank, int size, uint64_t salt)
{
    const ag_case_t *c = cm->c;
    int at_root = rank == cm->root, inplace = cm->inplace && at_root;
    ag_call_t layout_call = {.vform = cm->vform, .algo = cm->algo, .c = c, .count = cm->count, .comm = comm,
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
    if (!cm->scatter) {
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
        if (cm->vform)
            rc = papcoll_gatherv_by_name(cm->algo, sbuf, mine * c->sfactor, c->stype, many_at, ecounts, displs, c->rtype,
                                         cm->root, comm);
        else
            rc = papcoll_gather_by_name(cm->algo, sbuf, mine * c->sfactor, c->stype, many_at, cm->count * c->rfactor,
                                        c->rtype, cm->root, comm);
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
        if (cm->vform)
            rc = papcoll_scatterv_by_name(cm->algo, many_at, ecounts, displs, c->rtype, rbuf, mine * c->sfactor, c->stype,
                                          cm->root, comm);
        else
            rc = papcoll_scatter_by_name(cm->algo, many_at, cm->count * c->rfactor, c->rtype, rbuf, mine * c->sfactor,
                                         c->stype, cm->root, comm);
        harness_watchdog_call_done();
        compare(ob, oref, one_bytes + 2 * GUARD, "scatter: receive buffer");
        compare(mb, mref, span + 2 * GUARD, at_root ? "scatter: root's send buffer changed" : "scatter: a non-root's send buffer touched");
    }
    if (memcmp(counts_copy, ecounts, (size_t)size * sizeof(int)) || memcmp(displs_copy, displs, (size_t)size * sizeof(int)))
        problem("counts or displacements changed", 0);
    if (rc != MPI_SUCCESS) problem("return code not MPI_SUCCESS", (size_t)rc);
    const char *ran = papcoll_last_algorithm();
    if (strcmp(cm->algo, "auto") ? strcmp(ran, cm->algo) != 0 : !harness_is_algorithm(colls[cm->scatter], ran))
        problem("papcoll_last_algorithm() is not the algorithm asked for", 0);
    return rc;
}

/* Runs point p of the matrix (group: collective x 2 + form) if the sample
 * draws it, and reports problems. */
static void run_combination(const matrix_point_t *p)
{
    const int k = p->group / 2, s = p->shape, size = shapes.size[s];
    const combination_t c = {k, p->group % 2, algos[k][p->algo], ag_case_at(p->case_index), p->count, p->delayed,
                             s, p->root, p->inplace};
    if (harness_list_has(skip_native_opt, c.c->name) && (!strcmp(c.algo, "native") || !strcmp(c.algo, "auto")))
        return;
    uint64_t salt;
    uint64_t key = matrix_key(colls[k], c.algo, c.c->name,
                              ((uint64_t)c.count << 32) ^ ((uint64_t)c.root << 16) ^ ((uint64_t)c.vform << 12) ^
                                  ((uint64_t)c.delayed << 8) ^ ((uint64_t)s << 4) ^ (uint64_t)c.inplace);
    if (!matrix_draw(&m, key, c.c->weight, p->delayed, &salt)) return;
    char what[16];
    snprintf(what, sizeof what, "%s%s", colls[k], c.vform ? "v" : "");
    matrix_label(what, c.algo, c.c->name, c.count, s, size, c.root, c.inplace, c.delayed);
    problems = 0;
    int rc = run_call(&c, shapes.comm[s], shapes.rank[s], size, salt);
    char selection[64];
    snprintf(selection, sizeof selection, "--colls=%s --forms=%s", colls[k], c.vform ? "v" : "plain");
    matrix_report(&m, problems, papcoll_last_algorithm(), rc, first_problem, selection, c.algo, c.c->name, c.count);
}

static int group_selected(int g)
{
    return harness_list_has(colls_opt, colls[g / 2]) && harness_list_has(forms_opt, g % 2 ? "v" : "plain");
}
static const char *case_name(int ci) { return ag_case_at(ci)->name; }
static int roots(int g, int shape) { return (void)g, shapes.size[shape]; }
static int algorithms(int g) { return nalgo[g / 2]; }

/* --list (rank 0) */
static void print_list(void)
{
    printf("cases (%d):", ag_case_count());
    for (int i = 0; i < ag_case_count(); i++) printf(" %s", ag_case_at(i)->name);
    printf("\n");
    for (int k = 0; k < 2; k++) harness_print_algorithms(colls[k]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    matrix_init(&m, &spec, argc, argv);
    harness_list_require(skip_native_opt, known_case, "--skip-native: unknown case ", "");
    for (int k = 0; k < 2; k++)
        nalgo[k] = matrix_algorithms(&m, colls[k], harness_list_has(colls_opt, colls[k]) ? 2 : 0, &algos[k]);
    if (m.world_rank == 0) {
        printf("test_gather_scatter_matrix: np=%d seed=%llu sample=%g skip-native=%s", m.world_size, m.opt.seed,
               m.opt.sample, skip_native_opt[0] ? skip_native_opt : "(none)");
        for (int k = 0; k < 2; k++) {
            printf(" %s:", colls[k]);
            for (int a = 0; a < nalgo[k]; a++) printf(" %s", algos[k][a]);
        }
        printf("\n");
        fflush(stdout);
    }
    harness_watchdog_init(m.opt.call_timeout, 0, m.world_rank);
    int **arrays[] = {&counts, &displs, &ecounts, &counts_copy, &displs_copy};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        *arrays[i] = harness_grow(NULL, (size_t)m.world_size * sizeof(int));
    harness_matrix_shapes_init(&shapes, create_contexts, 1);
    const matrix_loops_t loops = {4, group_selected, ag_case_count(), case_name, roots, algorithms, run_combination};
    matrix_run(&m, &loops);
    harness_watchdog_off();
    long totals[4];
    matrix_totals(&m, totals);
    if (m.world_rank == 0)
        printf("test_gather_scatter_matrix: np=%d colls=%s forms=%s cases=%d shapes=%d counts=[%d,%d] arrivals=%d "
               "sample=%g seed=%llu: %ld calls (summed over processes), %ld failures\n",
               m.world_size, colls_opt, forms_opt, ag_case_count(), HARNESS_NSHAPES, m.opt.min_count, m.opt.max_count,
               MATRIX_NARRIVALS, m.opt.sample, m.opt.seed, totals[0], totals[1]);
    harness_matrix_shapes_free(&shapes);
    for (int k = 0; k < 2; k++) harness_list_free(algos[k], nalgo[k]);
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(*arrays[i]);
    buf_t *bufs[] = {&many, &many_ref, &many_copy, &one, &one_ref, &one_copy, &stream};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) free(bufs[i]->p);
    ag_cases_free();
    return matrix_finalize(totals[1] != 0);
}
