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
    int exclusive;           /* iexscan rather than iscan */
    /* The block collectives (iallgather, ialltoall, igather, iscatter and
     * their v forms; ireduce_scatter: recvcounts/recvcount, op, type):
     * block i of a side is counts[i] elements at element displs[i] (NULL
     * arrays: the regular form, count elements at element i x count),
     * block_args.h reads them.  sendbuf == MPI_IN_PLACE is passed on. */
    int sendcount, recvcount;
    MPI_Datatype sendtype, recvtype;
    const int *sendcounts, *sdispls, *recvcounts, *rdispls;
    /* ialltoallw: one datatype per block (NULL arrays otherwise: sendtype,
     * recvtype), sdispls/rdispls in bytes */
    const MPI_Datatype *sendtypes, *recvtypes;
    int blocks;              /* a block collective: bytes is what the log shows, the schedule is always built */
    size_t bytes;
    MPI_Comm comm;           /* the program's communicator */
} pc_nbc_args_t;

int pc_ibarrier_dissemination(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ibcast_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ireduce_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ireduce_dynleader(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iallreduce_dynleader(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
/* The dynleader schedules apply: the message fits one bank of the node
 * reduction area, PAPCOLL_REPRODUCIBLE is off (the same answer on every
 * process; node_steps.c). */
int pc_nbc_node_fits(const pc_nbc_args_t *a);
int pc_iallreduce_recursive_doubling(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iallreduce_rabenseifner(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iallgather_ring(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iallgather_bruck(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ialltoall_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ialltoall_pairwise(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_igather_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_igather_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iscatter_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iscatter_binomial(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ireduce_scatter_pairwise(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_ireduce_scatter_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iscan_recursive_doubling(pc_nbc_sched_t *s, const pc_nbc_args_t *a);
int pc_iscan_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a);

/* Algorithm i of nonblocking collective `coll` ("ireduce"...; front.c's
 * tables), NULL beyond; *count = how many (-1: no such collective). */
const char *pc_nbc_algorithm_name(const char *coll, int i, int *count);

/* MPICH's fold of p processes to a power of two pof2 = p - rem, as rounds
 * of s (the schedule form of pc_red_fold, coll/reduction.h): of the first
 * 2 rem ranks, the even ones send acc to rank + 1 and sit out (returns -1),
 * the odd ones combine it into acc, the lower rank on the left (tmp:
 * scratch for count elements); returns the rank among the pof2 (the others:
 * rank - rem).  pc_nbc_unfold: the odd ranks below 2 rem send acc back to
 * rank - 1, in the schedule's last round. */
long pc_nbc_fold(pc_nbc_sched_t *s, const pc_nbc_args_t *a, void *acc, void *tmp, int rem);
void pc_nbc_unfold(pc_nbc_sched_t *s, const pc_nbc_args_t *a, void *acc, int rem);

/* Element i of buf in a's datatype. */
static inline char *pc_nbc_at(const pc_nbc_args_t *a, const void *buf, long i)
{
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(a->type, &lb, &extent);
    return (char *)buf + (MPI_Aint)i * extent;
}

#endif
