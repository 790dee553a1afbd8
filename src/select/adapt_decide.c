/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt_decide.c - the decision at the end of an exploration (adapt.h,
 * "Exploration"): which candidate a call site runs, from the agreed sums
 * over the processes of each candidate's cost and time in the call.
 *
 * Unrooted collectives (and PAPCOLL_ADAPT_COST=iteration): of the candidates
 * the cheapest is not PAPCOLL_ADAPT_MARGIN faster than, the one of the lowest
 * mean time in the call; the reference (`native`, else the rule's first)
 * stays unless that choice is clearly faster.
 *
 * Rooted collectives whose root collects (reduce, gather), more than two
 * processes: each candidate's root time R and mean time of the others O come
 * apart from its two sums (pc_adapt_weigh_root's weights: the cost sums
 * (p/2)(R + O) per call, the time in the call R + (p - 1) O), and it scores
 * the larger of R / (lowest R) and e_bar / (lowest e_bar), e_bar = (R +
 * (p - 1) O) / p: the two targets a user of a reduce has (the root's result
 * soon, the others free soon), each against the best candidate at it.  Of the
 * candidates within the margin of the lowest score, the cheapest by the cost
 * (the root weighed as all the others together: ratios alone would trade
 * 130 us at the root for 1.4 us at the others, simulated at 2048 ranks, 32
 * KiB); the reference stays unless the choice scores the margin below it.
 * Where one candidate has the fastest root and another the lowest e_bar,
 * this takes the one nearest to both: simulated at 256 ranks on a
 * dragonfly, 32 KiB, `two_level` (e_bar 1.00x the best, root 1.15x) over
 * `two_level_scatter_gather` (3.7x, 1.06x), which the cost alone picked.
 */
#include "select/adapt_impl.h"

/* Candidate c's mean cost and mean time in the call in s (each summed over the processes). */
static double cost_mean(const adapt_state_t *s, int c) { return s->tot_sum[c] / (double)s->tot_n[c]; }
static double call_mean(const adapt_state_t *s, int c) { return s->tot_call[c] / (double)s->tot_n[c]; }

/* Whether candidate a's mean cost in s is below b's by PAPCOLL_ADAPT_MARGIN of b's time in the call (its cost,
 * unless the cost is the iteration's).  A margin >= 1 (params.c: >= 0) is never met. */
static int clearly_faster(const adapt_state_t *s, int a, int b)
{
    double margin_of = pc_adapt_iteration_cost() ? call_mean(s, b) : cost_mean(s, b);
    return cost_mean(s, a) <= cost_mean(s, b) - pc_params()->adapt_margin * margin_of;
}

static int decide_by_cost(const adapt_state_t *s)
{
    const adapt_group_t *g = s->group;
    int best = 0;
    for (int c = 1; c < g->ncand; c++)
        if (cost_mean(s, c) < cost_mean(s, best)) best = c;
    /* of the candidates the cheapest is not clearly faster than, the one of
     * the lowest mean time in the call (e_bar) */
    int pick = best;
    for (int c = 0; c < g->ncand; c++)
        if (!clearly_faster(s, best, c) && call_mean(s, c) < call_mean(s, pick)) pick = c;
    /* the reference (the MPI library's own collective, else the rule's
     * first) stays unless the choice is clearly faster: a few calls under
     * random arrival measure mostly noise, and in a tie doing what the MPI
     * library does is no harm */
    int ref = pc_adapt_reference(g);
    return pick != ref && !clearly_faster(s, pick, ref) ? ref : pick;
}

/* Rooted: candidate c's root time and e_bar (per call) from its sums. */
static void root_and_mean(const adapt_state_t *s, int c, int p, double *root, double *e_bar)
{
    double half_sum = 2.0 * cost_mean(s, c) / p; /* R + O */
    double others = (call_mean(s, c) - half_sum) / (p - 2);
    *root = half_sum - others;
    *e_bar = call_mean(s, c) / p;
}

static int decide_rooted(const adapt_state_t *s, int p)
{
    const adapt_group_t *g = s->group;
    double root[NCAND], e_bar[NCAND], score[NCAND], best_root = 0, best_e = 0;
    for (int c = 0; c < g->ncand; c++) {
        root_and_mean(s, c, p, &root[c], &e_bar[c]);
        if (c == 0 || root[c] < best_root) best_root = root[c];
        if (c == 0 || e_bar[c] < best_e) best_e = e_bar[c];
    }
    if (!(best_root > 0 && best_e > 0)) return decide_by_cost(s); /* a clock that did not move */
    int best = 0;
    for (int c = 0; c < g->ncand; c++) {
        double r = root[c] / best_root, e = e_bar[c] / best_e;
        score[c] = r > e ? r : e;
        if (score[c] < score[best]) best = c;
    }
    double margin = pc_params()->adapt_margin;
    int pick = best;
    for (int c = 0; c < g->ncand; c++)
        if (score[c] <= score[best] * (1 + margin) && cost_mean(s, c) < cost_mean(s, pick)) pick = c;
    int ref = pc_adapt_reference(g);
    return pick != ref && !(score[pick] <= score[ref] * (1 - margin)) ? ref : pick;
}

int pc_adapt_decide(const adapt_state_t *s, int p)
{
    if (s->group->weighs_root && p > 2 && !pc_adapt_iteration_cost()) return decide_rooted(s, p);
    return decide_by_cost(s);
}
