/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent.c - libpapcoll_mpi's persistent collectives: MPI-4's
 * MPI_Barrier_init, MPI_Bcast_init, MPI_Reduce_init, MPI_Allreduce_init,
 * MPI_Allgather(v)_init, MPI_Alltoall(v)_init, MPI_Gather(v)_init,
 * MPI_Scatter(v)_init and MPI_Reduce_scatter(_block)_init where the MPI
 * library has them (MPICH 4.0; PAPCOLL_HAVE_MPI_PERSISTENT_COLL, a
 * configure check), else Open MPI's MPIX_<Coll>_init extension
 * (PAPCOLL_HAVE_MPIX_PCOLLREQ), run papcoll's schedules
 * (src/nbc/persistent.h); MPI_Start and MPI_Startall start them and pass the
 * program's other persistent requests (its MPI_Send_init / MPI_Recv_init
 * ones, the library's persistent collectives) to PMPI_Start(all);
 * MPI_Request_get_status looks at a papcoll request's current run.  The
 * completion calls and MPI_Request_free are pmpi/nonblocking.c's.  Every
 * other persistent collective (MPI_Alltoallw_init, MPI_Scan_init ...) is
 * the library's.
 * Fortran callers get the same (fortran_nbc.c, fortran_requests.c).
 */
#include <papcoll.h>

#include "nbc/persistent.h"
#include "nbc/request.h"

#include <stdlib.h>

#if defined(PAPCOLL_HAVE_MPI_PERSISTENT_COLL) || defined(PAPCOLL_HAVE_MPIX_PCOLLREQ)

#if defined(PAPCOLL_HAVE_MPI_PERSISTENT_COLL)
#define ENTRY(Name) MPI_##Name##_init /* the MPI function a program calls */
#else
#include <mpi-ext.h>
#define ENTRY(Name) MPIX_##Name##_init
#endif

/* Declares ENTRY(Name)(params) as papcoll_<name>_init(args). */
#define PC_INIT_ENTRY(Name, name, params, args) \
    int ENTRY(Name) params { return papcoll_##name##_init args; }

PC_INIT_ENTRY(Barrier, barrier, (MPI_Comm comm, MPI_Info info, MPI_Request *request), (comm, info, request))
PC_INIT_ENTRY(Bcast, bcast,
              (void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
               MPI_Request *request),
              (buf, count, datatype, root, comm, info, request))
PC_INIT_ENTRY(Reduce, reduce,
              (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm, MPI_Info info, MPI_Request *request),
              (sendbuf, recvbuf, count, datatype, op, root, comm, info, request))
PC_INIT_ENTRY(Allreduce, allreduce,
              (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Info info, MPI_Request *request),
              (sendbuf, recvbuf, count, datatype, op, comm, info, request))

/* One block from / to each process: allgather, alltoall; with a root: gather, scatter. */
#define ONE_BLOCK_PARAMS                                                                                 \
    (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,            \
     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
#define ONE_BLOCK_ARGS (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request)
#define ROOTED_PARAMS                                                                                    \
    (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,            \
     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
#define ROOTED_ARGS (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request)
PC_INIT_ENTRY(Allgather, allgather, ONE_BLOCK_PARAMS, ONE_BLOCK_ARGS)
PC_INIT_ENTRY(Alltoall, alltoall, ONE_BLOCK_PARAMS, ONE_BLOCK_ARGS)
PC_INIT_ENTRY(Gather, gather, ROOTED_PARAMS, ROOTED_ARGS)
PC_INIT_ENTRY(Scatter, scatter, ROOTED_PARAMS, ROOTED_ARGS)

PC_INIT_ENTRY(Allgatherv, allgatherv,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
               const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request),
              (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, info, request))
PC_INIT_ENTRY(Alltoallv, alltoallv,
              (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
               void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Info info, MPI_Request *request),
              (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, info, request))
PC_INIT_ENTRY(Gatherv, gatherv,
              (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
               const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
               MPI_Request *request),
              (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, info, request))
PC_INIT_ENTRY(Scatterv, scatterv,
              (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
               MPI_Request *request),
              (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request))
PC_INIT_ENTRY(Reduce_scatter, reduce_scatter,
              (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Info info, MPI_Request *request),
              (sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request))
PC_INIT_ENTRY(Reduce_scatter_block, reduce_scatter_block,
              (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Info info, MPI_Request *request),
              (sendbuf, recvbuf, recvcount, datatype, op, comm, info, request))

#endif

int MPI_Start(MPI_Request *request)
{
    int rc;
    if (pc_persist_any() && pc_persist_start(request, &rc)) return rc;
    return PMPI_Start(request);
}

/* As MPI_Start on each, in order (MPI: "in some arbitrary order"); the
 * library's own persistent requests in one PMPI_Start each. */
int MPI_Startall(int count, MPI_Request requests[])
{
    if (!pc_persist_any()) return PMPI_Startall(count, requests);
    for (int i = 0; i < count; i++) {
        int rc = MPI_SUCCESS;
        if (!pc_persist_start(&requests[i], &rc)) rc = PMPI_Start(&requests[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

/* Progress, then the library's status of the current run (the request
 * stays active: nothing is freed). */
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    pc_nbc_progress();
    PC_PERSIST_AROUND(1, &request, PMPI_Request_get_status(request, flag, status));
}
