/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gather.h - what gather algorithms share.  Every algorithm is
 * pc_gather_<name>(const pc_call_t *a) (generated prototypes, from
 * algorithms.list).  MPI_Gather and MPI_Gatherv are both this collective:
 * every process contributes one block; the root receives everyone's.  The algorithms see the block view
 * (coll/block_view.h: a->sblocks, a->rblocks; blocks may differ in size in
 * the v form, and may be empty; my own data already in place).
 */
#ifndef PC_GATHER_H
#define PC_GATHER_H

#include "coll/block_view.h"
#include "core/p2p.h"

#include "gather_algorithms.h" /* generated from algorithms.list: pc_gather_<name>() */

/* Runs gather algorithm `name` (or "auto") over comm, rooted at `root` of
 * comm, on bytes, always in the v form (for algorithms that run another one
 * among other processes: hier).  At the root blocks/offset is the block
 * view of every process of comm (offset[size + 1], its own block in place);
 * elsewhere blocks/offset[0..1] is the process's one block.  Byte counts and
 * displacements must fit an int (native gets them as MPI_Gatherv's). */
int pc_gather_on(const pc_call_t *a, const char *name, char *blocks, const size_t *offset, int root, MPI_Comm comm);

#endif
