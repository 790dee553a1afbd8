/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * call_memo.c - a communicator's last call of each collective (see
 * call_memo.h).
 */
#include "coll/call_memo.h"
#include "coll/block_view.h"
#include "coll/entry.h"
#include "core/log.h"
#include "core/params.h"
#include "core/phase.h"
#include "core/type_info.h"
#include "select/site.h"

#include <stdlib.h>
#include <string.h>

enum { MEMO_COLLS = 16 }; /* more than the collectives' ids (entry.c's catalogue) */

/* What a call's checks and description depend on besides its buffers and
 * root (call_memo.h). */
typedef struct call_key {
    MPI_Datatype type[2];  /* element and byte views: the datatype; blocks: each used side's (else NULL: a rooted
                              collective's root uses a side the others do not, so its key differs from theirs) */
    int count[2];
    MPI_Op op;
    int flags;             /* KEY_* */
} call_key_t;

enum { KEY_IN_PLACE = 1, KEY_FORM = 2, KEY_SEND_IN_PLACE = 4, KEY_RECV_IN_PLACE = 8 };

typedef struct pc_call_memo {
    int kept;
    unsigned long generation;        /* pc_params_generation() when kept */
    call_key_t key;
    const pc_algorithm_t *named;     /* the algorithm named by the call (NULL: selected automatically) */
    void *caller;                    /* the call site's return address (pc_site_caller) */
    struct adapt_group *group;       /* adaptation's group of the call, NULL without adaptation */
    uint64_t site;                   /* the site's hash, for the group's bookkeeping */
    const pc_algorithm_t *algo[PC_TUNE_MAX_CANDIDATES]; /* the choice's candidates (algo[0] without adaptation) */
    pc_call_t call;                  /* the described call */
} pc_call_memo_t;

/* a's key on the process of rank `rank`; 0 when a cannot be kept by key:
 * the v and w forms (their arrays). */
static inline int key_of(const pc_call_t *a, int rank, call_key_t *k)
{
    *k = (call_key_t){{MPI_DATATYPE_NULL, MPI_DATATYPE_NULL}, {0, 0}, a->op, 0};
    if (a->coll->synchronizes) return 1;
    if (!a->coll->blocks) {
        if (a->recvcounts) return 0; /* MPI_Reduce_scatter */
        k->type[0] = a->datatype;
        k->count[0] = a->count;
        k->flags = (a->inplace ? KEY_IN_PLACE : 0) | (a->vform ? KEY_FORM : 0);
        return 1;
    }
    if (a->vform) return 0;
    pc_block_sides_t s = pc_blocks_sides(a, rank);
    if (s.sends && !s.send_in_place) {
        k->type[0] = a->sendtype;
        k->count[0] = a->sendcount;
    }
    if (s.receives && !s.recv_in_place) {
        k->type[1] = a->recvtype;
        k->count[1] = a->recvcount;
    }
    k->flags = (s.send_in_place ? KEY_SEND_IN_PLACE : 0) | (s.recv_in_place ? KEY_RECV_IN_PLACE : 0);
    return 1;
}

static inline int same_key(const call_key_t *x, const call_key_t *y)
{
    return x->type[0] == y->type[0] && x->count[0] == y->count[0] && x->type[1] == y->type[1] &&
           x->count[1] == y->count[1] && x->op == y->op && x->flags == y->flags;
}

/* A key whose handles never change meaning: predefined datatypes and op
 * (or none), and data on every used side (a count > 0). */
static int lasting(const call_key_t *k, const pc_call_t *a)
{
    pc_type_info_t scratch;
    if (a->op != MPI_OP_NULL && !a->op_builtin) return 0;
    for (int i = 0; i < 2; i++)
        if (k->type[i] != MPI_DATATYPE_NULL && (k->count[i] <= 0 || !pc_type_info(k->type[i], &scratch)->named))
            return 0;
    return a->coll->synchronizes || k->type[0] != MPI_DATATYPE_NULL || k->type[1] != MPI_DATATYPE_NULL;
}

static int repeatable(const pc_call_t *a, const pc_adapt_ticket_t *ticket, call_key_t *key)
{
    if (a->coll->id < 0 || a->coll->id >= MEMO_COLLS || (a->bytes == 0 && !a->coll->synchronizes) ||
        !key_of(a, a->ctx->rank, key) || !lasting(key, a))
        return 0; /* (no debug log, no phase report: pc_call_memo_repeat checks those on every repeat) */
    /* adaptation: a quiet call (nothing measured, no probe) whose group pc_adapt_repeat can step */
    return !ticket || (!ticket->state && !ticket->probe && ticket->group);
}

void pc_call_memo_keep(const pc_call_t *a, const pc_choice_t *choice, const char *forced,
                       const pc_adapt_ticket_t *ticket)
{
    pc_comm_t *ctx = a->ctx;
    int id = a->coll->id;
    void *caller = ticket ? pc_site_caller() : NULL;
    /* a name that is no algorithm selects automatically (entry.c): its calls take the whole path */
    int is_auto = pc_name_is_auto(forced);
    const pc_algorithm_t *named = is_auto ? NULL : pc_coll_find(a->coll, forced);
    call_key_t key;
    if (!repeatable(a, ticket, &key) || (ticket && !caller) || (!is_auto && named != choice->algo[0])) {
        if (ctx->memos && id >= 0 && id < MEMO_COLLS) ctx->memos[id].kept = 0;
        return;
    }
    if (!ctx->memos && !(ctx->memos = calloc(MEMO_COLLS, sizeof *ctx->memos))) return;
    pc_call_memo_t *m = &ctx->memos[id];
    m->kept = 1;
    m->generation = pc_params_generation();
    m->key = key;
    m->named = named;
    m->caller = caller;
    m->group = ticket ? ticket->group : NULL;
    m->site = ticket ? ticket->site : 0;
    for (int i = 0; i < choice->sel.ncandidates; i++) m->algo[i] = choice->algo[i];
    m->call = *a;
}

pc_call_t *pc_call_memo_repeat(pc_comm_t *ctx, const pc_call_t *a, const char *forced, const pc_algorithm_t **algo)
{
    int id = a->coll->id;
    pc_call_memo_t *m = ctx->memos && id >= 0 && id < MEMO_COLLS ? &ctx->memos[id] : NULL;
    call_key_t key;
    if (!m || !m->kept || m->generation != pc_params_generation() || pc_log_enabled(PC_LOG_DEBUG) ||
        pc_phase_enabled || !key_of(a, ctx->rank, &key) || !same_key(&m->key, &key) ||
        (pc_name_is_auto(forced) ? m->named != NULL : !m->named || strcmp(forced, m->named->name)))
        return NULL; /* (the phase report is read at the first call, after its memo was kept) */
    int c = 0;
    if (m->group && (m->caller != pc_site_caller() || (c = pc_adapt_repeat(ctx, m->group, m->site)) < 0)) return NULL;
    *algo = m->algo[c];
    pc_call_t *call = &m->call;
    call->root = a->root;
    call->sendbuf = a->sendbuf;
    call->recvbuf = a->recvbuf;
    call->user_buf = a->user_buf;
    call->inplace = a->inplace;
    return call;
}
