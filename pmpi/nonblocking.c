/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nonblocking.c - libpapcoll_mpi's nonblocking collectives: MPI_Ibarrier,
 * MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce, MPI_Iallgather(v),
 * MPI_Ialltoall(v,w), MPI_Igather(v), MPI_Iscatter(v), MPI_Ireduce_scatter,
 * MPI_Ireduce_scatter_block, MPI_Iscan and MPI_Iexscan run papcoll's schedules (src/nbc/), and the
 * completion calls make them progress.  MPI_Type_free and MPI_Op_free wait
 * for the schedules that still use the handle (nbc/held.h).
 *
 * A papcoll request is a generalized request that papcoll completes itself,
 * so a blocking PMPI_Wait on a set holding one would never return.  While
 * any papcoll schedule is active, MPI_Wait, MPI_Waitall, MPI_Waitany and
 * MPI_Waitsome therefore loop: progress every active schedule, then
 * PMPI_Test* on the program's array, until the Wait's semantics are met
 * (yielding the CPU between polls on an oversubscribed node); once none is
 * active they are the PMPI call itself.  MPI_Test* progress once, then
 * test.  MPI_Request_free progresses once (an active collective request
 * may be freed: it completes at a later progress, or at MPI_Finalize,
 * request.c).  Around each of them, papcoll's active persistent requests
 * are swapped for their runs' generalized requests (PC_PERSIST_AROUND,
 * nbc/persistent.h; MPI_Start is pmpi/persistent.c's).
 *
 * Fortran callers get the same: fortran_nbc.c and fortran_requests.c
 * define the Fortran names whose MPI library routine would not reach these
 * C functions (Open MPI's, and MPICH's mpi_f08 completion calls).
 */
#include <papcoll.h>

#include "nbc/held.h"
#include "nbc/persistent.h"
#include "nbc/request.h"

/* Declares MPI_I<coll>(params): papcoll_i<coll>(args). */
#define PC_NBC_ENTRY(coll, params, args)                                                   \
    int MPI_I##coll params                                                               \
    {                                                                                    \
        return papcoll_i##coll args;                                                     \
    }

PC_NBC_ENTRY(barrier, (MPI_Comm comm, MPI_Request *request), (comm, request))
PC_NBC_ENTRY(bcast, (void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request),
             (buf, count, datatype, root, comm, request))
PC_NBC_ENTRY(reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                      MPI_Comm comm, MPI_Request *request),
             (sendbuf, recvbuf, count, datatype, op, root, comm, request))
PC_NBC_ENTRY(allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Request *request),
             (sendbuf, recvbuf, count, datatype, op, comm, request))
PC_NBC_ENTRY(allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
PC_NBC_ENTRY(allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request),
             (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
PC_NBC_ENTRY(alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
PC_NBC_ENTRY(alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Request *request),
             (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request))
PC_NBC_ENTRY(alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request),
             (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request))
PC_NBC_ENTRY(gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
PC_NBC_ENTRY(gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request *request),
             (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request))
PC_NBC_ENTRY(scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
PC_NBC_ENTRY(scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request *request),
             (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
PC_NBC_ENTRY(reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Request *request),
             (sendbuf, recvbuf, recvcounts, datatype, op, comm, request))
PC_NBC_ENTRY(reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Request *request),
             (sendbuf, recvbuf, recvcount, datatype, op, comm, request))
PC_NBC_ENTRY(scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request),
             (sendbuf, recvbuf, count, datatype, op, comm, request))
PC_NBC_ENTRY(exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      MPI_Request *request),
             (sendbuf, recvbuf, count, datatype, op, comm, request))

/* ---- completion ---- */

static int nb_wait(MPI_Request *request, MPI_Status *status)
{
    while (pc_nbc_active()) {
        int flag = 0;
        pc_nbc_progress();
        int rc = PMPI_Test(request, &flag, status);
        if (rc != MPI_SUCCESS || flag) return rc;
        pc_nbc_idle();
    }
    return PMPI_Wait(request, status);
}

static int nb_waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    while (pc_nbc_active()) {
        int flag = 0;
        pc_nbc_progress();
        int rc = PMPI_Testall(count, requests, &flag, statuses);
        if (rc != MPI_SUCCESS || flag) return rc;
        pc_nbc_idle();
    }
    return PMPI_Waitall(count, requests, statuses);
}

static int nb_waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    while (pc_nbc_active()) {
        int flag = 0;
        pc_nbc_progress();
        int rc = PMPI_Testany(count, requests, index, &flag, status);
        if (rc != MPI_SUCCESS || flag) return rc; /* flag also when every request is null (index MPI_UNDEFINED) */
        pc_nbc_idle();
    }
    return PMPI_Waitany(count, requests, index, status);
}

static int nb_waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    while (pc_nbc_active()) {
        pc_nbc_progress();
        int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
        if (rc != MPI_SUCCESS || *outcount != 0) return rc; /* MPI_UNDEFINED: every request null */
        pc_nbc_idle();
    }
    return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
}

static int nb_test(MPI_Request *request, int *flag, MPI_Status *status)
{
    pc_nbc_progress();
    return PMPI_Test(request, flag, status);
}

static int nb_testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    pc_nbc_progress();
    return PMPI_Testall(count, requests, flag, statuses);
}

static int nb_testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    pc_nbc_progress();
    return PMPI_Testany(count, requests, index, flag, status);
}

static int nb_testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    pc_nbc_progress();
    return PMPI_Testsome(incount, requests, outcount, indices, statuses);
}

int MPI_Request_free(MPI_Request *request)
{
    pc_nbc_progress();
    int rc;
    if (pc_persist_any() && pc_persist_free(request, &rc)) return rc; /* a papcoll persistent request */
    return PMPI_Request_free(request);
}

/* A datatype or op that a pending schedule still uses is freed for the
 * program now and for the library when the schedule ends (nbc/held.h). */
int MPI_Type_free(MPI_Datatype *datatype)
{
    return pc_held_defer_type(datatype) ? MPI_SUCCESS : PMPI_Type_free(datatype);
}

int MPI_Op_free(MPI_Op *op) { return pc_held_defer_op(op) ? MPI_SUCCESS : PMPI_Op_free(op); }

/* The completion calls, with papcoll's active persistent requests swapped
 * for their runs' generalized requests around them (nbc/persistent.h). */
int MPI_Wait(MPI_Request *request, MPI_Status *status) { PC_PERSIST_AROUND(1, request, nb_wait(request, status)); }
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    PC_PERSIST_AROUND(count, requests, nb_waitall(count, requests, statuses));
}
int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    PC_PERSIST_AROUND(count, requests, nb_waitany(count, requests, index, status));
}
int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    PC_PERSIST_AROUND(incount, requests, nb_waitsome(incount, requests, outcount, indices, statuses));
}
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) { PC_PERSIST_AROUND(1, request, nb_test(request, flag, status)); }
int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    PC_PERSIST_AROUND(count, requests, nb_testall(count, requests, flag, statuses));
}
int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    PC_PERSIST_AROUND(count, requests, nb_testany(count, requests, index, flag, status));
}
int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    PC_PERSIST_AROUND(incount, requests, nb_testsome(incount, requests, outcount, indices, statuses));
}
