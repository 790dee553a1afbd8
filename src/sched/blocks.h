/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blocks.h - cutting a message into blocks, and the block ranges of
 * recursive halving (no MPI dependency).
 *
 * Blocks: `total` units (bytes for broadcast, elements for reductions) in
 * `nblocks` blocks of ceil(total / nblocks) units; the last blocks are
 * shorter or empty (total < nblocks leaves some empty).  Block b spans
 * [pc_block_offset(b), pc_block_offset(b + 1)).  Same cut as MPICH's ring
 * allreduce and binomial scatter for broadcast.
 *
 * Recursive halving (Rabenseifner's reduce-scatter, MPICH's
 * reduce_scatter_gather and reduce_scatter_allgather): g processes (a power
 * of two) share g blocks.  In step j (distance 2^j, j = 0 .. log2(g) - 1)
 * process r and its partner r ^ 2^j split the block range they both hold;
 * the one whose bit j is clear keeps the lower half.  After the last step r
 * holds one block (block bit-reverse(r)).  The gathering phases run the steps
 * backwards: in step j partners swap halves and both hold the range again.
 *
 *   g = 4, blocks 0..3:   step 0: {0,2} keep [0,2), {1,3} keep [2,4)
 *                         step 1: 0 keeps [0,1), 2 [1,2), 1 [2,3), 3 [3,4)
 */
#ifndef PC_BLOCKS_H
#define PC_BLOCKS_H

#include <stddef.h>

/* Offset of block `block` of `nblocks` in `total` units (total for block >= last). */
static inline size_t pc_block_offset(size_t total, int nblocks, long block)
{
    size_t off = (size_t)block * ((total + (size_t)nblocks - 1) / (size_t)nblocks);
    return off < total ? off : total;
}

/* Units in blocks [first, first + n). */
static inline size_t pc_blocks_len(size_t total, int nblocks, long first, long n)
{
    return pc_block_offset(total, nblocks, first + n) - pc_block_offset(total, nblocks, first);
}

/* A range of blocks [lo, hi). */
typedef struct pc_block_range {
    long lo, hi;
} pc_block_range_t;

/* Recursive halving among g processes (g a power of two), seen by process
 * r: before step j, r and r ^ 2^j hold shared[j]; in step j r keeps
 * pc_halving_keep(shared[j], r, j) and hands the other half to its partner.
 * Fills shared[0 .. log2(g) - 1] (at most 63 steps) and returns log2(g). */
static inline int pc_halving_ranges(long r, long g, pc_block_range_t *shared)
{
    pc_block_range_t cur = {0, g};
    int steps = 0;
    for (long mask = 1; mask < g; mask <<= 1, steps++) {
        long mid = cur.lo + (cur.hi - cur.lo) / 2;
        shared[steps] = cur;
        if (r & mask) cur.lo = mid;
        else cur.hi = mid;
    }
    return steps;
}

/* The half of `shared` that r keeps in step j (the other half is its partner's). */
static inline pc_block_range_t pc_halving_keep(pc_block_range_t shared, long r, int j)
{
    long mid = shared.lo + (shared.hi - shared.lo) / 2;
    return (r >> j) & 1 ? (pc_block_range_t){mid, shared.hi} : (pc_block_range_t){shared.lo, mid};
}

/* The half of `shared` that r's partner keeps in step j. */
static inline pc_block_range_t pc_halving_give(pc_block_range_t shared, long r, int j)
{
    return pc_halving_keep(shared, r ^ (1L << j), j);
}

#endif
