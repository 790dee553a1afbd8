/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_scatter.c - papcoll_reduce_scatter and papcoll_reduce_scatter_block:
 * MPI's argument checks, the MPI library on an intercommunicator, then the
 * one entry path (coll/entry.c) with the element view of the reductions.
 * Both forms are one collective: the block form is the v form with equal
 * counts.  Algorithms: algorithms.list (the build generates their table);
 * built-in rules: reduce_scatter_default_rules.inc.
 */
#include "reduce_scatter/reduce_scatter.h"
#include "coll/entry.h"
#include "coll/front.h"
#include "coll/reduction.h"
#include "core/args.h"
#include "core/log.h"
#include "core/state.h"

#include <limits.h>
#include <stdlib.h>

static const char default_rules[] =
#include "reduce_scatter_default_rules.inc"
    ;

const pc_coll_t pc_reduce_scatter_coll = {
    .name = "reduce_scatter",
    .forms = {"reduce_scatter_block", "reduce_scatter"},
    .id = 7,
    .algorithms = pc_reduce_scatter_algorithms,
    .nalgorithms = PC_REDUCE_SCATTER_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "native",
    .rooted = 0,
    .waits_for_all = 1,
    .moves_bytes = 0,
    .single = pc_red_single,
};

long *pc_rs_offsets(const pc_call_t *a)
{
    int p = a->ctx->size;
    long *first = malloc((size_t)(p + 1) * sizeof *first);
    if (!first) return NULL;
    first[0] = 0;
    for (int i = 0; i < p; i++) first[i + 1] = first[i] + pc_rs_count(a, i);
    return first;
}

int pc_reduce_scatter_library(const pc_call_t *a, const void *sendbuf, MPI_Comm comm)
{
    if (a->vform) return PMPI_Reduce_scatter(sendbuf, a->recvbuf, a->recvcounts, a->datatype, a->op, comm);
    return PMPI_Reduce_scatter_block(sendbuf, a->recvbuf, a->recvcount, a->datatype, a->op, comm);
}

/* MPI's checks: the counts, then those of a reduction of all the elements
 * (datatype, op, buffers: the receive buffer holds my block only). */
static int check_args(const void *sendbuf, void *recvbuf, int vform, const int *recvcounts, int recvcount,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, long long *total)
{
    int rank, size, rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (vform && !recvcounts) return MPI_ERR_ARG;
    *total = 0;
    for (int i = 0; i < size; i++) {
        int n = vform ? recvcounts[i] : recvcount;
        if (n < 0) return MPI_ERR_COUNT;
        *total += n;
    }
    if (*total > INT_MAX) return MPI_ERR_COUNT;
    int mine = vform ? recvcounts[rank] : recvcount;
    if (recvbuf == MPI_IN_PLACE) return MPI_ERR_BUFFER;
    if (sendbuf != MPI_IN_PLACE && sendbuf == recvbuf && sendbuf != NULL && *total > 0) return MPI_ERR_BUFFER;
    if (op == MPI_OP_NULL) return MPI_ERR_OP;
    if ((rc = pc_check_type_count((int)*total, datatype)) != MPI_SUCCESS) return rc == MPI_ERR_TYPE ? MPI_ERR_OP : rc;
    if ((rc = pc_check_op_type(op, datatype)) != MPI_SUCCESS) return rc;
    if (sendbuf != MPI_IN_PLACE && (rc = pc_check_buffer(sendbuf, (int)*total, datatype)) != MPI_SUCCESS) return rc;
    return pc_check_buffer(recvbuf, sendbuf == MPI_IN_PLACE ? (int)*total : mine, datatype);
}

static int reduce_scatter(const char *forced, const char *source, const void *sendbuf, void *recvbuf, int vform,
                          const int *recvcounts, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int inplace = sendbuf == MPI_IN_PLACE;
    pc_call_t a = {.coll = &pc_reduce_scatter_coll, .sendbuf = inplace ? recvbuf : sendbuf, .recvbuf = recvbuf,
                   .datatype = datatype, .op = op, .inplace = inplace, .vform = vform, .recvcounts = recvcounts,
                   .recvcount = recvcount};
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_refuse(MPI_COMM_WORLD, pc_call_name(&a), rc);
    /* a repeat of the last MPI_Reduce_scatter_block (coll/call_memo.h): its key has count = recvcount x size */
    pc_comm_t *ctx = vform ? NULL : pc_comm_known(comm);
    if (ctx && recvcount > 0 && recvcount <= INT_MAX / ctx->size) {
        a.count = recvcount * ctx->size;
        if (pc_red_buffers_accepted(sendbuf, recvbuf, 0, 0, ctx) && pc_coll_run_repeat(ctx, &a, forced, comm, &rc))
            return rc;
    }
    if (!ctx && pc_is_intercomm(comm)) {
        pc_log(PC_LOG_DEBUG, "%s on an intercommunicator: fallback to the MPI library", pc_call_name(&a));
        pc_set_last_algorithm("native");
        return pc_reduce_scatter_library(&a, sendbuf, comm);
    }
    long long total;
    rc = check_args(sendbuf, recvbuf, vform, recvcounts, recvcount, datatype, op, comm, &total);
    if (rc != MPI_SUCCESS) return pc_refuse(comm, pc_call_name(&a), rc);
    a.count = (int)total;
    return pc_coll_run(&a, comm, forced, source);
}

PC_DEFINE_FRONT(reduce_scatter, pc_reduce_scatter_coll, reduce_scatter, "PAPCOLL_REDUCE_SCATTER", reduce_scatter,
                (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm),
                (sendbuf, recvbuf, 1, recvcounts, 0, datatype, op, comm))

PC_DEFINE_FRONT(reduce_scatter_block, pc_reduce_scatter_coll, reduce_scatter, "PAPCOLL_REDUCE_SCATTER",
                reduce_scatter,
                (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                (sendbuf, recvbuf, 0, NULL, recvcount, datatype, op, comm))

int pc_rs_check_args(const void *sendbuf, void *recvbuf, int vform, const int *recvcounts, int recvcount,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, long long *total)
{
    return check_args(sendbuf, recvbuf, vform, recvcounts, recvcount, datatype, op, comm, total);
}
