/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * metrics.h - the per-process metrics of Patarasuk & Yuan 2008 §2 and Parsons 2015
 * section 3.3 (no MPI dependency).  For n processes with arrival a_i and exit
 * f_i (global clock): e_i = f_i - a_i, e_bar = mean e_i, g = max e_i,
 * delta_i = |a_i - mean a|, delta_bar = mean delta_i, omega = max a - min a,
 * imbalance factors delta_bar / T and omega / T, after_last = max f - max a
 * (the classic "time after the last arrival"; for allreduce and allgather
 * Scalasca's "N x N completion"), e_root = f_root - a_root (the root's own
 * time: for a reduce, Parsons 2015's measure, which holds Scalasca's "Early
 * Reduce" wait).
 *
 * Lower bounds of e_bar (`bound`, ratio = e_bar / bound), by the shape of
 * the collective's data dependence (coll.h):
 *   fan-out    bcast, scatter(v): (W + Delta + (n-1) T) / n, Delta = max a -
 *              a_root, W = sum over i of max(0, a_root - a_i): Patarasuk & Yuan 2008
 *              Lemma 2 (blocking model) for the processes arriving after
 *              the root, and Patarasuk & Yuan 2008 §3.1's rule for those arriving before
 *              it (a_i < a_root counts as a_root, plus the wait a_root - a_i):
 *              every process waits for data from the root.
 *   fan-in     reduce, gather(v), and
 *   all-to-all allreduce, allgather(v), alltoall(v), reduce_scatter(_block):
 *              from data dependence alone, so that they hold in both of Patarasuk & Yuan 2008's
 *              models and with eager (buffered) sends: data cannot
 *              leave a process before it arrives, and bringing a full message
 *              to a process takes T (a send may complete at once, a buffered
 *              message is read for free).  A process that needs data from
 *              every other process (every element of a reduction's result
 *              depends on every input; a gather's or alltoall's result holds
 *              a block of every process) cannot finish before the input of
 *              each other process j has reached it:
 *              b_i = max(0, max_{j != i} a_j + T - a_i).
 *              fan-in: the root needs every input, the others may leave once
 *              their data is handed over: root_bound = b_root, bound =
 *              b_root / n.  all-to-all: bound = mean b_i (the wait for the
 *              last arrival, plus T), where b_i = max a - a_i + T for all but
 *              the last process to arrive.  For the v forms, T is the
 *              transfer time of the smallest block (collective.h).
 * T is the time measured between rank 0 and rank p-1: pairs inside a node,
 * where transfers are faster, can beat the bounds.  root_bound is NaN but
 * for the fan-ins, e_root NaN for the collectives without a root
 * (allreduce, allgather(v), alltoall(v), reduce_scatter(_block)); n = 1:
 * bounds 0.
 */
#ifndef PB_METRICS_H
#define PB_METRICS_H

#include "coll.h"

typedef struct rep_metrics {
    double e_bar, g, after_last, e_root, root_bound, delta_bar, omega, bound, ratio;
} rep_metrics_t;

/* The metrics of one call of `coll` (root: the call's root; for the
 * collectives without one only the anchor of root-relative patterns, unused
 * here). */
void metrics_of_call(bench_coll_t coll, const double *a, const double *f, int n, int root, double T, rep_metrics_t *m);
/* metrics_of_call for a broadcast. */
void metrics_of_rep(const double *a, const double *f, int n, int root, double T, rep_metrics_t *m);

typedef struct summary {
    int reps;
    double e_bar, e_bar_lo, e_bar_hi;      /* median and 2.5 / 97.5 percentiles of per-rep e_bar */
    double g, after_last, e_root, root_bound, delta_bar, omega, bound, ratio; /* medians over repetitions */
    double e_p50, e_p90, e_p99;            /* percentiles of the per-process times e_i, all repetitions pooled */
    double after_p50, after_p90, after_p99; /* percentiles over repetitions of the time after the last arrival */
} summary_t;

/* Summarizes n repetitions and the ne per-process times e_i of all of them
 * (both arrays are reordered). */
void metrics_summarize(rep_metrics_t *reps, int n, double *e_samples, int ne, summary_t *s);
/* Percentile q in [0,1] of v[0..n-1] by linear interpolation (sorts v). */
double percentile(double *v, int n, double q);

#endif
