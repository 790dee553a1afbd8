/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_call.h - one checked papcoll_reduce_by_name /
 * papcoll_allreduce_by_name / papcoll_reduce_scatter(_block)_by_name call.
 * Checked:
 *   - the return code: MPI_SUCCESS, or MPI_ERR_OP (error class) when the
 *     forced algorithm does not take the operation (rc_accepts below);
 *   - papcoll_last_algorithm(): the forced name; for "auto" a real name of an
 *     algorithm that takes the operation;
 *   - the result at the root (reduce), everywhere (allreduce), each
 *     rank's block of it (reduce_scatter), or each rank's prefix of ranks
 *     0..i (scan) or 0..i-1 (exscan), element by element against the
 *     reference in rank order (rc_reference), or for cases outside MPI's
 *     list (library_ref) against the MPI library's own PMPI_Allreduce (or
 *     PMPI_Scan / PMPI_Exscan) of the
 *     same inputs, made by every process after the call; the gaps of the
 *     datatype and guard bytes past the end untouched;
 *   - the send buffer unchanged (gaps and guard included);
 *   - reduce: the receive buffer of non-roots untouched (or NULL); exscan:
 *     rank 0's receive buffer untouched (its input, in place);
 *   - user operations called with the caller's datatype.
 * Thread-safe (all state in the caller's buffers and result).
 */
#ifndef PC_HARNESS_REDUCE_CALL_H
#define PC_HARNESS_REDUCE_CALL_H

#include "reduce_cases.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Scratch buffers of one thread, grown as needed. */
typedef struct {
    unsigned char *send, *send_copy, *recv, *ref, *lib; /* lib: the MPI library's result (library_ref cases) */
    double *bound;
    size_t cap;   /* bytes of send, send_copy, recv, ref, lib */
    int bound_cap; /* elements of bound */
} rc_buffers_t;
void rc_buffers_free(rc_buffers_t *b);

typedef struct {
    const char *collective;  /* "reduce", "allreduce", "reduce_scatter", "scan" or "exscan" */
    const char *algo;        /* an algorithm name or "auto" */
    const rc_case_t *c;
    int count;               /* reduce_scatter: per block, see rc_block_count */
    int block_form;          /* reduce_scatter: MPI_Reduce_scatter_block (equal blocks), else unequal ones */
    int root;                /* reduce only */
    int inplace;             /* MPI_IN_PLACE at the root (reduce) or on every process (the others) */
    int null_recv;           /* reduce: non-roots pass recvbuf NULL, else a buffer that must stay untouched */
    MPI_Comm comm;
    int rank, size;
    uint64_t salt;           /* the same on every process of the call */
} rc_call_t;

typedef struct {
    int rc;                  /* the call's return code */
    int refused;             /* the algorithm does not take the operation: MPI_ERR_OP expected */
    const char *ran;         /* papcoll_last_algorithm() */
    int problems;            /* 0 when every check passed */
    char first[480];         /* the first problem */
} rc_result_t;

/* 1 when algorithm `algo` of `collective` takes the case's operation, as the
 * library records it (papcoll_algorithm_needs, from algorithms.list: one
 * source of truth).  The check stays honest: an algorithm that refuses an
 * operation its record allows fails on MPI_ERR_OP, and one that accepts a
 * non-commutative operation its record should have refused fails on the
 * result, which is compared with the rank-order reference. */
int rc_accepts(const char *collective, const char *algo, const rc_case_t *c);

/* reduce_scatter: elements of rank i's block: count in the block form, else
 * count x (0, 1/2, 1) by (i + salt) mod 3, so some blocks are empty. */
int rc_block_count(const rc_call_t *call, int i);

/* Runs the call under the watchdog (the caller labels it and applies any
 * arrival delay first) and checks it. */
void rc_call_checked(const rc_call_t *call, rc_buffers_t *b, rc_result_t *res);

#endif
