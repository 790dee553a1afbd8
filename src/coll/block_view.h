/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * block_view.h - the block view of the block collectives (allgather,
 * alltoall, gather, scatter and their v forms): one block of bytes per
 * process on each side that has one.
 *
 * The entry path (pc_blocks_run) gives such a collective's algorithm
 * a->rblocks (receive side) and a->sblocks (send side): block i is bytes
 * [offset[i], offset[i + 1]) of base, in rank order with no gaps.  When the
 * caller's buffer already has that layout (a datatype without gaps and, in
 * the v forms, displacements that follow the counts) base IS the caller's
 * buffer; otherwise it is a packed copy (the send side packed before the
 * algorithm, the receive side unpacked after it).  So any range of
 * consecutive ranks' blocks is one contiguous byte range, and algorithms
 * move plain bytes.  My own data is already in place:
 *   allgather   my contribution is block `rank` of rblocks;
 *   alltoall    block `rank` of sblocks is already block `rank` of rblocks;
 *   gather      at the root, the root's contribution is block `root` of
 *               rblocks; elsewhere sblocks is my one block;
 *   scatter     at the root, block `root` of sblocks is already in the
 *               root's rblocks (one block); elsewhere rblocks is my one block.
 * Algorithms flagged PC_WANTS_DATATYPE (native) get the caller's arguments
 * (sendbuf, sendcount(s), sdispls, sendtype, recvbuf, recvcount(s),
 * displs, recvtype) untouched instead, and no copies are made for them.
 */
#ifndef PC_COLL_BLOCK_VIEW_H
#define PC_COLL_BLOCK_VIEW_H

#include "coll/call.h"

/* Which processes hold one block per process on a side. */
typedef enum {
    PC_SIDE_ONE,       /* one block: my own data */
    PC_SIDE_ALL,       /* one block per process, on every process */
    PC_SIDE_ROOT_ALL   /* one block per process at the root, one block elsewhere (gather's receive side: none) */
} pc_side_t;

typedef struct pc_block_shape {
    pc_side_t send, recv;
} pc_block_shape_t;

/* Which sides of a block collective's call a this process uses (MPI reads
 * only those), from the collective's shape and whether this process is the
 * root. */
typedef struct pc_block_sides {
    int at_root;                       /* a rooted collective's root */
    int sends, receives;               /* the side is significant here */
    int send_all, recv_all;            /* ... and has one block per process */
    int send_in_place, recv_in_place;  /* ... and is MPI_IN_PLACE */
} pc_block_sides_t;
pc_block_sides_t pc_blocks_sides(const pc_call_t *a, int rank);

/* Fills a->bytes, the same on every process (selection and the count-0
 * shortcut use it): the bytes all blocks of the collective add up to, or
 * PC_BYTES_VARY in the v forms whose processes do not all know the counts
 * (alltoallv, gatherv, scatterv). */
void pc_blocks_describe(pc_call_t *a);
/* The bytes this process sends plus receives in the call (an MPI_IN_PLACE
 * side counts nothing): what the debug line shows where a->bytes is
 * PC_BYTES_VARY. */
size_t pc_blocks_own_bytes(const pc_call_t *a);
/* Builds the block view, runs algo, unpacks (the entry path). */
int pc_blocks_run(const pc_algorithm_t *algo, pc_call_t *a);
/* pc_coll_t.single of the block collectives: the view's own-data placement
 * is the whole call on one process. */
int pc_blocks_single(const pc_call_t *a);

/* Bytes of blocks [first, last] (an empty range when last < first). */
static inline size_t pc_blocks_span(const pc_blocks_t *b, int first, int last)
{
    return last < first ? 0 : b->offset[last + 1] - b->offset[first];
}
static inline char *pc_blocks_at(const pc_blocks_t *b, int i) { return b->base + b->offset[i]; }

/* Node order (the hierarchical algorithms): node 0's processes' blocks in
 * rank order, then node 1's, ...: each node's blocks are one contiguous
 * range, node k's starting at node_offset[k] (nnodes + 1 entries). */
void pc_blocks_node_offsets(const pc_call_t *a, const pc_blocks_t *b, size_t *node_offset);
/* Copies every block of b into dst, in node order. */
void pc_blocks_to_node_order(const pc_call_t *a, const pc_blocks_t *b, char *dst);

/* Sends blocks [sfirst, slast] of `from` to dst and receives blocks
 * [rfirst, rlast] of `into` from src (dst/src may be MPI_PROC_NULL). */
int pc_blocks_sendrecv(const pc_call_t *a, const pc_blocks_t *from, int sfirst, int slast, int dst,
                       const pc_blocks_t *into, int rfirst, int rlast, int src, int tag);

#endif
