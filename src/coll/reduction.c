/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduction.c - see reduction.h.
 */
#include "coll/reduction.h"
#include "core/args.h"
#include "core/p2p.h"

#include <stdlib.h>
#include <string.h>

void *pc_red_alloc(const pc_call_t *a, long n, void **base)
{
    size_t span = n > 0 ? (size_t)a->true_extent + (size_t)(n - 1) * (size_t)a->extent : 1;
    *base = malloc(span ? span : 1);
    return *base ? (char *)*base - a->true_lb : NULL;
}

int pc_red_copy(const pc_call_t *a, void *dst, const void *src, long n)
{
    if (dst == src || n == 0) return MPI_SUCCESS;
    if (a->contiguous) {
        int type_size;
        PMPI_Type_size(a->datatype, &type_size);
        memcpy((char *)dst + a->true_lb, (const char *)src + a->true_lb, (size_t)n * (size_t)type_size);
        return MPI_SUCCESS;
    }
    /* whole elements through the MPI library's datatype engine: gaps stay as they are */
    return PMPI_Sendrecv(src, (int)n, a->datatype, 0, 0, dst, (int)n, a->datatype, 0, 0, pc_self_comm(),
                         MPI_STATUS_IGNORE);
}

int pc_red_local(const pc_call_t *a, const void *in, void *inout, long n)
{
    return n ? PMPI_Reduce_local(in, inout, (int)n, a->datatype, a->op) : MPI_SUCCESS;
}

int pc_red_send(const pc_call_t *a, const void *buf, long n, int dst, int tag)
{
    return PMPI_Send(buf, (int)n, a->datatype, dst, tag, a->ctx->comm);
}

int pc_red_recv(const pc_call_t *a, void *buf, long n, int src, int tag)
{
    return PMPI_Recv(buf, (int)n, a->datatype, src, tag, a->ctx->comm, MPI_STATUS_IGNORE);
}

int pc_red_sendrecv(const pc_call_t *a, const void *sbuf, long sn, int dst, void *rbuf, long rn, int src, int tag)
{
    return PMPI_Sendrecv(sbuf, (int)sn, a->datatype, dst, tag, rbuf, (int)rn, a->datatype, src, tag, a->ctx->comm,
                         MPI_STATUS_IGNORE);
}

int pc_red_single(const pc_call_t *a)
{
    return a->recvbuf ? pc_red_copy(a, a->recvbuf, a->sendbuf, a->count) : MPI_SUCCESS;
}

int pc_red_fold(const pc_call_t *a, void *acc, void *tmp, int rem, int tag, long *newrank)
{
    int rank = a->ctx->rank, rc = MPI_SUCCESS;
    if (rank >= 2 * rem) {
        *newrank = rank - rem;
    } else if (rank % 2 == 0) {
        rc = pc_red_send(a, acc, a->count, rank + 1, tag);
        *newrank = -1;
    } else {
        rc = pc_red_recv(a, tmp, a->count, rank - 1, tag);
        if (rc == MPI_SUCCESS) rc = pc_red_local(a, tmp, acc, a->count); /* the lower rank on the left */
        *newrank = rank / 2;
    }
    return rc;
}

int pc_red_unfold(const pc_call_t *a, void *buf, int rem, int tag)
{
    int rank = a->ctx->rank;
    if (rank >= 2 * rem) return MPI_SUCCESS;
    return rank % 2 ? pc_red_send(a, buf, a->count, rank - 1, tag) : pc_red_recv(a, buf, a->count, rank + 1, tag);
}
