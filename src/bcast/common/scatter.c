/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast/common/scatter.c - the binomial scatter and the ring allgather shared by
 * scatter_rdb_allgather, scatter_ring_allgather and the arrival-aware
 * algorithms' sub-group broadcasts, and the block arithmetic of all of them.
 *
 * The message is cut into g blocks of ceil(m/g) bytes (the last blocks
 * shorter or empty); block b belongs to group rank b.  Group rank r receives
 * the blocks of its binomial subtree, [r, r + lowbit(r)), from r - lowbit(r),
 * then hands the upper halves on to r + 2^j, largest first.
 * Cost: scatter ceil(log2 g) alpha + ((g-1)/g) m beta; ring allgather
 * (g-1) alpha + ((g-1)/g) m beta.
 * Source: MPICH MPII_Scatter_for_bcast; Patarasuk & Yuan 2008 §3 ("scatter").
 */
#include "bcast/bcast.h"
#include "core/p2p.h"

pc_bcast_group_t pc_bcast_whole(const pc_call_t *a)
{
    int p = a->ctx->size;
    return (pc_bcast_group_t){.size = p, .me = (a->ctx->rank - a->root + p) % p, .root = a->root,
                              .tag_scatter = PC_TAG_BCAST_SCATTER, .tag_allgather = PC_TAG_BCAST_ALLGATHER};
}

int pc_bcast_scatter(const pc_call_t *a, const pc_bcast_group_t *g)
{
    int p = g->size, rel = g->me, rc = MPI_SUCCESS;
    MPI_Comm comm = a->ctx->comm;
    char *buf = a->buf;
    long mask = 1;
    for (; mask < p; mask <<= 1) {
        if (rel & mask) {
            size_t len = pc_blocks_len(a->bytes, p, rel, mask);
            if (len)
                rc = pc_recv(buf + pc_block_offset(a->bytes, p, rel), len, pc_group_rank(g, rel - mask), g->tag_scatter,
                             comm);
            break;
        }
    }
    for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        long child = rel + mask;
        if (child >= p) continue;
        size_t len = pc_blocks_len(a->bytes, p, child, mask);
        if (len)
            rc = pc_send(buf + pc_block_offset(a->bytes, p, child), len, pc_group_rank(g, child), g->tag_scatter, comm);
    }
    return rc;
}

int pc_bcast_ring_allgather(const pc_call_t *a, const pc_bcast_group_t *g)
{
    int p = g->size, rel = g->me, rc = MPI_SUCCESS;
    int right = pc_group_rank(g, (rel + 1) % p), left = pc_group_rank(g, (rel - 1 + p) % p);
    char *buf = a->buf;
    for (int i = 0; i < p - 1 && rc == MPI_SUCCESS; i++) {
        long sblock = (rel - i + p) % p, rblock = (rel - i - 1 + p) % p;
        rc = pc_sendrecv(buf + pc_block_offset(a->bytes, p, sblock), pc_blocks_len(a->bytes, p, sblock, 1), right,
                         buf + pc_block_offset(a->bytes, p, rblock), pc_blocks_len(a->bytes, p, rblock, 1), left,
                         g->tag_allgather, a->ctx->comm);
    }
    return rc;
}
