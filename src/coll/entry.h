/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * entry.h - the one entry path of every collective.
 *
 *   papcoll_<coll>()  checks its own arguments (argument rules differ per
 *                     collective), fills a pc_call_t, then calls
 *   pc_coll_run()     context, sequence number, selection (forced name ->
 *                     PAPCOLL_TUNE -> built-in rules; requirements checked
 *                     against the op; PAPCOLL_ADAPT: one of the matching
 *                     rule's candidates, timed, select/adapt.h),
 *                     last-algorithm record, debug log line (the function
                     as called, pc_call_name; bytes: a->bytes, all
                     blocks together, or where that is PC_BYTES_VARY
                     (alltoallv, gatherv, scatterv) the bytes this
                     process sends plus receives, marked "(sent+received
                     here)"),
 *                     pack/unpack of non-contiguous data for byte
 *                     collectives, the algorithm, the error handler.
 *                     A call that can be repeated is kept (call_memo.h);
 *   pc_coll_run_repeat() runs a call that repeats it: what a call does
 *                     after its selection, without the log line.
 *
 * pc_coll_call_on() is the same path for an algorithm that runs another
 * algorithm of a collective among node leaders (hier): no argument checks,
 * no last-algorithm record, hierarchical algorithms refused.
 */
#ifndef PC_COLL_ENTRY_H
#define PC_COLL_ENTRY_H

#include "coll/call.h"

/* The catalogue of collectives. */
extern const pc_coll_t pc_bcast_coll, pc_reduce_coll, pc_allreduce_coll, pc_allgather_coll, pc_alltoall_coll,
    pc_gather_coll, pc_scatter_coll, pc_reduce_scatter_coll, pc_barrier_coll, pc_scan_coll;
const pc_coll_t *pc_coll_by_name(const char *name);
int pc_coll_count(void);
/* The MPI function as called, without MPI_: "allgatherv", "reduce_scatter_block". */
const char *pc_call_name(const pc_call_t *a);

/* a: coll, root, buffers, count, datatype, op set by the caller (checked);
 * forced: algorithm name or "auto"; source: where the name came from (logs).
 * Returns MPI_SUCCESS or an error class, after calling comm's error handler. */
int pc_coll_run(pc_call_t *a, MPI_Comm comm, const char *forced, const char *source);

/* When a (described by its front as for pc_coll_run, its buffers and root
 * checked as pc_call_memo_repeat asks) repeats the call kept on ctx
 * (call_memo.h): runs it (sequence number, last-algorithm record, the
 * algorithm, the error handler), sets *rc to its result and returns 1.
 * Else returns 0, with nothing done. */
int pc_coll_run_repeat(pc_comm_t *ctx, const pc_call_t *a, const char *forced, MPI_Comm comm, int *rc);

/* Runs algorithm `name` (or "auto") of a->coll with a's data on another
 * communicator (a->ctx, a->seq are set here).  Byte collectives: a->buf and
 * a->bytes are used, the data is bytes.  MPI_ERR_ARG for an unknown or
 * hierarchical name. */
int pc_coll_call_on(pc_call_t *a, const char *name, MPI_Comm comm);

/* Fills the datatype facts of a (extent, true bounds) and the op facts
 * (commutative, predefined). */
void pc_call_describe(pc_call_t *a);

/* MPI_SUCCESS when `algorithm` is "auto" or one of coll's; else logs the
 * unknown name as the argument of `caller` (papcoll_exscan_by_name ...) and
 * returns MPI_ERR_ARG through comm's error handler. */
int pc_coll_check_name(const pc_coll_t *coll, const char *caller, const char *algorithm, MPI_Comm comm);

#endif
