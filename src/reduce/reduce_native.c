/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * native - the MPI library's own MPI_Reduce (PMPI_Reduce) on papcoll's
 * private communicator: the baseline every other reduce is measured against,
 * and what the rules pick where the library does best.
 * Cost and late arrival: those of the library's algorithm (Open MPI tuned /
 * han, MPICH's binomial or Rabenseifner, SMPI's selector under SimGrid).
 * MPICH 4.0.2's MPI_Reduce crashes with MPI_IN_PLACE at a root other than 0
 * from 257 doubles on (pmodels/mpich#6540): built against MPICH, an in-place
 * root passes a copy of its contribution instead.
 */
#include "reduce/reduce.h"

#include <stdlib.h>

int pc_reduce_native(const pc_call_t *a)
{
    int at_root = a->ctx->rank == a->root;
#if defined(MPICH_VERSION) && !defined(PAPCOLL_SMPI)
    if (a->inplace && at_root && a->root != 0) {
        void *base, *copy = pc_red_alloc(a, a->count, &base);
        int rc = copy ? pc_red_copy(a, copy, a->recvbuf, a->count) : MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS)
            rc = PMPI_Reduce(copy, a->recvbuf, a->count, a->datatype, a->op, a->root, a->ctx->comm);
        free(base);
        return rc;
    }
#endif
    return PMPI_Reduce(a->inplace && at_root ? MPI_IN_PLACE : a->sendbuf, a->recvbuf, a->count, a->datatype, a->op,
                       a->root, a->ctx->comm);
}
