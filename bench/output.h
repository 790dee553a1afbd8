/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output.h - papcoll-bench's report: table (OSU style, right-aligned, units),
 * CSV and JSON with the same fields, and #@key=value metadata lines (a "meta"
 * object in JSON).  Field names are fixed for scripts:
 *   coll algo size pattern p ppn reps valid_reps e_bar e_bar_lo e_bar_hi g
 *   after_last e_root root_bound delta_bar omega if_avg if_worst bound ratio T
 *   check e_p50 e_p90 e_p99 after_p50 after_p90 after_p99 t_cpu t_ovrl wait
 *   wait_max overlap
 * (the last five: the nonblocking forms, overlap.h; NaN for the others)
 * Times in seconds in CSV and JSON, microseconds in the table; a quantity
 * that does not apply (e_root of a collective without a root, root_bound but
 * of a reduce or gather) is nan in CSV, null in JSON and - in the table.
 */
#ifndef PB_OUTPUT_H
#define PB_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "metrics.h"
#include "overlap.h"

typedef struct result_row {
    const char *coll, *algo, *pattern;
    size_t size;
    int p, ppn, reps, valid_reps;
    double T;
    summary_t s;
    const char *check; /* Pass | Fail | - */
    const nbc_summary_t *nbc; /* the nonblocking forms' measures (NULL: a blocking collective) */
} result_row_t;

typedef struct report {
    FILE *out;
    const char *format;
    int rows;
    int percentiles;     /* the table shows the percentiles (CSV and JSON always carry them) */
    int nonblocking;     /* the table shows t_cpu, t_ovrl, wait and overlap */
    char **meta_keys, **meta_values;
    int nmeta;
} report_t;

void report_init(report_t *r, FILE *out, const char *format);
void report_meta(report_t *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Prints the metadata and the column header (call once, after report_meta). */
void report_begin(report_t *r);
/* A metadata line printed now (table, CSV); JSON rows carry the value. */
void report_note(report_t *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void report_row(report_t *r, const result_row_t *row);
void report_end(report_t *r);

#endif
