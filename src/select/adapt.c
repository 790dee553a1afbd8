/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt.c - adaptive selection among a rule's candidates (see adapt.h for
 * the design: groups, states, cost, agreement, exploration).
 *
 *   pc_adapt_choose()  group of the call -> complete / post its agreement
 *                      -> state (site) -> candidate (a block each in turn, or the choice)
 *   pc_adapt_record()  the call's time into the state's current period
 *   complete()         agreed sums -> means -> decision / re-exploration
 *   report_*()         PAPCOLL_ADAPT_REPORT at MPI_Finalize
 */
#include "select/adapt.h"
#include "select/site.h"
#include "core/lock.h"
#include "core/log.h"
#include "core/progress.h"
#include "core/params.h"

#include <fcntl.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NCAND = PC_TUNE_MAX_CANDIDATES, MAX_SITES = 8, MAX_STATES = MAX_SITES + 1 };
enum { SITES_PENDING, SITES_ON, SITES_OFF };   /* a group's call-site keying */
enum { WAIT, EXPLORE, EXPLOIT };                /* a state's phase: WAIT runs the static choice unmeasured */
enum { IDLE, REDUCING, BROADCASTING };          /* a group's agreement in flight */
enum { CHECK_N = 5 };                           /* group key hi/lo, site sequence hi/lo, sites */
/* per state: cost sums per candidate, time-in-call sums per candidate, mean e_i, mean e_i^2 */
enum { CALL_AT = NCAND, MEAN_AT = 2 * NCAND, PER_STATE = 2 * NCAND + 2 };
#define SIZE_CLASS_VARY 255

typedef struct adapt_state {
    struct adapt_group *group;
    uint64_t site;                  /* 0: state 0 (no call site) */
    char module[40];                /* the site, for logs: module name + offset */
    uintptr_t offset;
    int agreed;                     /* processes agree on this site: calls run here */
    int phase;
    int chosen;                     /* EXPLOIT: the candidate */
    unsigned long explore_calls;    /* calls since the exploration began */
    unsigned long since_decision;   /* calls since the decision */
    unsigned long reexplore_after;  /* since_decision that explores again: PAPCOLL_ADAPT_REEXPLORE, doubled
                                       each time such an exploration confirmed the choice */
    int by_count;                   /* the exploration in progress came from reexplore_after */
    unsigned long calls;            /* all calls routed here */
    unsigned explorations;          /* explorations begun */
    /* this process, since the last snapshot */
    double win_sum[NCAND];          /* time in the call */
    double win_cost[NCAND];         /* the cost (PAPCOLL_ADAPT_COST), the root's weighed (pc_adapt_weigh_root) */
    long win_n[NCAND];
    double last_exit;               /* this process's exit from the last call here (0: none yet) */
    int last_cand;                  /* that call's candidate */
    /* the snapshot in flight */
    long snap_n[NCAND];
    int snap_agreed;
    /* agreed: sums over the processes since the exploration began */
    double tot_sum[NCAND];          /* of the costs */
    double tot_call[NCAND];         /* of the times in the call */
    long tot_n[NCAND];
    double decided_cost;            /* the choice's mean at the decision */
    int exploit_periods;            /* agreements since the decision with calls here */
    unsigned long calls_seen;       /* calls at the last backoff(): it had calls since if fewer than calls */
    double ref_level, last_spread;  /* spread + cost after the decision; the last spread */
} adapt_state_t;

typedef struct adapt_group {
    struct adapt_group *next;
    struct adapt_table *table;
    uint64_t key;
    int coll_id, size_class;
    const char *coll;
    unsigned rule_id;
    int ncand;
    char cand[NCAND][64];
    const char *cand_name[NCAND];   /* the last selection's pointers to those names (group_of's cache) */
    unsigned long calls;
    int sites, disabled;
    uint64_t seq_hash;              /* call sites since the last snapshot */
    int nstates, snap_nstates;
    adapt_state_t *state[MAX_STATES];
    int pending;                    /* agreement in flight: REDUCING, then BROADCASTING */
    unsigned long complete_at;      /* the call that completes the current stage */
    unsigned long period;           /* calls between agreements now (base_period() .. PAPCOLL_ADAPT_PERIOD_MAX) */
    unsigned long stage;            /* calls per stage of the agreement in flight: its period / 4 */
    unsigned long posted_at, next_post; /* the call that posted the last agreement; that of the next */
    unsigned long agreements;       /* posted so far */
    MPI_Request req[2];
    double check_send[2 * CHECK_N], data_send[MAX_STATES * PER_STATE];
    /* the agreed values: reduced at rank 0, then broadcast (one message) */
    double agreed[2 * CHECK_N + MAX_STATES * PER_STATE]; /* the checks, then the data */
} adapt_group_t;

typedef struct adapt_table {
    struct adapt_table *next;
    int id, rank, size;
    MPI_Comm comm;
    adapt_group_t *groups;
    adapt_group_t *last;            /* the group of the last call */
} adapt_table_t;

static int table_keyval = MPI_KEYVAL_INVALID;
static int finalize_keyval = MPI_KEYVAL_INVALID;
static adapt_table_t *live_tables;
static int tables_made;
static char *retired_report;        /* reports of tables freed before MPI_Finalize */
static size_t retired_len;
static int report_written;

/* ---- tables, groups, states ---- */

static void retire(adapt_table_t *t);

static int delete_table(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    adapt_table_t *t = value;
    pc_lock();
    for (adapt_table_t **p = &live_tables; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    pc_unlock();
    MPI_Status statuses[2]; /* not MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's access attributes */
    for (adapt_group_t *g = t->groups; g; g = g->next)
        if (g->pending) pc_waitall(2, g->req, statuses);
    retire(t);
    while (t->groups) {
        adapt_group_t *g = t->groups;
        t->groups = g->next;
        for (int i = 0; i < g->nstates; i++) free(g->state[i]);
        free(g);
    }
    free(t);
    return MPI_SUCCESS;
}

static void write_report(void);

static int at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)value; (void)extra;
    write_report();
    return MPI_SUCCESS;
}

static int table_of(pc_comm_t *ctx, adapt_table_t **out)
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
    rc = PMPI_Comm_set_attr(ctx->comm, table_keyval, t);
    if (rc != MPI_SUCCESS) {
        free(t);
        return rc;
    }
    pc_lock();
    t->id = tables_made++;
    t->next = live_tables;
    live_tables = t;
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

static void reset_exploration(adapt_state_t *s);

/* PAPCOLL_ADAPT_START */
static unsigned long start_calls(void)
{
    long n = pc_params()->adapt_start;
    return n > 0 ? (unsigned long)n : 0;
}

/* A new or reset state runs the static choice until it has made
 * PAPCOLL_ADAPT_START calls (explores at once when that is 0). */
static void start_waiting(adapt_state_t *s)
{
    s->phase = WAIT;
    if (!start_calls()) reset_exploration(s);
}

static adapt_state_t *new_state(adapt_group_t *g, uint64_t site, const char *module, uintptr_t offset)
{
    if (g->nstates == MAX_STATES) return NULL;
    adapt_state_t *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->group = g;
    s->site = site;
    snprintf(s->module, sizeof s->module, "%s", module);
    s->offset = offset;
    s->agreed = site == 0;
    start_waiting(s);
    g->state[g->nstates++] = s;
    return s;
}

/* PAPCOLL_ADAPT_PERIOD, the calls between agreements while a group explores;
 * PAPCOLL_ADAPT_PERIOD_MAX, the longest once it has settled (see backoff()). */
static unsigned long base_period(void)
{
    long p = pc_params()->adapt_period;
    return p > 0 ? (unsigned long)p : 1;
}

static unsigned long max_period(void)
{
    long p = pc_params()->adapt_period_max;
    return p > 0 && (unsigned long)p > base_period() ? (unsigned long)p : base_period();
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

static adapt_group_t *group_of(adapt_table_t *t, int coll_id, const char *coll, size_t bytes,
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
    for (int i = 0; i < g->ncand; i++) snprintf(g->cand[i], sizeof g->cand[i], "%s", sel->candidate[i]);
    g->sites = pc_params()->adapt_sites ? SITES_PENDING : SITES_OFF;
    g->seq_hash = PC_FNV_START;
    g->period = base_period();
    /* nothing to agree on before a site can have made PAPCOLL_ADAPT_START calls */
    g->next_post = (start_calls() > g->period ? start_calls() : g->period) + 1;
    if (!new_state(g, 0, "", 0)) {
        free(g);
        return NULL;
    }
    g->next = t->groups;
    t->groups = g;
    return remember(t, g, sel);
}

static void describe_state(const adapt_state_t *s, char *buf, size_t len)
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
static void format_means(const adapt_state_t *s, int p, char *buf, size_t len)
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

static void reset_exploration(adapt_state_t *s)
{
    s->phase = EXPLORE;
    s->explore_calls = 0;
    s->explorations++;
    memset(s->tot_sum, 0, sizeof s->tot_sum);
    memset(s->tot_call, 0, sizeof s->tot_call);
    memset(s->tot_n, 0, sizeof s->tot_n);
    memset(s->win_sum, 0, sizeof s->win_sum); /* calls of the old choice since the snapshot */
    memset(s->win_cost, 0, sizeof s->win_cost);
    memset(s->win_n, 0, sizeof s->win_n);
}

/* ---- agreement ---- */

static void split_hash(uint64_t h, double *hi, double *lo)
{
    *hi = (double)(h >> 32);
    *lo = (double)(h & 0xffffffffu);
}

/* Snapshot of the periods since the last one, and the nonblocking allreduces. */
static int post_agreement(adapt_group_t *g, MPI_Comm comm)
{
    double *chk = g->check_send;
    split_hash(g->key, &chk[0], &chk[1]);
    split_hash(g->sites == SITES_OFF ? 0 : g->seq_hash, &chk[2], &chk[3]);
    chk[4] = g->sites == SITES_OFF ? 0 : g->nstates;
    for (int i = 0; i < CHECK_N; i++) chk[CHECK_N + i] = -chk[i];
    g->seq_hash = PC_FNV_START;
    g->snap_nstates = g->nstates;
    g->agreements++;
    memset(g->data_send, 0, sizeof g->data_send);
    for (int i = 0; i < g->nstates; i++) {
        adapt_state_t *s = g->state[i];
        double *d = &g->data_send[i * PER_STATE];
        double sum = 0;
        long n = 0;
        s->snap_agreed = s->agreed;
        for (int c = 0; c < g->ncand; c++) {
            d[c] = s->win_cost[c];
            d[CALL_AT + c] = s->win_sum[c];
            s->snap_n[c] = s->win_n[c];
            sum += s->win_sum[c];
            n += s->win_n[c];
        }
        double mean = n ? sum / (double)n : 0;
        d[MEAN_AT] = mean;
        d[MEAN_AT + 1] = mean * mean;
        memset(s->win_sum, 0, sizeof s->win_sum);
        memset(s->win_cost, 0, sizeof s->win_cost);
        memset(s->win_n, 0, sizeof s->win_n);
    }
    /* reduce to rank 0, then broadcast (next stage): 3 (p - 1) messages where
     * SMPI 3.32's MPI_Iallreduce sends p (p - 1) */
    int rc = PMPI_Ireduce(g->check_send, g->agreed, 2 * CHECK_N, MPI_DOUBLE, MPI_MAX, 0, comm, &g->req[0]);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ireduce(g->data_send, g->agreed + 2 * CHECK_N, MAX_STATES * PER_STATE, MPI_DOUBLE, MPI_SUM, 0, comm, &g->req[1]);
    else g->req[1] = MPI_REQUEST_NULL;
    g->pending = rc == MPI_SUCCESS ? REDUCING : IDLE;
    return rc;
}

static int agreed_part(const double *recv, int from, int to)
{
    for (int i = from; i < to; i++)
        if (recv[i] != -recv[CHECK_N + i]) return 0;
    return 1;
}

/* The candidate another must beat by PAPCOLL_ADAPT_MARGIN: `native` where
 * the rule counts it (select.c adds it to built-in and file rules), else the
 * rule's first. */
static int reference_candidate(const adapt_group_t *g)
{
    for (int c = 0; c < g->ncand; c++)
        if (!strcmp(g->cand[c], "native")) return c;
    return 0;
}

/* One state's agreed period: sums, decision or re-exploration. */
static void update_state(adapt_state_t *s, const double *d, int p, int log)
{
    const pc_params_t *prm = pc_params();
    adapt_group_t *g = s->group;
    long period_calls = 0;
    for (int c = 0; c < g->ncand; c++) {
        s->tot_sum[c] += d[c];
        s->tot_call[c] += d[CALL_AT + c];
        s->tot_n[c] += s->snap_n[c];
        period_calls += s->snap_n[c];
    }
    double mean = d[MEAN_AT] / p;
    double spread = sqrt(fmax(0.0, d[MEAN_AT + 1] / p - mean * mean));
    if (period_calls) s->last_spread = spread;
    char what[160], means[512];
    if (s->phase == WAIT) {
        if (s->calls < start_calls()) return;
        reset_exploration(s); /* at an agreement, so on every process at the same call */
        if (log) {
            describe_state(s, what, sizeof what);
            pc_log(PC_LOG_DEBUG, "adapt: %s: exploring %d candidates after %lu calls of %s", what, g->ncand, s->calls,
                   g->cand[0]);
        }
        return;
    }
    if (s->phase == EXPLORE) {
        long need = prm->adapt_explore > 0 ? prm->adapt_explore : 1;
        int best = -1;
        for (int c = 0; c < g->ncand; c++) {
            if (s->tot_n[c] < need) return;
            double m = s->tot_sum[c] / (double)s->tot_n[c];
            if (best < 0 || m < s->tot_sum[best] / (double)s->tot_n[best]) best = c;
        }
        /* the reference (the MPI library's own collective, else the rule's
         * first) stays unless another is clearly faster: a few calls under
         * random arrival measure mostly noise, and in a tie doing what the
         * MPI library does is no harm.  "Clearly": by PAPCOLL_ADAPT_MARGIN of
         * the reference's time in the call (its cost, unless the cost is the
         * iteration's) */
        int ref = reference_candidate(g);
        double margin = prm->adapt_margin; /* >= 0 (params.c); >= 1: the reference always stays */
        double ref_cost = s->tot_sum[ref] / (double)s->tot_n[ref];
        double margin_of = prm->adapt_cost[0] == 'i' ? s->tot_call[ref] / (double)s->tot_n[ref] : ref_cost;
        if (best != ref && s->tot_sum[best] / (double)s->tot_n[best] > ref_cost - margin * margin_of) best = ref;
        /* re-explorations by count that confirm the choice come less and less often */
        unsigned long every = prm->adapt_reexplore > 0 ? (unsigned long)prm->adapt_reexplore : 0;
        int confirmed = s->by_count && best == s->chosen && s->reexplore_after < 1024 * every;
        s->reexplore_after = confirmed ? 2 * s->reexplore_after : every;
        s->by_count = 0;
        s->phase = EXPLOIT;
        s->chosen = best;
        s->since_decision = 0;
        s->exploit_periods = 0;
        s->decided_cost = s->tot_sum[best] / ((double)s->tot_n[best] * p);
        if (log) {
            describe_state(s, what, sizeof what);
            format_means(s, p, means, sizeof means);
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
            describe_state(s, what, sizeof what);
            pc_log(PC_LOG_DEBUG, "adapt: %s: exploring again after %lu calls of %s: %s (spread %.2f us, was %.2f us + cost)",
                   what, s->since_decision, g->cand[s->chosen], why, 1e6 * spread, 1e6 * (s->ref_level - s->decided_cost));
        }
        reset_exploration(s);
    }
}

/* Completes the reduction of the group's agreement and broadcasts its result. */
static int broadcast_agreement(adapt_group_t *g, MPI_Comm comm)
{
    MPI_Status statuses[2];
    int rc = pc_waitall(2, g->req, statuses);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ibcast(g->agreed, 2 * CHECK_N + MAX_STATES * PER_STATE, MPI_DOUBLE, 0, comm, &g->req[0]);
    g->req[1] = MPI_REQUEST_NULL;
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
    g->period = settled ? (longer < max_period() ? longer : max_period()) : base_period();
}

/* Completes the group's agreement and applies it (same call on every process). */
static int complete_agreement(adapt_group_t *g)
{
    MPI_Status statuses[2];
    int rc = pc_waitall(2, g->req, statuses);
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
            describe_state(g->state[0], what, sizeof what);
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
        start_waiting(s0);
        g->sites = SITES_OFF;
        return MPI_SUCCESS;
    }
    for (int i = 0; i < g->snap_nstates; i++)
        if (g->state[i]->snap_agreed) update_state(g->state[i], &g->agreed[2 * CHECK_N + i * PER_STATE], t->size, log);
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
            start_waiting(s0);
        }
        g->sites = SITES_ON;
        for (int i = 1; i < g->snap_nstates; i++) g->state[i]->agreed = 1;
    }
    return MPI_SUCCESS;
}

/* Calls of one candidate in a row while exploring: a warm-up call, then
 * PAPCOLL_ADAPT_EXPLORE measured ones. */
static long explore_block(void)
{
    long e = pc_params()->adapt_explore;
    return 1 + (e > 0 ? e : 1);
}

/* ---- the entry points ---- */

int pc_adapt_applies(const pc_comm_t *ctx, const pc_selection_t *sel)
{
    return pc_params()->adapt && ctx->size > 1 && sel->ncandidates > 1 && sel->rule_id != 0;
}

int pc_adapt_choose(pc_comm_t *ctx, int coll_id, const char *coll, size_t bytes, const pc_selection_t *sel,
                    pc_adapt_ticket_t *ticket, char *why, size_t whylen)
{
    memset(ticket, 0, sizeof *ticket);
    adapt_table_t *t = ctx->adapt_table; /* owned by the attribute on ctx->comm, freed with it */
    int rc = MPI_SUCCESS;
    if (!t && (rc = table_of(ctx, &t)) == MPI_SUCCESS) ctx->adapt_table = t;
    if (rc != MPI_SUCCESS) return rc;
    adapt_group_t *g = group_of(t, coll_id, coll, bytes, sel);
    if (!g) return MPI_ERR_NO_MEM;
    unsigned long call = ++g->calls;
    /* a call that moves agreement messages is not measured: they share the
     * network with the algorithm (the same calls on every process) */
    int agreement_call = g->pending && call == g->complete_at;
    if (g->pending == BROADCASTING && call == g->complete_at) {
        rc = complete_agreement(g);
        unsigned long next = g->posted_at + g->period; /* the period backoff() just set */
        g->next_post = next > call ? next : call + 1;
    }
    if (g->pending == REDUCING && call == g->complete_at) {
        rc = broadcast_agreement(g, ctx->comm);
        g->complete_at = call + g->stage;
    }
    if (rc == MPI_SUCCESS && !g->pending && !g->disabled && call == g->next_post) {
        rc = post_agreement(g, ctx->comm);
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
    if (g->sites != SITES_OFF) {
        const char *module;
        uintptr_t offset;
        uint64_t site = pc_site_current(&module, &offset);
        g->seq_hash = pc_fnv(g->seq_hash, &site, sizeof site);
        adapt_state_t *found = NULL;
        for (int i = 1; i < g->nstates && !found; i++)
            if (g->state[i]->site == site) found = g->state[i];
        if (!found) found = new_state(g, site, module, offset); /* NULL when full: state 0 */
        if (found && found->agreed && g->sites == SITES_ON) s = found;
    }
    int c, block_start = 0;
    if (s->phase == WAIT) {
        c = 0;
        if (whylen) snprintf(why + used, whylen - used, "static until PAPCOLL_ADAPT_START calls here");
    } else if (s->phase == EXPLOIT) {
        c = s->chosen;
        s->since_decision++;
        if (whylen) snprintf(why + used, whylen - used, "exploit %s", g->cand[c]);
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
    ticket->state = s;
    ticket->candidate = c;
    /* a candidate's first call here always starts a block: first-use costs are never measured */
    ticket->measured = s->phase != WAIT && !block_start && !agreement_call;
    ticket->weight = 1;
    ticket->iteration_cost = pc_params()->adapt_cost[0] == 'i'; /* "iteration" (params.c checks the choices) */
    return MPI_SUCCESS;
}

void pc_adapt_record(const pc_adapt_ticket_t *ticket, double start, double end)
{
    adapt_state_t *s = ticket->state;
    if (!s) return;
    double in_call = end - start, cost = in_call;
    if (ticket->iteration_cost && s->last_exit > 0 && s->last_cand == ticket->candidate) cost = end - s->last_exit;
    s->last_exit = end;
    s->last_cand = ticket->candidate;
    if (!ticket->measured) return;
    s->win_sum[ticket->candidate] += in_call;
    s->win_cost[ticket->candidate] += cost * ticket->weight;
    s->win_n[ticket->candidate]++;
}

void pc_adapt_weigh_root(pc_adapt_ticket_t *ticket, int is_root, int p)
{
    if (p > 1) ticket->weight = is_root ? p / 2.0 : p / (2.0 * (p - 1));
}

/* ---- PAPCOLL_ADAPT_REPORT ---- */

static void append(char **buf, size_t *len, const char *text)
{
    size_t n = strlen(text);
    char *grown = realloc(*buf, *len + n + 1);
    if (!grown) return;
    memcpy(grown + *len, text, n + 1);
    *buf = grown;
    *len += n;
}

/* The table's states, written by the communicator's rank 0 (agreed data are
 * the same on every process). */
static void render(const adapt_table_t *t, char **buf, size_t *len)
{
    if (t->rank != 0) return;
    for (const adapt_group_t *g = t->groups; g; g = g->next)
        for (int i = 0; i < g->nstates; i++) {
            const adapt_state_t *s = g->state[i];
            if (!s->calls) continue;
            char what[160], means[512], line[900];
            describe_state(s, what, sizeof what);
            format_means(s, t->size, means, sizeof means);
            snprintf(line, sizeof line,
                     "papcoll adapt: comm %d (p=%d) %s: %lu calls, %s%s, explorations %u, spread %.2f us: %s; "
                     "%lu agreements, the last every %lu calls\n",
                     t->id, t->size, what, s->calls,
                     g->disabled ? "static " : s->phase == EXPLOIT ? "choice " : s->phase == WAIT ? "static, waiting: " : "exploring",
                     g->disabled || s->phase == WAIT ? g->cand[0] : s->phase == EXPLOIT ? g->cand[s->chosen] : "", s->explorations,
                     1e6 * s->last_spread, means, g->agreements, g->period);
            append(buf, len, line);
        }
}

static void retire(adapt_table_t *t)
{
    const char *where = pc_params()->adapt_report;
    if (!where || !*where || report_written) return;
    pc_lock();
    render(t, &retired_report, &retired_len);
    pc_unlock();
}

static void write_report(void)
{
    const char *where = pc_params()->adapt_report;
    if (!where || !*where || report_written) return;
    pc_lock();
    report_written = 1;
    char *buf = retired_report;
    size_t len = retired_len;
    retired_report = NULL;
    retired_len = 0;
    for (adapt_table_t *t = live_tables; t; t = t->next) render(t, &buf, &len);
    pc_unlock();
    if (len) {
        if (!strcmp(where, "1")) fputs(buf, stderr);
        else {
            int fd = open(where, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
                pc_log(PC_LOG_WARN, "PAPCOLL_ADAPT_REPORT: cannot write %s", where);
            if (fd >= 0) close(fd);
        }
    }
    free(buf);
}
