/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * native - the MPI library's own MPI_Bcast (PMPI_Bcast), the baseline.
 *
 * Idea: hand the call, datatype and all, to the underlying MPI (Open MPI's
 * tuned/han, MPICH's selection, or SMPI's --cfg=smpi/bcast algorithm) on
 * papcoll's private duplicate of the communicator.
 * Cost and late-arrival behaviour: those of the library's choice.
 * Source: none (the baseline of every source paper).
 */
#include "bcast/bcast.h"

int pc_bcast_native(const pc_call_t *a)
{
    return PMPI_Bcast(a->user_buf, a->count, a->datatype, a->root, a->ctx->comm);
}
