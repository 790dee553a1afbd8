/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output.c - see output.h.
 */
#include "output.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void report_init(report_t *r, FILE *out, const char *format)
{
    memset(r, 0, sizeof *r);
    r->out = out;
    r->format = format;
}

void report_meta(report_t *r, const char *key, const char *fmt, ...)
{
    char value[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    r->meta_keys = realloc(r->meta_keys, (size_t)(r->nmeta + 1) * sizeof(char *));
    r->meta_values = realloc(r->meta_values, (size_t)(r->nmeta + 1) * sizeof(char *));
    r->meta_keys[r->nmeta] = strdup(key);
    r->meta_values[r->nmeta++] = strdup(value);
}

void report_note(report_t *r, const char *key, const char *fmt, ...)
{
    if (!strcmp(r->format, "json")) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(r->out, "#@%s=", key);
    vfprintf(r->out, fmt, ap);
    fputc('\n', r->out);
    va_end(ap);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

static const char *csv_header =
    "coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,e_root,root_bound,delta_bar,"
    "omega,if_avg,if_worst,bound,ratio,T,check,e_p50,e_p90,e_p99,after_p50,after_p90,after_p99,t_cpu,t_ovrl,wait,"
    "wait_max,overlap";

void report_begin(report_t *r)
{
    int json = !strcmp(r->format, "json");
    if (json) {
        fprintf(r->out, "{\n  \"meta\": {");
        for (int i = 0; i < r->nmeta; i++) {
            fprintf(r->out, "%s\n    ", i ? "," : "");
            json_string(r->out, r->meta_keys[i]);
            fprintf(r->out, ": ");
            json_string(r->out, r->meta_values[i]);
        }
        fprintf(r->out, "\n  },\n  \"results\": [");
        return;
    }
    for (int i = 0; i < r->nmeta; i++) fprintf(r->out, "#@%s=%s\n", r->meta_keys[i], r->meta_values[i]);
    if (!strcmp(r->format, "csv")) {
        fprintf(r->out, "%s\n", csv_header);
    } else {
        fprintf(r->out, "# %-22s %9s %11s %11s %11s %11s %11s %11s %7s %8s %11s %7s %7s %6s", "Algorithm", "Size(B)",
                "e_bar(us)", "lo(us)", "hi(us)", "g(us)", "after(us)", "root(us)", "IF_avg", "IF_worst", "bound(us)",
                "ratio", "valid", "Check");
        if (r->percentiles)
            fprintf(r->out, " %11s %11s %11s %11s %11s %11s", "e_p50(us)", "e_p90(us)", "e_p99(us)", "aft_p50(us)",
                    "aft_p90(us)", "aft_p99(us)");
        if (r->nonblocking)
            fprintf(r->out, " %11s %11s %11s %11s %10s", "t_cpu(us)", "t_ovrl(us)", "wait(us)", "wait_max(us)", "overlap(%)");
        fputc('\n', r->out);
    }
}

/* A table cell of `width` characters: value x scale with 2 decimals, or "-" for NaN (does not apply, or no
 * valid repetition). */
static void table_cell(FILE *f, int width, double value, double scale)
{
    if (isnan(value)) fprintf(f, " %*s", width, "-");
    else fprintf(f, " %*.2f", width, value * scale);
}

/* NaN and infinities are not JSON: written as null. */
static void json_number(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.9g", v);
    else fprintf(f, "null");
}

void report_row(report_t *r, const result_row_t *w)
{
    const summary_t *s = &w->s;
    const nbc_summary_t none = {NAN, NAN, NAN, NAN, NAN}, *nb = w->nbc ? w->nbc : &none;
    double if_avg = w->T > 0 ? s->delta_bar / w->T : NAN, if_worst = w->T > 0 ? s->omega / w->T : NAN;
    if (!strcmp(r->format, "json")) {
        fprintf(r->out, "%s\n    {\"coll\": \"%s\", \"algo\": \"%s\", \"size\": %zu, \"pattern\": ", r->rows ? "," : "",
                w->coll, w->algo, w->size);
        json_string(r->out, w->pattern);
        fprintf(r->out, ", \"p\": %d, \"ppn\": %d, \"reps\": %d, \"valid_reps\": %d", w->p, w->ppn, w->reps, w->valid_reps);
        /* the fields in the CSV's order: check, then the percentiles (added after it) */
        const char *names[] = {"e_bar",  "e_bar_lo", "e_bar_hi", "g",     "after_last", "e_root",    "root_bound",
                               "delta_bar", "omega", "if_avg",   "if_worst", "bound", "ratio",      "T",
                               "e_p50",  "e_p90",    "e_p99",    "after_p50", "after_p90", "after_p99",
                               "t_cpu", "t_ovrl", "wait", "wait_max", "overlap"};
        double values[] = {s->e_bar,     s->e_bar_lo, s->e_bar_hi, s->g,     s->after_last, s->e_root,
                           s->root_bound, s->delta_bar, s->omega,  if_avg,   if_worst,      s->bound,
                           s->ratio,     w->T,        s->e_p50,    s->e_p90, s->e_p99,      s->after_p50,
                           s->after_p90, s->after_p99, nb->t_cpu, nb->t_ovrl, nb->wait, nb->wait_max, nb->overlap};
        for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
            if (!strcmp(names[i], "e_p50")) fprintf(r->out, ", \"check\": \"%s\"", w->check);
            fprintf(r->out, ", \"%s\": ", names[i]);
            json_number(r->out, values[i]);
        }
        fputc('}', r->out);
    } else if (!strcmp(r->format, "csv")) {
        fprintf(r->out, "%s,%s,%zu,%s,%d,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,"
                "%.9g,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", w->coll, w->algo, w->size, w->pattern, w->p, w->ppn, w->reps,
                w->valid_reps, s->e_bar, s->e_bar_lo, s->e_bar_hi, s->g, s->after_last, s->e_root, s->root_bound,
                s->delta_bar, s->omega, if_avg, if_worst, s->bound, s->ratio, w->T, w->check, s->e_p50, s->e_p90,
                s->e_p99, s->after_p50, s->after_p90, s->after_p99, nb->t_cpu, nb->t_ovrl, nb->wait, nb->wait_max,
                nb->overlap);
    } else {
        fprintf(r->out, "  %-22s %9zu", w->algo, w->size);
        const double times[] = {s->e_bar, s->e_bar_lo, s->e_bar_hi, s->g, s->after_last, s->e_root};
        for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) table_cell(r->out, 11, times[i], 1e6);
        table_cell(r->out, 7, if_avg, 1);
        table_cell(r->out, 8, if_worst, 1);
        table_cell(r->out, 11, s->bound, 1e6);
        table_cell(r->out, 7, s->ratio, 1);
        fprintf(r->out, " %3d/%-3d %6s", w->valid_reps, w->reps, w->check);
        if (r->percentiles) {
            const double pct[] = {s->e_p50, s->e_p90, s->e_p99, s->after_p50, s->after_p90, s->after_p99};
            for (size_t i = 0; i < sizeof pct / sizeof pct[0]; i++) table_cell(r->out, 11, pct[i], 1e6);
        }
        if (r->nonblocking) {
            const double nbt[] = {nb->t_cpu, nb->t_ovrl, nb->wait, nb->wait_max};
            for (size_t i = 0; i < sizeof nbt / sizeof nbt[0]; i++) table_cell(r->out, 11, nbt[i], 1e6);
            table_cell(r->out, 10, nb->overlap, 1);
        }
        fputc('\n', r->out);
    }
    r->rows++;
    fflush(r->out);
}

void report_end(report_t *r)
{
    if (!strcmp(r->format, "json")) fprintf(r->out, "\n  ]\n}\n");
    for (int i = 0; i < r->nmeta; i++) {
        free(r->meta_keys[i]);
        free(r->meta_values[i]);
    }
    free(r->meta_keys);
    free(r->meta_values);
    fflush(r->out);
}
