/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * call_memo.h - a communicator's last call of each collective, kept so that
 * a repeat of it skips the entry path's work.
 *
 * The entry path (entry.c) checks the arguments, asks the library for the
 * datatype's size and extents, matches the rules (memoized: choice_cache.h)
 * and steps adaptive selection: some 1400-2000 instructions per call
 * (callgrind, 8-byte collectives under Open MPI 4.1), about as many as the
 * MPI library's own collective of 8 bytes on one node.  Most calls of an
 * application repeat the call before them: the same predefined datatypes,
 * counts and op, from the same call site, with adaptation counting the call
 * and running the same candidate (a site that waits, or an unmeasured call
 * of a decided one), or naming the same algorithm.  So each context keeps its last call per collective,
 * under a key of what the call's checks and description depend on besides
 * its buffers and root:
 *   - reductions, broadcast, scan, reduce_scatter_block: the datatype,
 *     count, op, MPI_IN_PLACE and the form (MPI_Exscan);
 *   - allgather, alltoall, gather, scatter: each side's datatype and count
 *     where this process uses the side (a root uses one the others do not)
 *     and each side's MPI_IN_PLACE;
 *   - barrier: nothing.
 * A front finds a repeat (after its own checks of what the key does not
 * fix: buffers, root), pc_adapt_repeat() steps adaptation's bookkeeping
 * (exactly what pc_adapt_choose() would have done, or no repeat) and the
 * memo's algorithm runs.  Kept for automatic selection and for a named
 * algorithm, predefined datatypes and op or none (their handles never
 * change meaning), counts > 0, not the v and w forms (their arrays), a
 * call site resolved to itself (select/site.h), no debug log and no phase
 * report.  No lock: MPI forbids concurrent collectives on one
 * communicator.  One block per context, freed with it (ctx/comm.c).
 */
#ifndef PC_CALL_MEMO_H
#define PC_CALL_MEMO_H

#include "coll/call.h"
#include "coll/choice_cache.h"
#include "select/adapt.h"

/* Keeps a, about to run its choice's candidate ticket->candidate (ticket
 * NULL: no adaptation) as forced selects it (NULL or "auto": automatic
 * selection; else an algorithm's name, from PAPCOLL_<COLL> or
 * papcoll_<coll>_by_name), as its collective's memo on a->ctx when it can be
 * repeated; otherwise forgets the collective's memo. */
void pc_call_memo_keep(const pc_call_t *a, const pc_choice_t *choice, const char *forced,
                       const pc_adapt_ticket_t *ticket);

/* The memo of a->coll on ctx when the call a, as its front describes it
 * (coll, root, buffers and the key's arguments, as for pc_coll_run), from
 * the current call site repeats it, selected the same way (forced: as for
 * pc_call_memo_keep; a name is compared with the kept algorithm's on every
 * call, since the caller's buffer may have been rewritten), and adaptation
 * has nothing to do in it: the call is counted, the memo's call takes a's
 * root and buffers, and *algo is set to what it runs.  Else NULL, with
 * nothing changed.  The caller has checked what the key does not fix
 * (buffers, root) as the entry path would, and found ctx with
 * pc_comm_known() (a context exists only for an intracommunicator). */
pc_call_t *pc_call_memo_repeat(pc_comm_t *ctx, const pc_call_t *a, const char *forced, const pc_algorithm_t **algo);

#endif
