/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ialltoall_linear - MPI_Ialltoall, MPI_Ialltoallv and MPI_Ialltoallw as a one-round
 * schedule: every receive and every send posted at once (peers in the order
 * rank + 1, rank + 2, ... so that not everyone sends to the same process
 * first), my own block copied locally; empty blocks are not sent.
 * MPI_IN_PLACE: the blocks to send are copied out of the receive buffer
 * first.
 *
 *   p = 3, rank 0: recv from 2, 1; send to 1, 2 (all posted in the call)
 *
 * Cost (Hockney, m = the bytes a process sends): (p - 1) alpha + m beta,
 * with 2 (p - 1) messages in flight per process (the network's contention
 * is the MPI library's to handle).
 * Late arrival: the best there is: every exchange between two processes is
 * independent of the others, so a late process delays only the messages to
 * and from it; the others complete inside the early processes' completion
 * calls while they compute.
 * Limitations: none (v and w forms, MPI_IN_PLACE, derived datatypes;
 * the w form's per-peer datatypes and byte displacements: block_args.h).  Memory:
 * with MPI_IN_PLACE, a copy of the receive buffer.
 * Source: the linear all-to-all of libNBC (Hoefler et al. 2007) and MPICH's
 * isend-irecv alltoall (Thakur et al. 2005).
 */
#include "nbc/block_args.h"

int pc_ialltoall_linear(pc_nbc_sched_t *s, const pc_nbc_args_t *a) { return pc_nbc_alltoall_exchanges(s, a, 0); }
