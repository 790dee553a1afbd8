/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wrap_c.c - libpapcoll_trace.so's C entry points: MPI_Init(_thread) and
 * MPI_Finalize (the run's start and end, run.c), and every collective of
 * MPI-3, blocking and nonblocking, on intra- and intercommunicators.  Each
 * forwards to the next definition of its name (papcoll's interposer when
 * it is preloaded after the tracer, else the MPI library): tracer.h.
 *
 * A nonblocking collective is recorded at its post: t_arrive and t_exit
 * bracket MPI_I<coll>, flagged PT_FLAG_NONBLOCKING; its completion (in
 * MPI_Wait/Test) is not traced.
 *
 * Under SimGrid SMPI these definitions are linked into the program itself
 * (the object library papcoll_trace_smpi) and forward to papcoll's
 * interposer when it is linked after them (papcoll_mpi_smpi), else to
 * PMPI_<name> (tracer.h).  SMPI's mpi.h declares every MPI_<name> weak, so
 * of the two MPI_<coll> the first linked is the program's: MPI_Init refuses
 * to run when papcoll's came first (pt_check_link_order).
 *
 * Message sizes ("bytes"): the rules of tracer.h (pt_bytes, pt_bytes_block,
 * pt_size_<coll>), shared with the Fortran and papcoll wrappers.
 */
#include "tracer.h"

#include <mpi.h>

#ifdef PAPCOLL_SMPI
#include <stdio.h>
#endif

#define IN_PLACE(buf) ((buf) == MPI_IN_PLACE)
#define NB PT_FLAG_NONBLOCKING

#ifdef PAPCOLL_SMPI
/* papcoll's interposer linked before the tracer: its MPI_Bcast (an alias of pc_MPI_Bcast) is the program's,
 * the tracer's is never called.  Said and aborted rather than a trace silently missing the collectives. */
static void pt_check_link_order(void)
{
    extern __typeof__(MPI_Bcast) pc_MPI_Bcast __attribute__((weak));
    if (pc_MPI_Bcast && &MPI_Bcast == &pc_MPI_Bcast) {
        fprintf(stderr, "papcoll trace: papcoll's interposer (papcoll_mpi_smpi) is linked before the tracer "
                        "(papcoll_trace_smpi): the program's collectives would not be traced; link the tracer "
                        "first (papcoll-smpicc --trace does)\n");
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
}
#endif

/* ---- start and end of the run ---- */

int MPI_Init(int *argc, char ***argv)
{
    PT_NEXT_C(MPI_Init);
    if (pt_depth) return fn_(argc, argv);
    pt_depth++;
    int rc = fn_(argc, argv);
    pt_depth--;
#ifdef PAPCOLL_SMPI
    if (rc == MPI_SUCCESS) pt_check_link_order();
    if (rc == MPI_SUCCESS) pt_run_program(argc && argv && *argc > 0 && *argv ? (*argv)[0] : NULL);
#endif
    if (rc == MPI_SUCCESS) pt_initialize();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    PT_NEXT_C(MPI_Init_thread);
    if (pt_depth) return fn_(argc, argv, required, provided);
    pt_depth++;
    int rc = fn_(argc, argv, required, provided);
    pt_depth--;
#ifdef PAPCOLL_SMPI
    if (rc == MPI_SUCCESS) pt_check_link_order();
    if (rc == MPI_SUCCESS) pt_run_program(argc && argv && *argc > 0 && *argv ? (*argv)[0] : NULL);
#endif
    if (rc == MPI_SUCCESS) pt_initialize();
    return rc;
}

int MPI_Finalize(void)
{
    PT_NEXT_C(MPI_Finalize);
    if (pt_depth) return fn_();
    pt_finalize();
    pt_depth++;
    int rc = fn_();
    pt_depth--;
    return rc;
}

/* ---- blocking collectives ---- */

int MPI_Barrier(MPI_Comm comm)
{
    PT_TRACE_C(MPI_Barrier, (comm), PT_barrier, 0, comm, PT_ROOT_NONE, 0);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Bcast, (buf, count, type, root, comm), PT_bcast, 0, comm, root, pt_bytes(count, type));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Reduce, (sbuf, rbuf, count, type, op, root, comm), PT_reduce, 0, comm, root,
               pt_bytes(count, type));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Allreduce, (sbuf, rbuf, count, type, op, comm), PT_allreduce, 0, comm, PT_ROOT_NONE,
               pt_bytes(count, type));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    PT_TRACE_C(MPI_Allgather, (sbuf, scount, stype, rbuf, rcount, rtype, comm), PT_allgather, 0, comm, PT_ROOT_NONE,
               pt_bytes_block(IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                   const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Allgatherv, (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm), PT_allgatherv, 0, comm,
               PT_ROOT_NONE, pt_size_allgatherv(PT_ME, PT_PEERS, IN_PLACE(sbuf), scount, stype, rcounts, rtype));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    PT_TRACE_C(MPI_Alltoall, (sbuf, scount, stype, rbuf, rcount, rtype, comm), PT_alltoall, 0, comm, PT_ROOT_NONE,
               pt_bytes_block(IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void *rbuf,
                  const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Alltoallv, (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm), PT_alltoallv, 0,
               comm, PT_ROOT_NONE, pt_size_alltoallv(PT_PEERS, IN_PLACE(sbuf), scounts, stype, rcounts, rtype));
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[], void *rbuf,
                  const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    PT_TRACE_C(MPI_Alltoallw, (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm), PT_alltoallw, 0,
               comm, PT_ROOT_NONE,
               pt_size_alltoallw(PT_PEERS, IN_PLACE(sbuf), scounts, stypes, rcounts, rtypes, pt_type_at_c));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm)
{
    PT_TRACE_C(MPI_Gather, (sbuf, scount, stype, rbuf, rcount, rtype, root, comm), PT_gather, 0, comm, root,
               pt_size_gather(root, IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[], const int displs[],
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Gatherv, (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm), PT_gatherv, 0, comm, root,
               pt_size_gatherv(root, PT_ME, PT_PEERS, IN_PLACE(sbuf), scount, stype, rcounts, rtype));
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm)
{
    PT_TRACE_C(MPI_Scatter, (sbuf, scount, stype, rbuf, rcount, rtype, root, comm), PT_scatter, 0, comm, root,
               pt_size_scatter(root, IN_PLACE(rbuf), scount, stype, rcount, rtype));
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Scatterv, (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm), PT_scatterv, 0, comm, root,
               pt_size_scatterv(root, PT_ME, PT_PEERS, IN_PLACE(rbuf), scounts, stype, rcount, rtype));
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Reduce_scatter, (sbuf, rbuf, rcounts, type, op, comm), PT_reduce_scatter, 0, comm, PT_ROOT_NONE,
               pt_size_reduce_scatter(PT_PEERS, rcounts, type));
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Reduce_scatter_block, (sbuf, rbuf, rcount, type, op, comm), PT_reduce_scatter_block, 0, comm,
               PT_ROOT_NONE, pt_size_reduce_scatter_block(PT_PEERS, rcount, type));
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Scan, (sbuf, rbuf, count, type, op, comm), PT_scan, 0, comm, PT_ROOT_NONE,
               pt_bytes(count, type));
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    PT_TRACE_C(MPI_Exscan, (sbuf, rbuf, count, type, op, comm), PT_exscan, 0, comm, PT_ROOT_NONE,
               pt_bytes(count, type));
}

/* ---- nonblocking collectives: the post ---- */

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Ibarrier, (comm, req), PT_barrier, NB, comm, PT_ROOT_NONE, 0);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Ibcast, (buf, count, type, root, comm, req), PT_bcast, NB, comm, root, pt_bytes(count, type));
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *req)
{
    PT_TRACE_C(MPI_Ireduce, (sbuf, rbuf, count, type, op, root, comm, req), PT_reduce, NB, comm, root,
               pt_bytes(count, type));
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request *req)
{
    PT_TRACE_C(MPI_Iallreduce, (sbuf, rbuf, count, type, op, comm, req), PT_allreduce, NB, comm, PT_ROOT_NONE,
               pt_bytes(count, type));
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Iallgather, (sbuf, scount, stype, rbuf, rcount, rtype, comm, req), PT_allgather, NB, comm,
               PT_ROOT_NONE, pt_bytes_block(IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                    const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Iallgatherv, (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req), PT_allgatherv, NB,
               comm, PT_ROOT_NONE, pt_size_allgatherv(PT_ME, PT_PEERS, IN_PLACE(sbuf), scount, stype, rcounts, rtype));
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Ialltoall, (sbuf, scount, stype, rbuf, rcount, rtype, comm, req), PT_alltoall, NB, comm,
               PT_ROOT_NONE, pt_bytes_block(IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Ialltoallv, (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req),
               PT_alltoallv, NB, comm, PT_ROOT_NONE,
               pt_size_alltoallv(PT_PEERS, IN_PLACE(sbuf), scounts, stype, rcounts, rtype));
}

int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[],
                   void *rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request *req)
{
    PT_TRACE_C(MPI_Ialltoallw, (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, req),
               PT_alltoallw, NB, comm, PT_ROOT_NONE,
               pt_size_alltoallw(PT_PEERS, IN_PLACE(sbuf), scounts, stypes, rcounts, rtypes, pt_type_at_c));
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Igather, (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req), PT_gather, NB, comm, root,
               pt_size_gather(root, IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                 const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Igatherv, (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req), PT_gatherv, NB,
               comm, root, pt_size_gatherv(root, PT_ME, PT_PEERS, IN_PLACE(sbuf), scount, stype, rcounts, rtype));
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                 int root, MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Iscatter, (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req), PT_scatter, NB, comm, root,
               pt_size_scatter(root, IN_PLACE(rbuf), scount, stype, rcount, rtype));
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Iscatterv, (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req), PT_scatterv, NB,
               comm, root, pt_size_scatterv(root, PT_ME, PT_PEERS, IN_PLACE(rbuf), scounts, stype, rcount, rtype));
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                        MPI_Request *req)
{
    PT_TRACE_C(MPI_Ireduce_scatter, (sbuf, rbuf, rcounts, type, op, comm, req), PT_reduce_scatter, NB, comm,
               PT_ROOT_NONE, pt_size_reduce_scatter(PT_PEERS, rcounts, type));
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req)
{
    PT_TRACE_C(MPI_Ireduce_scatter_block, (sbuf, rbuf, rcount, type, op, comm, req), PT_reduce_scatter_block, NB, comm,
               PT_ROOT_NONE, pt_size_reduce_scatter_block(PT_PEERS, rcount, type));
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Iscan, (sbuf, rbuf, count, type, op, comm, req), PT_scan, NB, comm, PT_ROOT_NONE,
               pt_bytes(count, type));
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    PT_TRACE_C(MPI_Iexscan, (sbuf, rbuf, count, type, op, comm, req), PT_exscan, NB, comm, PT_ROOT_NONE,
               pt_bytes(count, type));
}
