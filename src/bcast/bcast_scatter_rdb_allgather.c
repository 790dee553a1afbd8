/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scatter_rdb_allgather - binomial scatter of p blocks, then a
 * recursive-doubling allgather: in step j, processes r and r XOR 2^j swap
 * the blocks of their aligned groups of 2^j processes.  For p not a power of
 * two, a process whose partner does not exist gets the partner group's blocks
 * from a process of its own group that had a partner, by recursive halving
 * (MPICH's scheme), so any p works.
 *
 *   step 0: 0<->1 2<->3 ...   step 1: {0,1}<->{2,3} ...   step 2: {0..3}<->{4..7}
 *
 * Cost (p a power of two): 2 log2(p) alpha + 2 ((p-1)/p) m beta.
 * Late arrival: every step pairs processes across the whole communicator; a
 * late process delays its partners and, through them, everyone.
 * Source: Patarasuk & Yuan 2008 §3; MPICH bcast_intra_scatter_recursive_doubling_allgather;
 * the CP paper's RDAAS.
 */
#include "bcast/bcast.h"
#include "core/p2p.h"

/* Processes of my aligned group that had a partner at step `mask` already
 * hold the partner group's blocks; pass them to the others by halving. */
static int fill_missing(const pc_call_t *a, int rel, long mask, int log_mask, long my_root)
{
    int p = a->ctx->size, rc = MPI_SUCCESS;
    long completed = p - my_root - mask; /* processes of the partner group that exist */
    if (completed <= 0) return MPI_SUCCESS;
    size_t off = pc_block_offset(a->bytes, p, my_root + mask), len = pc_blocks_len(a->bytes, p, my_root + mask, mask);
    char *buf = (char *)a->buf + off;
    int k = log_mask;
    for (long half = mask >> 1; half > 0 && rc == MPI_SUCCESS; half >>= 1, k--) {
        long dst = rel ^ half, tree_root = ((long)rel >> k) << k;
        int peer = (int)((dst + a->root) % p);
        if (len == 0) break;
        if (dst > rel && rel < tree_root + completed && dst >= tree_root + completed)
            rc = pc_send(buf, len, peer, PC_TAG_BCAST_ALLGATHER, a->ctx->comm);
        else if (dst < rel && dst < tree_root + completed && rel >= tree_root + completed)
            rc = pc_recv(buf, len, peer, PC_TAG_BCAST_ALLGATHER, a->ctx->comm);
    }
    return rc;
}

int pc_bcast_scatter_rdb_allgather(const pc_call_t *a)
{
    int p = a->ctx->size, rel = (a->ctx->rank - a->root + p) % p;
    pc_bcast_group_t g = pc_bcast_whole(a);
    int rc = pc_bcast_scatter(a, &g);
    char *buf = a->buf;
    int log_mask = 0;
    for (long mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1, log_mask++) {
        long dst = rel ^ mask;
        long my_root = ((long)rel >> log_mask) << log_mask, dst_root = (dst >> log_mask) << log_mask;
        if (dst < p)
            rc = pc_sendrecv(buf + pc_block_offset(a->bytes, p, my_root), pc_blocks_len(a->bytes, p, my_root, mask), (int)((dst + a->root) % p),
                             buf + pc_block_offset(a->bytes, p, dst_root), pc_blocks_len(a->bytes, p, dst_root, mask), (int)((dst + a->root) % p),
                             PC_TAG_BCAST_ALLGATHER, a->ctx->comm);
        if (rc == MPI_SUCCESS && dst_root + mask > p) rc = fill_missing(a, rel, mask, log_mask, my_root);
    }
    return rc;
}
