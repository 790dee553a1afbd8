/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent_impl.h - one persistent request (persistent.h), shared by
 * persistent.c (the table, start, free) and persistent_swap.c (the swap in
 * the completion calls).
 */
#ifndef PC_NBC_PERSISTENT_IMPL_H
#define PC_NBC_PERSISTENT_IMPL_H

#include "nbc/sched.h"

#include <mpi.h>
#include <pthread.h>

typedef struct pc_persist {
    MPI_Request handle;       /* what the program holds: an inactive PMPI_Recv_init (persistent.h) */
    pc_nbc_sched_t sched;     /* built once at init, run by every start */
    MPI_Comm comm;            /* the persistent communicator (pcomm->comm) */
    struct pc_persist_comm *pcomm;
    int tag;
    const char *coll;         /* "bcast": logs */
    /* The current run's generalized request: MPI_REQUEST_NULL while the
     * request is inactive.  Only the program's threads touch it (MPI_Start,
     * the completion calls, MPI_Request_free). */
    MPI_Request run;
    /* Under pc_persist_mutex (the run may end in the progress thread). */
    int running;              /* the schedule is in use by a run */
    int freed;                /* MPI_Request_free came while it ran: its end frees the request */
} pc_persist_t;

/* Guards the table, the communicators' counts and running/freed; never held
 * across an MPI call. */
extern pthread_mutex_t pc_persist_mutex;

/* The request whose handle is `handle`, or NULL. */
pc_persist_t *pc_persist_find(MPI_Request handle);

#endif
