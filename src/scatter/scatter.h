/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scatter.h - what scatter algorithms share.  Every algorithm is
 * pc_scatter_<name>(const pc_call_t *a) (generated prototypes, from
 * algorithms.list).  MPI_Scatter and MPI_Scatterv are both this collective:
 * the root holds one block per process; every process receives its own.  The algorithms see the block view
 * (coll/block_view.h: a->sblocks, a->rblocks; blocks may differ in size in
 * the v form, and may be empty; my own data already in place).
 */
#ifndef PC_SCATTER_H
#define PC_SCATTER_H

#include "coll/block_view.h"
#include "core/p2p.h"

#include "scatter_algorithms.h" /* generated from algorithms.list: pc_scatter_<name>() */

/* Runs scatter algorithm `name` (or "auto") over comm, rooted at `root` of
 * comm, on bytes, always in the v form (for algorithms that run another one
 * among other processes: hier).  At the root blocks/offset is the block
 * view of every process of comm (offset[size + 1]; the root keeps its own
 * block where it is: MPI_IN_PLACE); elsewhere blocks/offset[0..1] is where
 * the process's one block goes.  Byte counts and displacements must fit an
 * int (native gets them as MPI_Scatterv's). */
int pc_scatter_on(const pc_call_t *a, const char *name, char *blocks, const size_t *offset, int root, MPI_Comm comm);

/* Posts a send of bytes to dst: nonblocking into req[*n] when it fits one
 * message, else blocking (pc_send cuts it). */
static inline int pc_scatter_post(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm, MPI_Request *req,
                                  int *n)
{
    if (bytes > PC_MAX_MSG) return pc_send(buf, bytes, dst, tag, comm);
    return pc_isend(buf, bytes, dst, tag, comm, &req[(*n)++]);
}

#endif
