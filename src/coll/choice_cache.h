/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * choice_cache.h - a communicator's memo of automatic selection.
 *
 * Matching the rules (select.h) compares strings and formats a reason on
 * every call: on a small, frequent collective that costs as much as the MPI
 * library's own collective.  Its outcome depends only on the collective, the
 * byte count, the kind of op, its commutativity and MPI_IN_PLACE (the
 * communicator's shape is fixed) and on the parameters (pc_params_generation).
 * So each communicator keeps the last outcome of each (collective, bytes)
 * slot of a small direct-mapped table, with the descriptors of the rule's
 * candidates resolved; a call with the same key skips the rules.  Forced
 * names are not memoized (the API's name argument may be a reused buffer).
 * No lock: MPI forbids concurrent collectives on one communicator.  The memo
 * is one block, freed with the context (ctx/comm.c).
 */
#ifndef PC_CHOICE_CACHE_H
#define PC_CHOICE_CACHE_H

#include "coll/call.h"
#include "ctx/comm.h"
#include "select/select.h"

typedef struct pc_choice {
    pc_selection_t sel;                                 /* the rule's candidates, static choice first */
    const pc_algorithm_t *algo[PC_TUNE_MAX_CANDIDATES]; /* descriptor of each sel.candidate */
    char why[96];                                       /* the rule that chose, for PAPCOLL_LOG=debug */
} pc_choice_t;

/* The memoized choice of (coll_id, in) on ctx, or NULL. */
const pc_choice_t *pc_choice_lookup(pc_comm_t *ctx, int coll_id, const pc_select_input_t *in);

/* Memoizes choice as the outcome of (coll_id, in) on ctx (nothing if memory
 * is short: the next call selects again). */
void pc_choice_store(pc_comm_t *ctx, int coll_id, const pc_select_input_t *in, const pc_choice_t *choice);

#endif
