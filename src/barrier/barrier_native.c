/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * native - the MPI library's own MPI_Barrier (PMPI_Barrier) on papcoll's
 * private communicator: the baseline every other barrier is measured
 * against, and what the rules pick on one node, where both Open MPI and
 * MPICH synchronize through shared memory.
 *
 *   P0 P1 ... Pp-1 --> PMPI_Barrier(private duplicate) --> all leave
 *
 * Cost and late arrival: those of the library's algorithm (Open MPI tuned
 * and MPICH: a dissemination or recursive-doubling barrier across nodes,
 * about ceil(log2 p) alpha after the last arrival).
 * Source: the MPI standard's MPI_Barrier.
 */
#include "barrier/barrier.h"

int pc_barrier_native(const pc_call_t *a) { return PMPI_Barrier(a->ctx->comm); }
