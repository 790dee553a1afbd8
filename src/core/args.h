/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * args.h - argument checking, error reporting and datatype handling shared by
 * every collective's entry point.  Checks and error classes follow Open MPI's
 * MPI_Bcast (comm, datatype, count, committed, MPI_IN_PLACE, buffer, root).
 */
#ifndef PC_ARGS_H
#define PC_ARGS_H

#include <mpi.h>
#include <stddef.h>

/* MPI_ERR_COMM for MPI_COMM_NULL, else MPI_SUCCESS. */
int pc_check_comm(MPI_Comm comm);
int pc_is_intercomm(MPI_Comm comm);
/* Datatype and count: MPI_ERR_TYPE (null, not committed), MPI_ERR_COUNT. */
int pc_check_type_count(int count, MPI_Datatype type);
/* A data buffer: MPI_ERR_BUFFER for NULL when data is to be moved (NULL is
 * MPI_BOTTOM: legal only for datatypes with absolute addresses). */
int pc_check_buffer(const void *buf, int count, MPI_Datatype type);
/* MPI_ERR_ROOT unless 0 <= root < size of comm. */
int pc_check_root(int root, MPI_Comm comm);
/* Broadcast's arguments, in Open MPI's order. */
int pc_check_args(const void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
/* A private duplicate of MPI_COMM_SELF whose errors return (local copies). */
MPI_Comm pc_self_comm(void);
/* Reductions' arguments, with the error class the underlying library gives
 * for each (they differ: see args.c).  rooted: reduce (root checked), else
 * allreduce. */
int pc_check_reduction_args(const void *sendbuf, const void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                            int rooted, int root, MPI_Comm comm);
/* MPI_Scan's (exclusive 0) and MPI_Exscan's arguments (those of
 * MPI_Allreduce, with the class each library gives: see args.c). */
int pc_check_scan_args(const void *sendbuf, const void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                       int exclusive, MPI_Comm comm);
/* MPI_SUCCESS when the MPI library takes predefined op on datatype, else the
 * class it gives (MPI_ERR_OP): the standard's list, beyond it the library's
 * answer (op_types.c); logged at debug. */
int pc_check_op_type(MPI_Op op, MPI_Datatype type);
/* Whether op is one of MPI's predefined ops (by comparison: pc_op_info()
 * keeps the answer, core/type_info.h). */
int pc_op_is_predefined(MPI_Op op);
/* "MPI_ERR_OP" etc. for the classes papcoll's checks give (for logs). */
const char *pc_class_name(int cls);
/* Invokes comm's error handler with rc and returns rc (MPI_ERRORS_RETURN). */
int pc_error(MPI_Comm comm, int rc);
/* pc_error for arguments a front refuses, logged at debug with what (the
 * collective as called). */
int pc_refuse(MPI_Comm comm, const char *what, int rc);
/* Pack / unpack count elements to / from `bytes` contiguous bytes. */
int pc_pack(const void *buf, int count, MPI_Datatype type, void *packed, size_t bytes, MPI_Comm comm);
int pc_unpack(const void *packed, size_t bytes, void *buf, int count, MPI_Datatype type, MPI_Comm comm);

#endif
