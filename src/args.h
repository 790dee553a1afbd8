/*
 * args.h - argument checking, error reporting and datatype handling shared by
 * every collective's entry point.  Checks and error classes follow Open MPI's
 * MPI_Bcast (comm, datatype, count, committed, MPI_IN_PLACE, buffer, root).
 */
#ifndef PC_ARGS_H
#define PC_ARGS_H

#include <mpi.h>
#include <stddef.h>

typedef struct pc_layout {
    size_t bytes;       /* packed size: type size x count */
    int contiguous;     /* data is bytes [buf + true_lb, buf + true_lb + bytes) */
    MPI_Aint true_lb;
} pc_layout_t;

/* MPI_ERR_COMM for MPI_COMM_NULL, else MPI_SUCCESS. */
int pc_check_comm(MPI_Comm comm);
int pc_is_intercomm(MPI_Comm comm);
/* Checks a rooted collective's buffer arguments and fills the layout. */
int pc_check_args(const void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, pc_layout_t *layout);
/* Invokes comm's error handler with rc and returns rc (MPI_ERRORS_RETURN). */
int pc_error(MPI_Comm comm, int rc);
/* Pack / unpack count elements to / from `bytes` contiguous bytes. */
int pc_pack(const void *buf, int count, MPI_Datatype type, void *packed, size_t bytes, MPI_Comm comm);
int pc_unpack(const void *packed, size_t bytes, void *buf, int count, MPI_Datatype type, MPI_Comm comm);

#endif
