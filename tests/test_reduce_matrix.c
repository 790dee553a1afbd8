/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_reduce_matrix - every reduce, allreduce, reduce_scatter, scan and
 * exscan algorithm (the library's own lists, plus "auto") x communicator
 * shapes x every root (reduce) or both forms (reduce_scatter:
 * MPI_Reduce_scatter with unequal blocks, some empty, and
 * MPI_Reduce_scatter_block) x counts x
 * (datatype, operation) cases x MPI_IN_PLACE or not x arrival, back to back
 * on the same buffers, each call checked (tests/harness/reduce_call.h):
 * exact results in rank order (a tolerance only for the inexact
 * floating-point cases), gaps and guard bytes untouched, send buffers
 * unchanged, non-roots' receive buffers untouched or NULL (exscan: rank 0's,
 * in place too), each rank's prefix (scan, exscan), the algorithm that
 * ran, and MPI_ERR_OP from algorithms forced on an operation they do not take
 * (non-commutative or user-defined) while "auto" runs it.
 *
 * Shapes: world, reversed, oddeven, vnodes3 (virtual nodes of 3 ranks),
 * vnodes3_reversed (tests/harness/shapes.h).  Cases: every predefined
 * operation on every datatype MPI allows it on, a gappy derived datatype, a
 * commutative and a non-commutative user operation, and MPI_CHAR (outside
 * MPI's list, taken by the libraries: checked against their own
 * PMPI_Allreduce, run only when --cases names them)
 * (tests/harness/reduce_cases.h; --list prints them).  Arrival: together, or
 * each process delayed by a random 0..--delay-us (per call and rank).
 *
 * native is run everywhere: where the MPI library itself is wrong (MPICH
 * 4.0.2's MPI_Reduce_scatter_block with a non-commutative op on a gappy
 * type, SimGrid SMPI's MPI_Scan and MPI_Exscan with a non-commutative op)
 * papcoll's `native` takes another route (reduce_scatter.c, scan_native.c),
 * since adaptive selection runs `native` first.
 *
 * Sampling: each combination is kept with probability --sample x its case's
 * weight (user operations and derived datatypes 4, inexact cases 2), decided
 * by a hash of the seed and the combination itself (not its position), so a
 * failure replays with the same --seed and --sample and narrower
 * --colls/--algos/--cases/--min-count/--max-count; the replay options are
 * printed with the first failure.  reduce clairvoyant keeps a third of its
 * draws (binomial's engine on another tree; its own test is
 * test_reduce_clairvoyant).
 */
#include <papcoll.h>

#include "harness/lists.h"
#include "harness/matrix.h"
#include "harness/reduce_call.h"
#include "harness/reduce_cases.h"
#include "harness/shapes.h"
#include "harness/watchdog.h"

#include <stdio.h>
#include <string.h>

static const int counts[] = {0, 1, 7, 4097, 262147};
enum { NCOUNTS = sizeof counts / sizeof counts[0], NCOLLS = 5 };
static const char *const collectives[NCOLLS] = {"reduce", "allreduce", "reduce_scatter", "scan", "exscan"};
/* the library's collective (papcoll_algorithm_count): scan and exscan are one */
static const char *const catalogue[NCOLLS] = {"reduce", "allreduce", "reduce_scatter", "scan", "scan"};

static const char *colls = "reduce,allreduce,reduce_scatter"; /* --colls (scan,exscan: only when named) */
static const harness_opt_t own_options[] = {{"colls", HARNESS_OPT_STRING, &colls}, {NULL, HARNESS_OPT_STRING, NULL}};
static void print_list(void);
static int known_case(const char *name);
static const matrix_spec_t spec = {
    counts, NCOUNTS, 1000,
    "  --colls=a,b       collectives among reduce,allreduce,reduce_scatter,scan,exscan\n"
    "                    (default reduce,allreduce,reduce_scatter)\n"
    "  --algos=a,b       algorithm names (and auto) to run (default: the library's lists + auto)\n"
    "  --cases=a,b       case names, e.g. MPI_INT/MPI_SUM,mat2x2/user_noncommutative (default all)\n",
    own_options, rc_cases_init, print_list, known_case};

static matrix_t m;
static harness_matrix_shapes_t shapes;
static char **algos[NCOLLS];
static int nalgo[NCOLLS];
static rc_buffers_t buffers;

/* Count-0 calls while PAPCOLL_PPN is set build the contexts of every collective. */
static int create_contexts(MPI_Comm comm)
{
    int in = 0, out = 0, rc = papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_reduce(&in, &out, 0, MPI_INT, MPI_SUM, 0, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_allreduce(&in, &out, 0, MPI_INT, MPI_SUM, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_reduce_scatter_block(&in, &out, 0, MPI_INT, MPI_SUM, comm);
    return rc;
}

static int known_case(const char *name) { return rc_case_find(name) != NULL; }

/* --list (rank 0) */
static void print_list(void)
{
    printf("cases (%d):\n", rc_case_count());
    for (int i = 0; i < rc_case_count(); i++) {
        const rc_case_t *c = rc_case_at(i);
        printf("  %-40s extent %2ld%s%s%s weight %d\n", c->name, (long)c->extent, c->commutative ? "" : " non-commutative",
               c->predefined ? "" : " user-op", c->gaps ? " gaps" : "", c->weight);
    }
    for (int k = 0; k < NCOLLS - 1; k++) harness_print_algorithms(catalogue[k]);
}

/* Runs point p of the matrix if the sample draws it, and reports problems.
 * Its root: every root of reduce (p->root % size), the form of
 * reduce_scatter (1: MPI_Reduce_scatter_block). */
static void run_combination(const matrix_point_t *p)
{
    const char *collective = collectives[p->group], *algo = algos[p->group][p->algo];
    const rc_case_t *c = rc_case_at(p->case_index);
    const int s = p->shape, size = shapes.size[s];
    uint64_t salt;
    /* weight 0 (MPI_CHAR): only when --cases names it, as it does to get here with --cases */
    int weight = c->weight ? c->weight : m.opt.cases != NULL;
    if (!matrix_point_drawn(&m, p, collective, algo, c->name, weight, &salt)) return;
    /* reduce clairvoyant is binomial's tree engine on another tree: a third of its draws (the test budget);
     * its own logic has test_reduce_clairvoyant */
    if (!strcmp(algo, "clairvoyant") && salt % 3) return;
    int is_rs = p->group == 2;
    rc_call_t call = {.collective = collective, .algo = algo, .c = c, .count = p->count,
                      .root = p->group == 0 ? p->root % size : 0, .inplace = p->inplace,
                      .null_recv = p->group == 0 && (int)(salt >> 63),
                      .comm = shapes.comm[s], .rank = shapes.rank[s], .size = size, .salt = salt,
                      .block_form = is_rs && p->root};
    char what[32];
    snprintf(what, sizeof what, "%s%s", collective, call.block_form ? "_block" : "");
    matrix_label(what, algo, c->name, call.count, s, size, call.root, p->inplace, p->delayed);
    rc_result_t res;
    rc_call_checked(&call, &buffers, &res);
    m.refused += res.refused;
    char selection[64];
    snprintf(selection, sizeof selection, "--colls=%s", collective);
    matrix_report(&m, res.problems, res.ran, res.rc, res.first, selection, algo, c->name, call.count);
}

static int coll_selected(int k) { return harness_list_has(colls, collectives[k]); }
static const char *case_name(int ci) { return rc_case_at(ci)->name; }
/* reduce: every root (of the largest shape); reduce_scatter: both forms */
static int roots(int k, int shape) { return (void)shape, k == 0 ? shapes.max_size : k == 2 ? 2 : 1; }
static int algorithms(int k) { return nalgo[k]; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    matrix_init(&m, &spec, argc, argv);
    harness_watchdog_init(m.opt.call_timeout, 0, m.world_rank);

    for (int k = 0; k < NCOLLS; k++) nalgo[k] = matrix_algorithms(&m, catalogue[k], 0, &algos[k]);
    harness_matrix_shapes_init(&shapes, create_contexts, 1);
    const matrix_loops_t loops = {NCOLLS, coll_selected, rc_case_count(), case_name, roots, algorithms,
                                  run_combination};
    matrix_run(&m, &loops);
    harness_watchdog_off();
    long totals[4];
    matrix_totals(&m, totals);
    if (m.world_rank == 0)
        printf("test_reduce_matrix: np=%d colls=%s algorithms reduce=%d allreduce=%d reduce_scatter=%d scan=%d cases=%d "
               "shapes=%d counts=[%d,%d] arrivals=%d sample=%g seed=%llu: %ld calls (summed over processes), %ld refused "
               "with MPI_ERR_OP as expected, %ld failures\n",
               m.world_size, colls, nalgo[0], nalgo[1], nalgo[2], nalgo[3], rc_case_count(), HARNESS_NSHAPES,
               m.opt.min_count, m.opt.max_count, MATRIX_NARRIVALS, m.opt.sample, m.opt.seed, totals[0], totals[2], totals[1]);
    harness_matrix_shapes_free(&shapes);
    for (int k = 0; k < NCOLLS; k++) harness_list_free(algos[k], nalgo[k]);
    rc_buffers_free(&buffers);
    rc_cases_free();
    return matrix_finalize(totals[1] != 0);
}
