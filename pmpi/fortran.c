/*
 * fortran.c - libpapcoll_mpi for Fortran programs: MPI_BCAST, MPI_REDUCE and
 * MPI_ALLREDUCE called through any binding (mpif.h, `use mpi`, `use mpi_f08`)
 * reach the interposer's C MPI_Bcast / MPI_Reduce / MPI_Allreduce
 * (interpose.c), so one path serves both languages.
 *
 * Whether that takes code here depends on how the MPI library layers its
 * Fortran bindings on its C ones, which the MPI standard leaves to it:
 *  - Open MPI 4.1: libmpi_mpifh's wrappers (mpi_bcast_, alias of ompi_bcast_f:
 *    the entry of mpif.h and of `use mpi`) call PMPI_Bcast, and
 *    libmpi_usempif08's mpi_bcast_f08_ calls ompi_bcast_f, so a C MPI_Bcast
 *    never sees a Fortran call.  This file defines those public Fortran names
 *    (not ompi_bcast_f, which the Fortran PMPI_BCAST of mpi_f08 also calls);
 *    preloaded, or linked before the MPI libraries, they are found first.
 *  - MPICH 4.0: libmpichfort's wrappers call the C MPI_Bcast (mpif.h and
 *    `use mpi`: mpi_bcast_; mpi_f08: mpi_bcast_f08ts_ -> MPIR_Bcast_cdesc),
 *    after converting MPICH's own Fortran sentinels, so interpose.c serves
 *    them already and nothing is defined here.
 */
#include <mpi.h>

#include <stddef.h>

#if defined(OPEN_MPI)

/* Open MPI's Fortran MPI_IN_PLACE and MPI_BOTTOM are the addresses of
 * variables (common blocks of mpif.h, bind(C) variables of mpi_f08) under
 * one name per Fortran name-mangling convention; the dynamic linker binds
 * every reference to the same one.  Weak: a library built without Fortran
 * support has none, and then nothing is a Fortran sentinel. */
#define PC_FORTRAN_SENTINEL(upper, lower)                                                                    \
    extern int upper __attribute__((weak)), lower __attribute__((weak)), lower##_ __attribute__((weak)), \
        lower##__ __attribute__((weak))
PC_FORTRAN_SENTINEL(MPI_FORTRAN_IN_PLACE, mpi_fortran_in_place);
PC_FORTRAN_SENTINEL(MPI_FORTRAN_BOTTOM, mpi_fortran_bottom);

#define PC_IS_SENTINEL(addr, upper, lower) \
    ((addr) != NULL && ((addr) == &upper || (addr) == &lower || (addr) == &lower##_ || (addr) == &lower##__))

static void *bottom_to_c(void *addr)
{
    return PC_IS_SENTINEL(addr, MPI_FORTRAN_BOTTOM, mpi_fortran_bottom) ? MPI_BOTTOM : addr;
}

static const void *sendbuf_to_c(void *addr)
{
    if (PC_IS_SENTINEL(addr, MPI_FORTRAN_IN_PLACE, mpi_fortran_in_place)) return MPI_IN_PLACE;
    return bottom_to_c(addr);
}

/* ierror is optional in mpi_f08 (NULL when the caller left it out). */
static void set_ierror(MPI_Fint *ierror, int rc)
{
    if (ierror) *ierror = (MPI_Fint)rc;
}

static void fortran_bcast(void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root, MPI_Fint *comm,
                          MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Bcast(bottom_to_c(buffer), (int)*count, PMPI_Type_f2c(*datatype), (int)*root,
                                 PMPI_Comm_f2c(*comm)));
}

static void fortran_reduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                           MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Reduce(sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count,
                                  PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), (int)*root, PMPI_Comm_f2c(*comm)));
}

static void fortran_allreduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                              MPI_Fint *comm, MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Allreduce(sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count,
                                     PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}

/* The names Open MPI exports for one routine: mpif.h and `use mpi` under the
 * four Fortran name-mangling conventions, and mpi_f08's specific procedure
 * (same arguments: buffers by address, handles as their INTEGER MPI_VAL). */
#define PC_FORTRAN_NAMES(impl, upper, lower, params)        \
    void upper params __attribute__((alias(#impl)));       \
    void lower params __attribute__((alias(#impl)));       \
    void lower##_ params __attribute__((alias(#impl)));    \
    void lower##__ params __attribute__((alias(#impl)));   \
    void lower##_f08_ params __attribute__((alias(#impl)))

PC_FORTRAN_NAMES(fortran_bcast, MPI_BCAST, mpi_bcast,
                 (void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root, MPI_Fint *comm,
                  MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_reduce, MPI_REDUCE, mpi_reduce,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *root,
                  MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_allreduce, MPI_ALLREDUCE, mpi_allreduce,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm,
                  MPI_Fint *ierror));

#endif /* OPEN_MPI */
