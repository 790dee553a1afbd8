/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * matrix.c - see matrix.h.
 */
#include "matrix.h"

#include "../test_random.h"
#include "lists.h"
#include "watchdog.h"

#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(const matrix_t *m, const matrix_spec_t *spec, const char *prog, int code)
{
    if (m->world_rank == 0) {
        FILE *out = code ? stderr : stdout;
        fprintf(out,
                "usage: %s [options]\n"
                "  --sample=F        keep each combination with probability F x its case's weight (default 1)\n"
                "  --seed=N          seed of the sampling and of the data (default 12345); printed\n"
                "  --min-count=N     smallest count of {",
                prog);
        for (int n = 0; n < spec->ncounts; n++) fprintf(out, "%s%d", n ? "," : "", spec->counts[n]);
        fprintf(out,
                "} to run (default 0)\n"
                "  --max-count=N     largest count to run (default %d)\n"
                "%s"
                "  --delay-us=D      largest random arrival delay of the delayed arrival (default %d)\n"
                "  --call-timeout=S  watchdog: abort with the call's description after S s (default 120)\n"
                "  --list            print the cases and the algorithms, and exit\n"
                "  --help            this text\n",
                spec->counts[spec->ncounts - 1], spec->help, spec->delay_us);
    }
    if (code) MPI_Abort(MPI_COMM_WORLD, code);
}

void matrix_init(matrix_t *m, const matrix_spec_t *spec, int argc, char **argv)
{
    memset(m, 0, sizeof *m);
    m->spec = spec;
    MPI_Comm_rank(MPI_COMM_WORLD, &m->world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->world_size);
    matrix_options_t *o = &m->opt;
    *o = (matrix_options_t){.sample = 1.0, .seed = 12345, .max_count = spec->counts[spec->ncounts - 1],
                            .delay_us = spec->delay_us, .call_timeout = 120};
    const harness_opt_t common[] = {
        {"sample", HARNESS_OPT_DOUBLE, &o->sample},         {"seed", HARNESS_OPT_ULL, &o->seed},
        {"min-count", HARNESS_OPT_INT, &o->min_count},      {"max-count", HARNESS_OPT_INT, &o->max_count},
        {"algos", HARNESS_OPT_STRING, &o->algos},           {"cases", HARNESS_OPT_STRING, &o->cases},
        {"delay-us", HARNESS_OPT_INT, &o->delay_us},        {"call-timeout", HARNESS_OPT_INT, &o->call_timeout},
        {NULL, HARNESS_OPT_STRING, NULL}};
    int list = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--list")) list = 1;
        else if (!strcmp(a, "--help")) {
            usage(m, spec, argv[0], 0);
            MPI_Finalize();
            exit(0);
        } else if (!harness_option_set(common, a) && !(spec->own && harness_option_set(spec->own, a)))
            usage(m, spec, argv[0], 2);
    }
    /* PAPCOLL_TEST_SAMPLE_SCALE multiplies --sample: `make test-exhaustive`
     * sets it large enough to keep every combination. */
    const char *scale = getenv("PAPCOLL_TEST_SAMPLE_SCALE");
    if (scale && *scale) o->sample *= strtod(scale, NULL);
    spec->cases_init();
    if (list) {
        if (m->world_rank == 0) spec->list();
        MPI_Finalize();
        exit(0);
    }
    harness_list_require(o->cases, spec->known_case, "unknown case ", " (--list prints them)");
}

int matrix_count_selected(const matrix_t *m, int count)
{
    return count >= m->opt.min_count && count <= m->opt.max_count;
}

void matrix_run(const matrix_t *m, const matrix_loops_t *l)
{
    matrix_point_t p;
    for (p.group = 0; p.group < l->ngroups; p.group++) {
        if (!l->group_selected(p.group)) continue;
        for (p.case_index = 0; p.case_index < l->ncases; p.case_index++) {
            if (m->opt.cases && !harness_list_has(m->opt.cases, l->case_name(p.case_index))) continue;
            for (int n = 0; n < m->spec->ncounts; n++) {
                p.count = m->spec->counts[n];
                if (!matrix_count_selected(m, p.count)) continue;
                for (p.delayed = 0; p.delayed < MATRIX_NARRIVALS; p.delayed++)
                    for (p.shape = 0; p.shape < HARNESS_NSHAPES; p.shape++) {
                        int roots = l->roots ? l->roots(p.group, p.shape) : 1;
                        for (p.root = 0; p.root < roots; p.root++)
                            for (p.inplace = 0; p.inplace < 2; p.inplace++)
                                for (p.algo = 0; p.algo < l->algos(p.group); p.algo++) l->run(&p);
                    }
            }
        }
    }
}

int matrix_algorithms(const matrix_t *m, const char *collective, int min_library, char ***out)
{
    int n = harness_algorithms(collective, m->opt.algos, out);
    if (min_library > 0 && (n == 0 || papcoll_algorithm_count(collective) < min_library)) {
        if (m->world_rank == 0)
            fprintf(stderr, "no %s algorithm to run (library lists %d; --algos=%s)\n", collective,
                    papcoll_algorithm_count(collective), m->opt.algos ? m->opt.algos : "(all)");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return n;
}

void matrix_banner(const matrix_t *m, const char *test, char **algos, int nalgo)
{
    if (m->world_rank != 0) return;
    printf("%s: np=%d seed=%llu sample=%g algorithms:", test, m->world_size, m->opt.seed, m->opt.sample);
    for (int a = 0; a < nalgo; a++) printf(" %s", algos[a]);
    printf("\n");
    fflush(stdout);
}

/* FNV-1a of a string. */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

uint64_t matrix_key(const char *collective, const char *algo, const char *case_name, uint64_t numbers)
{
    return mix(name_hash(collective) ^ mix(name_hash(algo) ^ mix(name_hash(case_name) ^ mix(numbers))));
}

uint64_t matrix_numbers(int count, int delayed, int shape, int root_index, int inplace)
{
    return ((uint64_t)count << 24) ^ ((uint64_t)delayed << 20) ^ ((uint64_t)shape << 16) ^
           ((uint64_t)root_index << 1) ^ (uint64_t)inplace;
}

int matrix_draw(const matrix_t *m, uint64_t key, int weight, int delayed, uint64_t *salt)
{
    if (!test_sampled(m->opt.seed, key, m->opt.sample * weight)) return 0;
    *salt = mix(key ^ (m->opt.seed << 20));
    long delay = delayed ? (long)(mix(*salt ^ (uint64_t)m->world_rank) % (uint64_t)(m->opt.delay_us + 1)) : 0;
    if (delay) usleep((useconds_t)delay);
    return 1;
}

int matrix_point_drawn(const matrix_t *m, const matrix_point_t *p, const char *group, const char *algo,
                       const char *case_name, int weight, uint64_t *salt)
{
    uint64_t numbers = matrix_numbers(p->count, p->delayed, p->shape, p->root, p->inplace);
    return matrix_draw(m, matrix_key(group, algo, case_name, numbers), weight, p->delayed, salt);
}

void matrix_label(const char *what, const char *algo, const char *case_name, int count, int shape, int size, int root,
                  int inplace, int delayed)
{
    char at_root[24] = "";
    if (root >= 0) snprintf(at_root, sizeof at_root, " root=%d", root);
    harness_watchdog_label("%s algo=%s case=%s count=%d shape=%s p=%d%s%s arrival=%s", what, algo, case_name, count,
                           harness_shape_names[shape], size, at_root, inplace ? " in-place" : "",
                           delayed ? "delayed" : "together");
}

void matrix_report(matrix_t *m, int problems, const char *ran, int rc, const char *first, const char *selection,
                   const char *algo, const char *case_name, int count)
{
    m->calls++;
    if (!problems) return;
    if (m->failures++ < 10)
        fprintf(stderr, "FAIL rank %d: %s (ran %s, rc %d): %s\n", m->world_rank, harness_watchdog_current(), ran, rc,
                first);
    if (m->failures == 1)
        fprintf(stderr, "  replay: --seed=%llu --sample=%g %s --algos=%s --cases=%s --min-count=%d --max-count=%d\n",
                m->opt.seed, m->opt.sample, selection, algo, case_name, count, count);
}

void matrix_totals(const matrix_t *m, long totals[4])
{
    totals[0] = m->calls, totals[1] = m->failures, totals[2] = m->refused, totals[3] = m->skipped;
    matrix_sum_at_root(totals, 4);
    if (m->world_rank != 0) memset(totals, 0, 4 * sizeof *totals);
}

void matrix_forms_summary(const matrix_t *m, const char *test, const char *forms, int nalgo, int ncases,
                          const long totals[4], const char *why_skipped)
{
    if (m->world_rank != 0) return;
    printf("%s: np=%d forms=%s algorithms=%d cases=%d shapes=%d counts=[%d,%d] arrivals=%d sample=%g seed=%llu: %ld "
           "calls (summed over processes), %ld failures; %ld combinations (summed, before sampling) skipped %s\n",
           test, m->world_size, forms, nalgo, ncases, HARNESS_NSHAPES, m->opt.min_count, m->opt.max_count,
           MATRIX_NARRIVALS, m->opt.sample, m->opt.seed, totals[0], totals[1], totals[3], why_skipped);
}

void matrix_sum_at_root(long *values, int n)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : values, values, n, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
}

int matrix_finalize(int failed_at_root)
{
    int rank, failed;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    failed = rank == 0 ? failed_at_root != 0 : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
