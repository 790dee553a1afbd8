/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * native - the MPI library's own MPI_Allreduce (PMPI_Allreduce) on papcoll's
 * private communicator: the baseline every other allreduce is measured
 * against, and what the rules pick where the library does best.
 * Cost and late arrival: those of the library's algorithm.
 */
#include "allreduce/allreduce.h"

int pc_allreduce_native(const pc_call_t *a)
{
    return PMPI_Allreduce(a->inplace ? MPI_IN_PLACE : a->sendbuf, a->recvbuf, a->count, a->datatype, a->op,
                          a->ctx->comm);
}
