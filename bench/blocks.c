/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * blocks.c - see blocks.h.
 */
#include "blocks.h"
#include "../src/core/mix64.h"

#include <limits.h>
#include <stdint.h>

int blocks_count(int vform, size_t size, size_t elem_size, int r)
{
    size_t bytes = vform ? size * (size_t)(1 + r % 3) / 2 : size;
    size_t count = bytes / elem_size;
    return count > INT_MAX ? -1 : (int)count;
}

/* counts[j] = count(j), displacements in rank order or (reverse) from p-1 down; -1 beyond INT_MAX. */
static long layout(int reverse, int p, int *counts, int *displs, int (*count)(const void *, int), const void *arg)
{
    long total = 0;
    for (int n = 0; n < p; n++) {
        int j = reverse ? p - 1 - n : n;
        counts[j] = count(arg, j);
        if (counts[j] < 0 || total > INT_MAX) return -1;
        displs[j] = (int)total;
        total += counts[j];
    }
    return total > INT_MAX ? -1 : total;
}

typedef struct block_args {
    int vform, me, sending;
    size_t size, elem_size;
} block_args_t;

static int rank_count(const void *arg, int r)
{
    const block_args_t *b = arg;
    return blocks_count(b->vform, b->size, b->elem_size, r);
}

static int pair_count(const void *arg, int j)
{
    const block_args_t *b = arg;
    return b->sending ? blocks_pair_count(b->vform, b->size, b->elem_size, b->me, j)
                      : blocks_pair_count(b->vform, b->size, b->elem_size, j, b->me);
}

long blocks_layout(int vform, size_t size, size_t elem_size, int p, int *counts, int *displs)
{
    block_args_t b = {vform, 0, 0, size, elem_size};
    return layout(vform, p, counts, displs, rank_count, &b); /* v forms: reverse rank order */
}

long blocks_rank_layout(int vform, size_t size, size_t elem_size, int p, int *counts, int *displs)
{
    block_args_t b = {vform, 0, 0, size, elem_size};
    return layout(0, p, counts, displs, rank_count, &b);
}

int blocks_pair_count(int vform, size_t size, size_t elem_size, int s, int d)
{
    return blocks_count(vform, size, elem_size, vform ? (s % 3 + 2 * (d % 3)) % 3 : 0);
}

long blocks_pair_layout(int vform, size_t size, size_t elem_size, int p, int me, int sending, int *counts, int *displs)
{
    block_args_t b = {vform, me, sending, size, elem_size};
    return layout(vform, p, counts, displs, pair_count, &b);
}

unsigned long long blocks_seed(int r, long rep) { return pc_mix64_finalize((uint64_t)(uint32_t)r ^ ((uint64_t)rep << 32)); }

long blocks_element(unsigned long long seed, size_t k, long vmax)
{
    return 1 + (long)(pc_mix64_finalize((uint64_t)k * 0x9e3779b97f4a7c15ULL + seed) % (uint64_t)vmax);
}

long blocks_value(int r, size_t k, long rep, long vmax) { return blocks_element(blocks_seed(r, rep), k, vmax); }

unsigned long long blocks_pair_seed(int s, int d, long rep)
{
    return pc_mix64_finalize(blocks_seed(s, rep) ^ ((uint64_t)(uint32_t)d * 0xd6e8feb86659fd93ULL));
}
