/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gather.c - papcoll_gather and papcoll_gatherv: the block front
 * (coll/block_front.c: MPI's argument checks, the MPI library on an
 * intercommunicator) then the one entry path with the block view.  Both
 * forms are one collective.  Algorithms: algorithms.list (the build
 * generates their table); built-in rules: gather_default_rules.inc.
 */
#include "gather/gather.h"
#include "coll/block_front.h"
#include "coll/entry.h"
#include "coll/front.h"
#include "core/state.h"

#include <stdlib.h>

static const char default_rules[] =
#include "gather_default_rules.inc"
    ;

/* every process contributes one block; the root receives everyone's */
static const pc_block_shape_t shape = {PC_SIDE_ONE, PC_SIDE_ROOT_ALL};

static int library(const pc_call_t *a, MPI_Comm comm)
{
    if (a->vform)
        return PMPI_Gatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts, a->displs, a->recvtype,
                            a->root, comm);
    return PMPI_Gather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, a->root, comm);
}

const pc_coll_t pc_gather_coll = {
    .name = "gather",
    .forms = {"gather", "gatherv"},
    .id = 5,
    .algorithms = pc_gather_algorithms,
    .nalgorithms = PC_GATHER_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "native",
    .rooted = 1,
    .root_collects = 1,
    .moves_bytes = 0,
    .single = pc_blocks_single,
    .blocks = &shape,
    .library = library,
};

static int run_gather(const char *forced, const char *source, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_gather_coll, .root = root, .sendbuf = sendbuf, .sendcount = sendcount,
                   .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype};
    return pc_blocks_enter(&a, comm, forced, source);
}

PC_DEFINE_FRONT(gather, pc_gather_coll, gather, "PAPCOLL_GATHER", run_gather,
                (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm),
                (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))

static int run_gatherv(const char *forced, const char *source, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[],
                       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_gather_coll, .root = root, .sendbuf = sendbuf, .sendcount = sendcount,
                   .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = recvcounts, .displs = displs,
                   .recvtype = recvtype, .vform = 1};
    return pc_blocks_enter(&a, comm, forced, source);
}

PC_DEFINE_FRONT(gatherv, pc_gather_coll, gather, "PAPCOLL_GATHER", run_gatherv,
                (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm),
                (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm))

int pc_gather_on(const pc_call_t *a, const char *name, char *blocks, const size_t *offset, int root, MPI_Comm comm)
{
    int size, rank;
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &rank);
    pc_call_t inner = *a;
    inner.root = root;
    inner.vform = 1;
    inner.bytes = PC_BYTES_VARY;
    inner.sendtype = inner.recvtype = inner.datatype = MPI_BYTE;
    inner.sendcounts = inner.sdispls = NULL;
    pc_blocks_t none = {NULL, NULL}, view = {blocks, offset};
    if (rank != root) { /* my one block */
        inner.sendbuf = blocks;
        inner.sendcount = (int)offset[1];
        inner.recvbuf = NULL;
        inner.recvcounts = inner.displs = NULL;
        inner.inplace = 0;
        inner.sblocks = view;
        inner.rblocks = none;
        return pc_coll_call_on(&inner, name, comm);
    }
    /* the root: the caller's view for native, a gatherv of bytes in place */
    int *counts = malloc((size_t)size * sizeof *counts), *displs = malloc((size_t)size * sizeof *displs);
    int rc = counts && displs ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < size; i++) {
        counts[i] = (int)(offset[i + 1] - offset[i]);
        displs[i] = (int)offset[i];
    }
    inner.sendbuf = MPI_IN_PLACE;
    inner.sendcount = 0;
    inner.inplace = 1;
    inner.recvbuf = blocks;
    inner.recvcounts = counts;
    inner.displs = displs;
    inner.sblocks = none;
    inner.rblocks = view;
    if (rc == MPI_SUCCESS) rc = pc_coll_call_on(&inner, name, comm);
    free(counts);
    free(displs);
    return rc;
}
