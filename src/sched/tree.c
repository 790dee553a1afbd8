/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tree.c - broadcast tree builders (see tree.h).
 *
 * Shapes, on relative ranks r = (rank - root) mod p:
 *   flat      0 -> 1, 2, ..., p-1                       height 1
 *   chain     r -> r+1                                  height p-1
 *   binary    r -> 2r+1, 2r+2                           height floor(log2 p)
 *   k-nomial  parent(r) clears r's lowest non-zero base-k digit; children
 *             r + d*k^j (d = 1..k-1) for every j below that digit, largest
 *             first.  Binomial is k = 2.                height <= (k-1) ceil(log_k p)
 */
#include "sched/tree.h"

#include <stdlib.h>

static int to_rank(int rel, int root, int size) { return (rel + root) % size; }

/* Lowest power of radix that divides rel (its lowest non-zero digit's
 * weight); for rel == 0 the first power >= size. */
static long lowest_digit_weight(int rel, int radix, int size)
{
    long w = 1;
    if (rel == 0) {
        while (w < size) w *= radix;
        return w;
    }
    while (rel % (w * radix) == 0) w *= radix;
    return w;
}

static int build_knomial(pc_tree_t *t, int radix, int rel, int root, int size)
{
    long top = lowest_digit_weight(rel, radix, size);
    if (rel != 0) {
        long digit = (rel / top) % radix;
        t->parent = to_rank((int)(rel - digit * top), root, size);
    }
    /* children: weights below `top`, largest first */
    int cap = 0;
    for (long w = 1; w < top; w *= radix) cap += radix - 1;
    t->children = cap ? malloc((size_t)cap * sizeof(int)) : NULL;
    if (cap && !t->children) return -1;
    long w = 1;
    while (w * radix < top) w *= radix;
    for (; w >= 1 && top > 1; w /= radix) {
        for (int d = radix - 1; d >= 1; d--) {
            long child = rel + d * w;
            if (child < size) t->children[t->nchildren++] = to_rank((int)child, root, size);
        }
        if (w == 1) break;
    }
    return 0;
}

int pc_tree_build(pc_tree_t *t, pc_tree_shape_t shape, int radix, int rank, int size, int root)
{
    t->parent = -1;
    t->nchildren = 0;
    t->children = NULL;
    t->height = 0;
    if (size < 1 || rank < 0 || rank >= size || root < 0 || root >= size) return -1;
    if (shape == PC_TREE_BINOMIAL) radix = 2;
    if (shape == PC_TREE_KNOMIAL && radix < 2) return -1;
    int rel = (rank - root + size) % size;
    t->height = pc_tree_height(shape, radix, size);

    switch (shape) {
    case PC_TREE_FLAT:
        if (rel != 0) {
            t->parent = root;
            return 0;
        }
        if (size > 1 && !(t->children = malloc((size_t)(size - 1) * sizeof(int)))) return -1;
        for (int r = 1; r < size; r++) t->children[t->nchildren++] = to_rank(r, root, size);
        return 0;
    case PC_TREE_CHAIN:
        if (rel != 0) t->parent = to_rank(rel - 1, root, size);
        if (rel + 1 < size) {
            if (!(t->children = malloc(sizeof(int)))) return -1;
            t->children[t->nchildren++] = to_rank(rel + 1, root, size);
        }
        return 0;
    case PC_TREE_BINARY:
        if (rel != 0) t->parent = to_rank((rel - 1) / 2, root, size);
        if (!(t->children = malloc(2 * sizeof(int)))) return -1;
        for (long c = 2L * rel + 1; c <= 2L * rel + 2 && c < size; c++)
            t->children[t->nchildren++] = to_rank((int)c, root, size);
        return 0;
    case PC_TREE_BINOMIAL:
    case PC_TREE_KNOMIAL:
        return build_knomial(t, radix, rel, root, size);
    }
    return -1;
}

void pc_tree_free(pc_tree_t *t)
{
    free(t->children);
    t->children = NULL;
    t->nchildren = 0;
}

/* Largest number of non-zero base-radix digits among 0..size-1: that many
 * hops separate such a process from the root of a k-nomial tree. */
static int knomial_height(int radix, int size)
{
    int digits[64], n = 0;
    for (int v = size - 1; v > 0; v /= radix) digits[n++] = v % radix;
    int best = 0, prefix = 0; /* non-zero digits above position i */
    for (int i = n - 1; i >= 0; i--) {
        if (digits[i] > 0) {
            /* lower digit i by one, then all lower digits radix-1 */
            int alt = prefix + (digits[i] - 1 > 0) + i;
            if (alt > best) best = alt;
            prefix++;
        }
    }
    return prefix > best ? prefix : best;
}

int pc_tree_height(pc_tree_shape_t shape, int radix, int size)
{
    if (size <= 1) return 0;
    switch (shape) {
    case PC_TREE_FLAT: return 1;
    case PC_TREE_CHAIN: return size - 1;
    case PC_TREE_BINARY: {
        int h = 0;
        while ((2L << h) - 1 < size) h++; /* levels 0..h hold 2^(h+1)-1 nodes */
        return h;
    }
    case PC_TREE_BINOMIAL: return knomial_height(2, size);
    case PC_TREE_KNOMIAL: return knomial_height(radix, size);
    }
    return 0;
}
