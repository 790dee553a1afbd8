/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block_args.c - the all-to-all schedules' exchanges and their send side
 * under MPI_IN_PLACE, the blocks of reduce_scatter (see block_args.h).
 */
#include "nbc/block_args.h"

#include <stdlib.h>

/* Bytes [*lo, *hi) that block i of the receive side spans from the buffer's start. */
static void rblock_span(const pc_nbc_args_t *a, int i, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Datatype t = pc_nbc_rtype(a, i);
    MPI_Aint lb, extent, true_lb, true_extent, at = pc_nbc_roffset(a, i);
    PMPI_Type_get_extent(t, &lb, &extent);
    PMPI_Type_get_true_extent(t, &true_lb, &true_extent);
    *lo = at + true_lb;
    *hi = *lo + (MPI_Aint)(pc_nbc_rcount(a, i) - 1) * extent + true_extent;
}

int pc_nbc_alltoall_source(pc_nbc_sched_t *s, const pc_nbc_args_t *a, pc_nbc_args_t *src)
{
    *src = *a;
    if (a->sendbuf != MPI_IN_PLACE) return s->rc;
    MPI_Aint lo = 0, hi = 0, blo, bhi;
    int any = 0;
    for (int i = 0; i < a->size; i++) {
        if (i == a->rank || pc_nbc_empty(pc_nbc_rcount(a, i), pc_nbc_rtype(a, i))) continue;
        rblock_span(a, i, &blo, &bhi);
        if (!any || blo < lo) lo = blo;
        if (!any || bhi > hi) hi = bhi;
        any = 1;
    }
    char *copy = pc_nbc_alloc(s, hi - lo, MPI_BYTE);
    if (!copy) return s->rc;
    copy -= lo; /* addressed like the receive buffer */
    for (int i = 0; i < a->size; i++)
        if (i != a->rank && !pc_nbc_empty(pc_nbc_rcount(a, i), pc_nbc_rtype(a, i)))
            pc_nbc_copy(s, pc_nbc_rblock(a, a->recvbuf, i), pc_nbc_rblock(a, copy, i), pc_nbc_rcount(a, i),
                        pc_nbc_rtype(a, i));
    src->sendbuf = copy;
    src->sendcount = a->recvcount;
    src->sendtype = a->recvtype;
    src->sendcounts = a->recvcounts;
    src->sdispls = a->rdispls;
    src->sendtypes = a->recvtypes;
    return s->rc;
}

int pc_nbc_alltoall_exchanges(pc_nbc_sched_t *s, const pc_nbc_args_t *a, int round_each)
{
    int p = a->size, r = a->rank;
    pc_nbc_args_t b;
    if (pc_nbc_alltoall_source(s, a, &b) != MPI_SUCCESS) return s->rc;
    pc_nbc_own_block(s, a, r, r); /* nothing with MPI_IN_PLACE */
    for (int k = 1; k < p; k++) {
        int src = (r - k + p) % p, dst = (r + k) % p;
        pc_nbc_recv_data(s, pc_nbc_rblock(&b, b.recvbuf, src), pc_nbc_rcount(&b, src), pc_nbc_rtype(&b, src), src);
        pc_nbc_send_data(s, pc_nbc_sblock(&b, b.sendbuf, dst), pc_nbc_scount(&b, dst), pc_nbc_stype(&b, dst), dst);
        if (round_each) pc_nbc_round(s);
    }
    pc_nbc_round(s);
    return s->rc;
}

long *pc_nbc_block_starts(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    long *first = malloc((size_t)(a->size + 1) * sizeof *first);
    if (!first) {
        s->rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    first[0] = 0;
    for (int i = 0; i < a->size; i++) first[i + 1] = first[i] + pc_nbc_rcount(a, i);
    return first;
}
