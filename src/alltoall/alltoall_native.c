/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * native - the MPI library's own MPI_Alltoall / MPI_Alltoallv / MPI_Alltoallw (PMPI_*) on papcoll's
 * private communicator, with the caller's arguments: the baseline every
 * other alltoall is measured against, and what the rules pick where the library
 * does best.
 * One adjustment: MPICH 4.0.2 rejects sendbuf == recvbuf with
 * MPI_ERR_BUFFER even when this process sends nothing (alltoallv/w with zero
 * send counts, NULL buffers); the front has already refused real aliasing
 * (bytes to send from the receive buffer), so then the library gets a
 * distinct empty send buffer, which it never reads (alltoallw: only when
 * this process sends no bytes; MPI_BOTTOM may be both buffers).
 * Cost and late arrival: those of the library's algorithm.
 */
#include "alltoall/alltoall.h"

/* The front refused aliased buffers with bytes to send, except in the w
 * form: there sendbuf == recvbuf == MPI_BOTTOM is valid (datatypes of
 * absolute addresses), and the buffer must stay. */
static int sends_nothing(const pc_call_t *a)
{
    for (int i = 0; a->wform && i < a->ctx->size; i++) {
        int size;
        PMPI_Type_size(a->sendtypes[i], &size);
        if (a->sendcounts[i] && size) return 0;
    }
    return 1;
}

int pc_alltoall_native(const pc_call_t *a)
{
    static const char nothing_to_send;
    if (a->sendbuf == a->recvbuf && a->sendbuf != MPI_IN_PLACE && sends_nothing(a)) {
        pc_call_t call = *a;
        call.sendbuf = &nothing_to_send;
        return a->coll->library(&call, a->ctx->comm);
    }
    return a->coll->library(a, a->ctx->comm);
}
