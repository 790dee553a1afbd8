/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.h - papcoll-bench's command line (OSU letters for the common knobs).
 */
#ifndef PB_OPTIONS_H
#define PB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "coll.h"
#include "nonblocking.h"
#include "pattern.h"

typedef struct options {
    size_t min_size, max_size, size_factor; /* -m MIN:MAX:FACTOR */
    int iterations, warmup, iterations_large, warmup_large; /* "large": above 8 KiB */
    int validate;
    int percentiles;     /* --percentiles: the table shows p50/p90/p99 too */
    int shared_buffer;   /* SMPI only: one SMPI_SHARED_MALLOC buffer for every rank */
    int root;            /* -1: rotate */
    const char *coll;    /* --coll name */
    bench_coll_t coll_kind; /* a nonblocking form's: its blocking base */
    const bench_nbc_t *nbc;  /* a nonblocking form (nonblocking.h), or NULL */
    int nbc_tests;       /* --nbc-tests: MPI_Test calls spread over the overlapped computation */
    const char *dtype;   /* --dtype (reductions, gathers): "int", "double", "char" (gathers) or NULL (int) */
    const char *algos;   /* comma list, "all" expands */
    pattern_t pattern;
    uint64_t seed;
    double unit_time;    /* 0: measure per size */
    const char *format;  /* table | csv | json (md: --list-params) */
    const char *raw;     /* --raw=FILE */
    double start_margin; /* seconds between the start broadcast and the planned start */
    double tolerance;    /* seconds late before a start counts as missed */
    double resync;       /* seconds between clock synchronizations */
    int list, list_params;
    int coll_given;       /* --coll was given (--list without it lists every collective) */
    const char *check_tune; /* --check-tune=FILE: check a rules file and exit */
} options_t;

/* 0 to run, 1 when done (help/version printed), -1 on a usage error
 * (message printed by rank 0). */
int options_parse(int argc, char **argv, options_t *o, int rank);
void options_usage(void);

#endif
