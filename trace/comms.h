/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comms.h - the communicators the tracer has seen.  At its first traced
 * collective a communicator is registered: its members' world ranks (from
 * its groups, no communication), a key naming it on every member
 * (format.h: KEY and INSTANCE) and one line in rank-R.comms.  The entry
 * hangs on the communicator as an attribute, so a freed communicator's
 * handle, reused by a new one, is registered afresh.
 */
#ifndef PAPCOLL_TRACE_COMMS_H
#define PAPCOLL_TRACE_COMMS_H

#include <mpi.h>

#include <stdint.h>
#include <stdio.h>

typedef struct pt_comm {
    uint32_t index;  /* INDEX in rank-R.comms, the record's comm field */
    uint32_t seq;    /* calls traced on it so far (atomic) */
    int inter;       /* an intercommunicator */
    int peers;       /* length of the v-forms' count arrays: size, or the remote size of an intercommunicator */
    int rank;        /* this process's rank in it */
    struct pt_comm *next;
} pt_comm_t;

/* Called from MPI_Init (world = MPI_COMM_WORLD), writing lines to out. */
int pt_comms_init(FILE *out);
/* The entry of comm, registering it if new; NULL if it cannot be traced. */
pt_comm_t *pt_comms_lookup(MPI_Comm comm);
/* Called from MPI_Finalize: frees the keyval and entries, closes the file. */
void pt_comms_finalize(void);

#endif
