/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scatter_ring_allgather - binomial scatter of p blocks, then a ring
 * allgather: in step i every process passes block (r - i) to r + 1.
 *
 *   scatter:  0 -> {4..7} to 4, {2,3} to 2, {1} to 1, ...
 *   ring:     r -> r+1 (p-1 steps, one block each)
 *
 * Cost: (ceil(log2 p) + p - 1) alpha + 2 ((p-1)/p) m beta: bandwidth-optimal,
 * latency linear in p; the large-message choice of MPICH and Open MPI.
 * Late arrival: every process takes part in every ring step, so one late
 * process holds up everyone (Patarasuk & Yuan 2008: not competitive under imbalance).
 * Source: Patarasuk & Yuan 2008 §3 (scatter-allgather); MPICH
 * bcast_intra_scatter_ring_allgather; the CP paper's RingAAS.
 */
#include "bcast/bcast.h"
#include "core/p2p.h"

int pc_bcast_scatter_ring_allgather(const pc_call_t *a)
{
    pc_bcast_group_t g = pc_bcast_whole(a);
    int rc = pc_bcast_scatter(a, &g);
    return rc == MPI_SUCCESS ? pc_bcast_ring_allgather(a, &g) : rc;
}
