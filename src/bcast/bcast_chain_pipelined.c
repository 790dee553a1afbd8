/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * chain_pipelined - the message cut into k segments flows down the chain;
 * each process receives segment s (MPI_Recv) then sends it on (MPI_Send).
 *
 *   root =s3=> 1 =s2=> 2 =s1=> 3 =s0=> ...
 *
 * Cost: (p - 2 + k) (alpha + beta m / k), optimal k = sqrt(m (p-2) beta / alpha)
 * (the default; PAPCOLL_BCAST_CHUNKS / PAPCOLL_BCAST_SEGSIZE override).
 * Late arrival: a late process stalls the pipeline behind it; the root and
 * processes before it can leave only once their last send is matched.  Patarasuk & Yuan 2008
 * (Theorem 3) shows the pipelined chain is not competitive under
 * imbalance, yet best for large messages when everyone arrives together.
 * Source: the SMPI bcast exercise MODE 3 ("pipelined ring with Send"); Patarasuk & Yuan 2008 §3.
 */
#include "bcast/bcast.h"

int pc_bcast_chain_pipelined(const pc_call_t *a) { return pc_bcast_tree(a, PC_TREE_CHAIN, 1, 0); }
