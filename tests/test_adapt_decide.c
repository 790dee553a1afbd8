/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_adapt_decide - adaptive selection's decision at the end of an
 * exploration (src/select/adapt_decide.c), on agreed sums built from known
 * per-candidate root times R and others' mean times O (the weights of
 * pc_adapt_weigh_root: cost (p/2)(R + O) per call, time in the call
 * R + (p - 1) O):
 *   - a reduce whose fastest root and lowest e_bar are two candidates: the
 *     one nearest to both (the larger of its two ratios the lowest), where
 *     a cost summed with the root weighed as all the others took the fastest
 *     root at 3.7x the best e_bar;
 *   - of scores within the margin, the cheaper by the root-weighted cost;
 *   - `native` stays within the margin of the choice's score;
 *   - an unrooted collective (or two processes) decides by the cost.
 * Unit test: no communication (the reference is found as adapt_state.c does).
 */
#include "select/adapt_impl.h"

#include <string.h>

#include "check.h"

int pc_adapt_reference(const adapt_group_t *g)
{
    for (int c = 0; c < g->ncand; c++)
        if (!strcmp(g->cand[c], "native")) return c;
    return 0;
}

typedef struct {
    const char *name;
    double root, others; /* us per call */
} cand_t;

/* A state of p processes that measured each candidate 4 times. */
static void fill(adapt_group_t *g, adapt_state_t *s, const cand_t *c, int n, int p, int weighs_root)
{
    memset(g, 0, sizeof *g);
    memset(s, 0, sizeof *s);
    s->group = g;
    g->ncand = n;
    g->weighs_root = weighs_root;
    for (int i = 0; i < n; i++) {
        snprintf(g->cand[i], sizeof g->cand[i], "%s", c[i].name);
        s->tot_n[i] = 4;
        s->tot_sum[i] = 4 * (weighs_root ? p / 2.0 * (c[i].root + c[i].others) : c[i].root + (p - 1) * c[i].others);
        s->tot_call[i] = 4 * (c[i].root + (p - 1) * c[i].others);
    }
}

static const char *decide(const cand_t *c, int n, int p, int weighs_root)
{
    static adapt_group_t g;
    static adapt_state_t s;
    fill(&g, &s, c, n, p, weighs_root);
    return g.cand[pc_adapt_decide(&s, p)];
}

int main(void)
{
    /* SIMULATED, dragonfly, 256 ranks, reduce of 32 KiB (e_root, e_bar in us): dynleader_scatter_gather 154, 10;
     * two_level_scatter_gather 163, 8.26; two_level 177, 2.24; native 182.7, 6.98 */
    const int p = 256;
    cand_t dragonfly[] = {{"dynleader_scatter_gather", 154, (10 * p - 154) / (p - 1.0)},
                          {"two_level_scatter_gather", 163, (8.26 * p - 163) / (p - 1.0)},
                          {"two_level", 177, (2.24 * p - 177) / (p - 1.0)},
                          {"native", 182.7, (6.98 * p - 182.7) / (p - 1.0)}};
    const char *got = decide(dragonfly, 4, p, 1);
    CHECK(!strcmp(got, "two_level"), "rooted, fastest root and lowest e_bar apart: chose %s, not two_level", got);
    /* unrooted (an allreduce's cost is the time in the call): the lowest time */
    got = decide(dragonfly, 4, p, 0);
    CHECK(!strcmp(got, "two_level"), "unrooted: chose %s, not two_level", got);
    cand_t unrooted_tie[] = {{"native", 10, 10}, {"close", 9.8, 9.8}};
    got = decide(unrooted_tie, 2, p, 0);
    CHECK(!strcmp(got, "native"), "unrooted, within the margin of native: chose %s", got);

    /* SIMULATED, 2048 ranks, 32 KiB: two_level (root 263, e_bar 1.47) and two_level_scatter_gather (147.2, 2.92)
     * score 1.96 and 1.99 against dynleader_scatter_gather's root (134.1) and two_level's e_bar: within the
     * margin, the cheaper by the root-weighted cost, two_level_scatter_gather */
    const int q = 2048;
    cand_t scale[] = {{"native", 230.1, (5.9 * q - 230.1) / (q - 1.0)},
                      {"dynleader_scatter_gather", 134.1, (8.42 * q - 134.1) / (q - 1.0)},
                      {"two_level_scatter_gather", 147.2, (2.92 * q - 147.2) / (q - 1.0)},
                      {"two_level", 263.0, (1.47 * q - 263.0) / (q - 1.0)}};
    got = decide(scale, 4, q, 1);
    CHECK(!strcmp(got, "two_level_scatter_gather"), "rooted, a tie of scores: chose %s, not the cheaper", got);

    /* both ratios of one candidate the lowest: it wins */
    cand_t clear[] = {{"native", 100, 5}, {"fast", 50, 1}, {"slow_root", 200, 0.9}};
    got = decide(clear, 3, p, 1);
    CHECK(!strcmp(got, "fast"), "rooted, one best at both: chose %s", got);

    /* the choice's score within the margin (5%) of native's: native stays */
    cand_t tie[] = {{"native", 100, 2}, {"close", 97, 2}};
    got = decide(tie, 2, p, 1);
    CHECK(!strcmp(got, "native"), "rooted, within the margin of native: chose %s", got);

    /* two processes: R and O cannot come apart; the cost decides */
    cand_t two[] = {{"native", 10, 10}, {"cheap", 5, 5}};
    got = decide(two, 2, 2, 1);
    CHECK(!strcmp(got, "cheap"), "p = 2: chose %s", got);

    if (failures) fprintf(stderr, "test_adapt_decide: %d failures\n", failures);
    else printf("test_adapt_decide: ok\n");
    return failures != 0;
}
