/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt_agree.c - the adaptive selection's agreement (see adapt.h,
 * "Consistency"): every period-th call of a group, a snapshot of each
 * state's measurements goes into two nonblocking reductions to rank 0 and a
 * broadcast back; once complete, on every process at the same call, the
 * agreed sums decide: exploration, choice, re-exploration, the period's
 * backoff, and the call sites' agreement.
 */
#include "select/adapt_impl.h"
#include "select/site.h"
#include "core/log.h"
#include "core/progress.h"
#include "core/params.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void split_hash(uint64_t h, double *hi, double *lo)
{
    *hi = (double)(h >> 32);
    *lo = (double)(h & 0xffffffffu);
}

/* The agreed states: a prefix of g->state (a new site's state is appended,
 * and agreed at the agreement that completes after it appeared), of the
 * same length on every process, since only completed agreements, the same
 * everywhere, mark states agreed or reset them. */
static int agreed_prefix(const adapt_group_t *g)
{
    int n = 0;
    while (n < g->nstates && g->state[n]->agreed) n++;
    return n;
}

/* Snapshot of the periods since the last one, and the nonblocking reduce
 * to rank 0 (adapt_messages.c).  The data carries the agreed states only
 * (the others' are discarded at the completion anyway), each in its
 * group's slice: what crosses the network is then about 2 ncand + 2
 * doubles per agreed state and process, after the checks. */
int pc_adapt_post_agreement(adapt_group_t *g, pc_comm_t *ctx)
{
    double *chk = g->send;
    split_hash(g->key, &chk[0], &chk[1]);
    split_hash(g->sites == SITES_OFF ? 0 : g->seq_hash, &chk[2], &chk[3]);
    chk[4] = g->sites == SITES_OFF ? 0 : g->nstates;
    for (int i = 0; i < CHECK_N; i++) chk[CHECK_N + i] = -chk[i];
    g->seq_hash = PC_FNV_START;
    g->snap_nstates = g->nstates;
    g->snap_sent = agreed_prefix(g);
    g->agreements++;
    int slice = pc_adapt_slice(g);
    for (int i = 0; i < g->nstates; i++) {
        adapt_state_t *s = g->state[i];
        double sum = 0;
        long n = 0;
        for (int c = 0; c < g->ncand; c++) {
            s->snap_n[c] = s->win_n[c];
            sum += s->win_sum[c];
            n += s->win_n[c];
        }
        if (i < g->snap_sent) {
            double *d = &g->send[2 * CHECK_N + i * slice], mean = n ? sum / (double)n : 0;
            for (int c = 0; c < g->ncand; c++) {
                d[c] = s->win_cost[c];
                d[g->ncand + c] = s->win_sum[c];
            }
            d[2 * g->ncand] = mean;
            d[2 * g->ncand + 1] = mean * mean;
        }
        memset(s->win_sum, 0, sizeof s->win_sum);
        memset(s->win_cost, 0, sizeof s->win_cost);
        memset(s->win_n, 0, sizeof s->win_n);
    }
    /* reduce to rank 0, then broadcast (next stage) */
    int rc = pc_adapt_start_reduce(ctx, g->send, g->agreed, 2 * CHECK_N, 2 * CHECK_N + g->snap_sent * slice, g->req);
    g->pending = rc == MPI_SUCCESS ? REDUCING : IDLE;
    return rc;
}

static int agreed_part(const double *recv, int from, int to)
{
    for (int i = from; i < to; i++)
        if (recv[i] != -recv[CHECK_N + i]) return 0;
    return 1;
}

/* One state's agreed period: sums, decision or re-exploration. */
static void update_state(adapt_state_t *s, const double *d, int p, int log)
{
    const pc_params_t *prm = pc_params();
    adapt_group_t *g = s->group;
    long period_calls = 0;
    for (int c = 0; c < g->ncand; c++) {
        s->tot_sum[c] += d[c];
        s->tot_call[c] += d[g->ncand + c];
        s->tot_n[c] += s->snap_n[c];
        period_calls += s->snap_n[c];
    }
    double mean = d[2 * g->ncand] / p;
    double spread = sqrt(fmax(0.0, d[2 * g->ncand + 1] / p - mean * mean));
    if (period_calls) s->last_spread = spread;
    char what[160], means[512];
    if (s->phase == WAIT) {
        if (s->calls < pc_adapt_start_calls(g)) return;
        pc_adapt_reset_exploration(s); /* at an agreement, so on every process at the same call */
        if (log) {
            pc_adapt_describe_state(s, what, sizeof what);
            pc_log(PC_LOG_DEBUG, "adapt: %s: exploring %d candidates after %lu calls of %s", what, g->ncand, s->calls,
                   g->cand[pc_adapt_wait_choice(g)]);
        }
        return;
    }
    if (s->phase == EXPLORE) {
        long need = prm->adapt_explore > 0 ? prm->adapt_explore : 1;
        for (int c = 0; c < g->ncand; c++)
            if (s->tot_n[c] < need) return;
        int best = pc_adapt_decide(s, p);
        /* re-explorations by count that confirm the choice come less and less often */
        unsigned long every = prm->adapt_reexplore > 0 ? (unsigned long)prm->adapt_reexplore : 0;
        int confirmed = s->by_count && best == s->chosen && s->reexplore_after < 1024 * every;
        s->reexplore_after = confirmed ? 2 * s->reexplore_after : every;
        s->by_count = 0;
        s->phase = EXPLOIT;
        s->chosen = best;
        s->since_decision = 0;
        s->until_sample = 0;
        s->exploit_periods = 0;
        s->decided_cost = s->tot_sum[best] / ((double)s->tot_n[best] * p);
        if (log) {
            pc_adapt_describe_state(s, what, sizeof what);
            pc_adapt_format_means(s, p, means, sizeof means);
            pc_log(PC_LOG_DEBUG, "adapt: %s: chose %s after %lu calls (mean time in call: %s)", what, g->cand[best],
                   s->explore_calls, means);
        }
        return;
    }
    const char *why = NULL;
    if (period_calls) {
        double level = spread + s->decided_cost;
        if (++s->exploit_periods == 2) s->ref_level = level; /* the first period may hold exploration calls */
        else if (s->exploit_periods > 2 && s->ref_level > 0) {
            double f = prm->adapt_spread_factor > 1 ? prm->adapt_spread_factor : 1;
            if (level > f * s->ref_level || level * f < s->ref_level) why = "the arrival spread changed";
        }
    }
    if (!why && s->reexplore_after > 0 && s->since_decision >= s->reexplore_after) {
        why = "PAPCOLL_ADAPT_REEXPLORE calls since the decision (doubled per confirmation)";
        s->by_count = 1;
    }
    if (why) {
        if (log) {
            pc_adapt_describe_state(s, what, sizeof what);
            pc_log(PC_LOG_DEBUG, "adapt: %s: exploring again after %lu calls of %s: %s (spread %.2f us, was %.2f us + cost)",
                   what, s->since_decision, g->cand[s->chosen], why, 1e6 * spread, 1e6 * (s->ref_level - s->decided_cost));
        }
        pc_adapt_reset_exploration(s);
    }
}

/* Completes the reduction of the group's agreement and broadcasts its result. */
int pc_adapt_broadcast_agreement(adapt_group_t *g, pc_comm_t *ctx)
{
    int rc = pc_adapt_agreement_wait(g);
    g->req[1] = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS)
        rc = pc_adapt_start_bcast(ctx, g->agreed, 2 * CHECK_N + g->snap_sent * pc_adapt_slice(g), &g->req[0]);
    g->pending = rc == MPI_SUCCESS ? BROADCASTING : IDLE;
    return rc;
}

/* The period until the next agreement, from what is the same on every
 * process (agreed decisions, the calls each state received): doubled, up to
 * PAPCOLL_ADAPT_PERIOD_MAX, when every state that calls reached since the
 * last agreement has settled (agreed site, decided, its reference spread
 * taken) and no site waits to be agreed on, so that a settled call site pays
 * for agreements less and less often; back to PAPCOLL_ADAPT_PERIOD as soon as
 * anything explores.  A change of the arrival spread is then seen at most one
 * period late. */
static void backoff(adapt_group_t *g)
{
    int settled = g->sites != SITES_PENDING;
    for (int i = 0; i < g->nstates; i++) {
        adapt_state_t *s = g->state[i];
        int waits = s->phase == WAIT, decided = s->phase == EXPLOIT && s->exploit_periods >= 2;
        if (s->calls > s->calls_seen && (!s->agreed || !(waits || decided))) settled = 0;
        s->calls_seen = s->calls; /* a state no call reached since (an old site) does not hold the group back */
    }
    unsigned long longer = 2 * g->period;
    g->period = settled ? (longer < pc_adapt_max_period() ? longer : pc_adapt_max_period()) : pc_adapt_base_period();
}

/* Completes the group's agreement and applies it (same call on every process). */
int pc_adapt_complete_agreement(adapt_group_t *g)
{
    int rc = pc_adapt_agreement_wait(g);
    g->pending = IDLE;
    if (rc != MPI_SUCCESS) return rc;
    const adapt_table_t *t = g->table;
    int log = t->rank == 0 && pc_log_enabled(PC_LOG_DEBUG);
    char what[160];
    if (!agreed_part(g->agreed, 0, 2)) {
        /* the processes put this call in different groups: only PAPCOLL_TUNE
         * rules conditioned on inplace can (MPI_IN_PLACE at a reduce's root) */
        if (!g->disabled && t->rank == 0)
            pc_log(PC_LOG_WARN, "adapt: %s: processes disagree on the rule or candidates; static choice %s from now on",
                   g->coll, g->cand[0]);
        g->disabled = 1;
        return MPI_SUCCESS;
    }
    if (!agreed_part(g->agreed, 2, CHECK_N)) {
        /* different call sites: key by (communicator, collective, size) only */
        if (log) {
            pc_adapt_describe_state(g->state[0], what, sizeof what);
            pc_log(PC_LOG_DEBUG, "adapt: %s: processes call from different sites; deciding without the call site", what);
        }
        for (int i = 1; i < g->nstates; i++) free(g->state[i]);
        g->nstates = 1;
        adapt_state_t *s0 = g->state[0];
        unsigned explorations = s0->explorations;
        memset(s0, 0, sizeof *s0);
        s0->group = g;
        s0->agreed = 1;
        s0->explorations = explorations;
        pc_adapt_start_waiting(s0);
        g->sites = SITES_OFF;
        return MPI_SUCCESS;
    }
    for (int i = 0; i < g->snap_sent; i++)
        update_state(g->state[i], &g->agreed[2 * CHECK_N + i * pc_adapt_slice(g)], t->size, log);
    backoff(g);
    if (g->sites != SITES_OFF) {
        if (g->sites == SITES_PENDING && g->snap_nstates == 2) {
            /* one site in the first period: it takes over state 0 (what was
             * measured, the period in progress), state 0 starts afresh */
            adapt_state_t *s0 = g->state[0], *s1 = g->state[1];
            uint64_t site = s1->site;
            uintptr_t offset = s1->offset;
            char module[sizeof s1->module];
            memcpy(module, s1->module, sizeof module);
            *s1 = *s0;
            s1->site = site;
            s1->offset = offset;
            memcpy(s1->module, module, sizeof module);
            memset(s0, 0, sizeof *s0);
            s0->group = g;
            s0->agreed = 1;
            pc_adapt_start_waiting(s0);
        }
        g->sites = SITES_ON;
        for (int i = 1; i < g->snap_nstates; i++) g->state[i]->agreed = 1;
    }
    return MPI_SUCCESS;
}
