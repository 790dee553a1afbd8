/*
 * interpose.c - libpapcoll_mpi: routes an unmodified program's MPI_Bcast,
 * MPI_Reduce and MPI_Allreduce through papcoll (LD_PRELOAD=libpapcoll_mpi.so,
 * or link before -lmpi).  papcoll reaches the real MPI through the PMPI_*
 * profiling interface.  Fortran programs reach the same functions
 * (fortran.c).
 */
#include <papcoll.h>

int MPI_Bcast(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return papcoll_bcast(buf, count, datatype, root, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm)
{
    return papcoll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return papcoll_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}
