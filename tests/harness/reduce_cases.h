/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_cases.h - the (datatype, operation) cases of the reduction tests:
 * every predefined operation on every datatype MPI allows it on (SUM, PROD,
 * MIN, MAX on the C integer and floating-point types; LAND, LOR, LXOR on the
 * integers and MPI_C_BOOL; BAND, BOR, BXOR on the integers and MPI_BYTE;
 * MINLOC, MAXLOC on the six value-index pair types), floating-point cases
 * with rounding (checked with a tolerance), and user-defined operations: a
 * commutative one (x + y + xy) on MPI_UNSIGNED and on a derived datatype
 * with gaps (vector(2,3,5,unsigned)), a non-commutative one (2x2 matrix
 * product) on a contiguous and on a gappy derived datatype; MPI_CHAR, which
 * the standard leaves out but Open MPI and MPICH take, with each predefined
 * operation the library's MPI_Reduce takes (papcoll once refused them),
 * checked against the library's own result and run only when --cases names
 * them (weight 0).  (Predefined
 * operations on derived datatypes are not MPI: the libraries return
 * MPI_ERR_OP, which test_errors_reduce compares.)
 *
 * Where the MPI library's MPI_MIN/MPI_MAX compares an unsigned type as
 * signed (Open MPI 4.1.2-4.1.4, MPICH 4.0.2), probed with MPI_Reduce_local,
 * that case's inputs stay below the top bit and a note is printed: papcoll
 * applies operations through the MPI library and cannot be better than it.
 *
 * Each case knows how to fill one process's input, compute the reference
 * result in rank order, and compare a result (reduce_kinds.h).
 */
#ifndef PC_HARNESS_REDUCE_CASES_H
#define PC_HARNESS_REDUCE_CASES_H

#include "reduce_kinds.h"

#include <mpi.h>

typedef struct {
    char name[64];           /* "MPI_INT/MPI_SUM", "mat2x2/user_noncommutative", "MPI_DOUBLE/MPI_SUM(inexact)" */
    const rc_kind_t *kind;
    rc_opclass_t opclass;
    MPI_Datatype type;
    MPI_Op op;
    int commutative;         /* MPI_Op_commutative */
    int predefined;          /* a predefined operation */
    int inexact;             /* rounding depends on the order: tolerance */
    int gaps;                /* the datatype has gaps, which must stay untouched */
    int weight;              /* sampling weight: 4 user ops and derived datatypes, 2 inexact, else 1;
                                0: run only where --cases names the case (the MPI_CHAR ones) */
    int library_ref;         /* outside MPI's list (MPI_CHAR): the result is checked against the MPI
                                library's own PMPI_Allreduce of the same inputs, not rc_reference */
    MPI_Aint extent;
    unsigned char *mask;     /* [extent] 1 for the bytes of one element that carry data */
    uint64_t value_mask;     /* applied to the input hashes (works around MPI libraries' bugs) */
} rc_case_t;

/* Builds the cases (after MPI_Init, before any thread starts); returns their
 * number.  Cases whose datatype does not match its C type here (size or
 * extent) are left out and named on stderr by world rank 0. */
int rc_cases_init(void);
int rc_case_count(void);
const rc_case_t *rc_case_at(int i);
/* The case named `name`, or NULL. */
const rc_case_t *rc_case_find(const char *name);
void rc_cases_free(void);

/* Process `rank`'s input of a call salted `salt`: data elements of
 * elements [0, count) of buf (laid out with the case's extent); gap bytes
 * are not written. */
void rc_fill_input(const rc_case_t *c, int rank, int p, int count, uint64_t salt, void *buf);
/* The result in rank order 0..p-1 into ref (data bytes only); for inexact
 * cases bound[i] receives the tolerance of element i (bound may be NULL for
 * exact cases). */
void rc_reference(const rc_case_t *c, int p, int count, uint64_t salt, void *ref, double *bound);
/* The same over ranks 0..ranks-1 only (the prefix of MPI_Scan / MPI_Exscan;
 * ranks >= 1), inputs of a call among p processes. */
void rc_reference_prefix(const rc_case_t *c, int p, int ranks, int count, uint64_t salt, void *ref, double *bound);
/* Number of elements of got that differ from ref (tolerance bound, or
 * exact); *first receives the index of the first. */
long rc_compare(const rc_case_t *c, const void *got, const void *ref, const double *bound, int count, long *first);

/* Calls of the user operations with a datatype they do not know (the library
 * must call them with the caller's datatype), since the start. */
long rc_user_op_type_errors(void);

#endif
