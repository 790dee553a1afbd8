/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * linear - the root sends the whole message to every process in turn.
 *
 *      root
 *    / | ... \        blocking MPI_Send to root+1, root+2, ..., root-1
 *   1  2 ...  p-1
 *
 * Cost: (p-1) (alpha + beta m).
 * Late arrival: a late process blocks the root (rendezvous sends) and so
 * every process after it in the send order; a process served early leaves
 * immediately.  Patarasuk & Yuan 2008 shows flat trees competitive for small messages
 * under imbalance (it is the base of arrival_b).
 * Source: the SMPI bcast exercise "naive" (MODE 1); Patarasuk & Yuan 2008 §3 (flat tree).
 */
#include "bcast/bcast.h"

int pc_bcast_linear(const pc_call_t *a) { return pc_bcast_tree(a, PC_TREE_FLAT, 0, 0); }
