/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_persistent_blocks.c - the persistent block collectives of
 * app_persistent.c (app_persistent_blocks.h).  Process r's block for
 * destination d holds value(r, d, i, salt); every receive block is checked
 * against what its sender put there (the sum over the processes for
 * reduce_scatter).
 */
#include "app_persistent_blocks.h"

#include <stdlib.h>
#include <string.h>

#ifdef INIT

const char *const block_name[B_N] = {"allgather", "allgatherv", "alltoall", "alltoallv", "gather",
                                     "gatherv", "scatter", "scatterv", "reduce_scatter", "reduce_scatter_block"};

static int value(int r, int d, int i, int salt) { return r * 100000 + d * 1000 + i + salt * 7; }

/* Elements of the block process `from` sends to `to`. */
static int count_of(const block_coll_t *x, int from, int to)
{
    switch (x->coll) {
    case B_ALLGATHERV: case B_GATHERV: return x->b + from;
    case B_SCATTERV: case B_REDUCE_SCATTER: return x->b + to;
    case B_ALLTOALLV: return x->b + (from + to) % 3;
    default: return x->b;
    }
}

/* One block per destination (else the same block to all), one per source (else one block). */
static int per_destination(int coll) { return coll >= B_ALLTOALL && coll != B_GATHER && coll != B_GATHERV; }
static int per_source(int coll) { return coll <= B_GATHERV; }
static int dest_tag(const block_coll_t *x, int d) { return per_destination(x->coll) ? d : 0; }

/* counts[k] (one block's elements) over n blocks -> displs; the total. */
static int prefix(const int *counts, int *displs, int n)
{
    int total = 0;
    for (int k = 0; k < n; k++) displs[k] = total, total += counts[k];
    return total;
}

int block_make(MPI_Comm comm, block_coll_t *x, int coll, int b, int root, MPI_Request *req)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    *x = (block_coll_t){.coll = coll, .b = b, .root = root, .rank = me, .p = p};
    x->sc = calloc((size_t)p, sizeof(int)), x->sd = calloc((size_t)p, sizeof(int));
    x->rc = calloc((size_t)p, sizeof(int)), x->rd = calloc((size_t)p, sizeof(int));
    int scatter = coll == B_SCATTER || coll == B_SCATTERV, gather = coll == B_GATHER || coll == B_GATHERV;
    x->nsend = !per_destination(coll) ? 1 : scatter && me != root ? 0 : p;
    x->nrecv = !per_source(coll) ? 1 : gather && me != root ? 0 : p;
    for (int k = 0; k < x->nsend; k++) x->sc[k] = count_of(x, me, per_destination(coll) ? k : 0);
    for (int k = 0; k < x->nrecv; k++) x->rc[k] = per_source(coll) ? count_of(x, k, me) : count_of(x, root, me);
    x->nin = prefix(x->sc, x->sd, x->nsend);
    x->nout = prefix(x->rc, x->rd, x->nrecv);
    x->in = malloc(sizeof(int) * (size_t)(x->nin + 1));
    x->out = malloc(sizeof(int) * (size_t)(x->nout + 1));
    x->ref = malloc(sizeof(int) * (size_t)(x->nout + 1));
    int *in = x->in, *out = x->out;
    MPI_Info info = MPI_INFO_NULL;
    switch (coll) {
    case B_ALLGATHER: return INIT(Allgather)(in, b, MPI_INT, out, b, MPI_INT, comm, info, req);
    case B_ALLGATHERV: return INIT(Allgatherv)(in, x->nin, MPI_INT, out, x->rc, x->rd, MPI_INT, comm, info, req);
    case B_ALLTOALL: return INIT(Alltoall)(in, b, MPI_INT, out, b, MPI_INT, comm, info, req);
    case B_ALLTOALLV:
        return INIT(Alltoallv)(in, x->sc, x->sd, MPI_INT, out, x->rc, x->rd, MPI_INT, comm, info, req);
    case B_GATHER: return INIT(Gather)(in, b, MPI_INT, out, b, MPI_INT, root, comm, info, req);
    case B_GATHERV:
        return INIT(Gatherv)(in, x->nin, MPI_INT, out, x->rc, x->rd, MPI_INT, root, comm, info, req);
    case B_SCATTER: return INIT(Scatter)(in, b, MPI_INT, out, b, MPI_INT, root, comm, info, req);
    case B_SCATTERV:
        return INIT(Scatterv)(in, x->sc, x->sd, MPI_INT, out, x->nout, MPI_INT, root, comm, info, req);
    case B_REDUCE_SCATTER: return INIT(Reduce_scatter)(in, out, x->sc, MPI_INT, MPI_SUM, comm, info, req);
    default: return INIT(Reduce_scatter_block)(in, out, b, MPI_INT, MPI_SUM, comm, info, req);
    }
}

void block_prepare(block_coll_t *x, int salt)
{
    for (int k = 0; k < x->nsend; k++)
        for (int i = 0; i < x->sc[k]; i++) x->in[x->sd[k] + i] = value(x->rank, dest_tag(x, k), i, salt);
    for (int k = 0; k < x->nrecv; k++)
        for (int i = 0; i < x->rc[k]; i++) {
            int *ref = &x->ref[x->rd[k] + i];
            if (x->coll == B_REDUCE_SCATTER || x->coll == B_REDUCE_SCATTER_BLOCK) {
                *ref = 0;
                for (int r = 0; r < x->p; r++) *ref += value(r, x->rank, i, salt);
            } else if (per_source(x->coll)) {
                *ref = value(k, x->coll == B_ALLTOALL || x->coll == B_ALLTOALLV ? x->rank : 0, i, salt);
            } else {
                *ref = value(x->root, x->rank, i, salt); /* scatter(v) */
            }
        }
    memset(x->out, 0xff, sizeof(int) * (size_t)(x->nout + 1));
}

int block_verify(const block_coll_t *x) { return memcmp(x->out, x->ref, sizeof(int) * (size_t)x->nout) == 0; }

void block_free(block_coll_t *x)
{
    free(x->in), free(x->out), free(x->ref);
    free(x->sc), free(x->sd), free(x->rc), free(x->rd);
}

#endif
