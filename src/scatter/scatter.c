/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scatter.c - papcoll_scatter and papcoll_scatterv: the block front
 * (coll/block_front.c: MPI's argument checks, the MPI library on an
 * intercommunicator) then the one entry path with the block view.  Both
 * forms are one collective.  Algorithms: algorithms.list (the build
 * generates their table); built-in rules: scatter_default_rules.inc.
 */
#include "scatter/scatter.h"
#include "coll/block_front.h"
#include "coll/entry.h"
#include "coll/front.h"
#include "core/state.h"

#include <stdlib.h>

static const char default_rules[] =
#include "scatter_default_rules.inc"
    ;

/* the root holds one block per process; every process receives its own */
static const pc_block_shape_t shape = {PC_SIDE_ROOT_ALL, PC_SIDE_ONE};

static int library(const pc_call_t *a, MPI_Comm comm)
{
    if (a->vform)
        return PMPI_Scatterv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf, a->recvcount,
                             a->recvtype, a->root, comm);
    return PMPI_Scatter(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, a->root, comm);
}

const pc_coll_t pc_scatter_coll = {
    .name = "scatter",
    .forms = {"scatter", "scatterv"},
    .id = 6,
    .algorithms = pc_scatter_algorithms,
    .nalgorithms = PC_SCATTER_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "native",
    .rooted = 1,
    .moves_bytes = 0,
    .single = pc_blocks_single,
    .blocks = &shape,
    .library = library,
};

static int run_scatter(const char *forced, const char *source, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_scatter_coll, .root = root, .sendbuf = sendbuf, .sendcount = sendcount,
                   .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype};
    return pc_blocks_enter(&a, comm, forced, source);
}

PC_DEFINE_FRONT(scatter, pc_scatter_coll, scatter, "PAPCOLL_SCATTER", run_scatter,
                (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm),
                (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))

static int run_scatterv(const char *forced, const char *source, const void *sendbuf, const int sendcounts[],
                        const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_scatter_coll, .root = root, .sendbuf = sendbuf, .sendcounts = sendcounts,
                   .sdispls = displs, .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,
                   .recvtype = recvtype, .vform = 1};
    return pc_blocks_enter(&a, comm, forced, source);
}

PC_DEFINE_FRONT(scatterv, pc_scatter_coll, scatter, "PAPCOLL_SCATTER", run_scatterv,
                (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
                (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm))

int pc_scatter_on(const pc_call_t *a, const char *name, char *blocks, const size_t *offset, int root, MPI_Comm comm)
{
    int size, rank;
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &rank);
    pc_call_t inner = *a;
    inner.root = root;
    inner.vform = 1;
    inner.bytes = PC_BYTES_VARY;
    inner.sendtype = inner.recvtype = inner.datatype = MPI_BYTE;
    inner.recvcounts = inner.displs = NULL;
    pc_blocks_t none = {NULL, NULL}, view = {blocks, offset};
    if (rank != root) { /* where my one block goes */
        inner.sendbuf = NULL;
        inner.sendcounts = inner.sdispls = NULL;
        inner.recvbuf = blocks;
        inner.recvcount = (int)offset[1];
        inner.inplace = 0;
        inner.sblocks = none;
        inner.rblocks = view;
        return pc_coll_call_on(&inner, name, comm);
    }
    /* the root: the caller's view for native, a scatterv of bytes, its own block in place */
    int *counts = malloc((size_t)size * sizeof *counts), *displs = malloc((size_t)size * sizeof *displs);
    int rc = counts && displs ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < size; i++) {
        counts[i] = (int)(offset[i + 1] - offset[i]);
        displs[i] = (int)offset[i];
    }
    inner.sendbuf = blocks;
    inner.sendcounts = counts;
    inner.sdispls = displs;
    inner.recvbuf = MPI_IN_PLACE;
    inner.recvcount = 0;
    inner.inplace = 1;
    inner.sblocks = view;
    inner.rblocks = none;
    if (rc == MPI_SUCCESS) rc = pc_coll_call_on(&inner, name, comm);
    free(counts);
    free(displs);
    return rc;
}
