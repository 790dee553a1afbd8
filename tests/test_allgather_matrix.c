/* SPDX-License-Identifier: BSD-3-Clause */
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
#include "harness/matrix.h"
#include "harness/shapes.h"
#include "harness/watchdog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int counts[] = {0, 1, 7, 4097, 65537};
enum { NCOUNTS = sizeof counts / sizeof counts[0] };
static const char *const forms[2] = {"allgather", "allgatherv"};

static const char *forms_opt = "allgather,allgatherv", *skip_native_opt = ""; /* --forms, --skip-native */
static const harness_opt_t own_options[] = {
    {"forms", HARNESS_OPT_STRING, &forms_opt}, {"skip-native", HARNESS_OPT_STRING, &skip_native_opt}, {NULL}};
static void print_list(void);
static int known_case(const char *name);
static const matrix_spec_t spec = {
    counts, NCOUNTS, 1000,
    "  --forms=a,b       forms among allgather,allgatherv (default both)\n"
    "  --algos=a,b       algorithm names (and auto) to run, 'x*' for a prefix (default: the library's\n"
    "                    list + auto)\n"
    "  --cases=a,b       datatype case names, e.g. MPI_INT,struct_cdi2/packed_cdi2 (default all)\n"
    "  --skip-native=F:C,...  form:case pairs the MPI library itself gets wrong: native and auto\n"
    "                    are not run on them, e.g. allgather:MPI_INTx4/contig4 (default none)\n",
    own_options, ag_cases_init, print_list, known_case};

static matrix_t m;
static harness_matrix_shapes_t shapes;
static char **algos;
static int nalgo;
static ag_buffers_t buffers;
static char *skip_native; /* [form][case]: --skip-native */

/* Count-0 calls while PAPCOLL_PPN is set build the communicator's context. */
static int create_contexts(MPI_Comm comm)
{
    int rc = papcoll_bcast(NULL, 0, MPI_BYTE, 0, comm);
    if (rc == MPI_SUCCESS) rc = papcoll_allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm);
    return rc;
}

static int known_case(const char *name) { return ag_case_find(name) != NULL; }
/* --list (rank 0) */
static void print_list(void)
{
    ag_cases_print();
    harness_print_algorithms("allgather");
}
static int known_form(const char *name) { return !strcmp(name, forms[0]) || !strcmp(name, forms[1]); }
/* A --skip-native word: FORM:CASE. */
static int known_pair(const char *word)
{
    const char *colon = strchr(word, ':');
    return colon && ag_case_find(colon + 1) && (!strncmp(word, "allgather:", 10) || !strncmp(word, "allgatherv:", 11));
}

/* --skip-native: form f, case ci is not run with native or auto. */
static int skip(int f, int ci, const char *algo)
{
    return skip_native[f * ag_case_count() + ci] && (!strcmp(algo, "native") || !strcmp(algo, "auto"));
}

/* Runs point p of the matrix if the sample draws it, and reports problems. */
static void run_combination(const matrix_point_t *p)
{
    const char *form = forms[p->group], *algo = algos[p->algo];
    const ag_case_t *c = ag_case_at(p->case_index);
    const int s = p->shape;
    if (skip(p->group, p->case_index, algo)) {
        m.skipped++;
        return;
    }
    uint64_t salt;
    if (!matrix_point_drawn(&m, p, form, algo, c->name, c->weight, &salt)) return;
    ag_call_t call = {.vform = p->group, .algo = algo, .c = c, .count = p->count, .inplace = p->inplace,
                      .comm = shapes.comm[s], .rank = shapes.rank[s], .size = shapes.size[s], .salt = salt};
    matrix_label(form, algo, c->name, call.count, s, call.size, -1, p->inplace, p->delayed);
    ag_result_t res;
    ag_call_checked(&call, &buffers, &res);
    char selection[64];
    snprintf(selection, sizeof selection, "--forms=%s", form);
    matrix_report(&m, res.problems, res.ran, res.rc, res.first, selection, algo, c->name, call.count);
}

static int form_selected(int f) { return harness_list_has(forms_opt, forms[f]); }
static const char *case_name(int ci) { return ag_case_at(ci)->name; }
static int algorithms(int f) { return (void)f, nalgo; }

/* --skip-native as [form][case] flags. */
static char *parse_skip_native(void)
{
    char *flags = calloc((size_t)2 * (size_t)ag_case_count(), 1);
    for (int f = 0; f < 2; f++)
        for (int ci = 0; ci < ag_case_count(); ci++) {
            char pair[80];
            snprintf(pair, sizeof pair, "%s:%s", forms[f], ag_case_at(ci)->name);
            flags[f * ag_case_count() + ci] = (char)harness_list_has(skip_native_opt, pair);
        }
    return flags;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    matrix_init(&m, &spec, argc, argv);
    harness_list_require(forms_opt, known_form, "unknown form ", " (allgather, allgatherv)");
    harness_list_require(skip_native_opt, known_pair, "--skip-native: ", " is not FORM:CASE");
    skip_native = parse_skip_native();
    nalgo = matrix_algorithms(&m, "allgather", 1, &algos);
    matrix_banner(&m, "test_allgather_matrix", algos, nalgo);
    harness_watchdog_init(m.opt.call_timeout, 0, m.world_rank);
    harness_matrix_shapes_init(&shapes, create_contexts, 1);
    const matrix_loops_t loops = {2, form_selected, ag_case_count(), case_name, NULL, algorithms, run_combination};
    matrix_run(&m, &loops);
    harness_watchdog_off();
    long totals[4];
    matrix_totals(&m, totals);
    matrix_forms_summary(&m, "test_allgather_matrix", forms_opt, nalgo, ag_case_count(), totals, "by --skip-native");
    harness_matrix_shapes_free(&shapes);
    harness_list_free(algos, nalgo);
    free(skip_native);
    ag_buffers_free(&buffers);
    ag_cases_free();
    return matrix_finalize(totals[1] != 0);
}
