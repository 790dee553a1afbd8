/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * adapt_impl.h - private to src/select/adapt*.c: the adaptive selection's
 * tables, groups and states (the design is in adapt.h), and the functions
 * its files share.
 *
 *   adapt.c         the entry points: pc_adapt_choose(), pc_adapt_record()
 *   adapt_state.c   tables (one per communicator), groups, states
 *   adapt_agree.c   the agreement: snapshot, nonblocking reductions, decisions
 *   adapt_decide.c  the decision at the end of an exploration
 *   adapt_probe.c   the early probe: the static choice against `native`, once per group
 *   adapt_report.c  PAPCOLL_ADAPT_REPORT at MPI_Finalize
 */
#ifndef PC_ADAPT_IMPL_H
#define PC_ADAPT_IMPL_H

#include "select/adapt.h"
#include "core/params.h"

#include <mpi.h>
#include <stdint.h>

enum { NCAND = PC_TUNE_MAX_CANDIDATES, MAX_SITES = 8, MAX_STATES = MAX_SITES + 1 };
enum { SITES_PENDING, SITES_ON, SITES_OFF };   /* a group's call-site keying */
enum { WAIT, EXPLORE, EXPLOIT };                /* a state's phase: WAIT runs pc_adapt_first_choice() unmeasured */
enum { IDLE, REDUCING, BROADCASTING };          /* a group's agreement in flight */
enum { PROBE_OFF, PROBE_RUNNING, PROBE_REDUCING, PROBE_DONE }; /* a group's early probe (adapt_probe.c) */
enum { CHECK_N = 5 };                           /* group key hi/lo, site sequence hi/lo, sites */
/* The most an agreement carries per state (pc_adapt_slice: a group's own is 2 ncand + 2) */
enum { PER_STATE = 2 * NCAND + 2 };
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
    long explore_n[NCAND];          /* this process's measured calls per candidate since then (the same on
                                       every process: which calls are measured depends on the call count) */
    unsigned long since_decision;   /* calls since the decision */
    unsigned long reexplore_after;  /* since_decision that explores again: PAPCOLL_ADAPT_REEXPLORE, doubled
                                       each time such an exploration confirmed the choice */
    int by_count;                   /* the exploration in progress came from reexplore_after */
    unsigned long until_sample;     /* EXPLOIT: calls until the next measured one (adapt.c, exploit_measured) */
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
    int reference;                  /* the index of `native` among them, else 0 (pc_adapt_reference) */
    const char *cand_name[NCAND];   /* the last selection's pointers to those names (group_of's cache) */
    unsigned long calls;
    int sites, disabled;
    int weighs_root;                /* the cost weighs the root's time (pc_adapt_weigh_root): reduce, gather */
    uint64_t seq_hash;              /* call sites since the last snapshot */
    int nstates, snap_nstates;
    int snap_sent;                  /* states whose data the agreement in flight carries: the agreed ones, a
                                       prefix of state[] of the same length on every process */
    adapt_state_t *state[MAX_STATES];
    int pending;                    /* agreement in flight: REDUCING, then BROADCASTING */
    unsigned long complete_at;      /* the call that completes the current stage */
    unsigned long period;           /* calls between agreements now (base_period() .. PAPCOLL_ADAPT_PERIOD_MAX) */
    unsigned long stage;            /* calls per stage of the agreement in flight: its period / 4 */
    unsigned long posted_at, next_post; /* the call that posted the last agreement; that of the next */
    unsigned long agreements;       /* posted so far */
    MPI_Request req[2];
    double send[2 * CHECK_N + MAX_STATES * PER_STATE]; /* the checks (combined by MPI_MAX), then the data (MPI_SUM) */
    /* the agreed values: reduced at rank 0, then broadcast (one message) */
    double agreed[2 * CHECK_N + MAX_STATES * PER_STATE]; /* the checks, then the data */
    /* the early probe (adapt_probe.c) */
    int probe;                      /* PROBE_OFF (none), PROBE_RUNNING (calls 1-4), PROBE_REDUCING, PROBE_DONE */
    int probe_winner;               /* PROBE_DONE: what waiting states run (the rule's first or `native`) */
    double probe_cost[2];           /* this process's costs: the rule's first (call 4), `native` (call 2) */
    double probe_sum[2];            /* rank 0: their sums over the processes */
    double probe_mean[2];           /* rank 0: their means (for the log and the report) */
    MPI_Request probe_req;          /* the reduce posted at the end of call 4 */
} adapt_group_t;

typedef struct adapt_table {
    struct adapt_table *next;
    int id, rank, size;
    MPI_Comm comm;
    int leads_node;                 /* this process leads its node (the agreements' forwarding: adapt_messages.c) */
    adapt_group_t *groups;
    adapt_group_t *last;            /* the group of the last call */
} adapt_table_t;

/* One state's slice of an agreement's data (the same length on every
 * process: the candidates are part of the group): the cost sums per
 * candidate, then the time-in-call sums per candidate, then the mean e_i and
 * the mean e_i^2 over the process's calls. */
static inline int pc_adapt_slice(const adapt_group_t *g) { return 2 * g->ncand + 2; }

/* PAPCOLL_ADAPT_COST=iteration (params.c checks the choices: "call" or
 * "iteration"): a call's cost runs from the previous call's exit. */
static inline int pc_adapt_iteration_cost(void) { return pc_params()->adapt_cost[0] == 'i'; }

/* Every live table (under pc_lock), for the report at MPI_Finalize. */
extern adapt_table_t *pc_adapt_live_tables;

/* ---- tables, groups, states (adapt_state.c) ---- */

/* The adaptation table of ctx's communicator, made on first use. */
int pc_adapt_table_of(pc_comm_t *ctx, adapt_table_t **out);
/* The group of a call (made on first use; waits_for_all: pc_adapt_choose's); NULL when out of memory. */
adapt_group_t *pc_adapt_group_of(adapt_table_t *t, int coll_id, const char *coll, size_t bytes, int waits_for_all,
                                 const pc_selection_t *sel);
/* A new state of g for a call site (NULL when g is full). */
adapt_state_t *pc_adapt_new_state(adapt_group_t *g, uint64_t site, const char *module, uintptr_t offset);
/* PAPCOLL_ADAPT_START's count for g's collective */
unsigned long pc_adapt_start_calls(const adapt_group_t *g);
/* A new or reset state runs pc_adapt_first_choice() until it has made
 * PAPCOLL_ADAPT_START calls (explores at once when that is 0). */
void pc_adapt_start_waiting(adapt_state_t *s);
/* The candidate another must beat by PAPCOLL_ADAPT_MARGIN: `native` where
 * the rule counts it, else the rule's first. */
int pc_adapt_reference(const adapt_group_t *g);
/* The candidate an exploration of s decides on (adapt_decide.c), from its agreed sums over p processes. */
int pc_adapt_decide(const adapt_state_t *s, int p);
/* What a state runs before PAPCOLL_ADAPT_START calls (PAPCOLL_ADAPT_FIRST):
 * the reference, or the rule's first candidate. */
int pc_adapt_first_choice(const adapt_group_t *g);
/* PAPCOLL_ADAPT_PERIOD, PAPCOLL_ADAPT_PERIOD_MAX (see backoff(), adapt_agree.c). */
unsigned long pc_adapt_base_period(void);
unsigned long pc_adapt_max_period(void);
/* A state for logs and the report: collective, size class, rule, site. */
void pc_adapt_describe_state(const adapt_state_t *s, char *buf, size_t len);
/* Each candidate's agreed mean time in the call, microseconds. */
void pc_adapt_format_means(const adapt_state_t *s, int p, char *buf, size_t len);
/* Starts an exploration of every candidate afresh. */
void pc_adapt_reset_exploration(adapt_state_t *s);

/* ---- the agreement (adapt_agree.c) ---- */

/* Snapshot of the periods since the last one, and the nonblocking reduces to rank 0. */
int pc_adapt_post_agreement(adapt_group_t *g, pc_comm_t *ctx);
/* Completes the reduction of the group's agreement and broadcasts its result. */
int pc_adapt_broadcast_agreement(adapt_group_t *g, pc_comm_t *ctx);

/* ---- the agreement's messages (adapt_messages.c) ---- */

/* The nonblocking reduce of n doubles to rank 0 of ctx->comm, MPI_MAX over the first n_max, MPI_SUM over the
 * rest: natively two MPI_Ireduce (req[1] null when n == n_max), under SMPI one message per process (req[1] null). */
int pc_adapt_start_reduce(pc_comm_t *ctx, const double *send, double *recv, int n_max, int n, MPI_Request req[2]);
/* The nonblocking broadcast of n doubles from rank 0 of ctx->comm. */
int pc_adapt_start_bcast(pc_comm_t *ctx, double *buf, int n, MPI_Request *req);
/* Advances the agreements in flight where this process must forward (under SMPI; natively the MPI library does). */
void pc_adapt_agreement_progress(const pc_comm_t *ctx);
/* Waits for the group's agreement stage in flight (g->req). */
int pc_adapt_agreement_wait(adapt_group_t *g);
#ifdef PAPCOLL_SMPI
/* Waits for every agreement stage in flight on this process (finalize_smpi.c, before SMPI's MPI_Finalize). */
void pc_adapt_finish_agreements(void);
#endif
/* Completes the group's agreement and applies it (same call on every process). */
int pc_adapt_complete_agreement(adapt_group_t *g);

/* ---- the early probe (adapt_probe.c) ---- */

/* Whether g (a new group of a communicator of p processes, of a collective
 * nobody leaves before the last arrival if waits_for_all) probes: sets g->probe. */
void pc_adapt_probe_init(adapt_group_t *g, int p, int waits_for_all);
/* What a waiting state runs: the probe's winner once decided, else pc_adapt_first_choice(). */
int pc_adapt_wait_choice(const adapt_group_t *g);
/* The probe's step for the group's call-th call: 1 (`native`, unmeasured),
 * 2 (`native`, measured), 3 (the rule's first, unmeasured), 4 (the same,
 * measured), 0 (none). */
int pc_adapt_probe_call(const adapt_group_t *g, unsigned long call);
/* The candidate the probe's step (1-4) runs: `native` in 1-2, the rule's first in 3-4. */
int pc_adapt_probe_candidate(const adapt_group_t *g, int step);
/* Call 2's or 4's cost (ticket->probe); after call 4 posts the reduce. */
void pc_adapt_probe_record(const pc_adapt_ticket_t *ticket, double in_call);
/* Call 5, before choosing: completes the reduce, rank 0 decides, broadcasts. */
int pc_adapt_probe_decide(adapt_group_t *g);
/* Completes a reduce still in flight, undecided (the communicator is being freed). */
void pc_adapt_probe_finish(adapt_group_t *g);

/* ---- PAPCOLL_ADAPT_REPORT (adapt_report.c) ---- */

/* Keeps the report of a table freed before MPI_Finalize. */
void pc_adapt_retire(adapt_table_t *t);
/* Writes every table's states (at MPI_Finalize). */
void pc_adapt_write_report(void);

#endif
