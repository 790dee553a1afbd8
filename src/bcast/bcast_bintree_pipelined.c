/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bintree_pipelined - segmented broadcast down a binary tree (r -> 2r+1,
 * 2r+2), receives posted ahead, MPI_Isend to both children, at most
 * PAPCOLL_MAX_INFLIGHT segments outstanding per child.
 *
 *        0
 *      /   \        segment s leaves 0 while s-1 moves 1->3,4 and 2->5,6
 *     1     2
 *    / \   / \
 *   3   4 5   6
 *
 * Cost: (floor(log2 p) + k - 1) * 2 (alpha + beta m / k); k from the model
 * with the tree height as pipeline depth.
 * Late arrival: a late inner process stalls its subtree's pipeline.
 * Source: the SMPI bcast exercise MODE 5 ("pipelined binary tree with Isend").
 */
#include "bcast/bcast.h"

int pc_bcast_bintree_pipelined(const pc_call_t *a) { return pc_bcast_tree(a, PC_TREE_BINARY, 1, 1); }
