/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fortran_sentinels.h - Open MPI's Fortran MPI_IN_PLACE and MPI_BOTTOM (and
 * MPI_STATUS(ES)_IGNORE), as
 * they reach a C function that defines a Fortran name (pmpi/fortran.c,
 * trace/wrap_fortran.c), and their C values.
 *
 * Open MPI's Fortran MPI_IN_PLACE and MPI_BOTTOM are the addresses of
 * variables (common blocks of mpif.h, bind(C) variables of mpi_f08) under
 * one name per Fortran name-mangling convention; the dynamic linker binds
 * every reference to the same one.  Weak: a library built without Fortran
 * support has none, and then nothing is a Fortran sentinel.  Other MPI
 * libraries (MPICH) convert their sentinels before calling C, and a
 * Fortran address is never a sentinel there.
 *
 * SimGrid SMPI 3.32 (PAPCOLL_SMPI): its mpif.h and `use mpi` declare
 * `external MPI_IN_PLACE, MPI_BOTTOM`, the addresses of libsimgrid's
 * variables mpi_in_place_ and mpi_bottom_ (gfortran's -fno-second-underscore
 * naming, the only one smpif90 uses).
 */
#ifndef PAPCOLL_FORTRAN_SENTINELS_H
#define PAPCOLL_FORTRAN_SENTINELS_H

#include <mpi.h>

#include <stddef.h>

#if defined(OPEN_MPI)

#define PC_FORTRAN_SENTINEL(upper, lower)                                                                    \
    extern int upper __attribute__((weak)), lower __attribute__((weak)), lower##_ __attribute__((weak)), \
        lower##__ __attribute__((weak))
PC_FORTRAN_SENTINEL(MPI_FORTRAN_IN_PLACE, mpi_fortran_in_place);
PC_FORTRAN_SENTINEL(MPI_FORTRAN_BOTTOM, mpi_fortran_bottom);
PC_FORTRAN_SENTINEL(MPI_FORTRAN_STATUS_IGNORE, mpi_fortran_status_ignore);
PC_FORTRAN_SENTINEL(MPI_FORTRAN_STATUSES_IGNORE, mpi_fortran_statuses_ignore);

#define PC_IS_SENTINEL(addr, upper, lower) \
    ((addr) != NULL && ((addr) == &upper || (addr) == &lower || (addr) == &lower##_ || (addr) == &lower##__))

static inline int pc_fortran_is_in_place(const void *addr)
{
    return PC_IS_SENTINEL(addr, MPI_FORTRAN_IN_PLACE, mpi_fortran_in_place);
}

static inline void *pc_fortran_bottom_to_c(void *addr)
{
    return PC_IS_SENTINEL(addr, MPI_FORTRAN_BOTTOM, mpi_fortran_bottom) ? MPI_BOTTOM : addr;
}

/* MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE (fortran_requests.c). */
static inline int pc_fortran_is_status_ignore(const void *addr)
{
    return PC_IS_SENTINEL(addr, MPI_FORTRAN_STATUS_IGNORE, mpi_fortran_status_ignore);
}

static inline int pc_fortran_is_statuses_ignore(const void *addr)
{
    return PC_IS_SENTINEL(addr, MPI_FORTRAN_STATUSES_IGNORE, mpi_fortran_statuses_ignore);
}

#elif defined(PAPCOLL_SMPI)

extern int mpi_in_place_, mpi_bottom_; /* libsimgrid's */

static inline int pc_fortran_is_in_place(const void *addr)
{
    return addr == &mpi_in_place_;
}

static inline void *pc_fortran_bottom_to_c(void *addr)
{
    return addr == &mpi_bottom_ ? MPI_BOTTOM : addr;
}

#else

static inline int pc_fortran_is_in_place(const void *addr)
{
    (void)addr;
    return 0;
}

static inline void *pc_fortran_bottom_to_c(void *addr)
{
    return addr;
}

#endif

/* A buffer that may be MPI_IN_PLACE (send buffers; scatter's receive buffer at the root). */
static inline const void *pc_fortran_sendbuf_to_c(void *addr)
{
    return pc_fortran_is_in_place(addr) ? MPI_IN_PLACE : pc_fortran_bottom_to_c(addr);
}

#endif
