/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * entry.c - the one entry path of every collective (see entry.h).
 */
#include "coll/entry.h"
#include "coll/block_view.h"
#include "coll/call_memo.h"
#include "coll/choice_cache.h"
#include "core/args.h"
#include "core/log.h"
#include "core/p2p.h"
#include "core/phase.h"
#include "core/state.h"
#include "core/type_info.h"
#include "select/adapt.h"
#include "select/select.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pc_coll_t *const catalogue[] = {&pc_bcast_coll,     &pc_reduce_coll,   &pc_allreduce_coll, &pc_allgather_coll,
                                             &pc_alltoall_coll, &pc_gather_coll,   &pc_scatter_coll,   &pc_reduce_scatter_coll,
                                             &pc_barrier_coll,    &pc_scan_coll};

int pc_coll_count(void) { return (int)(sizeof catalogue / sizeof catalogue[0]); }

const pc_coll_t *pc_coll_by_name(const char *name)
{
    for (int i = 0; name && i < pc_coll_count(); i++)
        if (!strcmp(catalogue[i]->name, name)) return catalogue[i];
    return NULL;
}

const pc_algorithm_t *pc_coll_find(const pc_coll_t *coll, const char *name)
{
    for (int i = 0; name && i < coll->nalgorithms; i++)
        if (!strcmp(coll->algorithms[i].name, name)) return &coll->algorithms[i];
    return NULL;
}

const char *pc_call_name(const pc_call_t *a)
{
    const char *form = a->coll->forms[a->wform ? 2 : a->vform != 0];
    return form ? form : a->coll->name;
}

/* The debug line's bytes: a->bytes, or where processes do not know each
 * other's counts (PC_BYTES_VARY) what this process sends plus receives. */
static const char *bytes_text(const pc_call_t *a, char *text, size_t len)
{
    if (a->bytes == PC_BYTES_VARY) snprintf(text, len, "%zu (sent+received here)", pc_blocks_own_bytes(a));
    else snprintf(text, len, "%zu", a->bytes);
    return text;
}

/* Why algo cannot run this call, or NULL when it can. */
static const char *unusable(const pc_algorithm_t *algo, const pc_call_t *a)
{
    if (a->op == MPI_OP_NULL) return NULL;
    if ((algo->requirements & PC_BUILTIN_OP_ONLY) && !a->op_builtin) return "it needs a predefined op";
    if ((algo->requirements & PC_COMMUTATIVE_ONLY) && !a->commutative) return "it needs a commutative op";
    return NULL;
}

static int check_name(const char *name, const void *arg)
{
    const pc_call_t *a = arg;
    const pc_algorithm_t *algo = pc_coll_find(a->coll, name);
    return !algo ? PC_NAME_UNKNOWN : unusable(algo, a) ? PC_NAME_UNUSABLE : PC_NAME_OK;
}

/* A forced algorithm that cannot run this call (reason): may auto run it
 * instead?  Only for a name from a collective's parameter, which applies to
 * every call of the program, and as PAPCOLL_FALLBACK says (the same policy
 * as MPICH's MPIR_CVAR_COLLECTIVE_FALLBACK); papcoll_NAME_by_name's caller
 * asked for that algorithm on this call, and is refused.  The warning is
 * printed once per collective and process, by rank 0 of the communicator. */
static int falls_back(const pc_call_t *a, const char *forced, const char *source, const char *reason)
{
    const char *policy = a->params->fallback;
    if (strncmp(source, "PAPCOLL_", 8) || !strcmp(policy, "error")) return 0;
    static atomic_uint warned; /* one bit per collective */
    unsigned bit = 1u << a->coll->id;
    int first = !(atomic_fetch_or(&warned, bit) & bit);
    if (first && a->ctx->rank == 0 && strcmp(policy, "silent"))
        pc_log(PC_LOG_WARN, "%s: %s=%s cannot run some calls (%s): auto runs them (PAPCOLL_FALLBACK=warn)",
               a->coll->name, source, forced, reason);
    return 1;
}

/* The algorithm for (forced or auto): the rule's candidates, the static
 * choice first, memoized on the communicator when selected automatically
 * (choice_cache.h).  fresh holds a choice made now.  NULL only when a forced
 * algorithm cannot run this call and may not fall back (*rc set).  An unknown
 * forced name selects automatically (select.h warns); a fallback to native is
 * logged. */
static const pc_choice_t *choose(const pc_call_t *a, const char *forced, const char *source, pc_choice_t *fresh,
                                 int *rc)
{
    const pc_coll_t *coll = a->coll;
    int automatic = pc_name_is_auto(forced);
    if (!automatic) {
        const pc_algorithm_t *algo = pc_coll_find(coll, forced);
        const char *reason = algo ? unusable(algo, a) : NULL;
        if (reason && falls_back(a, forced, source, reason)) {
            forced = "auto";
            automatic = 1;
        } else if (reason) {
            pc_log(PC_LOG_WARN, "%s: %s (%s) cannot run this call: %s: MPI_ERR_OP", coll->name, forced, source, reason);
            *rc = MPI_ERR_OP;
            return NULL;
        }
        if (algo && !automatic) {
            fresh->sel = (pc_selection_t){.name = algo->name, .ncandidates = 1, .candidate = {algo->name}};
            fresh->algo[0] = algo;
            if (pc_log_enabled(PC_LOG_DEBUG)) snprintf(fresh->why, sizeof fresh->why, "forced by %s", source);
            return fresh;
        }
    }
    pc_select_input_t in = {coll->name, a->bytes, a->ctx->size, a->ctx->nnodes, a->ctx->max_ppn,
                            a->op == MPI_OP_NULL ? PC_OP_NONE : a->op_builtin ? PC_OP_BUILTIN : PC_OP_USER,
                            a->commutative, a->inplace};
    const pc_choice_t *memo = automatic ? pc_choice_lookup(a->ctx, coll->id, &in) : NULL;
    if (memo) return memo;
    pc_selection_t *sel = &fresh->sel;
    const char *name = pc_select_rule(forced, source, coll->id, coll->default_rules, &in, check_name, a, sel,
                                      fresh->why, sizeof fresh->why);
    if (!name || !pc_coll_find(coll, name)) { /* only if the rules lack a catch-all: never silent */
        *sel = (pc_selection_t){.name = "native", .ncandidates = 1, .candidate = {"native"}};
        snprintf(fresh->why, sizeof fresh->why, "no rule matched: fallback to native");
        pc_log(PC_LOG_WARN, "%s: %s", coll->name, fresh->why);
    }
    for (int i = 0; i < sel->ncandidates; i++) fresh->algo[i] = pc_coll_find(coll, sel->candidate[i]);
    if (automatic) pc_choice_store(a->ctx, coll->id, &in, fresh);
    return fresh;
}

/* Byte collectives: runs algo on contiguous bytes, packing and unpacking
 * non-contiguous data (the root packs, the others unpack). */
static int run_bytes(const pc_algorithm_t *algo, pc_call_t *a, int contiguous)
{
    if (algo->requirements & PC_WANTS_DATATYPE || contiguous) {
        a->buf = (char *)a->user_buf + a->true_lb;
        return algo->fn(a);
    }
    a->buf = malloc(a->bytes);
    if (!a->buf) return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    if (a->ctx->rank == a->root) rc = pc_pack(a->user_buf, a->count, a->datatype, a->buf, a->bytes, a->ctx->comm);
    if (rc == MPI_SUCCESS) rc = algo->fn(a);
    if (rc == MPI_SUCCESS && a->ctx->rank != a->root)
        rc = pc_unpack(a->buf, a->bytes, a->user_buf, a->count, a->datatype, a->ctx->comm);
    free(a->buf);
    return rc;
}

/* Runs algo on the described call a. */
static int dispatch(const pc_algorithm_t *algo, pc_call_t *a)
{
    if (a->ctx->size == 1) return a->coll->single ? a->coll->single(a) : MPI_SUCCESS;
    if (a->coll->moves_bytes) return run_bytes(algo, a, a->contiguous);
    if (a->coll->blocks) return pc_blocks_run(algo, a);
    return algo->fn(a);
}

void pc_call_describe(pc_call_t *a)
{
    a->commutative = 1;
    a->op_builtin = 0;
    if (a->coll->synchronizes) { /* no data */
        a->bytes = 0;
        a->contiguous = 1;
        return;
    }
    if (a->coll->blocks) { /* two datatypes, counts per block: block_view.c */
        pc_blocks_describe(a);
        return;
    }
    pc_type_info_t type_scratch; /* size_x: a derived type may be larger than INT_MAX bytes */
    const pc_type_info_t *t = pc_type_info(a->datatype, &type_scratch);
    a->extent = t->extent;
    a->true_lb = t->true_lb;
    a->true_extent = t->true_extent;
    a->bytes = (size_t)t->size * (size_t)a->count;
    a->contiguous = a->bytes == 0 || ((size_t)a->true_extent == (size_t)t->size &&
                                      (a->count == 1 || a->extent == a->true_extent));
    if (a->op != MPI_OP_NULL) {
        pc_op_info_t op_scratch;
        const pc_op_info_t *o = pc_op_info(a->op, &op_scratch);
        a->commutative = o->commutative;
        a->op_builtin = o->predefined;
    }
}

int pc_coll_run(pc_call_t *a, MPI_Comm comm, const char *forced, const char *source)
{
    int rc = pc_comm_get(comm, &a->ctx);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    a->params = pc_params();
    a->seq = ++a->ctx->seq;
    pc_call_describe(a);
    pc_choice_t fresh;
    const pc_choice_t *choice = choose(a, forced, source, &fresh, &rc);
    if (!choice) return pc_error(comm, rc);
    const pc_algorithm_t *algo = choice->algo[0];
    char why[192];
    why[0] = '\0';
    if (pc_log_enabled(PC_LOG_DEBUG)) snprintf(why, sizeof why, "%s", choice->why);
    /* PAPCOLL_ADAPT: one of the rule's candidates, measured (select/adapt.h) */
    pc_adapt_ticket_t ticket = {0};
    int adapting = a->bytes != 0 && pc_adapt_applies(a->ctx, &choice->sel);
    if (adapting) {
        rc = pc_adapt_choose(a->ctx, a->coll->id, a->coll->name, a->bytes, a->coll->waits_for_all, &choice->sel, &ticket,
                             why, sizeof why);
        if (rc != MPI_SUCCESS) return pc_error(comm, rc);
        algo = choice->algo[ticket.candidate];
        if (a->coll->root_collects) pc_adapt_weigh_root(&ticket, a->ctx->rank == a->root, a->ctx->size);
    }
    pc_set_last_algorithm(algo->name);
    if (pc_log_enabled(PC_LOG_DEBUG)) {
        char bytes[48], root[24] = "";
        if (a->coll->rooted) snprintf(root, sizeof root, " root=%d", a->root);
        pc_log(PC_LOG_DEBUG, "%s seq=%lu bytes=%s p=%d nodes=%d%s algorithm=%s (%s)", pc_call_name(a), a->seq,
               bytes_text(a, bytes, sizeof bytes), a->ctx->size, a->ctx->nnodes, root, algo->name, why);
    }
    if (a->bytes == 0 && !a->coll->synchronizes) return MPI_SUCCESS;
    pc_call_memo_keep(a, choice, forced, adapting ? &ticket : NULL);
    double start = ticket.state ? PMPI_Wtime() : 0, phase_start = 0;
    int phases = pc_phase_call_begin(&phase_start);
    rc = dispatch(algo, a);
    pc_phase_call_end(phases, phase_start, a->coll->name, algo->name, a->coll->rooted && a->ctx->rank == a->root);
    if (ticket.state && rc == MPI_SUCCESS) pc_adapt_record(&ticket, start, PMPI_Wtime());
    return rc == MPI_SUCCESS ? rc : pc_error(comm, rc);
}

int pc_coll_run_repeat(pc_comm_t *ctx, const pc_call_t *a, const char *forced, MPI_Comm comm, int *rc)
{
    const pc_algorithm_t *algo;
    pc_call_t *kept = pc_call_memo_repeat(ctx, a, forced, &algo);
    if (!kept) return 0;
    kept->seq = ++ctx->seq;
    pc_set_last_algorithm(algo->name);
    *rc = dispatch(algo, kept);
    if (*rc != MPI_SUCCESS) *rc = pc_error(comm, *rc);
    return 1;
}

int pc_coll_call_on(pc_call_t *a, const char *name, MPI_Comm comm)
{
    const pc_coll_t *coll = a->coll;
    if (strcmp(name, "auto") && !pc_coll_find(coll, name)) {
        pc_log(PC_LOG_WARN, "%s: unknown algorithm \"%s\" among node leaders: MPI_ERR_ARG", coll->name, name);
        return MPI_ERR_ARG;
    }
    int rc = pc_comm_get(comm, &a->ctx);
    if (rc != MPI_SUCCESS) return rc;
    a->params = pc_params();
    a->seq = ++a->ctx->seq;
    pc_choice_t fresh;
    const pc_choice_t *choice = choose(a, name, "an enclosing algorithm", &fresh, &rc);
    if (!choice) return rc;
    const pc_algorithm_t *algo = choice->algo[0];
    const char *why = choice->why;
    if (algo->requirements & PC_HIERARCHICAL) {
        if (strcmp(name, "auto")) {
            pc_log(PC_LOG_WARN, "%s: %s cannot run among node leaders (it is hierarchical itself): MPI_ERR_ARG",
                   coll->name, name);
            return MPI_ERR_ARG;
        }
        pc_log(PC_LOG_INFO, "%s: auto chose %s among node leaders; %s instead", coll->name, algo->name,
               coll->inner_fallback);
        algo = pc_coll_find(coll, coll->inner_fallback);
    }
    if (pc_log_enabled(PC_LOG_DEBUG)) {
        char bytes[48];
        pc_log(PC_LOG_DEBUG, "%s (inner) seq=%lu bytes=%s p=%d root=%d algorithm=%s (%s)", pc_call_name(a), a->seq,
               bytes_text(a, bytes, sizeof bytes), a->ctx->size, a->root, algo->name, why);
    }
    if (a->bytes == 0 && !coll->synchronizes) return MPI_SUCCESS;
    if (a->ctx->size == 1) return coll->single ? coll->single(a) : MPI_SUCCESS;
    if (!coll->moves_bytes || !(algo->requirements & PC_WANTS_DATATYPE)) return algo->fn(a);
    /* a byte algorithm that wants a datatype (native): MPI_BYTE pieces of int counts */
    void *buf = a->buf;
    size_t bytes = a->bytes;
    a->datatype = MPI_BYTE;
    for (size_t done = 0; done < bytes && rc == MPI_SUCCESS; done += (size_t)a->count) {
        a->user_buf = (char *)buf + done;
        a->count = (int)pc_min_size(bytes - done, PC_MAX_MSG);
        rc = algo->fn(a);
    }
    return rc;
}

int pc_coll_check_name(const pc_coll_t *coll, const char *caller, const char *algorithm, MPI_Comm comm)
{
    /* each collective's last name found: a program that names one algorithm pays one compare per call */
    static _Atomic(const pc_algorithm_t *) last_found[sizeof catalogue / sizeof catalogue[0]];
    _Atomic(const pc_algorithm_t *) *last = coll->id >= 0 && coll->id < pc_coll_count() ? &last_found[coll->id] : NULL;
    const pc_algorithm_t *found = last ? atomic_load_explicit(last, memory_order_relaxed) : NULL;
    if (algorithm && found && !strcmp(algorithm, found->name)) return MPI_SUCCESS;
    if (algorithm && (found = pc_coll_find(coll, algorithm)) && last)
        atomic_store_explicit(last, found, memory_order_relaxed);
    if (algorithm && (found || !strcmp(algorithm, "auto"))) return MPI_SUCCESS;
    pc_log(PC_LOG_WARN, "%s: unknown %s algorithm \"%s\"", caller, coll->name, algorithm ? algorithm : "(null)");
    int rc = pc_check_comm(comm);
    return pc_error(rc == MPI_SUCCESS ? comm : MPI_COMM_WORLD, MPI_ERR_ARG);
}
