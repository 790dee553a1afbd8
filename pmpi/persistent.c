/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent.c - libpapcoll_mpi's persistent collectives: MPI-4's
 * MPI_Barrier_init, MPI_Bcast_init, MPI_Reduce_init and MPI_Allreduce_init
 * where the MPI library has them (MPICH 4.0; PAPCOLL_HAVE_MPI_PERSISTENT_COLL,
 * a configure check), else Open MPI's MPIX_<Coll>_init extension
 * (PAPCOLL_HAVE_MPIX_PCOLLREQ), run papcoll's schedules
 * (src/nbc/persistent.h); MPI_Start and MPI_Startall start them and pass the
 * program's other persistent requests (its MPI_Send_init / MPI_Recv_init
 * ones, the library's persistent collectives) to PMPI_Start(all);
 * MPI_Request_get_status looks at a papcoll request's current run.  The
 * completion calls and MPI_Request_free are pmpi/nonblocking.c's.  Every
 * other persistent collective (MPI_Allgather_init ...) is the library's.
 * Fortran callers get the same (fortran_nbc.c, fortran_requests.c).
 */
#include <papcoll.h>

#include "nbc/persistent.h"
#include "nbc/request.h"

#include <stdlib.h>

#if defined(PAPCOLL_HAVE_MPI_PERSISTENT_COLL) || defined(PAPCOLL_HAVE_MPIX_PCOLLREQ)

#if defined(PAPCOLL_HAVE_MPI_PERSISTENT_COLL)
#define ENTRY(Name) MPI_##Name##_init   /* the MPI function a program calls */
#define NATIVE(Name) PMPI_##Name##_init /* the library's own */
#else
#include <mpi-ext.h>
#define ENTRY(Name) MPIX_##Name##_init
#define NATIVE(Name) PMPIX_##Name##_init
#endif

int ENTRY(Barrier)(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return papcoll_barrier_init(comm, info, request);
}

int ENTRY(Bcast)(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                 MPI_Request *request)
{
    return papcoll_bcast_init(buf, count, datatype, root, comm, info, request);
}

int ENTRY(Reduce)(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return papcoll_reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}

int ENTRY(Allreduce)(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    return papcoll_allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

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
