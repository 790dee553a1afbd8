/*
 * native - the MPI library's own MPI_Reduce (PMPI_Reduce) on papcoll's
 * private communicator: the baseline every other reduce is measured against,
 * and what the rules pick where the library does best.
 * Cost and late arrival: those of the library's algorithm (Open MPI tuned /
 * han, MPICH's binomial or Rabenseifner, SMPI's selector under SimGrid).
 */
#include "reduce/reduce.h"

int pc_reduce_native(const pc_call_t *a)
{
    int at_root = a->ctx->rank == a->root;
    return PMPI_Reduce(a->inplace && at_root ? MPI_IN_PLACE : a->sendbuf, a->recvbuf, a->count, a->datatype, a->op,
                       a->root, a->ctx->comm);
}
