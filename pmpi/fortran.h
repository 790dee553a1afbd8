/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fortran.h - what the Fortran bindings papcoll defines share (fortran.c:
 * blocking collectives; fortran_nbc.c: nonblocking and persistent ones;
 * fortran_requests.c: completion, MPI_Start(all), MPI_Request_free): the
 * names one routine is exported under, the optional ierror, the call site.
 */
#ifndef PC_PMPI_FORTRAN_H
#define PC_PMPI_FORTRAN_H

#include <mpi.h>

#include "select/site.h"

/* INTEGER arrays are passed as they are: MPI_Fint is a C int here. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint arrays passed as int arrays");

/* ierror is optional in mpi_f08 (NULL when the caller left it out). */
static inline void pc_fortran_set_ierror(MPI_Fint *ierror, int rc)
{
    if (ierror) *ierror = (MPI_Fint)rc;
}

/* The Fortran caller is the call site (select/site.h), not this binding. */
#define SET_IERROR_FROM_SITE(ierror, expr)                                 \
    do {                                                                   \
        int entered_ = pc_site_enter(__builtin_return_address(0));         \
        pc_fortran_set_ierror(ierror, expr);                               \
        pc_site_leave(entered_);                                           \
    } while (0)

/* alltoallw's per-peer datatype arrays as C handles (malloc'd; the
 * caller frees both): one per process of comm (of the remote group of an
 * intercommunicator), none for the send side in place or for an invalid
 * communicator (the MPI call then reports it).  MPI_ERR_NO_MEM, or
 * MPI_SUCCESS. */
int pc_fortran_alltoallw_types(MPI_Comm comm, const void *sbuf, const MPI_Fint *sendtypes, const MPI_Fint *recvtypes,
                               MPI_Datatype **stypes, MPI_Datatype **rtypes);

/* The names Open MPI exports for one routine: mpif.h and `use mpi` under the
 * four Fortran name-mangling conventions, and mpi_f08's specific procedure
 * (same arguments: buffers by address, handles as their INTEGER MPI_VAL).
 * smpif90 uses only lower##_ (gfortran -fno-second-underscore). */
#define PC_FORTRAN_NAMES(impl, upper, lower, params)        \
    void upper params __attribute__((alias(#impl)));       \
    void lower params __attribute__((alias(#impl)));       \
    void lower##_ params __attribute__((alias(#impl)));    \
    void lower##__ params __attribute__((alias(#impl)));   \
    void lower##_f08_ params __attribute__((alias(#impl)))

#endif
