/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt.c - adaptive selection among a rule's candidates: the entry points
 * (see adapt.h for the design: groups, states, cost, agreement, exploration).
 *
 *   pc_adapt_choose()  group of the call -> the early probe's decision (5th call)
 *                      -> complete / post its agreement -> state (site)
 *                      -> candidate (the probe's, a block each in turn, or the choice)
 *   pc_adapt_record()  the call's time into the state's current period
 *
 * The rest (adapt_impl.h): tables, groups and states (adapt_state.c); the
 * agreement, agreed sums -> means -> decision / re-exploration
 * (adapt_agree.c); PAPCOLL_ADAPT_REPORT at MPI_Finalize (adapt_report.c).
 */
#include "select/adapt_impl.h"
#include "select/site.h"
#include "core/log.h"
#include "core/params.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Calls of one candidate in a row while exploring: a warm-up call, then
 * PAPCOLL_ADAPT_EXPLORE measured ones. */
static long explore_block(void)
{
    long e = pc_params()->adapt_explore;
    return 1 + (e > 0 ? e : 1);
}

/* Whether every candidate of s has had PAPCOLL_ADAPT_EXPLORE measured calls
 * in this exploration (the agreement that follows can decide). */
static int explored(const adapt_group_t *g, const adapt_state_t *s)
{
    long need = pc_params()->adapt_explore > 0 ? pc_params()->adapt_explore : 1;
    for (int c = 0; c < g->ncand; c++)
        if (s->explore_n[c] < need) return 0;
    return 1;
}

/* Measured calls per agreement period of a decided state (at least one call
 * in every few: see exploit_measured). */
enum { EXPLOIT_SAMPLES = 16 };

/* Whether a decided state's call is measured: about EXPLOIT_SAMPLES per
 * period, the first call due that moves no agreement message.  Enough for
 * the spread's check (a period's mean time in the call per process), and a
 * settled site then reads no clock on most calls: each read costs (SMPI
 * charges 10 ns; SIMULATED, a 0.40 us reduce on 16 ranks took 0.418 us over
 * calls 200-264 with two reads per decided call, 0.406 with this sampling).
 * The same calls on every process (the count and the agreement calls are).
 * PAPCOLL_ADAPT_COST=iteration measures every call: its cost runs from the
 * previous call's exit. */
static int exploit_measured(const adapt_group_t *g, adapt_state_t *s, int agreement_call)
{
    if (pc_adapt_iteration_cost()) return 1;
    if (s->until_sample > 0) s->until_sample--;
    if (s->until_sample > 0 || agreement_call) return 0;
    unsigned long every = g->period / EXPLOIT_SAMPLES;
    s->until_sample = every > 1 ? every : 1;
    return 1;
}

/* The state a site has of its own, or NULL. */
static adapt_state_t *own_state(const adapt_group_t *g, uint64_t site)
{
    for (int i = 1; i < g->nstates; i++)
        if (g->state[i]->site == site) return g->state[i];
    return NULL;
}

/* The state a site's calls run under: its own once the processes agree on
 * the site, else state 0. */
static adapt_state_t *state_of_site(const adapt_group_t *g, adapt_state_t *own)
{
    return own && own->agreed && g->sites == SITES_ON ? own : g->state[0];
}

/* ---- the entry points ---- */

int pc_adapt_applies(const pc_comm_t *ctx, const pc_selection_t *sel)
{
    return pc_params()->adapt && ctx->size > 1 && sel->ncandidates > 1 && sel->rule_id != 0;
}

int pc_adapt_choose(pc_comm_t *ctx, int coll_id, const char *coll, size_t bytes, int waits_for_all,
                    const pc_selection_t *sel, pc_adapt_ticket_t *ticket, char *why, size_t whylen)
{
    memset(ticket, 0, sizeof *ticket);
    adapt_table_t *t = ctx->adapt_table; /* owned by the attribute on ctx->comm, freed with it */
    int rc = MPI_SUCCESS;
    if (!t && (rc = pc_adapt_table_of(ctx, &t)) == MPI_SUCCESS) ctx->adapt_table = t;
    if (rc != MPI_SUCCESS) return rc;
    adapt_group_t *g = pc_adapt_group_of(t, coll_id, coll, bytes, waits_for_all, sel);
    if (!g) return MPI_ERR_NO_MEM;
    unsigned long call = ++g->calls;
    /* the early probe's decision (adapt_probe.c): at the group's 5th call,
     * before any agreement (they begin after PAPCOLL_ADAPT_START > 5 calls) */
    if (g->probe == PROBE_REDUCING || (g->probe == PROBE_RUNNING && call > 4))
        if ((rc = pc_adapt_probe_decide(g)) != MPI_SUCCESS) return rc;
    /* a call that moves agreement messages is not measured: they share the
     * network with the algorithm (the same calls on every process) */
    int agreement_call = g->pending && call == g->complete_at;
    if (g->pending && !agreement_call) pc_adapt_agreement_progress(ctx);
    if (g->pending == BROADCASTING && call == g->complete_at) {
        rc = pc_adapt_complete_agreement(g);
        unsigned long next = g->posted_at + g->period; /* the period backoff() just set */
        g->next_post = next > call ? next : call + 1;
    }
    if (g->pending == REDUCING && call == g->complete_at) {
        rc = pc_adapt_broadcast_agreement(g, ctx);
        g->complete_at = call + g->stage;
    }
    if (rc == MPI_SUCCESS && !g->pending && !g->disabled && call == g->next_post) {
        rc = pc_adapt_post_agreement(g, ctx);
        g->stage = g->period / 4 ? g->period / 4 : 1;
        g->posted_at = call;
        g->complete_at = call + g->stage;
        agreement_call = 1;
    }
    if (rc != MPI_SUCCESS) return rc;
    /* the selection's reason (which rule), then adaptation's: only for the
     * debug line (formatting costs more than the rest of a call here) */
    if (!pc_log_enabled(PC_LOG_DEBUG)) whylen = 0;
    size_t used = whylen ? strnlen(why, whylen) : 0;
    if (whylen) used += (size_t)snprintf(why + used, whylen - used, "; adapt: ");
    if (used >= whylen) used = whylen ? whylen - 1 : 0;
    if (g->disabled) {
        if (whylen) snprintf(why + used, whylen - used, "static choice (processes disagree)");
        return MPI_SUCCESS;
    }
    adapt_state_t *s = g->state[0];
    uint64_t site = 0;
    if (g->sites != SITES_OFF) {
        const char *module;
        uintptr_t offset;
        site = pc_site_current(&module, &offset);
        g->seq_hash = pc_fnv_word(g->seq_hash, site);
        adapt_state_t *own = own_state(g, site);
        if (!own) own = pc_adapt_new_state(g, site, module, offset); /* NULL when full: state 0 */
        s = state_of_site(g, own);
    }
    ticket->group = g;
    ticket->site = site;
    int c, block_start = 0, idle = 0, skip = 0, probe = pc_adapt_probe_call(g, call);
    if (probe) {
        /* calls 1-4 of a probing group (every state waits then): `native`,
         * then the rule's first, each a warm-up call then a measured one */
        c = pc_adapt_probe_candidate(g, probe);
        if (whylen)
            snprintf(why + used, whylen - used, "probe %d/4: %s%s", probe, g->cand[c], probe % 2 ? " (warm-up)" : "");
    } else if (s->phase == WAIT) {
        c = pc_adapt_wait_choice(g);
        if (whylen)
            snprintf(why + used, whylen - used, "%s until PAPCOLL_ADAPT_START calls here%s", g->cand[c],
                     g->probe == PROBE_DONE ? " (the probe's)" : "");
    } else if (s->phase == EXPLOIT) {
        c = s->chosen;
        s->since_decision++;
        skip = !exploit_measured(g, s, agreement_call);
        if (whylen) snprintf(why + used, whylen - used, "exploit %s", g->cand[c]);
    } else if (explored(g, s)) {
        /* every candidate has its measured calls: the reference, unmeasured,
         * until the agreement that decides (up to a period and a half away),
         * rather than more rounds of candidates that may cost twice as much */
        c = pc_adapt_reference(g);
        idle = 1;
        if (whylen) snprintf(why + used, whylen - used, "explored, %s until the decision", g->cand[c]);
    } else {
        /* blocks of consecutive calls per candidate, the first unmeasured:
         * a call's cost spills into the next (processes an algorithm lets go
         * early wait longer in the next call, the more so back to back), so
         * the spill of the previous candidate lands on the unmeasured call.
         * Round after round until every candidate has its measured calls. */
        unsigned long k = s->explore_calls++, len = (unsigned long)explore_block();
        c = (int)((k / len) % (unsigned long)g->ncand);
        block_start = k % len == 0;
        if (whylen) snprintf(why + used, whylen - used, "explore %d/%d", c + 1, g->ncand);
    }
    s->calls++;
    ticket->candidate = c;
    /* WAIT measures nothing: no state in the ticket, so no clock read either
     * (two per call; SMPI charges each, and a program's arrival wave feels
     * even that) */
    if (probe == 2 || probe == 4) { /* the probe's measured calls: clock read, the root's weighing (pc_adapt_weigh_root) */
        ticket->state = s;
        ticket->probe = probe;
        ticket->measured = 1;
        ticket->weight = 1;
        return MPI_SUCCESS;
    }
    if (s->phase == WAIT || probe || skip) return MPI_SUCCESS;
    ticket->state = s;
    /* a candidate's first call here always starts a block: first-use costs are never measured */
    ticket->measured = !idle && !block_start && !agreement_call;
    ticket->weight = 1;
    ticket->iteration_cost = pc_adapt_iteration_cost();
    return MPI_SUCCESS;
}

int pc_adapt_repeat(const pc_comm_t *ctx, struct adapt_group *g, uint64_t site)
{
    /* pc_adapt_choose's steps for call number g->calls + 1, where each would
     * leave the call quiet (-1 as soon as one would not) */
    unsigned long call = g->calls + 1;
    if (g->disabled || g->probe == PROBE_RUNNING || g->probe == PROBE_REDUCING) return -1;
    if (g->pending ? call == g->complete_at : call == g->next_post) return -1; /* an agreement's step */
    adapt_state_t *own = NULL;
    if (g->sites != SITES_OFF && !(own = own_state(g, site)) && g->nstates < MAX_STATES) return -1; /* a new state */
    adapt_state_t *s = g->sites != SITES_OFF ? state_of_site(g, own) : g->state[0];
    int c;
    if (s->phase == WAIT) c = pc_adapt_wait_choice(g);
    else if (s->phase == EXPLOIT && !pc_adapt_iteration_cost() && s->until_sample > 1) c = s->chosen; /* unmeasured */
    else return -1;
    /* the call is quiet: its bookkeeping, as pc_adapt_choose does it */
    g->calls = call;
    if (g->pending) pc_adapt_agreement_progress(ctx);
    if (g->sites != SITES_OFF) g->seq_hash = pc_fnv_word(g->seq_hash, site);
    if (s->phase == EXPLOIT) {
        s->since_decision++;
        s->until_sample--;
    }
    s->calls++;
    return c;
}

void pc_adapt_record(const pc_adapt_ticket_t *ticket, double start, double end)
{
    adapt_state_t *s = ticket->state;
    if (!s) return;
    if (ticket->probe) { /* the state waits: nothing of it changes */
        pc_adapt_probe_record(ticket, end - start);
        return;
    }
    double in_call = end - start, cost = in_call;
    if (ticket->iteration_cost && s->last_exit > 0 && s->last_cand == ticket->candidate) cost = end - s->last_exit;
    s->last_exit = end;
    s->last_cand = ticket->candidate;
    if (!ticket->measured) return;
    if (s->phase == EXPLORE) s->explore_n[ticket->candidate]++;
    s->win_sum[ticket->candidate] += in_call;
    s->win_cost[ticket->candidate] += cost * ticket->weight;
    s->win_n[ticket->candidate]++;
}

void pc_adapt_weigh_root(pc_adapt_ticket_t *ticket, int is_root, int p)
{
    if (p > 1) ticket->weight = is_root ? p / 2.0 : p / (2.0 * (p - 1));
    if (ticket->state) ticket->state->group->weighs_root = 1; /* the same on every process: the collective's */
}
