/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * call_memo.c - a communicator's last call of each collective (see
 * call_memo.h).
 */
#include "coll/call_memo.h"
#include "coll/entry.h"
#include "core/log.h"
#include "core/params.h"
#include "core/phase.h"
#include "core/type_info.h"
#include "select/site.h"

#include <stdlib.h>
#include <string.h>

enum { MEMO_COLLS = 16 }; /* more than the collectives' ids (entry.c's catalogue) */

typedef struct pc_call_memo {
    int kept;
    unsigned long generation;        /* pc_params_generation() when kept */
    MPI_Datatype datatype;
    int count;
    MPI_Op op;
    int inplace;
    void *caller;                    /* the call site's return address (pc_site_caller) */
    struct adapt_group *group;       /* adaptation's group of the call, NULL without adaptation */
    uint64_t site;                   /* the site's hash, for the group's bookkeeping */
    const pc_algorithm_t *algo[PC_TUNE_MAX_CANDIDATES]; /* the choice's candidates (algo[0] without adaptation) */
    pc_call_t call;                  /* the described call */
} pc_call_memo_t;

static int repeatable(const pc_call_t *a, const pc_adapt_ticket_t *ticket)
{
    pc_type_info_t scratch;
    if (a->coll->id < 0 || a->coll->id >= MEMO_COLLS || a->count <= 0 || a->bytes == 0 ||
        (a->op != MPI_OP_NULL && !a->op_builtin) || !pc_type_info(a->datatype, &scratch)->named)
        return 0; /* (no debug log, no phase report: pc_call_memo_repeat checks those on every repeat) */
    /* adaptation: a quiet call (nothing measured, no probe) whose group pc_adapt_repeat can step */
    return !ticket || (!ticket->state && !ticket->probe && ticket->group);
}

void pc_call_memo_keep(const pc_call_t *a, const pc_choice_t *choice, const pc_adapt_ticket_t *ticket)
{
    pc_comm_t *ctx = a->ctx;
    int id = a->coll->id;
    void *caller = ticket ? pc_site_caller() : NULL;
    if (!repeatable(a, ticket) || (ticket && !caller)) {
        if (ctx->memos && id >= 0 && id < MEMO_COLLS) ctx->memos[id].kept = 0;
        return;
    }
    if (!ctx->memos && !(ctx->memos = calloc(MEMO_COLLS, sizeof *ctx->memos))) return;
    pc_call_memo_t *m = &ctx->memos[id];
    m->kept = 1;
    m->generation = pc_params_generation();
    m->datatype = a->datatype;
    m->count = a->count;
    m->op = a->op;
    m->inplace = a->inplace;
    m->caller = caller;
    m->group = ticket ? ticket->group : NULL;
    m->site = ticket ? ticket->site : 0;
    for (int i = 0; i < choice->sel.ncandidates; i++) m->algo[i] = choice->algo[i];
    m->call = *a;
}

int pc_call_memo_selects(const char *forced, const char *source)
{
    return !forced || !strcmp(forced, "auto") || !strncmp(source, "PAPCOLL_", 8);
}

pc_comm_t *pc_call_memo_context(const char *forced, const char *source, MPI_Comm comm)
{
    return pc_call_memo_selects(forced, source) ? pc_comm_known(comm) : NULL;
}

pc_call_t *pc_call_memo_repeat(pc_comm_t *ctx, const pc_coll_t *coll, MPI_Datatype datatype, int count, MPI_Op op,
                               int inplace, const pc_algorithm_t **algo)
{
    pc_call_memo_t *m = ctx->memos && coll->id >= 0 && coll->id < MEMO_COLLS ? &ctx->memos[coll->id] : NULL;
    if (!m || !m->kept || m->datatype != datatype || m->count != count || m->op != op || m->inplace != inplace ||
        m->generation != pc_params_generation() || pc_log_enabled(PC_LOG_DEBUG) || pc_phase_enabled)
        return NULL; /* (the phase report is read at the first call, after its memo was kept) */
    int c = 0;
    if (m->group && (m->caller != pc_site_caller() || (c = pc_adapt_repeat(ctx, m->group, m->site)) < 0)) return NULL;
    *algo = m->algo[c];
    return &m->call;
}
