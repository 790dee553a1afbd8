/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * native - the MPI library's own MPI_Scatter / MPI_Scatterv (PMPI_*) on papcoll's
 * private communicator, with the caller's arguments: the baseline every
 * other scatter is measured against, and what the rules pick where the library
 * does best.
 * Cost and late arrival: those of the library's algorithm.
 */
#include "scatter/scatter.h"

int pc_scatter_native(const pc_call_t *a) { return a->coll->library(a, a->ctx->comm); }
