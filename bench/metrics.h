/*
 * metrics.h - the per-process metrics of seed 002 section 2 and seed 001
 * section 3.3 (no MPI dependency).  For n processes with arrival a_i and exit
 * f_i (global clock): e_i = f_i - a_i, e_bar = mean e_i, g = max e_i,
 * delta_i = |a_i - mean a|, delta_bar = mean delta_i, omega = max a - min a,
 * imbalance factors delta_bar / T and omega / T, after_last = max f - max a
 * (the classic "time after the last arrival"), and the blocking-model lower
 * bound on the optimum (seed 002 Lemma 2): (Delta + (n-1) T) / n with
 * Delta = max a - a_root; ratio = e_bar / bound.
 */
#ifndef PB_METRICS_H
#define PB_METRICS_H

typedef struct rep_metrics {
    double e_bar, g, after_last, delta_bar, omega, bound, ratio;
} rep_metrics_t;

void metrics_of_rep(const double *a, const double *f, int n, int root, double T, rep_metrics_t *m);

typedef struct summary {
    int reps;
    double e_bar, e_bar_lo, e_bar_hi;      /* median and 2.5 / 97.5 percentiles of per-rep e_bar */
    double g, after_last, delta_bar, omega, bound, ratio; /* medians over repetitions */
} summary_t;

/* Summarizes n repetitions (the array is reordered). */
void metrics_summarize(rep_metrics_t *reps, int n, summary_t *s);
/* Percentile q in [0,1] of v[0..n-1] by linear interpolation (sorts v). */
double percentile(double *v, int n, double q);

#endif
