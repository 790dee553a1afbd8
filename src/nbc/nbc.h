/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nbc.h - the nonblocking collectives' algorithms: each one fills a
 * schedule (sched.h) for this process; front.c checks the arguments,
 * selects, and starts the request (request.h).  `native` (PMPI_I<coll>)
 * is an algorithm of every one and the fallback for what papcoll does not
 * serve.
 */
#ifndef PC_NBC_H
#define PC_NBC_H

#include "nbc/sched.h"

#include <mpi.h>

typedef struct pc_nbc_args {
    int rank, size;
    int root;                /* ibcast, ireduce */
    const void *sendbuf;     /* reductions: my contribution (== recvbuf when MPI_IN_PLACE) */
    void *recvbuf;           /* reductions: the result (ireduce: at the root); ibcast: the buffer */
    int count;
    MPI_Datatype type;
    MPI_Op op;
} pc_nbc_args_t;

int pc_ibarrier_dissemination(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ibcast_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ireduce_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iallreduce_recursive_doubling(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iallreduce_rabenseifner(pc_nbc_sched_t *s, const pc_nbc_args_t *a);

/* Element i of buf in a's datatype. */
static inline char *pc_nbc_at(const pc_nbc_args_t *a, const void *buf, long i)
{
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(a->type, &lb, &extent);
    return (char *)buf + (MPI_Aint)i * extent;
}

#endif
