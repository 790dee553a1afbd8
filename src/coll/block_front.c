/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block_front.c - the front of the block collectives (see block_front.h).
 */
#include "coll/block_front.h"
#include "coll/entry.h"
#include "core/args.h"
#include "core/log.h"
#include "core/state.h"

/* MPI_IN_PLACE where the collective does not allow it: Open MPI says
 * MPI_ERR_ARG, MPICH MPI_ERR_BUFFER (checked by the error tests). */
#ifdef OPEN_MPI
#define PC_ERR_MISPLACED_IN_PLACE MPI_ERR_ARG
#else
#define PC_ERR_MISPLACED_IN_PLACE MPI_ERR_BUFFER
#endif
/* A NULL displacement array: MPI_ERR_ARG, except Open MPI 4.1.4's
 * MPI_Allgatherv, which says MPI_ERR_BUFFER (MPICH 4.0.2 dereferences it). */
static int null_displs_class(const pc_block_shape_t *shape)
{
#ifdef OPEN_MPI
    if (shape->send == PC_SIDE_ONE && shape->recv == PC_SIDE_ALL) return MPI_ERR_BUFFER;
#endif
    (void)shape;
    return MPI_ERR_ARG;
}

/* One side's counts, datatype and buffer: n blocks (counts/displs: the v
 * forms' side with an array; MPI_ERR_ARG when it is NULL) or one count per
 * block; *elements = all of them. */
static int check_side(const pc_block_shape_t *shape, const void *buf, int count, int v, const int *counts,
                      const int *displs, MPI_Datatype type, int n, long long *elements)
{
    int rc;
    *elements = 0;
    if (v) {
        if (!counts) return MPI_ERR_ARG;
        if (!displs) return null_displs_class(shape);
        for (int i = 0; i < n; i++) {
            if ((rc = pc_check_type_count(counts[i], type)) != MPI_SUCCESS) return rc;
            *elements += counts[i];
        }
    } else {
        if ((rc = pc_check_type_count(count, type)) != MPI_SUCCESS) return rc;
        *elements = (long long)count * n;
    }
    return pc_check_buffer(buf, *elements > 0, type);
}

static long long block_bytes(int count, const int *counts, int i, MPI_Datatype type)
{
    MPI_Count size;
    PMPI_Type_size_x(type, &size);
    return (long long)(counts ? counts[i] : count) * size;
}

static int check_block_args(const pc_call_t *a, MPI_Comm comm)
{
    const pc_block_shape_t *shape = a->coll->blocks;
    int rank, size, rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int rooted = shape->send == PC_SIDE_ROOT_ALL || shape->recv == PC_SIDE_ROOT_ALL;
    if (rooted && (rc = pc_check_root(a->root, comm)) != MPI_SUCCESS) return rc;
    pc_block_sides_t s = pc_blocks_sides(a, rank);
    /* MPI_IN_PLACE: the send side where the receive side has every block
     * (allgather, alltoall, gather's root); the receive side at scatter's root */
    if (s.send_in_place && !s.recv_all) return PC_ERR_MISPLACED_IN_PLACE;
    if (s.recv_in_place && !(shape->send == PC_SIDE_ROOT_ALL && s.at_root)) return PC_ERR_MISPLACED_IN_PLACE;
    long long sent = 0, received = 0;
    if (s.sends && !s.send_in_place &&
        (rc = check_side(shape, a->sendbuf, a->sendcount, s.send_all && a->vform, a->sendcounts, a->sdispls,
                         a->sendtype, s.send_all ? size : 1, &sent)) != MPI_SUCCESS)
        return rc;
    if (s.receives && !s.recv_in_place &&
        (rc = check_side(shape, a->recvbuf, a->recvcount, s.recv_all && a->vform, a->recvcounts, a->displs,
                         a->recvtype, s.recv_all ? size : 1, &received)) != MPI_SUCCESS)
        return rc;
    int both = s.sends && s.receives && !s.send_in_place && !s.recv_in_place;
    if (both && a->sendbuf == a->recvbuf && a->sendbuf != NULL && sent > 0) return MPI_ERR_BUFFER;
    /* the data this process sends to itself must fit where it receives it */
    if (both) {
        int to_me_s = s.send_all ? rank : 0, to_me_r = s.recv_all ? rank : 0;
        if (block_bytes(a->sendcount, s.send_all && a->vform ? a->sendcounts : NULL, to_me_s, a->sendtype) >
            block_bytes(a->recvcount, s.recv_all && a->vform ? a->recvcounts : NULL, to_me_r, a->recvtype))
            return MPI_ERR_TRUNCATE;
    }
    return MPI_SUCCESS;
}

/* Whether check_block_args certainly accepts the non-v call a when an
 * earlier call with the same key (call_memo.h: each used side's datatype
 * and count, > 0, and MPI_IN_PLACE) was accepted: what the key does not fix
 * is the root's range, the used sides' buffers (not NULL) and their
 * aliasing.  Anything else takes the whole check, which reports it. */
static int accepted_buffers(const pc_call_t *a, const pc_comm_t *ctx)
{
    const pc_block_shape_t *shape = a->coll->blocks;
    if ((shape->send == PC_SIDE_ROOT_ALL || shape->recv == PC_SIDE_ROOT_ALL) && (a->root < 0 || a->root >= ctx->size))
        return 0;
    pc_block_sides_t s = pc_blocks_sides(a, ctx->rank);
    if ((s.sends && a->sendbuf == NULL) || (s.receives && a->recvbuf == NULL)) return 0;
    return !(s.sends && s.receives && !s.send_in_place && !s.recv_in_place && a->sendbuf == a->recvbuf);
}

/* The w form (alltoallw): one datatype per block, displacements in bytes.
 * No NULL-buffer check: with byte displacements and absolute datatypes
 * MPI_BOTTOM (NULL) is a valid buffer.  The order is Open MPI 4.1's: the
 * arrays, then each peer's send and receive (count, datatype), then my block
 * for myself. */
static int check_w_args(const pc_call_t *a, MPI_Comm comm)
{
    int rank, size, rc;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int send_in_place = a->sendbuf == MPI_IN_PLACE;
    if (a->recvbuf == MPI_IN_PLACE) return PC_ERR_MISPLACED_IN_PLACE;
    if (!a->recvcounts || !a->displs || !a->recvtypes) return MPI_ERR_ARG;
    if (!send_in_place && (!a->sendcounts || !a->sdispls || !a->sendtypes)) return MPI_ERR_ARG;
    long long sent = 0;
    for (int i = 0; i < size; i++) {
        if (!send_in_place && (rc = pc_check_type_count(a->sendcounts[i], a->sendtypes[i])) != MPI_SUCCESS) return rc;
        if ((rc = pc_check_type_count(a->recvcounts[i], a->recvtypes[i])) != MPI_SUCCESS) return rc;
        if (!send_in_place) sent += block_bytes(a->sendcounts[i], NULL, 0, a->sendtypes[i]);
    }
    if (send_in_place) return MPI_SUCCESS;
    if (a->sendbuf == a->recvbuf && a->sendbuf != NULL && sent > 0) return MPI_ERR_BUFFER;
    if (block_bytes(a->sendcounts[rank], NULL, 0, a->sendtypes[rank]) >
        block_bytes(a->recvcounts[rank], NULL, 0, a->recvtypes[rank]))
        return MPI_ERR_TRUNCATE;
    return MPI_SUCCESS;
}

int pc_blocks_enter(pc_call_t *a, MPI_Comm comm, const char *forced, const char *source)
{
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_refuse(MPI_COMM_WORLD, pc_call_name(a), rc);
    a->op = MPI_OP_NULL;
    a->inplace = a->sendbuf == MPI_IN_PLACE || a->recvbuf == MPI_IN_PLACE;
    /* a repeat of the last call (coll/call_memo.h) */
    pc_comm_t *ctx = a->wform || a->vform ? NULL : pc_comm_known(comm);
    if (ctx && accepted_buffers(a, ctx) && pc_coll_run_repeat(ctx, a, forced, comm, &rc)) return rc;
    if (!ctx && pc_is_intercomm(comm)) {
        pc_log(PC_LOG_DEBUG, "%s on an intercommunicator: fallback to the MPI library", pc_call_name(a));
        pc_set_last_algorithm("native");
        return a->coll->library(a, comm);
    }
    if ((rc = a->wform ? check_w_args(a, comm) : check_block_args(a, comm)) != MPI_SUCCESS)
        return pc_refuse(comm, pc_call_name(a), rc);
    return pc_coll_run(a, comm, forced, source);
}

int pc_blocks_check(const pc_call_t *a, MPI_Comm comm) { return a->wform ? check_w_args(a, comm) : check_block_args(a, comm); }
