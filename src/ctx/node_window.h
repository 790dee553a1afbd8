/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_window.h - one shared-memory area per node, as one MPI window.
 *
 * Every node-level structure of papcoll (the node segment, its area, the
 * exchange area, the inbox, the shared broadcast result) is one contiguous
 * block of `bytes` that all processes of a node address directly.  They are
 * allocated here, in one way:
 *
 * every process of the node asks MPI_Win_allocate_shared for an equal share
 * (bytes / node size, rounded up to a cache line), and the block starts at
 * rank 0's share.  MPI guarantees the shares are contiguous unless the info
 * key alloc_shared_noncontig is given (MPI 4.0, 12.2.3), so the block is the
 * whole allocation.  Asking for it all on rank 0 would be simpler, but
 * SimGrid SMPI (3.32) allocates rank 0's size times the node size on rank 0:
 * a 16 MiB area on a 32-process simulated node would take 512 MiB, which ran
 * 256-byte alltoalls at 512 ranks and everything at 1024 ranks out of memory.
 */
#ifndef PC_NODE_WINDOW_H
#define PC_NODE_WINDOW_H

#include <mpi.h>
#include <stddef.h>

/* Collective over `node` (every process passes the same bytes).  *base: the
 * block's first byte on every process; the block is not zeroed.  MPI error
 * code on failure (then *win is MPI_WIN_NULL). */
int pc_node_window_allocate(MPI_Comm node, size_t bytes, char **base, MPI_Win *win);

#endif
