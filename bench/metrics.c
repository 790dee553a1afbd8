/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * metrics.c - see metrics.h (the bounds and why they hold are stated there).
 */
#include "metrics.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

/* The latest arrival (a[*last]) and the latest of the others (second); n > 1. */
static void latest_two(const double *a, int n, int *last, double *second)
{
    *last = a[1] > a[0];
    *second = a[!*last];
    for (int i = 2; i < n; i++)
        if (a[i] > a[*last]) *second = a[*last], *last = i;
        else if (a[i] > *second) *second = a[i];
}

/* b_i = max(0, max_{j != i} a_j + T - a_i): process i holds the result only after every other input
 * reached it (metrics.h). */
static double data_bound(const double *a, int i, int last, double second, double T)
{
    return fmax(0, (i == last ? second : a[last]) + T - a[i]);
}

/* Sum over i of max(0, a_root - a_i): what the processes that arrive before the root must wait for it
 * before anything can happen (Patarasuk & Yuan 2008 §3.1 counts a_i < a_root as a_i = a_root plus that wait). */
static double root_waits(const double *a, int n, int root)
{
    double sum = 0;
    for (int i = 0; i < n; i++) sum += fmax(0, a[root] - a[i]);
    return sum;
}

/* bound and root_bound of one call (metrics.h); n > 1. */
static void bounds(bench_coll_t coll, const double *a, int n, int root, double T, rep_metrics_t *m)
{
    int last;
    double second;
    latest_two(a, n, &last, &second);
    if (bench_coll_fan_out(coll)) { /* bcast, scatter(v): everybody waits for the root */
        m->root_bound = NAN;
        m->bound = (root_waits(a, n, root) + (a[last] - a[root]) + (n - 1) * T) / n; /* Patarasuk & Yuan 2008 §3.1, Lemma 2 */
    } else if (bench_coll_fan_in(coll)) { /* reduce, gather(v): the root waits for everybody */
        m->root_bound = data_bound(a, root, last, second, T);
        m->bound = m->root_bound / n;
    } else if (bench_coll_prefix(coll)) { /* scan, exscan: rank i needs ranks 0..i-1 */
        double sum = 0, below = -INFINITY;
        for (int i = 0; i < n; i++) {
            if (i > 0) sum += fmax(0, below + T - a[i]);
            below = fmax(below, a[i]);
        }
        m->root_bound = NAN;
        m->bound = sum / n;
    } else { /* allreduce, allgather(v), alltoall(v), reduce_scatter(_block): everyone needs every input */
        double sum = 0;
        for (int i = 0; i < n; i++) sum += data_bound(a, i, last, second, T);
        m->root_bound = NAN;
        m->bound = sum / n;
    }
}

void metrics_of_call(bench_coll_t coll, const double *a, const double *f, int n, int root, double T, rep_metrics_t *m)
{
    double sum_e = 0, max_e = 0, sum_a = 0, max_a = a[0], min_a = a[0], max_f = f[0];
    for (int i = 0; i < n; i++) {
        double e = f[i] - a[i];
        sum_e += e;
        if (e > max_e) max_e = e;
        sum_a += a[i];
        if (a[i] > max_a) max_a = a[i];
        if (a[i] < min_a) min_a = a[i];
        if (f[i] > max_f) max_f = f[i];
    }
    double mean_a = sum_a / n, sum_delta = 0;
    for (int i = 0; i < n; i++) sum_delta += fabs(a[i] - mean_a);
    m->e_bar = sum_e / n;
    m->g = max_e;
    m->after_last = max_f - max_a;
    m->e_root = bench_coll_rooted(coll) ? f[root] - a[root] : NAN;
    m->delta_bar = sum_delta / n;
    m->omega = max_a - min_a;
    if (n > 1) bounds(coll, a, n, root, T, m);
    else m->bound = 0, m->root_bound = bench_coll_fan_in(coll) ? 0 : NAN;
    m->ratio = m->bound > 0 ? m->e_bar / m->bound : NAN;
}

void metrics_of_rep(const double *a, const double *f, int n, int root, double T, rep_metrics_t *m)
{
    metrics_of_call(BENCH_BCAST, a, f, n, root, T, m);
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double percentile(double *v, int n, double q)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, by_value);
    double pos = q * (n - 1);
    int lo = (int)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (pos - lo) * (v[hi] - v[lo]);
}

void metrics_summarize(rep_metrics_t *reps, int n, double *e_samples, int ne, summary_t *s)
{
    double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    s->reps = n;
    for (int i = 0; i < n; i++) v[i] = reps[i].e_bar;
    s->e_bar = percentile(v, n, 0.5);
    s->e_bar_lo = percentile(v, n, 0.025);
    s->e_bar_hi = percentile(v, n, 0.975);
    const size_t fields[] = {offsetof(rep_metrics_t, g), offsetof(rep_metrics_t, after_last),
                             offsetof(rep_metrics_t, e_root), offsetof(rep_metrics_t, root_bound),
                             offsetof(rep_metrics_t, delta_bar), offsetof(rep_metrics_t, omega),
                             offsetof(rep_metrics_t, bound), offsetof(rep_metrics_t, ratio)};
    double *out[] = {&s->g, &s->after_last, &s->e_root, &s->root_bound, &s->delta_bar, &s->omega, &s->bound, &s->ratio};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        for (int i = 0; i < n; i++) v[i] = *(const double *)((const char *)&reps[i] + fields[k]);
        *out[k] = percentile(v, n, 0.5);
    }
    for (int i = 0; i < n; i++) v[i] = reps[i].after_last;
    s->after_p50 = percentile(v, n, 0.5);
    s->after_p90 = percentile(v, n, 0.9);
    s->after_p99 = percentile(v, n, 0.99);
    s->e_p50 = percentile(e_samples, ne, 0.5);
    s->e_p90 = percentile(e_samples, ne, 0.9);
    s->e_p99 = percentile(e_samples, ne, 0.99);
    free(v);
}
