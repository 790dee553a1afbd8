/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ialltoall_pairwise - MPI_Ialltoall, MPI_Ialltoallv and MPI_Ialltoallw as a schedule of
 * the pairwise exchange: my own block copied locally, then in round
 * k = 1 .. p - 1 every process sends its block for rank + k and receives
 * the block of rank - k, one round after the other; empty blocks are not
 * sent.  MPI_IN_PLACE: the blocks to send are copied out of the receive
 * buffer first.
 *
 *   p = 4, round 1: 0->1 1->2 2->3 3->0   round 2: 0->2 1->3 2->0 3->1 ...
 *
 * Cost (Hockney, m = the bytes a process sends): (p - 1) (alpha + (m/p)
 * beta), one message sent and one received in flight per process: no
 * contention at any receiver, the large-message choice.
 * Late arrival: round k waits for rank - k's message, which that process
 * sends in its own round k: a late process holds up each other process's
 * rounds at the one that involves it, then they resume; after the last
 * arrival up to p - 1 rounds remain.
 * Limitations: none (v and w forms, MPI_IN_PLACE, derived datatypes;
 * the w form's per-peer datatypes and byte displacements: block_args.h).  Memory: with
 * MPI_IN_PLACE, a copy of the receive buffer.
 * Source: the pairwise exchange of MPICH (Thakur et al. 2005); as a
 * schedule: Hoefler et al. 2007 (libNBC's ialltoall pairwise).
 */
#include "nbc/block_args.h"

int pc_ialltoall_pairwise(pc_nbc_sched_t *s, const pc_nbc_args_t *a) { return pc_nbc_alltoall_exchanges(s, a, 1); }
