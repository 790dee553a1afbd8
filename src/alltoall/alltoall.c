/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * alltoall.c - papcoll_alltoall, papcoll_alltoallv and papcoll_alltoallw:
 * the block front (coll/block_front.c: MPI's argument checks, the MPI
 * library on an intercommunicator) then the one entry path with the block
 * view.  The three forms are one collective: the w form's per-peer datatypes
 * are packed into the block view (or used in place when they have no gaps),
 * so every algorithm moves the same blocks of bytes as for alltoallv.  Algorithms: algorithms.list (the build
 * generates their table); built-in rules: alltoall_default_rules.inc.
 */
#include "alltoall/alltoall.h"
#include "coll/block_front.h"
#include "coll/entry.h"
#include "coll/front.h"
#include "core/state.h"

#include <limits.h>
#include <stdlib.h>

static const char default_rules[] =
#include "alltoall_default_rules.inc"
    ;

/* every process sends one block to every process and receives one from each */
static const pc_block_shape_t shape = {PC_SIDE_ALL, PC_SIDE_ALL};

static int library(const pc_call_t *a, MPI_Comm comm)
{
    if (a->wform)
        return PMPI_Alltoallw(a->sendbuf, a->sendcounts, a->sdispls, a->sendtypes, a->recvbuf, a->recvcounts,
                              a->displs, a->recvtypes, comm);
    if (a->vform)
        return PMPI_Alltoallv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf, a->recvcounts,
                              a->displs, a->recvtype, comm);
    return PMPI_Alltoall(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, comm);
}

const pc_coll_t pc_alltoall_coll = {
    .name = "alltoall",
    .forms = {"alltoall", "alltoallv", "alltoallw"},
    .id = 4,
    .algorithms = pc_alltoall_algorithms,
    .nalgorithms = PC_ALLTOALL_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "native",
    .rooted = 0,
    .waits_for_all = 1,
    .moves_bytes = 0,
    .single = pc_blocks_single,
    .blocks = &shape,
    .library = library,
};

static int run_alltoall(const char *forced, const char *source, const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_alltoall_coll, .sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                   .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype};
    return pc_blocks_enter(&a, comm, forced, source);
}

PC_DEFINE_FRONT(alltoall, pc_alltoall_coll, alltoall, "PAPCOLL_ALLTOALL", run_alltoall,
                (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm),
                (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))

static int run_alltoallv(const char *forced, const char *source, const void *sendbuf, const int sendcounts[],
                         const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_alltoall_coll, .sendbuf = sendbuf, .sendcounts = sendcounts, .sdispls = sdispls,
                   .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = recvcounts, .displs = rdispls,
                   .recvtype = recvtype, .vform = 1};
    return pc_blocks_enter(&a, comm, forced, source);
}

PC_DEFINE_FRONT(alltoallv, pc_alltoall_coll, alltoall, "PAPCOLL_ALLTOALL", run_alltoallv,
                (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                 void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
                (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))

/* sdispls/rdispls in bytes, one datatype per peer: a->wform */
static int run_alltoallw(const char *forced, const char *source, const void *sendbuf, const int sendcounts[],
                         const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                         const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_alltoall_coll, .sendbuf = sendbuf, .sendcounts = sendcounts, .sdispls = sdispls,
                   .sendtypes = sendtypes, .sendtype = MPI_DATATYPE_NULL, .recvbuf = recvbuf,
                   .recvcounts = recvcounts, .displs = rdispls, .recvtypes = recvtypes,
                   .recvtype = MPI_DATATYPE_NULL, .vform = 1, .wform = 1};
    return pc_blocks_enter(&a, comm, forced, source);
}

PC_DEFINE_FRONT(alltoallw, pc_alltoall_coll, alltoall, "PAPCOLL_ALLTOALL", run_alltoallw,
                (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                 void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                 MPI_Comm comm),
                (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm))

int pc_alltoall_on(const pc_call_t *a, const char *name, const pc_blocks_t *send, const pc_blocks_t *recv,
                   MPI_Comm comm)
{
    int size;
    PMPI_Comm_size(comm, &size);
    /* the caller's view for native: alltoallv of bytes (int counts, when they fit) */
    int *arrays = malloc(4 * (size_t)size * sizeof *arrays);
    if (!arrays) return MPI_ERR_NO_MEM;
    int *scounts = arrays, *sdispls = arrays + size, *rcounts = arrays + 2 * size, *rdispls = arrays + 3 * size;
    int fits = send->offset[size] <= (size_t)INT_MAX && recv->offset[size] <= (size_t)INT_MAX;
    for (int i = 0; fits && i < size; i++) {
        scounts[i] = (int)pc_blocks_span(send, i, i);
        sdispls[i] = (int)send->offset[i];
        rcounts[i] = (int)pc_blocks_span(recv, i, i);
        rdispls[i] = (int)recv->offset[i];
    }
    pc_call_t inner = *a;
    inner.sendbuf = send->base;
    inner.recvbuf = recv->base;
    inner.sendcount = inner.recvcount = 0;
    inner.sendcounts = fits ? scounts : NULL;
    inner.sdispls = fits ? sdispls : NULL;
    inner.recvcounts = fits ? rcounts : NULL;
    inner.displs = fits ? rdispls : NULL;
    inner.sendtype = inner.recvtype = inner.datatype = MPI_BYTE;
    inner.vform = 1;
    inner.wform = 0;
    inner.sendtypes = inner.recvtypes = NULL;
    inner.inplace = 0;
    inner.sblocks = *send;
    inner.rblocks = *recv;
    inner.bytes = PC_BYTES_VARY;
    const pc_algorithm_t *algo = pc_coll_find(a->coll, name);
    /* int counts are only for the MPI library's own alltoallv (native, or auto's choice) */
    int rc = !fits && (!algo || (algo->requirements & PC_WANTS_DATATYPE)) ? MPI_ERR_COUNT
                                                                         : pc_coll_call_on(&inner, name, comm);
    free(arrays);
    return rc;
}
