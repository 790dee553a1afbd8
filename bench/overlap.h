/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * overlap.h - the nonblocking forms' measures (nonblocking.h): per
 * repetition the means over processes of the overlapped run's time, its
 * computation and its wait, their medians over repetitions, and IMB-NBC's
 * overlap.  No MPI.
 */
#ifndef PB_OVERLAP_H
#define PB_OVERLAP_H

/* IMB-NBC's overlap in percent (NaN when a time is missing). */
double bench_nbc_overlap(double t_pure, double t_cpu, double t_ovrl);

/* Per repetition (means over processes) and their summary (medians). */
typedef struct nbc_rep {
    double t_cpu, t_ovrl, wait, wait_max;
} nbc_rep_t;
typedef struct nbc_summary {
    double t_cpu, t_ovrl, wait, wait_max, overlap;
} nbc_summary_t;
/* One repetition from every process's arrival a, exit f, computation and wait. */
void bench_nbc_rep(const double *a, const double *f, const double *cpu, const double *wait, int n, nbc_rep_t *r);
/* Medians of n repetitions (reordered) and the overlap against t_pure. */
void bench_nbc_summarize(nbc_rep_t *reps, int n, double t_pure, nbc_summary_t *s);

#endif
