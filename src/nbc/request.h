/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * request.h - running schedules: one generalized request
 * (MPI_Grequest_start) per nonblocking collective, returned to the program,
 * so it can sit in any MPI_Wait / MPI_Test array beside the program's own
 * requests; the schedule advances whenever pc_nbc_progress runs (the
 * interposed completion calls, pmpi/nonblocking.c), and the generalized
 * request is completed (MPI_Grequest_complete) when its last round has.
 *
 * Every message of a request is received in it; a request's messages carry
 * the tag of its sequence number on the communicator (core/tags.h).
 * MPI_Request_free of an active request is allowed: the schedule runs on
 * at the next progress and its memory goes when both it and MPI are done.
 */
#ifndef PC_NBC_REQUEST_H
#define PC_NBC_REQUEST_H

#include "nbc/sched.h"

#include <mpi.h>

/* The private communicator and the tag of the next request on comm (an
 * intracommunicator): papcoll's context (collective on its first use). */
int pc_nbc_next(MPI_Comm comm, MPI_Comm *priv, int *tag, unsigned long *seq);
/* The same for papcoll's context of the communicator (papcoll's own
 * nonblocking traffic started inside a collective call on it: the adaptive
 * selection's agreements under SMPI, select/adapt_messages.c). */
struct pc_comm;
int pc_nbc_next_of(struct pc_comm *ctx, MPI_Comm *priv, int *tag, unsigned long *seq);

/* Runs the requests still active on papcoll's private communicator priv to
 * their end (those the program freed with MPI_Request_free): called before
 * the context's node memory goes (ctx/comm.c), which their steps may use. */
void pc_nbc_comm_release(MPI_Comm priv);

/* Starts schedule s (taken over, also on failure) on priv with tag: its
 * first round is posted now; *request = the generalized request. */
int pc_nbc_start(pc_nbc_sched_t *s, MPI_Comm priv, int tag, MPI_Request *request);
/* One run of a persistent request's schedule s (closed at init, still the
 * caller's: never freed here): as pc_nbc_start, and done(done_arg) is
 * called when the run has ended, before its generalized request completes
 * (from whichever thread ends it; s is no longer in use then). */
int pc_nbc_start_run(pc_nbc_sched_t *s, MPI_Comm priv, int tag, void (*done)(void *), void *done_arg,
                     MPI_Request *request);

/* Advances every active schedule as far as it goes without waiting. */
void pc_nbc_progress(void);
/* Schedules not yet complete (0: nothing of papcoll's can block a wait). */
int pc_nbc_active(void);
/* Between two unsuccessful polls of a completion call: yields the CPU when
 * the node is oversubscribed. */
void pc_nbc_idle(void);
/* Runs every schedule to its end (MPI_Finalize). */
void pc_nbc_drain(void);

#endif
