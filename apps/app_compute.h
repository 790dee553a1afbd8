/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_compute.h - what the applications' computation costs, and the
 * arrival-imbalance model (--compute, --noise).
 *
 * The applications do their computation for real and declare its size with
 * app_work(FLOPS) (a model count: 2 per Floyd-Warshall relaxation, 2 per
 * multiply-add of matvec, 5 N log2 N per FFT line of N, ...).  Everything
 * declared since the last collective is one "phase"; app_settle(), which the
 * timed collectives of app_common call on entry (and the applications before
 * their untimed collectives), ends the phase:
 *
 *  - SimGrid SMPI flavour, --compute=model (its default): the phase costs
 *    FLOPS x (1 + slowdown of this rank) x (1 + noise of this phase) of
 *    simulated time through smpi_execute_flops, i.e. at the simulated host's
 *    speed (papcoll sim run: 1 Gflop/s).  SMPI runs with
 *    smpi/simulate-computation:no, so the host's real time spent computing
 *    is not charged: only the model is.  --compute=none charges nothing
 *    (computation free, every rank arrives together: the old behaviour).
 *  - Native (--compute=host, the only mode): the phase cost its real time T
 *    (measured from the end of the previous phase); with a noise model the
 *    rank then busy-waits T x ((1 + slowdown)(1 + noise) - 1) more.
 *
 * The noise model, --noise=SPEC (after Parsons 2015 §§3.5-3.6: arrival
 * imbalance is random per invocation, on and between nodes alike, most
 * processes arrive in a group with a longer tail of late ones, and it grows
 * with the computation between collectives), a comma-separated list of
 *    jitter:F      every rank, every phase: F x Exp(1) (mean F) of its work
 *    spike:P:F     with probability P per rank and phase, F x Exp(1) more
 *                  (an interruption: the tail of late arrivals)
 *    slow:P:F      persistent: each rank with probability P (drawn once) is
 *                  F slower for the whole run (an unbalanced OS daemon,
 *                  which Parsons 2015 did not see but Petrini et al. 2003 did)
 *    seed:S        the noise's own seed (default 1); draws are a hash of
 *                  (S, rank, phase), so a run is deterministic and does not
 *                  depend on timing or the order of events
 * or a preset: none (default), xe6 = jitter:0.0072,spike:0.01:0.026, fitted
 * to Parsons 2015 Table 3.5's 55 ms row (the micro-benchmark on 8192 processes
 * of the Cray XE6: average imbalance 0.58% and worst case 13% of the
 * computation time), or xe6-nas = jitter:0.05, the order of NAS FT's own
 * imbalance in Table 3.1 (an average of some 4% of an iteration; see
 * app_compute.c).  A preset may be followed by terms: xe6,seed:2.
 */
#ifndef PAPCOLL_APP_COMPUTE_H
#define PAPCOLL_APP_COMPUTE_H

#include <stddef.h>
#include <stdint.h>

typedef enum { APP_COMPUTE_HOST, APP_COMPUTE_MODEL, APP_COMPUTE_NONE } app_compute_mode_t;

typedef struct {
    double jitter;                  /* mean fraction of the phase, exponential */
    double spike_prob, spike_scale; /* probability per rank and phase; mean fraction when hit */
    double slow_prob, slow_factor;  /* persistent per-rank slowdown */
    uint64_t seed;
    char spec[96];                  /* as given, ',' shown as '+' (the summary line's separator) */
} app_noise_t;

/* Parses SPEC (see above) into NOISE; 0, or -1 with a message in ERR. */
int app_noise_parse(const char *spec, app_noise_t *noise, char *err, size_t errlen);
/* Parses "model", "none" or "host" into MODE for this flavour; 0, or -1 with a message in ERR. */
int app_compute_parse(const char *text, app_compute_mode_t *mode, char *err, size_t errlen);
/* This flavour's default mode: model under SMPI, host natively. */
app_compute_mode_t app_compute_default(void);
const char *app_compute_name(app_compute_mode_t mode);

/* Starts the model for RANK (after option parsing; the first phase starts here). */
void app_compute_init(app_compute_mode_t mode, const app_noise_t *noise, int rank);
/* Declares FLOPS of model work done in the current phase. */
void app_work(double flops);
/* Ends the current phase: charges it (SMPI) and its noise (both flavours).
 * Called on entry to a collective; app_resume() on its exit starts the next
 * phase (natively its real time is measured from there). */
void app_settle(void);
void app_resume(void);
/* Seconds this rank's phases cost so far, and how much of that was the noise model. */
void app_compute_totals(double *work_seconds, double *noise_seconds);

#endif
