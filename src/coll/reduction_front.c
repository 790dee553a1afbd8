/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduction_front.c - what the reductions' fronts share (see reduction.h):
 * MPI_Reduce's and MPI_Allreduce's argument checks and intercommunicator
 * fallback, running a reduction among other processes, and the whole-
 * communicator fallback of the hierarchical reductions.
 */
#include "coll/reduction.h"
#include "coll/entry.h"
#include "core/args.h"
#include "core/log.h"
#include "core/state.h"

int pc_red_buffers_accepted(const void *sendbuf, const void *recvbuf, int rooted, int root, const pc_comm_t *ctx)
{
    if (rooted && (root < 0 || root >= ctx->size)) return 0;
    int receives = !rooted || ctx->rank == root;
    if (sendbuf == NULL || (sendbuf == MPI_IN_PLACE && !receives)) return 0;
    return !receives || (recvbuf != NULL && recvbuf != MPI_IN_PLACE && recvbuf != sendbuf);
}

int pc_red_enter(const char *forced, const char *source, const pc_coll_t *coll, const void *sendbuf, void *recvbuf,
                 int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_refuse(MPI_COMM_WORLD, coll->name, rc);
    int inplace = sendbuf == MPI_IN_PLACE;
    pc_call_t a = {.coll = coll, .root = coll->rooted ? root : 0, .sendbuf = inplace ? recvbuf : sendbuf,
                   .recvbuf = recvbuf, .count = count, .datatype = datatype, .op = op, .inplace = inplace};
    /* a repeat of the last call (coll/call_memo.h) */
    pc_comm_t *ctx = pc_comm_known(comm);
    if (ctx && pc_red_buffers_accepted(sendbuf, recvbuf, coll->rooted, root, ctx) &&
        pc_coll_run_repeat(ctx, &a, forced, comm, &rc))
        return rc;
    if (!ctx && pc_is_intercomm(comm)) {
        pc_log(PC_LOG_DEBUG, "%s on an intercommunicator: fallback to the MPI library", coll->name);
        pc_set_last_algorithm("native");
        return coll->rooted ? PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm)
                            : PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    }
    rc = pc_check_reduction_args(sendbuf, recvbuf, count, datatype, op, coll->rooted, coll->rooted ? root : 0, comm);
    if (rc != MPI_SUCCESS) return pc_refuse(comm, coll->name, rc);
    return pc_coll_run(&a, comm, forced, source);
}

int pc_red_call_on(const pc_call_t *a, const char *name, const void *sendbuf, void *recvbuf, int root, MPI_Comm comm)
{
    pc_call_t inner = *a;
    inner.sendbuf = sendbuf;
    inner.recvbuf = recvbuf;
    inner.inplace = sendbuf == recvbuf;
    inner.root = root;
    return pc_coll_call_on(&inner, name, comm);
}

int pc_red_whole_comm(const pc_call_t *a, const char *algorithm, size_t room, const char *inter)
{
    if (a->ctx->rank == a->root)
        pc_log(PC_LOG_WARN, "%s %s: one element (%ld bytes) does not fit its %zu bytes of node shared memory "
               "(PAPCOLL_SHM_SIZE): %s over the whole communicator", a->coll->name, algorithm, (long)a->true_extent,
               room, inter);
    return pc_red_call_on(a, inter, a->sendbuf, a->recvbuf, a->root, a->ctx->comm);
}
