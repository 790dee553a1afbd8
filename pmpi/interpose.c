/*
 * interpose.c - libpapcoll_mpi: routes an unmodified program's MPI_Bcast
 * through papcoll (LD_PRELOAD=libpapcoll_mpi.so, or link before -lmpi).
 * papcoll reaches the real MPI through the PMPI_* profiling interface.
 * Fortran bindings are not intercepted.
 */
#include <papcoll.h>

int MPI_Bcast(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return papcoll_bcast(buf, count, datatype, root, comm);
}
