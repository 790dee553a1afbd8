/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * matrix.h - the driver pieces the matrix tests share (test_reduce_matrix,
 * test_allgather_matrix, test_alltoall_matrix, test_gather_scatter_matrix):
 * their common options and --help lines, the walk over the matrix
 * (matrix_run: the test gives its lists and runs each point), the seeded
 * sampling of combinations, the arrival delay, the watchdog label, the
 * failure report with the options that replay it, and the closing sums and
 * exit code.
 *
 * Sampling: a combination is drawn with probability --sample x its weight,
 * decided by a key hashed from its names (collective or form, algorithm,
 * case) and numbers, never from its position in the loops, so that
 * narrower options (--algos, --cases, counts...) draw the same
 * combinations: a failure replays with the same --seed and --sample.
 */
#ifndef PC_HARNESS_MATRIX_H
#define PC_HARNESS_MATRIX_H

#include "options.h"
#include "shapes.h"

#include <mpi.h>
#include <stdint.h>

/* Arrivals of every combination: together, delayed. */
enum { MATRIX_NARRIVALS = 2 };

/* The options every matrix test takes. */
typedef struct {
    double sample;            /* --sample (default 1) */
    unsigned long long seed;  /* --seed (default 12345) */
    int min_count, max_count; /* --min-count, --max-count (default: all the counts) */
    int delay_us;             /* --delay-us */
    int call_timeout;         /* --call-timeout (default 120) */
    const char *algos;        /* --algos (NULL: the library's lists + auto) */
    const char *cases;        /* --cases (NULL: all) */
} matrix_options_t;

/* What a test tells matrix_init about itself. */
typedef struct {
    const int *counts;        /* the counts of the matrix, increasing */
    int ncounts;
    int delay_us;             /* --delay-us's default */
    const char *help;         /* --help lines of --algos, --cases and the test's own options */
    const harness_opt_t *own; /* the test's own options (--colls, --forms...), ending with {NULL} */
    int (*cases_init)(void);  /* builds the cases (after the options: --help builds none) */
    void (*list)(void);       /* --list: prints the cases and the algorithms (called on rank 0) */
    int (*known_case)(const char *name); /* 1 when a case of that name exists */
} matrix_spec_t;

typedef struct {
    matrix_options_t opt;
    const matrix_spec_t *spec;
    int world_rank, world_size;
    long calls, failures, refused, skipped; /* this process's tallies */
} matrix_t;

/* After MPI_Init: parses the options, then builds the cases.  --help prints
 * the usage on rank 0, --list the cases and algorithms, then both finalize
 * MPI and exit 0; an unknown option prints the usage to stderr and aborts
 * the job with code 2, an unknown case in --cases too (with its name). */
void matrix_init(matrix_t *m, const matrix_spec_t *spec, int argc, char **argv);

/* 1 when count lies within --min-count and --max-count. */
int matrix_count_selected(const matrix_t *m, int count);

/* One point of the matrix: indices into the test's lists. */
typedef struct {
    int group;      /* the test's collective, form, or (collective, form) */
    int case_index; /* the test's case */
    int count;      /* one of the spec's counts */
    int delayed;    /* arrival: together (0) or delayed (1), of MATRIX_NARRIVALS */
    int shape;      /* harness_shape_names[] */
    int root;       /* 0 .. roots(group, shape) - 1 */
    int inplace;    /* MPI_IN_PLACE or not */
    int algo;       /* 0 .. algos(group) - 1 */
} matrix_point_t;

/* The test's lists, as matrix_run walks them. */
typedef struct {
    int ngroups;
    int (*group_selected)(int group);       /* by --colls, --forms... */
    int ncases;
    const char *(*case_name)(int case_index); /* selected by --cases */
    int (*roots)(int group, int shape);     /* roots (or forms) per shape; NULL: 1 */
    int (*algos)(int group);                /* algorithms of the group */
    void (*run)(const matrix_point_t *point); /* draws, runs and reports (or skips) the point */
} matrix_loops_t;

/* Every point of groups x cases x counts x arrivals x shapes x roots x
 * in-place x algorithms that the options select, in that order (the last
 * varying fastest). */
void matrix_run(const matrix_t *m, const matrix_loops_t *loops);

/* The algorithms of `collective` that --algos selects (harness_algorithms);
 * with min_library > 0, aborts the job when none is selected or the
 * library lists fewer than min_library. */
int matrix_algorithms(const matrix_t *m, const char *collective, int min_library, char ***out);

/* Prints (rank 0) "TEST: np=P seed=S sample=F algorithms: a b c". */
void matrix_banner(const matrix_t *m, const char *test, char **algos, int nalgo);

/* The key of a combination: a hash of its three names and of `numbers`
 * (the combination's numbers packed by the test). */
uint64_t matrix_key(const char *collective, const char *algo, const char *case_name, uint64_t numbers);
/* The packing of test_reduce_matrix, test_allgather_matrix and
 * test_alltoall_matrix (root_index 0 where there is no root). */
uint64_t matrix_numbers(int count, int delayed, int shape, int root_index, int inplace);

/* 1 when the sample draws the combination of this key (weight: its case's
 * sampling weight); then *salt is its data salt, the same on every process,
 * and the process has arrived: with `delayed`, after a random 0..--delay-us
 * (per call and rank, from the salt). */
int matrix_draw(const matrix_t *m, uint64_t key, int weight, int delayed, uint64_t *salt);

/* matrix_draw of point p, its key made of the names and
 * matrix_numbers(count, delayed, shape, root, inplace). */
int matrix_point_drawn(const matrix_t *m, const matrix_point_t *p, const char *group, const char *algo,
                       const char *case_name, int weight, uint64_t *salt);

/* The watchdog's label of a call: "WHAT algo=A case=C count=N shape=S p=P[
 * root=R][ in-place] arrival=together|delayed" (root < 0: none). */
void matrix_label(const char *what, const char *algo, const char *case_name, int count, int shape, int size, int root,
                  int inplace, int delayed);

/* Counts a call that ran.  With problems: counts a failure; the first 10
 * print "FAIL rank R: LABEL (ran RAN, rc RC): FIRST" (LABEL: the watchdog's),
 * the first also the options that replay it: "  replay: --seed=S --sample=F
 * SELECTION --algos=A --cases=C --min-count=N --max-count=N". */
void matrix_report(matrix_t *m, int problems, const char *ran, int rc, const char *first, const char *selection,
                   const char *algo, const char *case_name, int count);

/* Sums this process's tallies over MPI_COMM_WORLD at rank 0 (zeros
 * elsewhere): calls, failures, refused, skipped. */
void matrix_totals(const matrix_t *m, long totals[4]);

/* The closing line of the tests whose groups are forms (rank 0): "TEST:
 * np=P forms=F algorithms=A cases=C shapes=S counts=[MIN,MAX] arrivals=2
 * sample=X seed=N: T calls (summed over processes), F failures; K
 * combinations (summed, before sampling) skipped WHY" (totals of
 * matrix_totals). */
void matrix_forms_summary(const matrix_t *m, const char *test, const char *forms, int nalgo, int ncases,
                          const long totals[4], const char *why_skipped);

/* Sums values[n] over MPI_COMM_WORLD, in place at rank 0. */
void matrix_sum_at_root(long *values, int n);
/* The exit code of the job: 1 on every process when rank 0 says it failed;
 * finalizes MPI. */
int matrix_finalize(int failed_at_root);

#endif
