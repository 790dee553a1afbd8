/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_window.h - one shared-memory block per node.
 *
 * Every node-level structure of papcoll (the node segment, its area, the
 * exchange area, the inbox, the shared broadcast result, under SMPI the
 * alltoall's wake-up lines) is one contiguous block of `bytes` that all
 * processes of a node address directly.  They are allocated here, in one
 * of two ways (the inbox always the second: inbox.c says why):
 *
 * POSIX shared memory (native builds, PAPCOLL_SHM_BACKEND=posix, the
 * default): node rank 0 creates an object (shm_open, O_EXCL, a name of its
 * pid and a counter, below), sizes it if /dev/shm has the room (its pages
 * come at first touch, as an MPI window's) and maps it; the name goes
 * to the node by MPI_Bcast, every other process maps it, the node agrees
 * (MPI_Allreduce) and rank 0 unlinks the name, so nothing outlives the
 * processes.  No communicator is created: Open MPI 4.1 serves one
 * communicator creation at a time per process, lowest parent first, and a
 * window made at a call's first use while other threads create their own
 * communicators could deadlock (MPI_Win_allocate_shared duplicates the node
 * communicator).  The MPI libraries' own shared-memory transports get their
 * segments the same way (a named object, its name passed to the node).  If
 * any process of the node fails, the node takes the MPI window below,
 * together.
 *
 * An MPI window (SimGrid SMPI, whose processes are threads of one process;
 * PAPCOLL_SHM_BACKEND=mpi; the fallback): every process of the node asks
 * MPI_Win_allocate_shared for an equal share (bytes / node size, rounded up
 * to a cache line), and the block starts at rank 0's share.  MPI guarantees
 * the shares are contiguous unless the info key alloc_shared_noncontig is
 * given (MPI 4.0, 12.2.3), so the block is the whole allocation.  Asking
 * for it all on rank 0 would be simpler, but SMPI 3.32 allocates rank 0's
 * size times the node size on rank 0: a 16 MiB area on a 32-process
 * simulated node would take 512 MiB, which ran 256-byte alltoalls at 512
 * ranks and everything at 1024 ranks out of memory.
 */
#ifndef PC_NODE_WINDOW_H
#define PC_NODE_WINDOW_H

#include <mpi.h>
#include <stddef.h>

/* The POSIX object's name: its creator's pid and a counter of the process;
 * a name taken (by an object a killed process left) is skipped, up to
 * PC_NODE_WINDOW_CREATE_TRIES names per block. */
#define PC_NODE_WINDOW_NAME_FORMAT "/papcoll.%ld.%llu"
#define PC_NODE_WINDOW_CREATE_TRIES 16

typedef struct pc_node_window {
    char *base;    /* the block's first byte in this process; NULL: none (a zeroed struct is none) */
    size_t mapped; /* bytes mapped from POSIX shared memory, 0 for an MPI window */
    MPI_Win win;   /* the MPI window, when the block is one */
} pc_node_window_t;

/* Collective over `node` (every process passes the same bytes): w->base is
 * the block's first byte on every process; the block is not zeroed.  MPI
 * error code on failure (then w->base is NULL). */
int pc_node_window_allocate(MPI_Comm node, size_t bytes, pc_node_window_t *w);

/* The same, always as an MPI window (the inbox, ctx/inbox.c, says why). */
int pc_node_window_allocate_mpi(MPI_Comm node, size_t bytes, pc_node_window_t *w);

/* Releases w (nothing if none).  Every node process frees its blocks in the
 * same order: an MPI window's free is collective over the node. */
void pc_node_window_free(pc_node_window_t *w);

#endif
