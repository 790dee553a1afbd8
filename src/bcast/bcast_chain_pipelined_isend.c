/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * chain_pipelined_isend - pipelined chain with receives posted ahead and
 * MPI_Isend forwarding, at most PAPCOLL_MAX_INFLIGHT segments outstanding.
 *
 *   root =s3,s2=> 1 =s2,s1=> 2 =s1,s0=> ...   (several segments in flight per link)
 *
 * Cost: (p - 2 + k) (alpha + beta m / k) with send overheads overlapped;
 * segment count from the same model as chain_pipelined.
 * Late arrival: as chain_pipelined, but a sender runs ahead of a late
 * successor by up to PAPCOLL_MAX_INFLIGHT segments.
 * Source: the SMPI bcast exercise MODE 4 ("pipelined ring with Isend").
 */
#include "bcast/bcast.h"

int pc_bcast_chain_pipelined_isend(const pc_call_t *a) { return pc_bcast_tree(a, PC_TREE_CHAIN, 1, 1); }
