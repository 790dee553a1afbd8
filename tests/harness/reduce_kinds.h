/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_kinds.h - element kinds of the reduction tests: for each C type an
 * MPI datatype stands for, how to draw one process's input for an operation
 * so that the result is exact (or bounded, for the inexact floating-point
 * cases), how two elements combine (left operand first: the rank order of a
 * non-commutative operation), and how a result element is compared.
 *
 * Inputs are drawn from a 64-bit hash h of (call, rank, element): every
 * process can compute every other process's input, hence the reference.
 * Value rules that keep results exact whatever the order and the number of
 * processes (up to 256):
 *   SUM        small integers (-2..2 signed, 0..3 unsigned), also in floats
 *   PROD       1, a few 2s (ranks 0-5 only), signs flipped at random
 *   MIN, MAX   any bits (integers), any value (floating point)
 *   LAND       non-zero except with probability 1/(p+1) (result ~ 1/e true)
 *   LOR        zero except with probability 1/(p+1)
 *   LXOR       zero or non-zero, half and half (non-zero values vary)
 *   BAND       all ones but one random bit; BOR two random bits; BXOR any
 *   MINLOC/MAXLOC values 0..3 (ties are frequent), indices -1000..1000
 *   user operations: any bits (arithmetic modulo 2^32)
 * Inexact cases: SUM of values of magnitudes 1e-3..1e3, PROD of values in
 * [0.5, 1.5); the reference is computed in rank order and the result must be
 * within (p+1) eps sum|v| (SUM) or 2 (p+1) eps |ref| (PROD).
 */
#ifndef PC_HARNESS_REDUCE_KINDS_H
#define PC_HARNESS_REDUCE_KINDS_H

#include <stddef.h>
#include <stdint.h>

/* Operation classes. */
typedef enum {
    RC_SUM, RC_PROD, RC_MIN, RC_MAX, RC_LAND, RC_LOR, RC_LXOR, RC_BAND, RC_BOR, RC_BXOR, RC_MINLOC, RC_MAXLOC,
    RC_USER_COMMUTATIVE,     /* x o y = x + y + xy (mod 2^32) on unsigned elements: commutative */
    RC_USER_NONCOMMUTATIVE,  /* 2x2 matrix product (mod 2^32): rank order matters */
    RC_NOPCLASSES
} rc_opclass_t;

typedef enum {
    RC_F_SIGNED, RC_F_UNSIGNED, RC_F_FLOAT, RC_F_BOOL, RC_F_BYTE, RC_F_PAIR, RC_F_VECTOR, RC_F_MATRIX, RC_F_USER_UINT
} rc_family_t;

typedef struct rc_kind {
    const char *type_name; /* MPI name of the datatype, or a description of a derived one */
    size_t size;           /* C size of one element (the datatype's extent) */
    rc_family_t family;
    double eps;            /* machine epsilon of floating-point kinds, 0 otherwise */
    /* One process's input element for class opc; p = processes. */
    void (*gen)(int opc, int inexact, int rank, int p, uint64_t h, void *elem);
    /* acc = acc o v (acc is the left operand). */
    void (*combine)(int opc, void *acc, const void *v);
    /* 1 when got is right: equal, or within bound when bound > 0. */
    int (*equal)(const void *got, const void *want, double bound);
    /* |value| of a floating-point element (inexact bounds), NULL otherwise. */
    double (*magnitude)(const void *elem);
} rc_kind_t;

/* The kinds, by name ("MPI_INT", "MPI_DOUBLE_INT", "user_uint" (MPI_UNSIGNED
 * under the commutative user op), "uint_vector2x3_stride5"
 * (vector(2,3,5,unsigned), same op), "mat2x2", "mat2x2_gappy"); NULL if
 * unknown. */
const rc_kind_t *rc_kind(const char *name);

/* 2x2 matrices of unsigned (mod 2^32) at positions pos[0..3] of an element
 * (row-major a b / c d): out = left x right.  out may alias either. */
void rc_matrix_product(const unsigned *left, const unsigned *right, unsigned *out, const int pos[4]);
extern const int rc_mat2_positions[4];       /* contiguous: 0 1 2 3 */
extern const int rc_mat2_gappy_positions[4]; /* resized vector(2,2,3,unsigned), 6 wide: 0 1 3 4 */

#endif
