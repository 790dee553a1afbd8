/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_trees - the tree builders, without MPI: for every shape, size 1..150
 * and root, every process but the root has exactly one parent, that parent
 * lists it as a child, every process is reached from the root exactly once,
 * and the height reported equals the deepest process found.
 */
#include "sched/tree.h"

#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static const char *shape_name(pc_tree_shape_t s)
{
    static const char *names[] = {"flat", "chain", "binary", "binomial", "knomial"};
    return names[s];
}

static void check_tree(pc_tree_shape_t shape, int radix, int size, int root)
{
    pc_tree_t *t = calloc((size_t)size, sizeof *t);
    int *depth = malloc((size_t)size * sizeof(int)), *queue = malloc((size_t)size * sizeof(int));
    for (int r = 0; r < size; r++) {
        CHECK(pc_tree_build(&t[r], shape, radix, r, size, root) == 0, "build %s p=%d", shape_name(shape), size);
        depth[r] = -1;
    }
    CHECK(t[root].parent == -1, "%s p=%d root=%d has a parent", shape_name(shape), size, root);
    for (int r = 0; r < size; r++) {
        if (r != root) CHECK(t[r].parent >= 0 && t[r].parent < size, "%s p=%d rank %d parent %d", shape_name(shape), size, r, t[r].parent);
        for (int c = 0; c < t[r].nchildren; c++) {
            int ch = t[r].children[c];
            CHECK(ch >= 0 && ch < size && t[ch].parent == r, "%s p=%d root=%d: %d lists child %d whose parent is %d",
                  shape_name(shape), size, root, r, ch, ch >= 0 && ch < size ? t[ch].parent : -9);
        }
    }
    /* breadth-first from the root: every process reached exactly once */
    int head = 0, tail = 0, reached = 0, deepest = 0;
    depth[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
        int r = queue[head++];
        reached++;
        if (depth[r] > deepest) deepest = depth[r];
        for (int c = 0; c < t[r].nchildren; c++) {
            int ch = t[r].children[c];
            if (ch < 0 || ch >= size) continue;
            CHECK(depth[ch] == -1, "%s p=%d: %d reached twice", shape_name(shape), size, ch);
            if (depth[ch] != -1) continue;
            depth[ch] = depth[r] + 1;
            queue[tail++] = ch;
        }
    }
    CHECK(reached == size, "%s p=%d root=%d: reached %d", shape_name(shape), size, root, reached);
    CHECK(t[root].height == deepest && pc_tree_height(shape, radix, size) == deepest,
          "%s(k=%d) p=%d: height %d, deepest %d", shape_name(shape), radix, size, t[root].height, deepest);
    for (int r = 0; r < size; r++) pc_tree_free(&t[r]);
    free(t);
    free(depth);
    free(queue);
}

int main(void)
{
    int trees = 0;
    for (int size = 1; size <= 150; size++)
        for (int root = 0; root < size; root++) {
            for (int s = PC_TREE_FLAT; s <= PC_TREE_BINOMIAL; s++, trees++) check_tree((pc_tree_shape_t)s, 2, size, root);
            for (int k = 3; k <= 5; k++, trees++) check_tree(PC_TREE_KNOMIAL, k, size, root);
        }
    /* known shapes */
    pc_tree_t t;
    pc_tree_build(&t, PC_TREE_BINOMIAL, 2, 0, 8, 0);
    CHECK(t.nchildren == 3 && t.children[0] == 4 && t.children[1] == 2 && t.children[2] == 1, "binomial(8) root children");
    pc_tree_free(&t);
    pc_tree_build(&t, PC_TREE_BINOMIAL, 2, 6, 8, 3); /* relative 3: parent relative 2 = rank 5 */
    CHECK(t.parent == 5 && t.nchildren == 0, "binomial relative ranks");
    pc_tree_free(&t);
    CHECK(pc_tree_height(PC_TREE_BINOMIAL, 2, 8) == 3 && pc_tree_height(PC_TREE_BINOMIAL, 2, 9) == 3 &&
              pc_tree_height(PC_TREE_CHAIN, 2, 10) == 9 && pc_tree_height(PC_TREE_BINARY, 2, 7) == 2,
          "closed-form heights");
    CHECK(pc_tree_build(&t, PC_TREE_CHAIN, 2, 5, 4, 0) == -1, "rank out of range rejected");
    printf("test_trees: %d trees checked, %d failures\n", trees, failures);
    return failures != 0;
}
