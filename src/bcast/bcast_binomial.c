/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * binomial - whole message down a binomial tree (relative rank r receives
 * from r minus its lowest set bit and sends to r + 2^j, largest first).
 *
 *   0 -> 4, 2, 1;  4 -> 6, 5;  2 -> 3;  6 -> 7
 *
 * Cost: ceil(log2 p) (alpha + beta m).
 * Late arrival: every non-leaf that arrives late delays its whole subtree;
 * Patarasuk & Yuan 2008 Theorem 2 makes the root's children late to show the binomial
 * tree's competitive ratio grows as log p.
 * Source: Patarasuk & Yuan 2008 §3; MPICH/Open MPI binomial.
 */
#include "bcast/bcast.h"

int pc_bcast_binomial(const pc_call_t *a) { return pc_bcast_tree(a, PC_TREE_BINOMIAL, 0, 1); }
