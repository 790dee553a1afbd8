/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_common.h - what the unmodified test programs of the nonblocking and
 * persistent collectives share (app_nbc.c, app_persistent.c): the failure
 * check (app_check.h), the non-commutative op they reduce with, the wait
 * for a freed request.
 */
#ifndef PC_TESTS_APP_COMMON_H
#define PC_TESTS_APP_COMMON_H

#include <mpi.h>
#include <stdio.h>

#include "app_check.h"

typedef struct { int a, b, c, d; } mat_t; /* 2x2, mod 1009 */

/* inout = in x inout, elementwise over 2x2 matrices: associative, not commutative. */
static inline void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    mat_t *x = in, *y = inout;
    for (int i = 0; i < *len; i++) {
        mat_t r = {(x[i].a * y[i].a + x[i].b * y[i].c) % 1009, (x[i].a * y[i].b + x[i].b * y[i].d) % 1009,
                   (x[i].c * y[i].a + x[i].d * y[i].c) % 1009, (x[i].c * y[i].b + x[i].d * y[i].d) % 1009};
        y[i] = r;
    }
}

/* A freed active request's result: makes progress (MPI_Test on a null
 * request: the drop-in advances papcoll's schedules) until every one of
 * out[0..n) equals want, 20 s at most; whether they did. */
static inline int progress_until(volatile int *out, int n, int want)
{
    double t0 = MPI_Wtime();
    int all = 0;
    while (!all && MPI_Wtime() - t0 < 20) {
        all = 1;
        for (int i = 0; i < n; i++) all &= out[i] == want;
        int flag;
        MPI_Request none = MPI_REQUEST_NULL;
        MPI_Test(&none, &flag, MPI_STATUS_IGNORE);
    }
    return all;
}

#endif
