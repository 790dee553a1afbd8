/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * call_memo.h - a communicator's last call of each collective, kept so that
 * a repeat of it skips the entry path's work.
 *
 * The entry path (entry.c) checks the arguments, asks the library for the
 * datatype's size and extents, matches the rules (memoized: choice_cache.h)
 * and steps adaptive selection: some 1600 instructions (callgrind, an
 * 8-byte allreduce under Open MPI 4.1), about as many as the MPI library's
 * own allreduce of 8 bytes on one node.  Most calls of an application
 * repeat the call before them: the same predefined datatype, count and op,
 * from the same call site, with adaptation counting the call and running the
 * same candidate (a site that waits, or an unmeasured call of a decided
 * one).  So each context keeps its last call per collective; a front finds a
 * repeat (its own checks of what may differ: buffers, root), steps
 * adaptation's bookkeeping with pc_adapt_repeat() (exactly what
 * pc_adapt_choose() would have done, or no repeat) and runs the memo's
 * algorithm.  Kept only for automatic selection or a PAPCOLL_<COLL> name
 * (pc_call_memo_selects), a predefined datatype and op or none (their
 * handles never change meaning), a call site resolved to itself
 * (select/site.h), no debug log and no phase report.  No lock: MPI forbids
 * concurrent collectives on one communicator.  One block per context, freed
 * with it (ctx/comm.c).
 */
#ifndef PC_CALL_MEMO_H
#define PC_CALL_MEMO_H

#include "coll/call.h"
#include "coll/choice_cache.h"
#include "select/adapt.h"

/* Keeps a, about to run its choice's candidate ticket->candidate (ticket
 * NULL: no adaptation), as its collective's memo on a->ctx when it can be
 * repeated; otherwise forgets the collective's memo. */
void pc_call_memo_keep(const pc_call_t *a, const pc_choice_t *choice, const pc_adapt_ticket_t *ticket);

/* Whether a call whose algorithm is forced (NULL or "auto": automatic)
 * from source (entry.h) can be kept and repeated: automatic selection or a
 * parameter (PAPCOLL_ALLREDUCE ..., whose value changes only with the
 * parameters' generation), not a name passed to papcoll_<coll>_by_name
 * (a buffer the caller may rewrite). */
int pc_call_memo_selects(const char *forced, const char *source);

/* comm's context when pc_call_memo_selects() and the context exists: where
 * a front may look for a repeat. */
pc_comm_t *pc_call_memo_context(const char *forced, const char *source, MPI_Comm comm);

/* The memo of coll on ctx when a call of (datatype, count, op, in place)
 * from the current call site repeats it and
 * adaptation has nothing to do in it: the call is counted and *algo set to
 * what it runs; the caller fills in the buffers, root and sequence number.
 * Else NULL, with nothing changed.  The caller has checked what the memo
 * does not fix (buffers, root) as the entry path would. */
pc_call_t *pc_call_memo_repeat(pc_comm_t *ctx, const pc_coll_t *coll, MPI_Datatype datatype, int count, MPI_Op op,
                               int inplace, const pc_algorithm_t **algo);

#endif
