/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast_call.h - one checked broadcast of contiguous data: the root's bytes
 * follow a pattern, the other processes start from its complement, guard
 * bytes follow the data; afterwards every byte, the guard and the algorithm
 * that ran (papcoll_last_algorithm) are checked.  Thread-safe: all state is
 * in the caller's buffer (harness_buffer_t, buffers.h) and result.
 */
#ifndef PC_HARNESS_BCAST_CALL_H
#define PC_HARNESS_BCAST_CALL_H

#include "buffers.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int rc;              /* the call's return code */
    size_t bytes;        /* count * type size */
    long bad;            /* data bytes that differ from the root's */
    size_t first_bad;    /* offset of the first of them */
    unsigned char got, want;
    long guard_bad;      /* guard bytes past the end overwritten */
    int name_ok;         /* papcoll_last_algorithm() is `algo` (for "auto": a real name) */
    const char *ran;     /* papcoll_last_algorithm() */
} harness_bcast_result_t;

/* Runs papcoll_bcast_by_name(algo, ...) under the watchdog (the caller sets
 * its label and applies any arrival delay before) on `count` elements of a
 * contiguous `type`, and checks it.  Data are checked only when rc is
 * MPI_SUCCESS. */
void harness_bcast_checked(const char *algo, MPI_Comm comm, int rank, int root, int count, MPI_Datatype type,
                           uint64_t salt, harness_buffer_t *b, harness_bcast_result_t *res);
/* 1 when the result is a success on every account. */
int harness_bcast_ok(const harness_bcast_result_t *res);
/* 1 when papcoll_last_algorithm() `ran` is right for a call forced to
 * `algo` (the same name; for "auto" any real name). */
int harness_ran_ok(const char *algo, const char *ran);

#endif
