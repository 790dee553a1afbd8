/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * binomial - reduction up a binomial tree (MPICH's binomial reduce): in
 * step j a process whose relative rank has bit j set sends its partial
 * result to the process with that bit clear and is done; the others receive
 * and combine.  Runs on the segmented tree engine going up
 * (sched/tree_engine.c): with PAPCOLL_REDUCE_SEGSIZE set, segment s moves up
 * one level while segment s+1 is combined below it.
 *
 *   step 0:  1->0  3->2  5->4  7->6        (ab)(cd)(ef)(gh)
 *   step 1:  2->0  6->4                    ((ab)(cd))((ef)(gh))
 *   step 2:  4->0                          (((ab)(cd))((ef)(gh)))
 *
 * Order: a process combines its own value with its children's, smallest
 * child first, and each subtree covers the consecutive ranks that start at
 * its root, so the tree rooted at rank 0 combines in rank order.  Like
 * MPICH, a non-commutative op is therefore reduced at rank 0, which then
 * sends the result to the root; a commutative one is reduced on the tree
 * laid out on ranks relative to the root.
 * Cost (Hockney, gamma: local reduction time per byte):
 *   ceil(log2 p) (alpha + (beta + gamma) m) unsegmented (MPICH's
 *   lgp.alpha + n.lgp.beta + n.lgp.gamma), plus alpha + beta m for the
 *   relay from rank 0 when the op is not commutative and root != 0.  With k
 *   segments the levels overlap; the root still receives and combines
 *   ceil(log2 p) m bytes.
 * Late arrival: a process sends only when its whole subtree has contributed,
 * so after the last arrival the root still needs one hop (alpha + (beta +
 * gamma) m) per ancestor of the last arriver: the number of set bits of its
 * relative rank, at most ceil(log2 p).  A process leaves as soon as its send
 * is done, so early processes whose subtree is complete leave early.
 * Limitations: the root combines every level's message in turn (bandwidth
 * term grows with log2 p: reduce_scatter_gather for long messages).
 * Memory: an accumulator of count elements at inner processes other than
 * the root, and up to PAPCOLL_MAX_INFLIGHT segment buffers.
 * Parameters: PAPCOLL_REDUCE_SEGSIZE (bytes per segment, rounded down to
 * whole elements; 0 = whole message), PAPCOLL_MAX_INFLIGHT (receives posted
 * ahead, sends outstanding).
 * Source: MPICH src/mpi/coll/reduce/reduce_intra_binomial.c (from MPICH-1);
 * Open MPI ompi/mca/coll/base/coll_base_reduce.c (segmented generic reduce,
 * flow control with synchronous sends).
 */
#include "reduce/reduce.h"
#include "sched/tree_engine.h"

#include <stdlib.h>

/* pc_tree_build lists children largest subtree first (broadcast order);
 * reducing, the smallest subtree comes first: it is ready first, and in
 * increasing rank order it gives the rank order tree_engine.h describes. */
static void smallest_child_first(pc_tree_t *t)
{
    for (int i = 0, j = t->nchildren - 1; i < j; i++, j--) {
        int c = t->children[i];
        t->children[i] = t->children[j];
        t->children[j] = c;
    }
}

int pc_reduce_binomial(const pc_call_t *a)
{
    int rank = a->ctx->rank, root = a->root, rc = MPI_SUCCESS;
    int tree_root = a->commutative ? root : 0; /* rank order needs the tree rooted at rank 0 */
    void *result = NULL, *result_base = NULL;
    pc_tree_t tree;

    if (a->count == 0) return MPI_SUCCESS;
    if (pc_tree_build(&tree, PC_TREE_BINOMIAL, 2, rank, a->ctx->size, tree_root)) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    smallest_child_first(&tree);
    if (rank == tree_root) {
        result = rank == root ? a->recvbuf : pc_red_alloc(a, a->count, &result_base);
        if (!result) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
    }
    rc = pc_tree_reduce(a, a->sendbuf, result, a->count, pc_reduce_segment_count(a), &tree,
                        (int)a->params->max_inflight, PC_TAG_REDUCE_DATA);
    if (rc == MPI_SUCCESS && tree_root != root) {
        if (rank == tree_root) rc = pc_red_send(a, result, a->count, root, PC_TAG_REDUCE_TO_ROOT);
        else if (rank == root) rc = pc_red_recv(a, a->recvbuf, a->count, tree_root, PC_TAG_REDUCE_TO_ROOT);
    }
out:
    free(result_base);
    pc_tree_free(&tree);
    return rc;
}
