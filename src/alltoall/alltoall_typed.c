/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * typed - the isend exchange on the caller's own datatypes: no block view,
 * no packing.  Every process posts a receive from every process and a send
 * to every process (itself included) with the block's count and datatype
 * where the caller's buffer has it (alltoallw: one datatype per peer, byte
 * displacements), receives from rank + 1 on and sends to rank - 1 on, and
 * waits for them all.  MPI_IN_PLACE: the blocks are exchanged pair by pair
 * with MPI_Sendrecv_replace (the library's temporary buffer), pairs (i, j)
 * in lexicographic order.
 *
 *   p = 4, process 1:  irecv from 2 3 0 1   isend to 0 3 2 1   waitall
 *   in place:          (0,1) (1,2) (1,3): sendrecv_replace with 0, 2, 3
 *
 * Why: the block view packs every non-contiguous block before the
 * algorithm and unpacks after it, two extra passes over the data (and a
 * copy of it) that a derived datatype per peer (alltoallw's 2-D transposes:
 * subarrays, vectors) always pays; here the MPI library moves the data from
 * and into the datatypes itself (Open MPI coll/base's basic linear
 * MPI_Alltoallw, MPICH's alltoallw "scattered", which post everything at
 * once the same way; their in-place forms are pairwise with a temporary).
 *
 * Cost (Hockney, m bytes sent in all by one process): (p - 1) alpha +
 * (p - 1)/p m beta, the messages overlapping in the network as far as it
 * allows, plus the library's own datatype handling; no copy of the data by
 * papcoll.  In place: the pairs run one after another where they share a
 * process: p - 1 sendrecv_replace steps per process, each (alpha + 2 m/p
 * beta) with a copy into and out of the library's buffer, and a process
 * waits for earlier pairs it is not part of (up to p (p - 1) / 2 steps
 * end to end).
 * Late arrival: as isend's (all posted at once: only the late process's own
 * exchanges remain when it arrives), without the batches; receives are
 * posted for every peer, so a late receiver is not flooded beyond what the
 * MPI library buffers eagerly.  In place: a late process holds up every
 * pair after its first one in the order.
 * Blocks of any size and datatype, empty ones skipped (no message); all
 * three forms.  Source: Open MPI ompi/mca/coll/base (basic linear
 * alltoallw, basic_inplace); MPICH src/mpi/coll/alltoallw
 * (alltoallw_intra_scattered.c, alltoallw_intra_pairwise_sendrecv_replace.c);
 * Thakur, Rabenseifner and Gropp 2005 (the isend exchange).
 */
#include "alltoall/alltoall.h"

#include <stdlib.h>

/* Block j of one side as the caller gave it: start, count, datatype. */
typedef struct {
    char *at;
    int count;
    MPI_Datatype type;
} block_t;

static block_t block_of(const pc_call_t *a, int send, int j)
{
    char *buf = send ? (char *)a->sendbuf : a->recvbuf;
    const int *counts = send ? a->sendcounts : a->recvcounts, *displs = send ? a->sdispls : a->displs;
    const MPI_Datatype *types = send ? a->sendtypes : a->recvtypes;
    block_t b = {buf, send ? a->sendcount : a->recvcount, send ? a->sendtype : a->recvtype};
    MPI_Aint lb, extent;
    if (a->wform) {
        b.at = buf + displs[j], b.count = counts[j], b.type = types[j];
        return b;
    }
    PMPI_Type_get_extent(b.type, &lb, &extent);
    if (a->vform) b.at = buf + (MPI_Aint)displs[j] * extent, b.count = counts[j];
    else b.at = buf + (MPI_Aint)j * b.count * extent;
    return b;
}

static int empty(const block_t *b)
{
    int size;
    PMPI_Type_size(b->type, &size);
    return b->count == 0 || size == 0;
}

/* In place: pairs (i, j), i < j, in lexicographic order; I take part in mine. */
static int in_place(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++)
        for (int j = i + 1; j < p && rc == MPI_SUCCESS; j++) {
            int peer = me == i ? j : me == j ? i : -1;
            if (peer < 0) continue;
            block_t b = block_of(a, 0, peer);
            if (!empty(&b))
                rc = PMPI_Sendrecv_replace(b.at, b.count, b.type, peer, PC_TAG_ALLTOALL_DATA, peer,
                                           PC_TAG_ALLTOALL_DATA, a->ctx->comm, MPI_STATUS_IGNORE);
        }
    return rc;
}

int pc_alltoall_typed(const pc_call_t *a)
{
    if (a->inplace) return in_place(a);
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS, nreq = 0;
    MPI_Request *req = malloc(2 * (size_t)p * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++) {
        int src = (me + 1 + i) % p; /* myself last */
        block_t b = block_of(a, 0, src);
        if (!empty(&b))
            rc = PMPI_Irecv(b.at, b.count, b.type, src, PC_TAG_ALLTOALL_DATA, a->ctx->comm, &req[nreq++]);
    }
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++) {
        int dst = (me - 1 - i + 2 * p) % p;
        block_t b = block_of(a, 1, dst);
        if (!empty(&b))
            rc = PMPI_Isend(b.at, b.count, b.type, dst, PC_TAG_ALLTOALL_DATA, a->ctx->comm, &req[nreq++]);
    }
    /* on an error, the requests posted so far still complete before they are freed */
    int wrc = pc_waitall(nreq, req, MPI_STATUSES_IGNORE);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}
