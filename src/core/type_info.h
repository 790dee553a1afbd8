/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * type_info.h - what a call needs of its datatype and op (size, extents,
 * predefined or not, commutative), read from the MPI library once per
 * predefined handle instead of five to seven PMPI queries per call.
 *
 * A predefined datatype or op keeps its meaning for the whole run, so its
 * answers are kept in a table (insert-only, read without a lock).  A derived
 * datatype or a user op is asked every call: its handle may be freed and
 * reused for another.
 */
#ifndef PC_TYPE_INFO_H
#define PC_TYPE_INFO_H

#include <mpi.h>

typedef struct pc_type_info {
    int named;        /* a predefined datatype (MPI_COMBINER_NAMED) */
    unsigned classes; /* its class in the standard's list of reduction pairs (op_types.c), 0 if none */
    MPI_Count size;   /* MPI_Type_size_x */
    MPI_Aint lb, extent, true_lb, true_extent;
} pc_type_info_t;

typedef struct pc_op_info {
    int predefined;   /* one of MPI's predefined ops */
    int commutative;  /* MPI_Op_commutative */
    unsigned takes;   /* the datatype classes the standard's list pairs it with (op_types.c) */
} pc_op_info_t;

/* type's answers: the table's record for a predefined datatype, else
 * *scratch filled from the library (MPI_DATATYPE_NULL: all zero). */
const pc_type_info_t *pc_type_info(MPI_Datatype type, pc_type_info_t *scratch);
/* op's answers, likewise (MPI_OP_NULL: all zero). */
const pc_op_info_t *pc_op_info(MPI_Op op, pc_op_info_t *scratch);

/* The standard's classes (op_types.c defines them). */
unsigned pc_type_class(MPI_Datatype type);
unsigned pc_op_classes(MPI_Op op);

#endif
