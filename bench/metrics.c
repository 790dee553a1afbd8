/*
 * metrics.c - see metrics.h.
 */
#include "metrics.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void metrics_of_rep(const double *a, const double *f, int n, int root, double T, rep_metrics_t *m)
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
    m->delta_bar = sum_delta / n;
    m->omega = max_a - min_a;
    m->bound = ((max_a - a[root]) + (n - 1) * T) / n;
    m->ratio = m->bound > 0 ? m->e_bar / m->bound : NAN;
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

void metrics_summarize(rep_metrics_t *reps, int n, summary_t *s)
{
    double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    s->reps = n;
    for (int i = 0; i < n; i++) v[i] = reps[i].e_bar;
    s->e_bar = percentile(v, n, 0.5);
    s->e_bar_lo = percentile(v, n, 0.025);
    s->e_bar_hi = percentile(v, n, 0.975);
    const size_t fields[] = {offsetof(rep_metrics_t, g), offsetof(rep_metrics_t, after_last),
                             offsetof(rep_metrics_t, delta_bar), offsetof(rep_metrics_t, omega),
                             offsetof(rep_metrics_t, bound), offsetof(rep_metrics_t, ratio)};
    double *out[] = {&s->g, &s->after_last, &s->delta_bar, &s->omega, &s->bound, &s->ratio};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        for (int i = 0; i < n; i++) v[i] = *(const double *)((const char *)&reps[i] + fields[k]);
        *out[k] = percentile(v, n, 0.5);
    }
    free(v);
}
