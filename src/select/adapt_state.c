/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt_state.c - the adaptive selection's state (see adapt.h): one table
 * per communicator (an attribute of papcoll's private communicator, freed
 * with it), its groups (communicator, collective, size class, rule,
 * candidates) and their states (state 0, and one per call site), the
 * parameters that shape them, and their descriptions for logs and report.
 */
#include "select/adapt_impl.h"
#include "select/site.h"
#include "core/lock.h"
#include "core/log.h"
#include "core/progress.h"
#include "core/params.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int table_keyval = MPI_KEYVAL_INVALID;
static int finalize_keyval = MPI_KEYVAL_INVALID;
adapt_table_t *pc_adapt_live_tables;
static int tables_made;

/* ---- tables, groups, states ---- */
static int delete_table(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    adapt_table_t *t = value;
    pc_lock();
    for (adapt_table_t **p = &pc_adapt_live_tables; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    pc_unlock();
    for (adapt_group_t *g = t->groups; g; g = g->next) {
        if (g->pending) pc_adapt_agreement_wait(g);
        pc_adapt_probe_finish(g); /* a reduce posted at call 4 of a group with no call 5 */
    }
    pc_adapt_retire(t);
    while (t->groups) {
        adapt_group_t *g = t->groups;
        t->groups = g->next;
        for (int i = 0; i < g->nstates; i++) free(g->state[i]);
        free(g);
    }
    free(t);
    return MPI_SUCCESS;
}
static int at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)value; (void)extra;
    pc_adapt_write_report();
    return MPI_SUCCESS;
}

int pc_adapt_table_of(pc_comm_t *ctx, adapt_table_t **out)
{
    int rc = MPI_SUCCESS, found = 0;
    pc_lock();
    if (table_keyval == MPI_KEYVAL_INVALID) {
        rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_table, &table_keyval, NULL);
        if (rc == MPI_SUCCESS) rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &finalize_keyval, NULL);
        if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(MPI_COMM_SELF, finalize_keyval, NULL);
    }
    pc_unlock();
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_get_attr(ctx->comm, table_keyval, out, &found);
    if (rc != MPI_SUCCESS || found) return rc;
    adapt_table_t *t = calloc(1, sizeof *t);
    if (!t) return MPI_ERR_NO_MEM;
    t->rank = ctx->rank;
    t->size = ctx->size;
    t->comm = ctx->comm;
    t->leads_node = ctx->rank == pc_node_leader(ctx, ctx->my_node);
    rc = PMPI_Comm_set_attr(ctx->comm, table_keyval, t);
    if (rc != MPI_SUCCESS) {
        free(t);
        return rc;
    }
    pc_lock();
    t->id = tables_made++;
    t->next = pc_adapt_live_tables;
    pc_adapt_live_tables = t;
    pc_unlock();
    *out = t;
    return MPI_SUCCESS;
}

static int size_class(size_t bytes)
{
    if (bytes == (size_t)-1) return SIZE_CLASS_VARY;
    int c = 0;
    while (c < 64 && ((size_t)1 << c) < bytes) c++;
    return c; /* bytes in (2^(c-1), 2^c] */
}

static void format_class(int c, char *buf, size_t len)
{
    if (c == SIZE_CLASS_VARY) snprintf(buf, len, "vary");
    else if (c == 0) snprintf(buf, len, "(0,1]");
    else {
        char lo[16], hi[16];
        pc_format_size((size_t)1 << (c - 1), lo, sizeof lo);
        pc_format_size((size_t)1 << c, hi, sizeof hi);
        snprintf(buf, len, "(%s,%s]", lo, hi);
    }
}
/* PAPCOLL_ADAPT_START, g's collective's count (params.c checked the syntax) */
unsigned long pc_adapt_start_calls(const adapt_group_t *g)
{
    unsigned long n = 0;
    return pc_parse_count_list(pc_params()->adapt_start, g->coll, &n) ? 0 : n;
}

void pc_adapt_start_waiting(adapt_state_t *s)
{
    s->phase = WAIT;
    if (!pc_adapt_start_calls(s->group)) pc_adapt_reset_exploration(s);
}

/* `native` (select.c adds it to built-in and file rules) is the reference:
 * in a tie, doing what the MPI library does is no harm. */
int pc_adapt_reference(const adapt_group_t *g) { return g->reference; }

/* Before a site has made PAPCOLL_ADAPT_START calls nothing is measured, so
 * nothing says the rule's choice beats the MPI library's here: by default
 * the site runs the library's own collective (a program with few calls per
 * site runs what it would without papcoll); PAPCOLL_ADAPT_FIRST=rule runs
 * the static choice instead.  Every process of the group has the same
 * candidates, so every process picks the same one. */
int pc_adapt_first_choice(const adapt_group_t *g)
{
    return pc_params()->adapt_first[0] == 'n' ? pc_adapt_reference(g) : 0; /* "native" or "rule" (params.c checks) */
}

adapt_state_t *pc_adapt_new_state(adapt_group_t *g, uint64_t site, const char *module, uintptr_t offset)
{
    if (g->nstates == MAX_STATES) return NULL;
    adapt_state_t *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->group = g;
    s->site = site;
    snprintf(s->module, sizeof s->module, "%s", module);
    s->offset = offset;
    s->agreed = g->nstates == 0; /* state 0 (no call site); a site waits for an agreement */
    pc_adapt_start_waiting(s);
    g->state[g->nstates++] = s;
    return s;
}

/* PAPCOLL_ADAPT_PERIOD, the calls between agreements while a group explores;
 * PAPCOLL_ADAPT_PERIOD_MAX, the longest once it has settled (see backoff()). */
unsigned long pc_adapt_base_period(void)
{
    long p = pc_params()->adapt_period;
    return p > 0 ? (unsigned long)p : 1;
}

unsigned long pc_adapt_max_period(void)
{
    long p = pc_params()->adapt_period_max;
    return p > 0 && (unsigned long)p > pc_adapt_base_period() ? (unsigned long)p : pc_adapt_base_period();
}

/* The group of the last call, with the selection's own name pointers (the
 * same rules give the same pointers: a cheap test of "the same call again"). */
static adapt_group_t *remember(adapt_table_t *t, adapt_group_t *g, const pc_selection_t *sel)
{
    memset(g->cand_name, 0, sizeof g->cand_name);
    memcpy(g->cand_name, sel->candidate, (size_t)sel->ncandidates * sizeof sel->candidate[0]);
    t->last = g;
    return g;
}

adapt_group_t *pc_adapt_group_of(adapt_table_t *t, int coll_id, const char *coll, size_t bytes, int waits_for_all,
                               const pc_selection_t *sel)
{
    int cls = size_class(bytes);
    adapt_group_t *last = t->last;
    if (last && last->coll_id == coll_id && last->size_class == cls && last->rule_id == sel->rule_id &&
        last->ncand == sel->ncandidates && !memcmp(last->cand_name, sel->candidate, sizeof last->cand_name))
        return last; /* the same call as the last one: no hashing */
    uint64_t key = pc_fnv(pc_fnv(pc_fnv(PC_FNV_START, &coll_id, sizeof coll_id), &cls, sizeof cls), &sel->rule_id,
                       sizeof sel->rule_id);
    for (int i = 0; i < sel->ncandidates; i++) key = pc_fnv(key, sel->candidate[i], strlen(sel->candidate[i]) + 1);
    for (adapt_group_t *g = t->groups; g; g = g->next)
        if (g->key == key) return remember(t, g, sel);
    adapt_group_t *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->table = t;
    g->key = key;
    g->coll_id = coll_id;
    g->coll = coll;
    g->size_class = cls;
    g->rule_id = sel->rule_id;
    g->ncand = sel->ncandidates;
    for (int i = 0; i < g->ncand; i++) {
        snprintf(g->cand[i], sizeof g->cand[i], "%s", sel->candidate[i]);
        if (!g->reference && !strcmp(g->cand[i], "native")) g->reference = i;
    }
    g->sites = pc_params()->adapt_sites ? SITES_PENDING : SITES_OFF;
    g->seq_hash = PC_FNV_START;
    g->period = pc_adapt_base_period();
    /* nothing to agree on before a site can have made PAPCOLL_ADAPT_START calls */
    unsigned long start = pc_adapt_start_calls(g);
    g->next_post = (start > g->period ? start : g->period) + 1;
    pc_adapt_probe_init(g, t->size, waits_for_all);
    if (!pc_adapt_new_state(g, 0, "", 0)) {
        free(g);
        return NULL;
    }
    g->next = t->groups;
    t->groups = g;
    return remember(t, g, sel);
}

void pc_adapt_describe_state(const adapt_state_t *s, char *buf, size_t len)
{
    const adapt_group_t *g = s->group;
    char cls[48];
    format_class(g->size_class, cls, sizeof cls);
    int n = snprintf(buf, len, "%s bytes %s %s rule %u", g->coll, cls,
                     g->rule_id >> 16 == PC_RULES_TUNE ? "PAPCOLL_TUNE" : g->rule_id >> 16 == PC_RULES_FILE ? "PAPCOLL_TUNE_FILE" : "built-in",
                     g->rule_id & 0xffff);
    if (n > 0 && (size_t)n < len) {
        if (s->site) snprintf(buf + n, len - (size_t)n, " site %s+0x%lx", s->module, (unsigned long)s->offset);
        else snprintf(buf + n, len - (size_t)n, " %s", g->sites == SITES_OFF ? "any site" : "unagreed sites");
    }
}

/* Each candidate's agreed mean time in the call, microseconds. */
void pc_adapt_format_means(const adapt_state_t *s, int p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < s->group->ncand && used < len; c++) {
        int n;
        if (s->tot_n[c])
            n = snprintf(buf + used, len - used, "%s%s %.2f us [%ld]%s", c ? ", " : "", s->group->cand[c],
                         1e6 * s->tot_sum[c] / ((double)s->tot_n[c] * p), s->tot_n[c],
                         s->phase == EXPLOIT && c == s->chosen ? " *" : "");
        else n = snprintf(buf + used, len - used, "%s%s -", c ? ", " : "", s->group->cand[c]);
        if (n < 0) break;
        used += (size_t)n;
    }
}

void pc_adapt_reset_exploration(adapt_state_t *s)
{
    s->phase = EXPLORE;
    s->explore_calls = 0;
    memset(s->explore_n, 0, sizeof s->explore_n);
    s->explorations++;
    memset(s->tot_sum, 0, sizeof s->tot_sum);
    memset(s->tot_call, 0, sizeof s->tot_call);
    memset(s->tot_n, 0, sizeof s->tot_n);
    memset(s->win_sum, 0, sizeof s->win_sum); /* calls of the old choice since the snapshot */
    memset(s->win_cost, 0, sizeof s->win_cost);
    memset(s->win_n, 0, sizeof s->win_n);
}
