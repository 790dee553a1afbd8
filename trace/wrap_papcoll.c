/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wrap_papcoll.c - under SimGrid SMPI only: the tracer's entry points for
 * papcoll's API (papcoll_bcast, papcoll_reduce, ... : the collectives whose
 * arguments are MPI's).  A program run under SMPI cannot preload papcoll's
 * interposer, so it calls papcoll through its API (the applications'
 * PAPCOLL_APP_USE_API, docs/apps.md); these calls are the program's
 * collectives and are recorded like an MPI_<coll> call, at the program's
 * call site.
 *
 * The program is linked with `-Wl,--wrap=papcoll_<coll>` (trace/CMakeLists.txt
 * adds the options to whatever links the tracer): the linker sends every
 * reference to papcoll_<coll> from another object to __wrap_papcoll_<coll>
 * here, and __real_papcoll_<coll> to papcoll's definition.  papcoll's own
 * traffic is never seen: it calls PMPI_* (and nothing inside a traced call
 * is recorded again: tracer.h's depth counter).  papcoll_<coll>_by_name and
 * papcoll_bcast_shared are not wrapped (they take papcoll's own arguments).
 * Message sizes: pt_size_<coll> (tracer.h), as for MPI_<coll> (papcoll's API
 * takes intercommunicators too, handing them to the MPI library).
 */
#include "tracer.h"

#include <mpi.h>
#include <papcoll.h>

#define IN_PLACE(buf) ((buf) == MPI_IN_PLACE)

/* The definitions the linker's --wrap names: __real_X is papcoll's X; __wrap_X is what the program's X calls. */
#define PT_PAPCOLL(NAME, PARAMS)   \
    int __real_##NAME PARAMS;      \
    int __wrap_##NAME PARAMS;      \
    int __wrap_##NAME PARAMS

PT_PAPCOLL(papcoll_bcast, (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_bcast, (buf, count, type, root, comm), PT_bcast, 0, comm, root,
                     pt_bytes(count, type));
}

PT_PAPCOLL(papcoll_reduce,
           (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_reduce, (sbuf, rbuf, count, type, op, root, comm), PT_reduce, 0, comm, root,
                     pt_bytes(count, type));
}

PT_PAPCOLL(papcoll_allreduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_allreduce, (sbuf, rbuf, count, type, op, comm), PT_allreduce, 0, comm,
                     PT_ROOT_NONE, pt_bytes(count, type));
}

PT_PAPCOLL(papcoll_reduce_scatter,
           (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_reduce_scatter, (sbuf, rbuf, rcounts, type, op, comm), PT_reduce_scatter, 0, comm,
                     PT_ROOT_NONE, pt_size_reduce_scatter(PT_PEERS, rcounts, type));
}

PT_PAPCOLL(papcoll_reduce_scatter_block,
           (const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_reduce_scatter_block, (sbuf, rbuf, rcount, type, op, comm),
                     PT_reduce_scatter_block, 0, comm, PT_ROOT_NONE,
                     pt_size_reduce_scatter_block(PT_PEERS, rcount, type));
}

PT_PAPCOLL(papcoll_allgather, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_allgather, (sbuf, scount, stype, rbuf, rcount, rtype, comm), PT_allgather, 0, comm,
                     PT_ROOT_NONE, pt_bytes_block(IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

PT_PAPCOLL(papcoll_allgatherv, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                                const int displs[], MPI_Datatype rtype, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_allgatherv, (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
                     PT_allgatherv, 0, comm, PT_ROOT_NONE,
                     pt_size_allgatherv(PT_ME, PT_PEERS, IN_PLACE(sbuf), scount, stype, rcounts, rtype));
}

PT_PAPCOLL(papcoll_alltoall, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_alltoall, (sbuf, scount, stype, rbuf, rcount, rtype, comm), PT_alltoall, 0, comm,
                     PT_ROOT_NONE, pt_bytes_block(IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

PT_PAPCOLL(papcoll_alltoallv, (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                               void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_alltoallv, (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
                     PT_alltoallv, 0, comm, PT_ROOT_NONE,
                     pt_size_alltoallv(PT_PEERS, IN_PLACE(sbuf), scounts, stype, rcounts, rtype));
}

PT_PAPCOLL(papcoll_gather, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                            MPI_Datatype rtype, int root, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_gather, (sbuf, scount, stype, rbuf, rcount, rtype, root, comm), PT_gather, 0, comm,
                     root, pt_size_gather(root, IN_PLACE(sbuf), scount, stype, rcount, rtype));
}

PT_PAPCOLL(papcoll_gatherv, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                             const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_gatherv, (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
                     PT_gatherv, 0, comm, root,
                     pt_size_gatherv(root, PT_ME, PT_PEERS, IN_PLACE(sbuf), scount, stype, rcounts, rtype));
}

PT_PAPCOLL(papcoll_scatter, (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                             MPI_Datatype rtype, int root, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_scatter, (sbuf, scount, stype, rbuf, rcount, rtype, root, comm), PT_scatter, 0,
                     comm, root, pt_size_scatter(root, IN_PLACE(rbuf), scount, stype, rcount, rtype));
}

PT_PAPCOLL(papcoll_scatterv, (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                              void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm))
{
    PT_TRACE_FORWARD(__real_papcoll_scatterv, (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
                     PT_scatterv, 0, comm, root,
                     pt_size_scatterv(root, PT_ME, PT_PEERS, IN_PLACE(rbuf), scounts, stype, rcount, rtype));
}
