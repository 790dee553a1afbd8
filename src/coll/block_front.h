/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block_front.h - the front of the block collectives (allgather, alltoall,
 * gather, scatter and their v forms): the MPI argument checks, with the
 * error classes the MPI libraries give, the MPI library on an
 * intercommunicator, then the one entry path (coll/entry.h) with the block
 * view (coll/block_view.h).
 */
#ifndef PC_COLL_BLOCK_FRONT_H
#define PC_COLL_BLOCK_FRONT_H

#include "coll/block_view.h"

/* a: coll, root and the caller's arguments (sendbuf ... displs; MPI_IN_PLACE
 * as the caller gave it).  forced: algorithm name or "auto"; source: where
 * the name came from (logs).  Returns MPI_SUCCESS or an error class, after
 * calling the error handler. */
int pc_blocks_enter(pc_call_t *a, MPI_Comm comm, const char *forced, const char *source);

/* MPI's argument checks of a block collective's call a (coll, root and the
 * caller's arguments, as for pc_blocks_enter) on the intracommunicator
 * comm: MPI_SUCCESS or the error class (the nonblocking fronts, src/nbc). */
int pc_blocks_check(const pc_call_t *a, MPI_Comm comm);

#endif
