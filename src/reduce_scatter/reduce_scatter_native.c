/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * native - the MPI library's own MPI_Reduce_scatter /
 * MPI_Reduce_scatter_block (PMPI_*) on papcoll's private communicator: the
 * baseline every other reduce_scatter is measured against, and what the
 * rules pick where the library does best.
 * Cost and late arrival: those of the library's algorithm.
 * MPICH 4.0.2's MPI_Reduce_scatter aborts with MPI_IN_PLACE and unequal
 * counts once the message is long ("memcpy argument memory ranges overlap"
 * in its datatype engine; 3 processes, MPI_SHORT, counts {1, 131073,
 * 262147}; {0, 40000, 80000} passes): built against MPICH, an in-place call
 * of the v form passes a copy of its input instead.  And MPICH 4.0.2's
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter combine a non-commutative
 * user op on a datatype with gaps wrongly, then corrupt memory (3
 * processes, a 2x2 matrix product on a type with gaps): built against MPICH,
 * a non-commutative op runs reduce_scatterv, papcoll's rank-order algorithm,
 * since adaptive selection runs `native` for a call site's first calls.
 */
#include "reduce_scatter/reduce_scatter.h"

#include <stdlib.h>

int pc_reduce_scatter_native(const pc_call_t *a)
{
#if defined(MPICH_VERSION) && !defined(PAPCOLL_SMPI)
    if (!a->commutative) return pc_reduce_scatter_reduce_scatterv(a);
    if (a->inplace && a->vform) {
        void *base, *copy = pc_red_alloc(a, a->count, &base);
        int rc = copy ? pc_red_copy(a, copy, a->recvbuf, a->count) : MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS) rc = pc_reduce_scatter_library(a, copy, a->ctx->comm);
        free(base);
        return rc;
    }
#endif
    return pc_reduce_scatter_library(a, a->inplace ? MPI_IN_PLACE : a->sendbuf, a->ctx->comm);
}
