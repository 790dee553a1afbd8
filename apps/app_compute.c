/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_compute.c - see app_compute.h.
 */
#include "app_compute.h"
#include "../src/core/mix64.h"

#include <mpi.h>
#ifdef PAPCOLL_APP_SMPI
#include <smpi/smpi.h>
#endif

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parsons 2015 Table 3.5, 55 ms of computation between collectives on 8192
 * processes: average imbalance 317 us (0.58%), worst case 7160 us (13%).
 * Exponential jitter of mean F has an average deviation of 2F/e = 0.74 F, so
 * F = 0.0072 gives 0.53%; spikes on 1% of ranks of mean 2.6% make the worst
 * case of 8192 ranks about 0.026 x (ln 82 + 0.58) = 13% and add 0.05% to the
 * average. */
#define XE6_PRESET "jitter:0.0072,spike:0.01:0.026"
/* Parsons 2015 Table 3.1, NAS FT class B on 1024 processes: average imbalance
 * 2051 us, worst case 11041 us, some 4% and 20% of an iteration's
 * computation (an estimate: Parsons 2015 gives no per-iteration time).
 * Exponential jitter of mean 5% gives an average of 3.7% and, over 1024
 * ranks, a worst case near 0.05 x (ln 1024 + 0.58) = 38%: heavier than FT's
 * tail, the same order as its average.  Applications' imbalance is larger
 * than the micro-benchmark's (Parsons 2015 §3.5.2). */
#define XE6_NAS_PRESET "jitter:0.05"

static const struct {
    const char *name, *terms;
} presets[] = {{"xe6-nas", XE6_NAS_PRESET}, {"xe6", XE6_PRESET}};

/* Independent draws of the hash: which term, for (seed, rank, phase). */
enum { DRAW_JITTER, DRAW_SPIKE_HIT, DRAW_SPIKE_SIZE, DRAW_SLOW, DRAW_KINDS };

static struct {
    app_compute_mode_t mode;
    app_noise_t noise;
    int rank;
    uint64_t phase;
    double flops;        /* model work of the current phase */
    double phase_start;  /* natively: when the current phase began */
    double slowdown;     /* this rank's persistent slowdown (0 or slow_factor) */
    double work_seconds, noise_seconds;
} state;

/* A uniform value in [0, 1) for (seed, rank, phase, kind). */
static double draw(uint64_t seed, int rank, uint64_t phase, int kind)
{
    uint64_t h = pc_splitmix64(pc_splitmix64(pc_splitmix64(seed) ^ (uint64_t)rank) ^ (phase * DRAW_KINDS + (uint64_t)kind));
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

static double exponential(double u) { return -log1p(-u); }

/* A non-negative finite double at the start of TEXT into *OUT, the text after it in *REST; 0 or -1. */
static int parse_fraction(const char *text, double *out, const char **rest)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || !(v >= 0.0) || !isfinite(v)) return -1;
    *out = v;
    *rest = end;
    return 0;
}

/* One term of a noise spec, TERM (NUL-terminated); 0 or -1. */
static int parse_term(const char *term, app_noise_t *n)
{
    const char *rest;
    if (!strncmp(term, "jitter:", 7)) return parse_fraction(term + 7, &n->jitter, &rest) || *rest ? -1 : 0;
    if (!strncmp(term, "spike:", 6) || !strncmp(term, "slow:", 5)) {
        int spike = term[1] == 'p'; /* "spike:", else "slow:" */
        double prob, factor;
        if (parse_fraction(term + (spike ? 6 : 5), &prob, &rest) || *rest != ':' || prob > 1.0) return -1;
        if (parse_fraction(rest + 1, &factor, &rest) || *rest) return -1;
        if (spike) {
            n->spike_prob = prob;
            n->spike_scale = factor;
        } else {
            n->slow_prob = prob;
            n->slow_factor = factor;
        }
        return 0;
    }
    if (!strncmp(term, "seed:", 5)) {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(term + 5, &end, 10);
        if (errno || end == term + 5 || *end) return -1;
        n->seed = (uint64_t)s;
        return 0;
    }
    return -1;
}

int app_noise_parse(const char *spec, app_noise_t *noise, char *err, size_t errlen)
{
    app_noise_t n = {.seed = 1};
    if (strlen(spec) >= sizeof n.spec) {
        snprintf(err, errlen, "--noise: spec too long (at most %zu characters)", sizeof n.spec - 1);
        return -1;
    }
    /* The spec as the summary line shows it: '+' for ',' (its own separator). */
    snprintf(n.spec, sizeof n.spec, "%s", spec);
    for (char *c = n.spec; *c; c++)
        if (*c == ',') *c = '+';
    if (!strcmp(spec, "none")) {
        *noise = n;
        return 0;
    }
    char text[160];
    /* A preset may be followed by terms that override it: xe6,seed:7. */
    snprintf(text, sizeof text, "%s", spec);
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        size_t len = strlen(presets[i].name);
        if (!strncmp(spec, presets[i].name, len) && (spec[len] == '\0' || spec[len] == ',')) {
            snprintf(text, sizeof text, "%s%s", presets[i].terms, spec + len);
            break;
        }
    }
    for (char *save = NULL, *term = strtok_r(text, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
        if (parse_term(term, &n)) {
            snprintf(err, errlen,
                     "--noise: bad term '%s' (none, xe6, xe6-nas, jitter:F, spike:P:F, slow:P:F, seed:S; P in [0, 1], F >= 0)", term);
            return -1;
        }
    }
    *noise = n;
    return 0;
}

int app_compute_parse(const char *text, app_compute_mode_t *mode, char *err, size_t errlen)
{
#ifdef PAPCOLL_APP_SMPI
    if (!strcmp(text, "model")) *mode = APP_COMPUTE_MODEL;
    else if (!strcmp(text, "none")) *mode = APP_COMPUTE_NONE;
    else {
        snprintf(err, errlen, "--compute: 'model' or 'none' under SMPI, not '%s'", text);
        return -1;
    }
#else
    if (!strcmp(text, "host")) *mode = APP_COMPUTE_HOST;
    else {
        snprintf(err, errlen, "--compute: natively only 'host' (model and none are for the SMPI flavour), not '%s'", text);
        return -1;
    }
#endif
    return 0;
}

app_compute_mode_t app_compute_default(void)
{
#ifdef PAPCOLL_APP_SMPI
    return APP_COMPUTE_MODEL;
#else
    return APP_COMPUTE_HOST;
#endif
}

const char *app_compute_name(app_compute_mode_t mode)
{
    switch (mode) {
    case APP_COMPUTE_MODEL: return "model";
    case APP_COMPUTE_NONE: return "none";
    default: return "host";
    }
}

void app_compute_init(app_compute_mode_t mode, const app_noise_t *noise, int rank)
{
    memset(&state, 0, sizeof state);
    state.mode = mode;
    state.noise = *noise;
    state.rank = rank;
    if (noise->slow_prob > 0.0 && draw(noise->seed, rank, 0, DRAW_SLOW) < noise->slow_prob)
        state.slowdown = noise->slow_factor;
    state.phase_start = MPI_Wtime();
}

void app_work(double flops) { state.flops += flops; }

/* The noise of the current phase, as a fraction of its work. */
static double phase_noise(void)
{
    const app_noise_t *n = &state.noise;
    double f = 0.0;
    if (n->jitter > 0.0) f += n->jitter * exponential(draw(n->seed, state.rank, state.phase, DRAW_JITTER));
    if (n->spike_prob > 0.0 && draw(n->seed, state.rank, state.phase, DRAW_SPIKE_HIT) < n->spike_prob)
        f += n->spike_scale * exponential(draw(n->seed, state.rank, state.phase, DRAW_SPIKE_SIZE));
    return f;
}

#ifndef PAPCOLL_APP_SMPI
/* Busy until MPI_Wtime() reaches UNTIL (native noise: a rank that is really late). */
static void spin_until(double until)
{
    volatile double sink = 0.0;
    while (MPI_Wtime() < until) sink += 1.0;
}
#endif

void app_settle(void)
{
    double factor = (1.0 + state.slowdown) * (1.0 + phase_noise()); /* >= 1 */
    state.phase++;
    if (state.mode == APP_COMPUTE_NONE) {
        state.flops = 0.0;
        return;
    }
    double t0 = state.mode == APP_COMPUTE_HOST ? state.phase_start : MPI_Wtime();
#ifdef PAPCOLL_APP_SMPI
    if (state.mode == APP_COMPUTE_MODEL && state.flops > 0.0) {
        double base = MPI_Wtime();
        smpi_execute_flops(state.flops);
        double work = MPI_Wtime() - base;
        if (factor > 1.0) {
            smpi_execute_flops(state.flops * (factor - 1.0));
            state.noise_seconds += MPI_Wtime() - base - work;
        }
    }
#else
    {
        double work = MPI_Wtime() - t0;
        if (factor > 1.0 && work > 0.0) {
            double before = MPI_Wtime();
            spin_until(before + work * (factor - 1.0));
            state.noise_seconds += MPI_Wtime() - before;
        }
    }
#endif
    state.work_seconds += MPI_Wtime() - t0;
    state.flops = 0.0;
}

void app_resume(void) { state.phase_start = MPI_Wtime(); }

void app_compute_totals(double *work_seconds, double *noise_seconds)
{
    *work_seconds = state.work_seconds;
    *noise_seconds = state.noise_seconds;
}
