/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wrap_fortran.c - libpapcoll_trace.so's Fortran entry points: the names
 * under which MPI libraries export MPI_INIT, MPI_INIT_THREAD, MPI_FINALIZE
 * and every collective (blocking and nonblocking) to Fortran programs, so
 * that a Fortran call is recorded with the Fortran caller's call site.
 *
 * Why names of our own: Open MPI 4.1's Fortran bindings (mpif.h and `use
 * mpi`: mpi_bcast_; mpi_f08: mpi_bcast_f08_) call PMPI_Bcast, so a C
 * MPI_Bcast never sees them (pmpi/fortran.c explains; it does the same for
 * papcoll).  MPICH 4.0's (mpi_bcast_, and mpi_bcast_f08ts_ for mpi_f08) call
 * the C MPI_Bcast, which would record the call inside libmpichfort: here it
 * is recorded at the Fortran caller, and the depth counter (tracer.h) makes
 * the C MPI_Bcast it reaches pass through.
 *
 * Each name forwards, arguments untouched, to the next definition of the
 * SAME name (papcoll's pmpi/fortran.c when libpapcoll_mpi.so is preloaded
 * after the tracer, else the MPI library's Fortran binding), so nothing of
 * the bindings' conventions is redone here: the tracer only reads the
 * counts, handles and root it needs.  Names defined: UPPER, lower, lower_,
 * lower__ (mpif.h and `use mpi` under every name-mangling convention),
 * lower_f08_ (Open MPI's mpi_f08) and lower_f08ts_ (MPICH's mpi_f08: the
 * buffers are descriptors there, which the tracer never reads).  A name the
 * MPI library lacks is never called.
 */
#include "tracer.h"
#include "../pmpi/fortran_sentinels.h"

#include <mpi.h>

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint arrays read as int arrays");

/* One stub per exported name: find the next definition of this very name, call the body. */
#define PT_FORTRAN_STUB(body, name, PARAMS, ARGS)                                                    \
    void name PARAMS;                                                                                \
    void name PARAMS                                                                                 \
    {                                                                                                \
        static void *next_;                                                                          \
        body((body##_fn_t *)pt_next(&next_, #name), __builtin_return_address(0), PT_STRIP ARGS);     \
    }

#define PT_FORTRAN_NAMES(body, UPPER, lower, PARAMS, ARGS)                                                     \
    PT_FORTRAN_STUB(body, UPPER, PARAMS, ARGS)                                                                 \
    PT_FORTRAN_STUB(body, lower, PARAMS, ARGS)                                                                 \
    PT_FORTRAN_STUB(body, lower##_, PARAMS, ARGS)                                                              \
    PT_FORTRAN_STUB(body, lower##__, PARAMS, ARGS)                                                             \
    PT_FORTRAN_STUB(body, lower##_f08_, PARAMS, ARGS) PT_FORTRAN_STUB(body, lower##_f08ts_, PARAMS, ARGS)

/* A traced Fortran routine: its body (as PT_TRACE_C, ierror read for errors) and its names. */
#define PT_FORTRAN(UPPER, lower, PARAMS, ARGS, COLL, FLAGS, COMM, ROOT, BYTES)                                \
    typedef void trace_##lower##_fn_t PARAMS;                                                                 \
    static void trace_##lower(trace_##lower##_fn_t *next_, void *site_, PT_STRIP PARAMS)                      \
    {                                                                                                         \
        pt_call_t call_;                                                                                      \
        if (!pt_begin(&call_, COLL, (FLAGS) | PT_FLAG_FORTRAN, PMPI_Comm_f2c(*(COMM)), ROOT)) {               \
            next_ ARGS;                                                                                       \
            return;                                                                                           \
        }                                                                                                     \
        call_.bytes = (BYTES);                                                                                \
        pt_depth++;                                                                                           \
        call_.t_arrive = pt_clock_now();                                                                      \
        next_ ARGS;                                                                                           \
        call_.t_exit = pt_clock_now();                                                                        \
        pt_depth--;                                                                                           \
        pt_end(&call_, ierror && *ierror != MPI_SUCCESS, site_);                                              \
    }                                                                                                         \
    PT_FORTRAN_NAMES(trace_##lower, UPPER, lower, PARAMS, ARGS)

#define T(handle) PMPI_Type_f2c(*(handle))
#define INPLACE(buf) pc_fortran_is_in_place(buf)
#define NB PT_FLAG_NONBLOCKING
typedef MPI_Fint F;

/* ---- start and end of the run ---- */

typedef void trace_init_fn_t(F *ierror);
static void trace_init(trace_init_fn_t *next, void *site, F *ierror)
{
    (void)site;
    if (pt_depth) {
        next(ierror);
        return;
    }
    pt_depth++;
    next(ierror);
    pt_depth--;
    if (!ierror || *ierror == MPI_SUCCESS) pt_initialize();
}
PT_FORTRAN_NAMES(trace_init, MPI_INIT, mpi_init, (F *ierror), (ierror))

typedef void trace_init_thread_fn_t(F *required, F *provided, F *ierror);
static void trace_init_thread(trace_init_thread_fn_t *next, void *site, F *required, F *provided, F *ierror)
{
    (void)site;
    if (pt_depth) {
        next(required, provided, ierror);
        return;
    }
    pt_depth++;
    next(required, provided, ierror);
    pt_depth--;
    if (!ierror || *ierror == MPI_SUCCESS) pt_initialize();
}
PT_FORTRAN_NAMES(trace_init_thread, MPI_INIT_THREAD, mpi_init_thread, (F *required, F *provided, F *ierror),
                 (required, provided, ierror))

typedef void trace_finalize_fn_t(F *ierror);
static void trace_finalize(trace_finalize_fn_t *next, void *site, F *ierror)
{
    (void)site;
    if (pt_depth) {
        next(ierror);
        return;
    }
    pt_finalize();
    pt_depth++;
    next(ierror);
    pt_depth--;
}
PT_FORTRAN_NAMES(trace_finalize, MPI_FINALIZE, mpi_finalize, (F *ierror), (ierror))

/* ---- blocking collectives (sizes: pt_size_<coll>, tracer.h) ---- */

PT_FORTRAN(MPI_BARRIER, mpi_barrier, (F *comm, F *ierror), (comm, ierror), PT_barrier, 0, comm, PT_ROOT_NONE, 0)
PT_FORTRAN(MPI_BCAST, mpi_bcast, (void *buf, F *count, F *type, F *root, F *comm, F *ierror),
           (buf, count, type, root, comm, ierror), PT_bcast, 0, comm, *root, pt_bytes(*count, T(type)))
PT_FORTRAN(MPI_REDUCE, mpi_reduce, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *ierror),
           (sbuf, rbuf, count, type, op, root, comm, ierror), PT_reduce, 0, comm, *root,
           pt_bytes(*count, T(type)))
PT_FORTRAN(MPI_ALLREDUCE, mpi_allreduce, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierror),
           (sbuf, rbuf, count, type, op, comm, ierror), PT_allreduce, 0, comm, PT_ROOT_NONE,
           pt_bytes(*count, T(type)))
PT_FORTRAN(MPI_ALLGATHER, mpi_allgather,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm, F *ierror),
           (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierror), PT_allgather, 0, comm, PT_ROOT_NONE,
           pt_bytes_block(INPLACE(sbuf), *scount, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_ALLGATHERV, mpi_allgatherv,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs, F *rtype, F *comm, F *ierror),
           (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, ierror), PT_allgatherv, 0, comm, PT_ROOT_NONE,
           pt_size_allgatherv(PT_ME, PT_PEERS, INPLACE(sbuf), *scount, T(stype), rcounts, T(rtype)))
PT_FORTRAN(MPI_ALLTOALL, mpi_alltoall,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm, F *ierror),
           (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierror), PT_alltoall, 0, comm, PT_ROOT_NONE,
           pt_bytes_block(INPLACE(sbuf), *scount, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_ALLTOALLV, mpi_alltoallv,
           (void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf, F *rcounts, F *rdispls, F *rtype, F *comm,
            F *ierror),
           (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, ierror), PT_alltoallv, 0, comm,
           PT_ROOT_NONE, pt_size_alltoallv(PT_PEERS, INPLACE(sbuf), scounts, T(stype), rcounts, T(rtype)))

/* alltoallw's Fortran datatype handles, each converted when pt_size_alltoallw reads it. */
static MPI_Datatype type_at_f(const void *types, int i)
{
    return PMPI_Type_f2c(((const F *)types)[i]);
}

PT_FORTRAN(MPI_ALLTOALLW, mpi_alltoallw,
           (void *sbuf, F *scounts, F *sdispls, F *stypes, void *rbuf, F *rcounts, F *rdispls, F *rtypes, F *comm,
            F *ierror),
           (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, ierror), PT_alltoallw, 0, comm,
           PT_ROOT_NONE, pt_size_alltoallw(PT_PEERS, INPLACE(sbuf), scounts, stypes, rcounts, rtypes, type_at_f))
PT_FORTRAN(MPI_GATHER, mpi_gather,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root, F *comm, F *ierror),
           (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierror), PT_gather, 0, comm, *root,
           pt_size_gather(*root, INPLACE(sbuf), *scount, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_GATHERV, mpi_gatherv,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs, F *rtype, F *root, F *comm,
            F *ierror),
           (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, ierror), PT_gatherv, 0, comm, *root,
           pt_size_gatherv(*root, PT_ME, PT_PEERS, INPLACE(sbuf), *scount, T(stype), rcounts, T(rtype)))
PT_FORTRAN(MPI_SCATTER, mpi_scatter,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root, F *comm, F *ierror),
           (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierror), PT_scatter, 0, comm, *root,
           pt_size_scatter(*root, INPLACE(rbuf), *scount, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_SCATTERV, mpi_scatterv,
           (void *sbuf, F *scounts, F *displs, F *stype, void *rbuf, F *rcount, F *rtype, F *root, F *comm,
            F *ierror),
           (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, ierror), PT_scatterv, 0, comm, *root,
           pt_size_scatterv(*root, PT_ME, PT_PEERS, INPLACE(rbuf), scounts, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_REDUCE_SCATTER, mpi_reduce_scatter,
           (void *sbuf, void *rbuf, F *rcounts, F *type, F *op, F *comm, F *ierror),
           (sbuf, rbuf, rcounts, type, op, comm, ierror), PT_reduce_scatter, 0, comm, PT_ROOT_NONE,
           pt_size_reduce_scatter(PT_PEERS, rcounts, T(type)))
PT_FORTRAN(MPI_REDUCE_SCATTER_BLOCK, mpi_reduce_scatter_block,
           (void *sbuf, void *rbuf, F *rcount, F *type, F *op, F *comm, F *ierror),
           (sbuf, rbuf, rcount, type, op, comm, ierror), PT_reduce_scatter_block, 0, comm, PT_ROOT_NONE,
           pt_size_reduce_scatter_block(PT_PEERS, *rcount, T(type)))
PT_FORTRAN(MPI_SCAN, mpi_scan, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierror),
           (sbuf, rbuf, count, type, op, comm, ierror), PT_scan, 0, comm, PT_ROOT_NONE, pt_bytes(*count, T(type)))
PT_FORTRAN(MPI_EXSCAN, mpi_exscan, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierror),
           (sbuf, rbuf, count, type, op, comm, ierror), PT_exscan, 0, comm, PT_ROOT_NONE,
           pt_bytes(*count, T(type)))

/* ---- nonblocking collectives: the post ---- */

PT_FORTRAN(MPI_IBARRIER, mpi_ibarrier, (F *comm, F *req, F *ierror), (comm, req, ierror), PT_barrier, NB, comm,
           PT_ROOT_NONE, 0)
PT_FORTRAN(MPI_IBCAST, mpi_ibcast, (void *buf, F *count, F *type, F *root, F *comm, F *req, F *ierror),
           (buf, count, type, root, comm, req, ierror), PT_bcast, NB, comm, *root, pt_bytes(*count, T(type)))
PT_FORTRAN(MPI_IREDUCE, mpi_ireduce,
           (void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *req, F *ierror),
           (sbuf, rbuf, count, type, op, root, comm, req, ierror), PT_reduce, NB, comm, *root,
           pt_bytes(*count, T(type)))
PT_FORTRAN(MPI_IALLREDUCE, mpi_iallreduce,
           (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *req, F *ierror),
           (sbuf, rbuf, count, type, op, comm, req, ierror), PT_allreduce, NB, comm, PT_ROOT_NONE,
           pt_bytes(*count, T(type)))
PT_FORTRAN(MPI_IALLGATHER, mpi_iallgather,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm, F *req, F *ierror),
           (sbuf, scount, stype, rbuf, rcount, rtype, comm, req, ierror), PT_allgather, NB, comm, PT_ROOT_NONE,
           pt_bytes_block(INPLACE(sbuf), *scount, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_IALLGATHERV, mpi_iallgatherv,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs, F *rtype, F *comm, F *req,
            F *ierror),
           (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req, ierror), PT_allgatherv, NB, comm,
           PT_ROOT_NONE, pt_size_allgatherv(PT_ME, PT_PEERS, INPLACE(sbuf), *scount, T(stype), rcounts, T(rtype)))
PT_FORTRAN(MPI_IALLTOALL, mpi_ialltoall,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm, F *req, F *ierror),
           (sbuf, scount, stype, rbuf, rcount, rtype, comm, req, ierror), PT_alltoall, NB, comm, PT_ROOT_NONE,
           pt_bytes_block(INPLACE(sbuf), *scount, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_IALLTOALLV, mpi_ialltoallv,
           (void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf, F *rcounts, F *rdispls, F *rtype, F *comm,
            F *req, F *ierror),
           (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req, ierror), PT_alltoallv, NB, comm,
           PT_ROOT_NONE, pt_size_alltoallv(PT_PEERS, INPLACE(sbuf), scounts, T(stype), rcounts, T(rtype)))
PT_FORTRAN(MPI_IALLTOALLW, mpi_ialltoallw,
           (void *sbuf, F *scounts, F *sdispls, F *stypes, void *rbuf, F *rcounts, F *rdispls, F *rtypes, F *comm,
            F *req, F *ierror),
           (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req, ierror), PT_alltoallw, NB,
           comm, PT_ROOT_NONE, pt_size_alltoallw(PT_PEERS, INPLACE(sbuf), scounts, stypes, rcounts, rtypes, type_at_f))
PT_FORTRAN(MPI_IGATHER, mpi_igather,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root, F *comm, F *req, F *ierror),
           (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req, ierror), PT_gather, NB, comm, *root,
           pt_size_gather(*root, INPLACE(sbuf), *scount, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_IGATHERV, mpi_igatherv,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs, F *rtype, F *root, F *comm, F *req,
            F *ierror),
           (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req, ierror), PT_gatherv, NB, comm, *root,
           pt_size_gatherv(*root, PT_ME, PT_PEERS, INPLACE(sbuf), *scount, T(stype), rcounts, T(rtype)))
PT_FORTRAN(MPI_ISCATTER, mpi_iscatter,
           (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root, F *comm, F *req, F *ierror),
           (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req, ierror), PT_scatter, NB, comm, *root,
           pt_size_scatter(*root, INPLACE(rbuf), *scount, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_ISCATTERV, mpi_iscatterv,
           (void *sbuf, F *scounts, F *displs, F *stype, void *rbuf, F *rcount, F *rtype, F *root, F *comm, F *req,
            F *ierror),
           (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req, ierror), PT_scatterv, NB, comm, *root,
           pt_size_scatterv(*root, PT_ME, PT_PEERS, INPLACE(rbuf), scounts, T(stype), *rcount, T(rtype)))
PT_FORTRAN(MPI_IREDUCE_SCATTER, mpi_ireduce_scatter,
           (void *sbuf, void *rbuf, F *rcounts, F *type, F *op, F *comm, F *req, F *ierror),
           (sbuf, rbuf, rcounts, type, op, comm, req, ierror), PT_reduce_scatter, NB, comm, PT_ROOT_NONE,
           pt_size_reduce_scatter(PT_PEERS, rcounts, T(type)))
PT_FORTRAN(MPI_IREDUCE_SCATTER_BLOCK, mpi_ireduce_scatter_block,
           (void *sbuf, void *rbuf, F *rcount, F *type, F *op, F *comm, F *req, F *ierror),
           (sbuf, rbuf, rcount, type, op, comm, req, ierror), PT_reduce_scatter_block, NB, comm, PT_ROOT_NONE,
           pt_size_reduce_scatter_block(PT_PEERS, *rcount, T(type)))
PT_FORTRAN(MPI_ISCAN, mpi_iscan, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *req, F *ierror),
           (sbuf, rbuf, count, type, op, comm, req, ierror), PT_scan, NB, comm, PT_ROOT_NONE,
           pt_bytes(*count, T(type)))
PT_FORTRAN(MPI_IEXSCAN, mpi_iexscan, (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *req, F *ierror),
           (sbuf, rbuf, count, type, op, comm, req, ierror), PT_exscan, NB, comm, PT_ROOT_NONE,
           pt_bytes(*count, T(type)))
