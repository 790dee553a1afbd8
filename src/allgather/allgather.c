/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allgather.c - papcoll_allgather and papcoll_allgatherv: MPI_Allgather's
 * and MPI_Allgatherv's argument checks, then the one entry path
 * (coll/entry.c) with the block view (coll/block_view.c).  Both forms are
 * one collective: the non-v form is the v form with equal counts.
 * Algorithms: algorithms.list (the build generates their table); built-in
 * rules: allgather_default_rules.inc.
 */
#include "allgather/allgather.h"
#include "coll/block_front.h"
#include "coll/entry.h"
#include "coll/front.h"
#include "core/args.h"
#include "core/state.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char default_rules[] =
#include "allgather_default_rules.inc"
    ;

/* every process contributes one block and receives everyone's */
static const pc_block_shape_t shape = {PC_SIDE_ONE, PC_SIDE_ALL};

static int library(const pc_call_t *a, MPI_Comm comm)
{
    if (a->vform)
        return PMPI_Allgatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts, a->displs,
                               a->recvtype, comm);
    return PMPI_Allgather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, comm);
}

const pc_coll_t pc_allgather_coll = {
    .name = "allgather",
    .forms = {"allgather", "allgatherv"},
    .id = 3,
    .algorithms = pc_allgather_algorithms,
    .nalgorithms = PC_ALLGATHER_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "native",
    .rooted = 0,
    .waits_for_all = 1,
    .moves_bytes = 0,
    .single = pc_blocks_single,
    .blocks = &shape,
    .library = library,
};

static int allgather(const char *forced, const char *source, int vform, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, const int *recvcounts, const int *displs,
                     MPI_Datatype recvtype, MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_allgather_coll, .sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                   .recvbuf = recvbuf, .recvcount = recvcount, .recvcounts = recvcounts, .displs = displs,
                   .recvtype = recvtype, .vform = vform};
    return pc_blocks_enter(&a, comm, forced, source);
}

PC_DEFINE_FRONT(allgather, pc_allgather_coll, allgather, "PAPCOLL_ALLGATHER", allgather,
                (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm),
                (0, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm))

PC_DEFINE_FRONT(allgatherv, pc_allgather_coll, allgather, "PAPCOLL_ALLGATHER", allgather,
                (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
                (1, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm))

int pc_allgather_on(const pc_call_t *a, const char *name, char *blocks, const size_t *offset, MPI_Comm comm)
{
    int size;
    PMPI_Comm_size(comm, &size);
    /* the caller's view for native: allgatherv of bytes, in place */
    int *counts = malloc((size_t)size * sizeof *counts), *displs = malloc((size_t)size * sizeof *displs);
    if (!counts || !displs) {
        free(counts);
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    int rc = MPI_SUCCESS;
    for (int i = 0; i < size; i++) {
        counts[i] = (int)(offset[i + 1] - offset[i]);
        displs[i] = (int)offset[i];
        if (offset[i + 1] > (size_t)INT_MAX) rc = MPI_ERR_COUNT; /* int displacements of bytes */
    }
    pc_call_t inner = *a;
    inner.sendbuf = MPI_IN_PLACE;
    inner.inplace = 1;
    inner.recvbuf = blocks;
    inner.recvcount = 0;
    inner.recvtype = inner.datatype = MPI_BYTE;
    inner.recvcounts = counts;
    inner.displs = displs;
    inner.vform = 1;
    inner.rblocks.base = blocks;
    inner.rblocks.offset = offset;
    inner.bytes = offset[size];
    if (rc == MPI_SUCCESS) rc = pc_coll_call_on(&inner, name, comm);
    free(counts);
    free(displs);
    return rc;
}
