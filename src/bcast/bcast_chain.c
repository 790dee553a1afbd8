/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * chain - whole message passed along a ring: root -> root+1 -> ... -> root-1.
 *
 *   root -> 1 -> 2 -> ... -> p-1
 *
 * Cost: (p-1) (alpha + beta m): no pipelining.
 * Late arrival: a late process delays everyone after it in the chain.
 * Source: the SMPI bcast exercise "ring" (MODE 2).
 */
#include "bcast/bcast.h"

int pc_bcast_chain(const pc_call_t *a) { return pc_bcast_tree(a, PC_TREE_CHAIN, 0, 0); }
