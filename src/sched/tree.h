/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tree.h - broadcast tree builders (no MPI dependency).
 *
 * A tree is described from one process's point of view: its parent and its
 * children, in the order it sends to them.  Ranks are communicator ranks; the
 * shape is laid out on relative ranks (rank - root) mod size, so any root
 * works.  The segmented tree engine (tree_engine.c) moves data down any tree.
 */
#ifndef PC_TREE_H
#define PC_TREE_H

typedef enum {
    PC_TREE_FLAT,     /* root -> everyone */
    PC_TREE_CHAIN,    /* root -> root+1 -> root+2 -> ... */
    PC_TREE_BINARY,   /* relative r -> 2r+1, 2r+2 */
    PC_TREE_BINOMIAL, /* k-nomial with k = 2 */
    PC_TREE_KNOMIAL   /* relative r -> r + d*k^j for j below r's lowest non-zero base-k digit */
} pc_tree_shape_t;

typedef struct pc_tree {
    int parent;     /* -1 at the root */
    int nchildren;
    int *children;  /* send order: largest subtree first */
    int height;     /* hops from the root to the farthest process */
} pc_tree_t;

/* Builds rank's view of a tree of `size` processes rooted at `root` (radix
 * used by KNOMIAL only, >= 2).  Returns 0, or -1 on bad arguments or
 * allocation failure. */
int pc_tree_build(pc_tree_t *t, pc_tree_shape_t shape, int radix, int rank, int size, int root);
void pc_tree_free(pc_tree_t *t);
/* Hops from the root to the farthest process, without building the tree. */
int pc_tree_height(pc_tree_shape_t shape, int radix, int size);

#endif
