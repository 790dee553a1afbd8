/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * held.h - the program's datatypes and ops that papcoll's pending
 * nonblocking and persistent collectives still use.
 *
 * MPI lets a program free a datatype or op while an operation that uses it
 * is pending (MPI-4.1 sec. 2.5.1: the object goes once the operation has
 * completed; MPICH's test coll/nonblocking3 frees a user op right after
 * MPI_Ireduce).  The MPI library keeps its own objects alive for that, but
 * papcoll's schedules post their messages and reductions round by round,
 * later, with the program's handles.  So a schedule holds every derived
 * datatype and user op it refers to (pc_nbc_hold_*, from its ops as they
 * are appended) until it is freed (pc_nbc_unhold), and the interposer's
 * MPI_Type_free and MPI_Op_free (pmpi/nonblocking.c, pmpi/fortran_nbc.c)
 * ask pc_held_defer_* first: a held handle is set to the null handle for
 * the program, and the library's free runs when its last schedule is freed.
 * Predefined handles are never held.  Programs that call papcoll_i* or
 * papcoll_*_init through the API, not the interposer, must keep the two
 * alive until the request is complete or freed (papcoll.h).
 */
#ifndef PC_NBC_HELD_H
#define PC_NBC_HELD_H

#include <mpi.h>

struct pc_nbc_sched;

typedef struct pc_nbc_handle {
    int is_op;
    MPI_Datatype type; /* !is_op */
    MPI_Op op;         /* is_op */
} pc_nbc_handle_t;

/* One handle a schedule has seen; counted: it holds it in the table (the
 * program's own), not counted: predefined. */
typedef struct pc_nbc_held {
    pc_nbc_handle_t h;
    int counted;
} pc_nbc_held_t;

/* s refers to type / op (no-op for predefined ones and for those s already
 * holds); MPI_ERR_NO_MEM in s->rc if the table cannot grow. */
void pc_nbc_hold_type(struct pc_nbc_sched *s, MPI_Datatype type);
void pc_nbc_hold_op(struct pc_nbc_sched *s, MPI_Op op);
/* Lets go of everything s holds, freeing what the program freed meanwhile. */
void pc_nbc_unhold(struct pc_nbc_sched *s);

/* The interposer's MPI_Type_free / MPI_Op_free: 1 when *type (*op) is held
 * by a schedule (its free is deferred, *type set to MPI_DATATYPE_NULL), 0
 * when the caller frees it now. */
int pc_held_defer_type(MPI_Datatype *type);
int pc_held_defer_op(MPI_Op *op);

#endif
