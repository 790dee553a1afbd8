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
 * The library's own: MPI-4's PMPI_<Coll>_init (MPICH 4.0;
 * PAPCOLL_HAVE_MPI_PERSISTENT_COLL, a configure check), else Open MPI's
 * extension PMPIX_<Coll>_init (mpi-ext.h; PAPCOLL_HAVE_MPIX_PCOLLREQ), else
 * none: MPI_ERR_UNSUPPORTED_OPERATION where papcoll would need it.
 *
 * A collective plugs in with an argument struct, its native function and
 * PC_PERSIST_MAKE around its nonblocking front (as below), the two
 * declarations in papcoll.h and its entry points in pmpi/persistent.c.
 */
#include <papcoll.h>

#include "nbc/persistent.h"
#include "core/log.h"

#if defined(PAPCOLL_HAVE_MPI_PERSISTENT_COLL)
#define NATIVE_CALL(Name, ...) PMPI_##Name##_init(__VA_ARGS__)
#elif defined(PAPCOLL_HAVE_MPIX_PCOLLREQ)
#include <mpi-ext.h>
#define NATIVE_CALL(Name, ...) PMPIX_##Name##_init(__VA_ARGS__)
#else
/* No persistent collectives in this MPI library: papcoll's algorithms only. */
static int no_native_init(void)
{
    pc_log(PC_LOG_WARN, "this MPI library has no persistent collectives: only papcoll's algorithms serve them");
    return MPI_ERR_UNSUPPORTED_OPERATION;
}
#define NATIVE_CALL(Name, ...) ((void)x, (void)request, no_native_init())
#endif

__thread pc_persist_maker_t *pc_persist_maker;

int pc_persist_native_taken(MPI_Request *request)
{
    pc_persist_maker_t *m = pc_persist_maker;
    if (!m) return 0;
    m->native_rc = m->native(m->args, request);
    pc_log(PC_LOG_DEBUG, "%s_init: the MPI library's own persistent request", m->coll);
    return 1;
}

/* Runs CALL (a nonblocking front) as the maker of a persistent COLL whose
 * native init is NATIVE(ARGS); returns its result. */
#define PC_PERSIST_MAKE(COLL, NATIVE, ARGS, CALL)                \
    do {                                                         \
        pc_persist_maker_t pc_maker_ = {COLL, NATIVE, ARGS, 0};  \
        pc_persist_maker = &pc_maker_;                           \
        int pc_rc_ = CALL;                                       \
        pc_persist_maker = NULL;                                 \
        return pc_rc_;                                           \
    } while (0)

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
