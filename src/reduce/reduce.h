/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce.h - what reduce algorithms share.  Every algorithm is
 * pc_reduce_<name>(const pc_call_t *a) (generated prototypes, from
 * algorithms.list): a->sendbuf holds my contribution (== a->recvbuf at a root
 * that passed MPI_IN_PLACE), the root's a->recvbuf receives the result.
 * Buffers, local combination in rank order and element blocks:
 * coll/reduction.h.
 */
#ifndef PC_REDUCE_H
#define PC_REDUCE_H

#include "coll/reduction.h"
#include "core/p2p.h"
#include "sched/blocks.h"
#include "sched/tree.h"

#include "reduce_algorithms.h" /* generated from algorithms.list: pc_reduce_<name>() */

/* Runs reduce algorithm `name` (or "auto") with a's datatype and op over
 * another communicator (hier: among node leaders): sendbuf -> recvbuf at
 * root.  Does not touch papcoll_last_algorithm. */
static inline int pc_reduce_on(const pc_call_t *a, const char *name, const void *sendbuf, void *recvbuf, int root,
                               MPI_Comm comm)
{
    return pc_red_call_on(a, name, sendbuf, recvbuf, root, comm);
}

/* Elements per segment of the segmented tree reductions (binomial,
 * clairvoyant) from PAPCOLL_REDUCE_SEGSIZE (bytes; 0: whole message). */
static inline long pc_reduce_segment_count(const pc_call_t *a)
{
    size_t type_size = a->count > 0 ? a->bytes / (size_t)a->count : 0;
    if (a->params->reduce.segsize == 0 || type_size == 0) return 0;
    size_t n = a->params->reduce.segsize / type_size;
    return n > 0 ? (long)n : 1;
}

/* The dynamic-leader reduce (reduce_dynleader.c) up a tree of nodes of
 * shape node_tree (PC_TREE_BINOMIAL: dynleader; PC_TREE_FLAT:
 * dynleader_flat); name is the algorithm's, for its log messages. */
int pc_reduce_dynleader_tree(const pc_call_t *a, pc_tree_shape_t node_tree, const char *name);

/* hier_nobarrier's node step (combine on arrival into the node's shared
 * accumulator, reduce_hier_nobarrier.c) with reduce algorithm `inter` among
 * the fixed node leaders; name is the algorithm's, for its log messages. */
int pc_reduce_hier_nobarrier_inter(const pc_call_t *a, const char *inter, const char *name);

/* The star of my node (reduce_two_level.c): a member's parent is `leader`;
 * the leader's parent is -1 and its children are the node's other members
 * in rank order, with room for extra_children more (the caller appends
 * them).  -1 when out of memory; pc_tree_free releases it. */
int pc_reduce_node_star(pc_tree_t *t, const pc_comm_t *c, int leader, int extra_children);

/* Part j of a's message cut into nparts parts (sched/blocks.h's cut):
 * elements [*first, *first + *n).  The scatter-gather reduces'
 * (dynleader_scatter_gather: a part per node; two_level_scatter_gather: a
 * part per owner node). */
static inline void pc_reduce_part(const pc_call_t *a, int nparts, int j, long *first, long *n)
{
    *first = (long)pc_block_offset((size_t)a->count, nparts, j);
    *n = (long)pc_blocks_len((size_t)a->count, nparts, j, 1);
}

/* clairvoyant (reduce_clairvoyant.c): the prediction in use on comm for
 * `root` after this process's last call there: its late ranks (up to max,
 * latest first) into late, their number returned (0: binomial tree; -1:
 * comm unusable); *plans (may be NULL) = predictions naming a rank adopted
 * so far.  For tests. */
int pc_reduce_clairvoyant_plan(MPI_Comm comm, int root, int *late, int max, unsigned long *plans);

#endif
