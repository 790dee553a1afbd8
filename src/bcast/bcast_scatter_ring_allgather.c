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
 * process holds up everyone (seed 002: not competitive under imbalance).
 * Source: seed 002 section 3 (scatter-allgather); MPICH
 * bcast_intra_scatter_ring_allgather; seed 000's RingAAS.
 */
#include "bcast.h"
#include "../p2p.h"

int pc_bcast_scatter_ring_allgather(const pc_bcast_args_t *a)
{
    int p = a->ctx->size, rel = (a->ctx->rank - a->root + p) % p;
    int rc = pc_bcast_scatter(a);
    int right = (a->ctx->rank + 1) % p, left = (a->ctx->rank - 1 + p) % p;
    char *buf = a->buf;
    for (int i = 0; i < p - 1 && rc == MPI_SUCCESS; i++) {
        long sblock = (rel - i + p) % p, rblock = (rel - i - 1 + p) % p;
        rc = pc_sendrecv(buf + pc_block_offset(a, sblock), pc_blocks_len(a, sblock, 1), right,
                         buf + pc_block_offset(a, rblock), pc_blocks_len(a, rblock, 1), left,
                         PC_TAG_BCAST_ALLGATHER, a->ctx->comm);
    }
    return rc;
}
