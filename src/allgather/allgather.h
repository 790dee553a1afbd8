/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allgather.h - what allgather algorithms share.  Every algorithm is
 * pc_allgather_<name>(const pc_call_t *a) (generated prototypes, from
 * algorithms.list).  MPI_Allgather and MPI_Allgatherv are both this
 * collective: the algorithms see the block view (coll/block_view.h: process
 * i's block is bytes [offset[i], offset[i + 1]) of a->rblocks.base, mine
 * already in place) and must fill every other block; blocks may differ in
 * size (the v form), and may be empty.
 */
#ifndef PC_ALLGATHER_H
#define PC_ALLGATHER_H

#include "coll/block_view.h"
#include "core/p2p.h"

#include "allgather_algorithms.h" /* generated from algorithms.list: pc_allgather_<name>() */

/* Sends blocks [sfirst, slast] of a->rblocks to dst while receiving blocks
 * [rfirst, rlast] from src (empty when last < first; MPI_PROC_NULL allowed). */
static inline int pc_allgather_exchange(const pc_call_t *a, int sfirst, int slast, int dst, int rfirst, int rlast,
                                        int src, int tag)
{
    return pc_blocks_sendrecv(a, &a->rblocks, sfirst, slast, dst, &a->rblocks, rfirst, rlast, src, tag);
}

/* Runs allgather algorithm `name` (or "auto") over comm on the block view
 * blocks/offset (offset[size + 1] for comm's size; my block in place),
 * for algorithms that run another one among other processes (hier). */
int pc_allgather_on(const pc_call_t *a, const char *name, char *blocks, const size_t *offset, MPI_Comm comm);

#endif
