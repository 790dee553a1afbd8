/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent_front.c - papcoll_barrier_init, papcoll_bcast_init,
 * papcoll_reduce_init and papcoll_allreduce_init (and their _by_name forms):
 * the nonblocking front of the collective (front.c: checks, selection by
 * PAPCOLL_I<COLL> or the name, once) run with this thread's maker set
 * (persistent.h), so it builds a persistent request instead of starting a
 * schedule, or makes the MPI library's own persistent request where it would
 * have called PMPI_I<coll>.
 *
 * The library's own init and the maker: persistent_front.h.
 *
 * A collective plugs in with an argument struct, its native function and
 * PC_PERSIST_MAKE around its nonblocking front (as below; the block
 * collectives: persistent_front_blocks.c), the two declarations in
 * papcoll.h and its entry points in pmpi/persistent.c (and
 * pmpi/fortran_nbc.c).
 */
#include <papcoll.h>

#include "nbc/persistent_front.h"

__thread pc_persist_maker_t *pc_persist_maker;

int pc_persist_native_taken(MPI_Request *request)
{
    pc_persist_maker_t *m = pc_persist_maker;
    if (!m) return 0;
    m->native_rc = m->native(m->args, request);
    pc_log(PC_LOG_DEBUG, "%s_init: the MPI library's own persistent request", m->coll);
    return 1;
}

/* ---- barrier ---- */

typedef struct { MPI_Comm comm; MPI_Info info; } barrier_args_t;

static int barrier_native(const void *v, MPI_Request *request)
{
    const barrier_args_t *x = v;
    return NATIVE_CALL(Barrier, x->comm, x->info, request);
}

int papcoll_barrier_init_by_name(const char *algorithm, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    barrier_args_t x = {comm, info};
    PC_PERSIST_MAKE("barrier", barrier_native, &x, papcoll_ibarrier_by_name(algorithm, comm, request));
}

int papcoll_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return papcoll_barrier_init_by_name(NULL, comm, info, request);
}

/* ---- bcast ---- */

typedef struct { void *buf; int count; MPI_Datatype type; int root; MPI_Comm comm; MPI_Info info; } bcast_args_t;

static int bcast_native(const void *v, MPI_Request *request)
{
    const bcast_args_t *x = v;
    return NATIVE_CALL(Bcast, x->buf, x->count, x->type, x->root, x->comm, x->info, request);
}

int papcoll_bcast_init_by_name(const char *algorithm, void *buf, int count, MPI_Datatype datatype, int root,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    bcast_args_t x = {buf, count, datatype, root, comm, info};
    PC_PERSIST_MAKE("bcast", bcast_native, &x,
                    papcoll_ibcast_by_name(algorithm, buf, count, datatype, root, comm, request));
}

int papcoll_bcast_init(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return papcoll_bcast_init_by_name(NULL, buf, count, datatype, root, comm, info, request);
}

/* ---- reduce, allreduce ---- */

typedef struct {
    const void *sendbuf;
    void *recvbuf;
    int count;
    MPI_Datatype type;
    MPI_Op op;
    int root;            /* reduce */
    MPI_Comm comm;
    MPI_Info info;
} reduction_args_t;

static int reduce_native(const void *v, MPI_Request *request)
{
    const reduction_args_t *x = v;
    return NATIVE_CALL(Reduce, x->sendbuf, x->recvbuf, x->count, x->type, x->op, x->root, x->comm, x->info, request);
}

int papcoll_reduce_init_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    reduction_args_t x = {sendbuf, recvbuf, count, datatype, op, root, comm, info};
    PC_PERSIST_MAKE("reduce", reduce_native, &x,
                    papcoll_ireduce_by_name(algorithm, sendbuf, recvbuf, count, datatype, op, root, comm, request));
}

int papcoll_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return papcoll_reduce_init_by_name(NULL, sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}

static int allreduce_native(const void *v, MPI_Request *request)
{
    const reduction_args_t *x = v;
    return NATIVE_CALL(Allreduce, x->sendbuf, x->recvbuf, x->count, x->type, x->op, x->comm, x->info, request);
}

int papcoll_allreduce_init_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    reduction_args_t x = {sendbuf, recvbuf, count, datatype, op, 0, comm, info};
    PC_PERSIST_MAKE("allreduce", allreduce_native, &x,
                    papcoll_iallreduce_by_name(algorithm, sendbuf, recvbuf, count, datatype, op, comm, request));
}

int papcoll_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return papcoll_allreduce_init_by_name(NULL, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}
