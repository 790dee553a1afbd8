/*
 * native - the MPI library's own MPI_Reduce_scatter /
 * MPI_Reduce_scatter_block (PMPI_*) on papcoll's private communicator: the
 * baseline every other reduce_scatter is measured against, and what the
 * rules pick where the library does best.
 * Cost and late arrival: those of the library's algorithm.
 */
#include "reduce_scatter/reduce_scatter.h"

int pc_reduce_scatter_native(const pc_call_t *a)
{
    return pc_reduce_scatter_library(a, a->inplace ? MPI_IN_PLACE : a->sendbuf, a->ctx->comm);
}
