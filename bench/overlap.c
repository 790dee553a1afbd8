/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * overlap.c - see overlap.h.
 */
#include "overlap.h"
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double bench_nbc_overlap(double t_pure, double t_cpu, double t_ovrl)
{
    double least = t_pure < t_cpu ? t_pure : t_cpu;
    if (isnan(t_pure) || isnan(t_cpu) || isnan(t_ovrl) || least <= 0) return NAN;
    double x = (t_pure + t_cpu - t_ovrl) / least;
    return 100 * (x < 0 ? 0 : x > 1 ? 1 : x);
}

void bench_nbc_rep(const double *a, const double *f, const double *cpu, const double *wait, int n, nbc_rep_t *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n; i++) {
        r->t_ovrl += (f[i] - a[i]) / n;
        r->t_cpu += cpu[i] / n;
        r->wait += wait[i] / n;
        if (wait[i] > r->wait_max) r->wait_max = wait[i];
    }
}

void bench_nbc_summarize(nbc_rep_t *reps, int n, double t_pure, nbc_summary_t *s)
{
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    double *out[] = {&s->t_cpu, &s->t_ovrl, &s->wait, &s->wait_max};
    for (int f = 0; f < 4; f++) {
        for (int k = 0; k < n; k++) v[k] = f == 0 ? reps[k].t_cpu : f == 1 ? reps[k].t_ovrl : f == 2 ? reps[k].wait : reps[k].wait_max;
        *out[f] = n ? percentile(v, n, 0.5) : NAN;
    }
    free(v);
    s->overlap = bench_nbc_overlap(t_pure, s->t_cpu, s->t_ovrl);
}
