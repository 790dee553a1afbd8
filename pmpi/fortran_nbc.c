/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fortran_nbc.c - the Fortran nonblocking collectives MPI_IBARRIER,
 * MPI_IBCAST, MPI_IREDUCE, MPI_IALLREDUCE, MPI_IALLGATHER(V),
 * MPI_IALLTOALL(V,W), MPI_IGATHER(V), MPI_ISCATTER(V),
 * MPI_IREDUCE_SCATTER(_BLOCK), MPI_ISCAN, MPI_IEXSCAN, and the persistent
 * ones papcoll serves
 * (MPIX_<COLL>_INIT), for Open MPI 4.1, whose Fortran wrappers call
 * PMPI_I<coll> / PMPIX_<Coll>_init (libmpi_mpifh for mpif.h and `use mpi`,
 * libmpi_usempif08 for mpi_f08): every name of PC_FORTRAN_NAMES
 * (fortran.h), as fortran.c does for the blocking ones.  Handles and
 * sentinels are converted as there; the request goes back through
 * MPI_Request_c2f.  Completion: fortran_requests.c.  Also MPI_TYPE_FREE
 * and MPI_OP_FREE, which must wait for the schedules using the handle.
 *
 * MPICH 4.0's wrappers call the C MPI_I<coll> and MPI_<Coll>_init (mpif.h,
 * `use mpi`, and mpi_f08's MPIR_<Coll>_cdesc: objdump of libmpichfort
 * 4.0.2), which nonblocking.c and persistent.c serve, except mpi_f08's
 * MPI_Ibarrier and MPI_Barrier_init (no buffer, no cdesc), which call
 * PMPI_Ibarrier and PMPI_Barrier_init: those two names are defined here
 * (type(MPI_Comm), type(MPI_Info) and type(MPI_Request) are their INTEGER
 * MPI_VAL; ierror optional).
 */
#include "fortran_sentinels.h"

#include <papcoll.h>

#include <stdlib.h>

#include "fortran.h"

#define COMM PMPI_Comm_f2c(*comm)

/* Runs papcoll's CALL, whose last argument is &c_, from the Fortran
 * caller's site; the request back as a Fortran handle. */
#define PC_FORTRAN_REQUEST_CALL(request, ierror, CALL)     \
    do {                                                   \
        MPI_Request c_ = MPI_REQUEST_NULL;                 \
        SET_IERROR_FROM_SITE(ierror, CALL);                \
        *request = PMPI_Request_c2f(c_);                   \
    } while (0)

#if defined(OPEN_MPI)

#define bottom_to_c pc_fortran_bottom_to_c
#define sendbuf_to_c pc_fortran_sendbuf_to_c
#define TYPE(t) PMPI_Type_f2c(*t)
#define OP PMPI_Op_f2c(*op)

#define PC_UNPAREN(...) __VA_ARGS__

/* The Fortran MPI_I<COLL>(FPARAMS, request, ierror): papcoll_i<coll>(CARGS, request). */
#define PC_FORTRAN_NBC(coll, COLL, fparams, cargs)                                                       \
    static void fortran_i##coll(PC_UNPAREN fparams, MPI_Fint *request, MPI_Fint *ierror)                 \
    {                                                                                                    \
        PC_FORTRAN_REQUEST_CALL(request, ierror, papcoll_i##coll(PC_UNPAREN cargs, &c_));                \
    }                                                                                                    \
    PC_FORTRAN_NAMES(fortran_i##coll, MPI_I##COLL, mpi_i##coll,                                          \
                     (PC_UNPAREN fparams, MPI_Fint * request, MPI_Fint * ierror));

#if defined(PAPCOLL_HAVE_MPIX_PCOLLREQ)
/* The Fortran MPIX_<COLL>_INIT(FPARAMS, info, request, ierror): papcoll_<coll>_init(CARGS, info, request). */
#define PC_FORTRAN_INIT(coll, COLL, fparams, cargs)                                                      \
    static void fortran_##coll##_init(PC_UNPAREN fparams, MPI_Fint *info, MPI_Fint *request,             \
                                      MPI_Fint *ierror)                                                  \
    {                                                                                                    \
        PC_FORTRAN_REQUEST_CALL(request, ierror,                                                         \
                                papcoll_##coll##_init(PC_UNPAREN cargs, PMPI_Info_f2c(*info), &c_));     \
    }                                                                                                    \
    PC_FORTRAN_NAMES(fortran_##coll##_init, MPIX_##COLL##_INIT, mpix_##coll##_init,                      \
                     (PC_UNPAREN fparams, MPI_Fint * info, MPI_Fint * request, MPI_Fint * ierror));
#else
#define PC_FORTRAN_INIT(coll, COLL, fparams, cargs)
#endif

/* Both forms of a collective: MPI_I<COLL> and MPIX_<COLL>_INIT. */
#define PC_FORTRAN_NBC_AND_INIT(coll, COLL, fparams, cargs) \
    PC_FORTRAN_NBC(coll, COLL, fparams, cargs) PC_FORTRAN_INIT(coll, COLL, fparams, cargs)

PC_FORTRAN_NBC_AND_INIT(barrier, BARRIER, (MPI_Fint *comm), (COMM))
PC_FORTRAN_NBC_AND_INIT(bcast, BCAST,
                        (void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root, MPI_Fint *comm),
                        (bottom_to_c(buffer), (int)*count, TYPE(datatype), (int)*root, COMM))
PC_FORTRAN_NBC_AND_INIT(reduce, REDUCE,
                        (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                         MPI_Fint *root, MPI_Fint *comm),
                        (sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count, TYPE(datatype), OP, (int)*root,
                         COMM))
PC_FORTRAN_NBC_AND_INIT(allreduce, ALLREDUCE,
                        (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                         MPI_Fint *comm),
                        (sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count, TYPE(datatype), OP, COMM))
PC_FORTRAN_NBC_AND_INIT(reduce_scatter, REDUCE_SCATTER,
               (void *sendbuf, void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *datatype, MPI_Fint *op,
                MPI_Fint *comm),
               (sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (const int *)recvcounts, TYPE(datatype), OP, COMM))
PC_FORTRAN_NBC_AND_INIT(reduce_scatter_block, REDUCE_SCATTER_BLOCK,
               (void *sendbuf, void *recvbuf, MPI_Fint *recvcount, MPI_Fint *datatype, MPI_Fint *op,
                MPI_Fint *comm),
               (sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*recvcount, TYPE(datatype), OP, COMM))

/* One block to or from each process: allgather, alltoall (BLOCK_*), gather,
 * scatter (ROOTED_*: the same with a root). */
#define BLOCK_FPARAMS                                                                                   \
    (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,         \
     MPI_Fint *recvtype, MPI_Fint *comm)
#define BLOCK_CARGS                                                                                     \
    (sendbuf_to_c(sendbuf), (int)*sendcount, TYPE(sendtype), bottom_to_c(recvbuf), (int)*recvcount,      \
     TYPE(recvtype), COMM)
#define ROOTED_FPARAMS                                                                                  \
    (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,         \
     MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm)

PC_FORTRAN_NBC_AND_INIT(allgather, ALLGATHER, BLOCK_FPARAMS, BLOCK_CARGS)
PC_FORTRAN_NBC_AND_INIT(alltoall, ALLTOALL, BLOCK_FPARAMS, BLOCK_CARGS)
PC_FORTRAN_NBC_AND_INIT(gather, GATHER, ROOTED_FPARAMS,
               (sendbuf_to_c(sendbuf), (int)*sendcount, TYPE(sendtype), bottom_to_c(recvbuf), (int)*recvcount,
                TYPE(recvtype), (int)*root, COMM))
PC_FORTRAN_NBC_AND_INIT(scatter, SCATTER, ROOTED_FPARAMS,
               (bottom_to_c(sendbuf), (int)*sendcount, TYPE(sendtype), (void *)sendbuf_to_c(recvbuf),
                (int)*recvcount, TYPE(recvtype), (int)*root, COMM))
PC_FORTRAN_NBC_AND_INIT(allgatherv, ALLGATHERV,
               (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcounts,
                MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *comm),
               (sendbuf_to_c(sendbuf), (int)*sendcount, TYPE(sendtype), bottom_to_c(recvbuf),
                (const int *)recvcounts, (const int *)displs, TYPE(recvtype), COMM))
PC_FORTRAN_NBC_AND_INIT(alltoallv, ALLTOALLV,
               (void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtype, void *recvbuf,
                MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtype, MPI_Fint *comm),
               (sendbuf_to_c(sendbuf), (const int *)sendcounts, (const int *)sdispls, TYPE(sendtype),
                bottom_to_c(recvbuf), (const int *)recvcounts, (const int *)rdispls, TYPE(recvtype), COMM))
PC_FORTRAN_NBC_AND_INIT(gatherv, GATHERV,
               (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcounts,
                MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm),
               (sendbuf_to_c(sendbuf), (int)*sendcount, TYPE(sendtype), bottom_to_c(recvbuf),
                (const int *)recvcounts, (const int *)displs, TYPE(recvtype), (int)*root, COMM))
PC_FORTRAN_NBC_AND_INIT(scatterv, SCATTERV,
               (void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *displs, MPI_Fint *sendtype, void *recvbuf,
                MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm),
               (bottom_to_c(sendbuf), (const int *)sendcounts, (const int *)displs, TYPE(sendtype),
                (void *)sendbuf_to_c(recvbuf), (int)*recvcount, TYPE(recvtype), (int)*root, COMM))

PC_FORTRAN_NBC(scan, SCAN,
               (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm),
               (sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count, TYPE(datatype), OP, COMM))
PC_FORTRAN_NBC(exscan, EXSCAN,
               (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm),
               (sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count, TYPE(datatype), OP, COMM))

/* The schedule takes each peer's datatype when it is built, in the call:
 * the converted arrays go when it returns. */
static void fortran_ialltoallw(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtypes,
                               void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtypes,
                               MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
{
    const void *sbuf = sendbuf_to_c(sendbuf);
    MPI_Datatype *stypes, *rtypes;
    int rc = pc_fortran_alltoallw_types(COMM, sbuf, sendtypes, recvtypes, &stypes, &rtypes);
    if (rc != MPI_SUCCESS) pc_fortran_set_ierror(ierror, rc);
    else
        PC_FORTRAN_REQUEST_CALL(request, ierror,
                                papcoll_ialltoallw(sbuf, (const int *)sendcounts, (const int *)sdispls, stypes,
                                                   bottom_to_c(recvbuf), (const int *)recvcounts,
                                                   (const int *)rdispls, rtypes, COMM, &c_));
    free(stypes);
    free(rtypes);
}
PC_FORTRAN_NAMES(fortran_ialltoallw, MPI_IALLTOALLW, mpi_ialltoallw,
                 (void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtypes, void *recvbuf,
                  MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtypes, MPI_Fint *comm, MPI_Fint *request,
                  MPI_Fint *ierror));

/* Open MPI's MPI_TYPE_FREE and MPI_OP_FREE call PMPI_Type_free and
 * PMPI_Op_free: these send them to nonblocking.c's MPI_Type_free and
 * MPI_Op_free, which wait for the schedules still using the handle
 * (nbc/held.h).  MPICH's call the C MPI_Type_free and MPI_Op_free. */
static void fortran_type_free(MPI_Fint *datatype, MPI_Fint *ierror)
{
    MPI_Datatype c = PMPI_Type_f2c(*datatype);
    int rc = MPI_Type_free(&c);
    if (rc == MPI_SUCCESS) *datatype = PMPI_Type_c2f(c);
    pc_fortran_set_ierror(ierror, rc);
}
PC_FORTRAN_NAMES(fortran_type_free, MPI_TYPE_FREE, mpi_type_free, (MPI_Fint *datatype, MPI_Fint *ierror));

static void fortran_op_free(MPI_Fint *op, MPI_Fint *ierror)
{
    MPI_Op c = PMPI_Op_f2c(*op);
    int rc = MPI_Op_free(&c);
    if (rc == MPI_SUCCESS) *op = PMPI_Op_c2f(c);
    pc_fortran_set_ierror(ierror, rc);
}
PC_FORTRAN_NAMES(fortran_op_free, MPI_OP_FREE, mpi_op_free, (MPI_Fint *op, MPI_Fint *ierror));

#endif /* OPEN_MPI */

#if defined(MPICH_VERSION) && !defined(PAPCOLL_SMPI)
void mpi_ibarrier_f08_(MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror);
void mpi_ibarrier_f08_(MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
{
    PC_FORTRAN_REQUEST_CALL(request, ierror, papcoll_ibarrier(COMM, &c_));
}

#if defined(PAPCOLL_HAVE_MPI_PERSISTENT_COLL)
void mpi_barrier_init_f08_(MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierror);
void mpi_barrier_init_f08_(MPI_Fint *comm, MPI_Fint *info, MPI_Fint *request, MPI_Fint *ierror)
{
    PC_FORTRAN_REQUEST_CALL(request, ierror, papcoll_barrier_init(COMM, PMPI_Info_f2c(*info), &c_));
}
#endif
#endif
