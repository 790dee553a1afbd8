/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * interpose.c - libpapcoll_mpi: routes an unmodified program's MPI_Bcast,
 * MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter(_block), MPI_Allgather(v),
 * MPI_Alltoall(v,w), MPI_Gather(v), MPI_Scatter(v), MPI_Barrier, MPI_Scan and
 * MPI_Exscan through papcoll (LD_PRELOAD=libpapcoll_mpi.so,
 * or link before -lmpi).  papcoll reaches the real MPI through the PMPI_*
 * profiling interface.  Fortran programs reach the same functions
 * (fortran.c).
 *
 * Under SimGrid SMPI (PAPCOLL_SMPI: the object library papcoll_mpi_smpi,
 * linked into the program itself, docs/simulation.md "Unmodified programs
 * under SMPI") each function is defined as pc_MPI_<coll>, and MPI_<coll> is
 * an alias of it.  SMPI's mpi.h declares every MPI_<name> weak, so this
 * MPI_<coll> is a weak definition: linked after the arrival tracer's
 * (papcoll_trace_smpi, also weak), the tracer's is the program's MPI_<coll>,
 * and it forwards to pc_MPI_<coll> (found through a weak reference,
 * trace/tracer.h) instead of SMPI's PMPI_<coll>: program -> tracer ->
 * papcoll -> SMPI, as LD_PRELOAD=libpapcoll_trace.so:libpapcoll_mpi.so
 * does natively.  The tracer refuses to run when linked after this
 * object (its MPI_<coll> would then be this one's, and nothing traced).
 */
#include <papcoll.h>

#include "select/site.h" /* the caller of MPI_<coll> is the call site */

#ifdef PAPCOLL_SMPI
/* pc_MPI_NAME, and MPI_NAME its alias (weak: SMPI's mpi.h declares it so). */
#define PC_INTERPOSE(NAME, PARAMS)                      \
    int pc_##NAME PARAMS;                               \
    int NAME PARAMS __attribute__((alias("pc_" #NAME))); \
    int pc_##NAME PARAMS
#else
#define PC_INTERPOSE(NAME, PARAMS) int NAME PARAMS
#endif

PC_INTERPOSE(MPI_Bcast, (void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_bcast(buf, count, datatype, root, comm));
}

PC_INTERPOSE(MPI_Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                          MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm));
}

PC_INTERPOSE(MPI_Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_allreduce(sendbuf, recvbuf, count, datatype, op, comm));
}

PC_INTERPOSE(MPI_Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm));
}

PC_INTERPOSE(MPI_Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                        MPI_Op op, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm));
}

PC_INTERPOSE(MPI_Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

PC_INTERPOSE(MPI_Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
}

PC_INTERPOSE(MPI_Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

PC_INTERPOSE(MPI_Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                             MPI_Datatype recvtype, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
}

PC_INTERPOSE(MPI_Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                     comm));
}

PC_INTERPOSE(MPI_Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

PC_INTERPOSE(MPI_Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                           MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm));
}

PC_INTERPOSE(MPI_Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

PC_INTERPOSE(MPI_Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

PC_INTERPOSE(MPI_Barrier, (MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_barrier(comm));
}

PC_INTERPOSE(MPI_Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_scan(sendbuf, recvbuf, count, datatype, op, comm));
}

PC_INTERPOSE(MPI_Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm))
{
    PC_SITE_RETURN(papcoll_exscan(sendbuf, recvbuf, count, datatype, op, comm));
}
