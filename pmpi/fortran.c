/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fortran.c - libpapcoll_mpi for Fortran programs: MPI_BCAST, MPI_REDUCE,
 * MPI_ALLREDUCE, MPI_REDUCE_SCATTER(_BLOCK), MPI_ALLGATHER(V), MPI_ALLTOALL(V,W),
 * MPI_GATHER(V), MPI_SCATTER(V), MPI_BARRIER, MPI_SCAN and MPI_EXSCAN called
 * through any binding
 * (mpif.h, `use mpi`, `use mpi_f08`) reach the interposer's C functions
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
 *    them already.  One exception: mpi_f08's MPI_Barrier (mpi_barrier_f08_)
 *    calls PMPI_Barrier itself (checked with objdump), so that one name is
 *    defined here.  mpi_scan_f08ts_ and mpi_exscan_f08ts_ call the C
 *    MPI_Scan / MPI_Exscan (objdump of libmpichfort 4.0.2): nothing to do.
 *  - SimGrid SMPI 3.32 (PAPCOLL_SMPI, the object library papcoll_mpi_smpi
 *    linked into the program): libsimgrid's mpi_bcast_ converts the handles
 *    and calls libsimgrid's own MPI_Bcast, never the program's (checked:
 *    a program defining only the C MPI_Bcast does not see its Fortran
 *    calls).  The Fortran names defined here, in the program, are found
 *    first (-Bsymbolic-functions, and SMPI's RTLD_DEEPBIND), and call the
 *    program's MPI_<coll>: papcoll's (interpose.c), or the tracer's in
 *    front of it.  Sentinels: fortran_sentinels.h.
 */
#include "fortran_sentinels.h"

#include <mpi.h>

#include <stddef.h>
#include <stdlib.h>

#include "fortran.h"

#if defined(OPEN_MPI) || defined(PAPCOLL_SMPI)

/* Open MPI's (or SMPI's) Fortran MPI_IN_PLACE and MPI_BOTTOM: fortran_sentinels.h (shared with the tracer). */
#define bottom_to_c pc_fortran_bottom_to_c
#define sendbuf_to_c pc_fortran_sendbuf_to_c

static void fortran_bcast(void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root, MPI_Fint *comm,
                          MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Bcast(bottom_to_c(buffer), (int)*count, PMPI_Type_f2c(*datatype), (int)*root,
                                 PMPI_Comm_f2c(*comm)));
}

static void fortran_reduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                           MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Reduce(sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count,
                                  PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), (int)*root, PMPI_Comm_f2c(*comm)));
}

static void fortran_allreduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                              MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Allreduce(sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count,
                                     PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}

static void fortran_reduce_scatter(void *sendbuf, void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *datatype,
                                   MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Reduce_scatter(sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (const int *)recvcounts,
                                          PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}

static void fortran_reduce_scatter_block(void *sendbuf, void *recvbuf, MPI_Fint *recvcount, MPI_Fint *datatype,
                                         MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Reduce_scatter_block(sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*recvcount,
                                                PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}

static void fortran_allgather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                              MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Allgather(sendbuf_to_c(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                                     bottom_to_c(recvbuf), (int)*recvcount, PMPI_Type_f2c(*recvtype),
                                     PMPI_Comm_f2c(*comm)));
}

static void fortran_allgatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                               MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *comm,
                               MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Allgatherv(sendbuf_to_c(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                                      bottom_to_c(recvbuf), (const int *)recvcounts, (const int *)displs,
                                      PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm)));
}

static void fortran_alltoall(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                             MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Alltoall(sendbuf_to_c(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                                    bottom_to_c(recvbuf), (int)*recvcount, PMPI_Type_f2c(*recvtype),
                                    PMPI_Comm_f2c(*comm)));
}

static void fortran_alltoallv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtype,
                              void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtype,
                              MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Alltoallv(sendbuf_to_c(sendbuf), (const int *)sendcounts, (const int *)sdispls,
                                     PMPI_Type_f2c(*sendtype), bottom_to_c(recvbuf), (const int *)recvcounts,
                                     (const int *)rdispls, PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm)));
}

/* alltoallw's datatype handles, converted: n of them (malloc'd). */
static MPI_Datatype *types_f2c(const MPI_Fint *types, int n)
{
    MPI_Datatype *c = malloc((size_t)(n > 0 ? n : 1) * sizeof *c);
    for (int i = 0; c && i < n; i++) c[i] = PMPI_Type_f2c(types[i]);
    return c;
}

int pc_fortran_alltoallw_types(MPI_Comm comm, const void *sbuf, const MPI_Fint *sendtypes, const MPI_Fint *recvtypes,
                               MPI_Datatype **stypes, MPI_Datatype **rtypes)
{
    int n = 0, inter = 0;
    if (comm != MPI_COMM_NULL) {
        PMPI_Comm_test_inter(comm, &inter);
        if (inter) PMPI_Comm_remote_size(comm, &n);
        else PMPI_Comm_size(comm, &n);
    }
    int want_send = sbuf != MPI_IN_PLACE && sendtypes && n, want_recv = recvtypes && n;
    *stypes = want_send ? types_f2c(sendtypes, n) : NULL;
    *rtypes = want_recv ? types_f2c(recvtypes, n) : NULL;
    if ((want_send && !*stypes) || (want_recv && !*rtypes)) {
        free(*stypes), free(*rtypes);
        *stypes = *rtypes = NULL;
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

static void fortran_alltoallw(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtypes,
                              void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtypes,
                              MPI_Fint *comm, MPI_Fint *ierror)
{
    MPI_Comm c = PMPI_Comm_f2c(*comm);
    const void *sbuf = sendbuf_to_c(sendbuf);
    MPI_Datatype *stypes, *rtypes;
    int rc = pc_fortran_alltoallw_types(c, sbuf, sendtypes, recvtypes, &stypes, &rtypes);
    if (rc != MPI_SUCCESS) pc_fortran_set_ierror(ierror, rc);
    else
        SET_IERROR_FROM_SITE(ierror, MPI_Alltoallw(sbuf, (const int *)sendcounts, (const int *)sdispls, stypes,
                                                   bottom_to_c(recvbuf), (const int *)recvcounts, (const int *)rdispls,
                                                   rtypes, c));
    free(stypes);
    free(rtypes);
}

static void fortran_gather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                           MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Gather(sendbuf_to_c(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                                  bottom_to_c(recvbuf), (int)*recvcount, PMPI_Type_f2c(*recvtype), (int)*root,
                                  PMPI_Comm_f2c(*comm)));
}

static void fortran_gatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                            MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *root,
                            MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Gatherv(sendbuf_to_c(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                                   bottom_to_c(recvbuf), (const int *)recvcounts, (const int *)displs,
                                   PMPI_Type_f2c(*recvtype), (int)*root, PMPI_Comm_f2c(*comm)));
}

static void fortran_scatter(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                            MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Scatter(bottom_to_c(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                                   (void *)sendbuf_to_c(recvbuf), (int)*recvcount, PMPI_Type_f2c(*recvtype),
                                   (int)*root, PMPI_Comm_f2c(*comm)));
}

static void fortran_scatterv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *displs, MPI_Fint *sendtype,
                             void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                             MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Scatterv(bottom_to_c(sendbuf), (const int *)sendcounts, (const int *)displs,
                                    PMPI_Type_f2c(*sendtype), (void *)sendbuf_to_c(recvbuf), (int)*recvcount,
                                    PMPI_Type_f2c(*recvtype), (int)*root, PMPI_Comm_f2c(*comm)));
}

static void fortran_barrier(MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Barrier(PMPI_Comm_f2c(*comm)));
}

static void fortran_scan(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                         MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Scan(sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count,
                                          PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}

static void fortran_exscan(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                           MPI_Fint *comm, MPI_Fint *ierror)
{
    SET_IERROR_FROM_SITE(ierror, MPI_Exscan(sendbuf_to_c(sendbuf), bottom_to_c(recvbuf), (int)*count,
                                            PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}

/* Every name of each routine: PC_FORTRAN_NAMES (fortran.h). */
PC_FORTRAN_NAMES(fortran_bcast, MPI_BCAST, mpi_bcast,
                 (void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root, MPI_Fint *comm,
                  MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_reduce, MPI_REDUCE, mpi_reduce,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *root,
                  MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_allreduce, MPI_ALLREDUCE, mpi_allreduce,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm,
                  MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_reduce_scatter, MPI_REDUCE_SCATTER, mpi_reduce_scatter,
                 (void *sendbuf, void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm,
                  MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, mpi_reduce_scatter_block,
                 (void *sendbuf, void *recvbuf, MPI_Fint *recvcount, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm,
                  MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_allgather, MPI_ALLGATHER, mpi_allgather,
                 (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                  MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_allgatherv, MPI_ALLGATHERV, mpi_allgatherv,
                 (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcounts,
                  MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_alltoall, MPI_ALLTOALL, mpi_alltoall,
                 (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                  MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_alltoallv, MPI_ALLTOALLV, mpi_alltoallv,
                 (void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtype, void *recvbuf,
                  MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_alltoallw, MPI_ALLTOALLW, mpi_alltoallw,
                 (void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtypes, void *recvbuf,
                  MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtypes, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_gather, MPI_GATHER, mpi_gather,
                 (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                  MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_gatherv, MPI_GATHERV, mpi_gatherv,
                 (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcounts,
                  MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_scatter, MPI_SCATTER, mpi_scatter,
                 (void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                  MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_scatterv, MPI_SCATTERV, mpi_scatterv,
                 (void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *displs, MPI_Fint *sendtype, void *recvbuf,
                  MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_barrier, MPI_BARRIER, mpi_barrier, (MPI_Fint *comm, MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_scan, MPI_SCAN, mpi_scan,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm,
                  MPI_Fint *ierror));
PC_FORTRAN_NAMES(fortran_exscan, MPI_EXSCAN, mpi_exscan,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm,
                  MPI_Fint *ierror));

#ifdef PAPCOLL_SMPI
/* libsimgrid's mpi_finalize_ calls its own MPI_Finalize; this one calls the program's: papcoll's, which ends
 * papcoll's messages in flight before SMPI refuses them (src/select/finalize_smpi.c). */
static void fortran_finalize(MPI_Fint *ierror)
{
    int rc = MPI_Finalize();
    if (ierror) *ierror = rc;
}
PC_FORTRAN_NAMES(fortran_finalize, MPI_FINALIZE, mpi_finalize, (MPI_Fint * ierror));
#endif

#endif /* OPEN_MPI || PAPCOLL_SMPI */

#if defined(MPICH_VERSION) && !defined(PAPCOLL_SMPI)
/* MPICH 4.0's `use mpi_f08` MPI_Barrier: comm is type(MPI_Comm) (its INTEGER
 * MPI_VAL), ierror optional (NULL when left out). */
void mpi_barrier_f08_(MPI_Fint *comm, MPI_Fint *ierror);
void mpi_barrier_f08_(MPI_Fint *comm, MPI_Fint *ierror)
{
    int entered = pc_site_enter(__builtin_return_address(0)); /* the Fortran caller is the call site */
    int rc = MPI_Barrier(PMPI_Comm_f2c(*comm));
    pc_site_leave(entered);
    if (ierror) *ierror = (MPI_Fint)rc;
}
#endif
