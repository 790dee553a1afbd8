/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent_front_blocks.c - papcoll_<coll>_init (and _by_name) of the
 * block collectives: allgather(v), alltoall(v), gather(v), scatter(v),
 * reduce_scatter(_block).  As persistent_front.c: the nonblocking front
 * (front_blocks.c, front_reduce_scatter.c: checks and selection by
 * PAPCOLL_I<COLL> or the name) run once with this thread's maker set, so
 * the schedule is built once and rerun by each MPI_Start; the MPI library's
 * own persistent request where the front would call PMPI_I<coll>.  The
 * count and displacement arrays are read at init (MPI: they must stay
 * unchanged until the request is freed).
 */
#include <papcoll.h>

#include "nbc/persistent_front.h"
#include "coll/front.h" /* PC_UNPAREN */

/* The arguments of any block collective (each fills its own). */
typedef struct {
    const void *sendbuf;
    void *recvbuf;
    int sendcount, recvcount, root;
    const int *sendcounts, *sdispls, *recvcounts, *rdispls;
    MPI_Datatype sendtype, recvtype, datatype;
    MPI_Op op;
    MPI_Comm comm;
    MPI_Info info;
} block_args_t;

/* x's fields as locals named like the parameters, for the native call's ARGS. */
#define BLOCK_LOCALS(x)                                                                                  \
    const void *sendbuf = x->sendbuf;                                                                    \
    void *recvbuf = x->recvbuf;                                                                          \
    int sendcount = x->sendcount, recvcount = x->recvcount, root = x->root;                              \
    const int *sendcounts = x->sendcounts, *sdispls = x->sdispls, *recvcounts = x->recvcounts,           \
              *rdispls = x->rdispls;                                                                     \
    MPI_Datatype sendtype = x->sendtype, recvtype = x->recvtype, datatype = x->datatype;                 \
    MPI_Op op = x->op;                                                                                   \
    MPI_Comm comm = x->comm;                                                                             \
    (void)sendbuf, (void)recvbuf, (void)sendcount, (void)recvcount, (void)root, (void)sendcounts,        \
        (void)sdispls, (void)recvcounts, (void)rdispls, (void)sendtype, (void)recvtype, (void)datatype,  \
        (void)op, (void)comm

/* papcoll_<name>_init(PARAMS, info, request) and its _by_name: the maker
 * (FIELDS: the parameters in block_args_t) around
 * papcoll_i<name>_by_name(ARGS); the native init PMPI(X)_<Name>_init(ARGS). */
#define PC_PERSIST_BLOCK(name, Name, PARAMS, FIELDS, ARGS)                                               \
    static int name##_native(const void *v, MPI_Request *request)                                       \
    {                                                                                                    \
        const block_args_t *x = v;                                                                       \
        BLOCK_LOCALS(x);                                                                                 \
        return NATIVE_CALL(Name, PC_UNPAREN ARGS, x->info, request);                                     \
    }                                                                                                    \
    int papcoll_##name##_init_by_name(const char *algorithm, PC_UNPAREN PARAMS, MPI_Info info,           \
                                      MPI_Request *request)                                              \
    {                                                                                                    \
        block_args_t x = {PC_UNPAREN FIELDS, .comm = comm, .info = info};                                \
        PC_PERSIST_MAKE(#name, name##_native, &x,                                                        \
                        papcoll_i##name##_by_name(algorithm, PC_UNPAREN ARGS, request));                 \
    }                                                                                                    \
    int papcoll_##name##_init(PC_UNPAREN PARAMS, MPI_Info info, MPI_Request *request)                    \
    {                                                                                                    \
        return papcoll_##name##_init_by_name(NULL, PC_UNPAREN ARGS, info, request);                      \
    }

/* One block from / to each process: allgather, alltoall (and with a root: gather, scatter). */
#define ONE_BLOCK_FIELDS                                                                                 \
    (.sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype, .recvbuf = recvbuf,               \
     .recvcount = recvcount, .recvtype = recvtype)
#define ONE_BLOCK_PARAMS                                                                                 \
    (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,            \
     MPI_Datatype recvtype, MPI_Comm comm)
#define ONE_BLOCK_ARGS (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
#define ROOTED_PARAMS                                                                                    \
    (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,            \
     MPI_Datatype recvtype, int root, MPI_Comm comm)
#define ROOTED_ARGS (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)

PC_PERSIST_BLOCK(allgather, Allgather, ONE_BLOCK_PARAMS, ONE_BLOCK_FIELDS, ONE_BLOCK_ARGS)
PC_PERSIST_BLOCK(alltoall, Alltoall, ONE_BLOCK_PARAMS, ONE_BLOCK_FIELDS, ONE_BLOCK_ARGS)
PC_PERSIST_BLOCK(gather, Gather, ROOTED_PARAMS, (PC_UNPAREN ONE_BLOCK_FIELDS, .root = root), ROOTED_ARGS)
PC_PERSIST_BLOCK(scatter, Scatter, ROOTED_PARAMS, (PC_UNPAREN ONE_BLOCK_FIELDS, .root = root), ROOTED_ARGS)

PC_PERSIST_BLOCK(allgatherv, Allgatherv,
                 (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
                 (.sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype, .recvbuf = recvbuf,
                  .recvcounts = recvcounts, .rdispls = rdispls, .recvtype = recvtype),
                 (sendbuf, sendcount, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
PC_PERSIST_BLOCK(alltoallv, Alltoallv,
                 (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
                 (.sendbuf = sendbuf, .sendcounts = sendcounts, .sdispls = sdispls, .sendtype = sendtype,
                  .recvbuf = recvbuf, .recvcounts = recvcounts, .rdispls = rdispls, .recvtype = recvtype),
                 (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
PC_PERSIST_BLOCK(gatherv, Gatherv,
                 (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, int root, MPI_Comm comm),
                 (.sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype, .recvbuf = recvbuf,
                  .recvcounts = recvcounts, .rdispls = rdispls, .recvtype = recvtype, .root = root),
                 (sendbuf, sendcount, sendtype, recvbuf, recvcounts, rdispls, recvtype, root, comm))
PC_PERSIST_BLOCK(scatterv, Scatterv,
                 (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
                 (.sendbuf = sendbuf, .sendcounts = sendcounts, .sdispls = sdispls, .sendtype = sendtype,
                  .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype, .root = root),
                 (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcount, recvtype, root, comm))
PC_PERSIST_BLOCK(reduce_scatter, Reduce_scatter,
                 (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm),
                 (.sendbuf = sendbuf, .recvbuf = recvbuf, .recvcounts = recvcounts, .datatype = datatype, .op = op),
                 (sendbuf, recvbuf, recvcounts, datatype, op, comm))
PC_PERSIST_BLOCK(reduce_scatter_block, Reduce_scatter_block,
                 (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                 (.sendbuf = sendbuf, .recvbuf = recvbuf, .recvcount = recvcount, .datatype = datatype, .op = op),
                 (sendbuf, recvbuf, recvcount, datatype, op, comm))
