/*
 * bcast_scatter.c - the binomial scatter shared by scatter_rdb_allgather and
 * scatter_ring_allgather, and the block arithmetic of both.
 *
 * The message is cut into p blocks of ceil(m/p) bytes (the last blocks
 * shorter or empty); block b belongs to relative rank b.  Relative rank r
 * receives the blocks of its binomial subtree, [r, r + lowbit(r)), from
 * r - lowbit(r), then hands the upper halves on to r + 2^j, largest first.
 * Cost: ceil(log2 p) alpha + ((p-1)/p) m beta.
 * Source: MPICH MPII_Scatter_for_bcast; seed 002 section 3 ("scatter").
 */
#include "bcast.h"
#include "../p2p.h"

static size_t block_size(const pc_bcast_args_t *a)
{
    return (a->bytes + (size_t)a->ctx->size - 1) / (size_t)a->ctx->size;
}

size_t pc_block_offset(const pc_bcast_args_t *a, long block)
{
    size_t off = (size_t)block * block_size(a);
    return off < a->bytes ? off : a->bytes;
}

size_t pc_blocks_len(const pc_bcast_args_t *a, long first, long n)
{
    return pc_block_offset(a, first + n) - pc_block_offset(a, first);
}

int pc_bcast_scatter(const pc_bcast_args_t *a)
{
    int p = a->ctx->size, rel = (a->ctx->rank - a->root + p) % p, rc = MPI_SUCCESS;
    MPI_Comm comm = a->ctx->comm;
    char *buf = a->buf;
    long mask = 1;
    for (; mask < p; mask <<= 1) {
        if (rel & mask) {
            size_t len = pc_blocks_len(a, rel, mask);
            if (len) rc = pc_recv(buf + pc_block_offset(a, rel), len, (int)((rel - mask + a->root) % p), PC_TAG_BCAST_SCATTER, comm);
            break;
        }
    }
    for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        long child = rel + mask;
        if (child >= p) continue;
        size_t len = pc_blocks_len(a, child, mask);
        if (len) rc = pc_send(buf + pc_block_offset(a, child), len, (int)((child + a->root) % p), PC_TAG_BCAST_SCATTER, comm);
    }
    return rc;
}
