/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * two_level - the MPI libraries' two-level reduce, point-to-point inside the
 * node: every process that does not lead its node sends its contribution
 * to its node's leader and leaves; a leader combines its node's
 * contributions (a flat tree), then the leaders reduce up a k-nomial tree
 * of nodes (radix PAPCOLL_REDUCE_KNOMIAL_RADIX, default 4) rooted at the
 * root's node.  The root leads its own node, so the result needs no last
 * hop.
 *
 *   node 0 (root r0): r1 r2 r3 --> r0 <-- leaders of nodes 1, 2, 3 (radix 4: one step)
 *   node 1:           r5 r6 r7 --> r4 --^
 *
 * It is one tree (member -> leader, leader -> parent node's leader) run by
 * the segmented reduction engine (sched/tree_engine.c), so the leaders
 * combine segment s while segment s+1 arrives (PAPCOLL_REDUCE_SEGSIZE).
 * Why it exists beside hier_nobarrier: a member's whole cost is one send,
 * which the MPI library completes eagerly below its eager limit (SMPI: the
 * sender leaves at once below 64 KiB), where hier_nobarrier's member
 * combines into shared memory itself.  Balanced and small, that makes it
 * the cheapest reduce for the average process; the radix-4 tree of nodes
 * needs one step for up to 4 nodes, two for 16.
 * Order: a leader computes mine op member[0] op ... op (child nodes'
 * results), members in rank order, so the bits never depend on arrival;
 * but the order is not rank order: commutative ops only.
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced, k the radix): a member alpha + beta m (eager: its overhead only);
 * a leader (q - 1)(beta m + gamma m) to combine its node, then up to
 * ceil(log_k N) steps of (k - 1)(beta + gamma) m + alpha up the tree of nodes.
 * Late arrival: every leader waits for its node's last member and for its
 * child nodes, so a late process delays its node's leader and, through the
 * tree of nodes, the root, by up to ceil(log_k N) steps after it arrives;
 * a member never waits for anybody (below the eager limit).  dynleader and
 * dynleader_flat remove the leader's wait.
 * Memory: a leader holds an accumulator of count elements and up to
 * PAPCOLL_MAX_INFLIGHT segment buffers.
 * Parameters: PAPCOLL_REDUCE_KNOMIAL_RADIX (< 2: MPI_ERR_ARG),
 * PAPCOLL_REDUCE_SEGSIZE, PAPCOLL_MAX_INFLIGHT.
 * Source: MVAPICH2's two-level reduce, src/mpi/coll/reduce_osu.c
 * (MPIR_Reduce_two_level_helper_MV2: intra-node reduce to the node's
 * leader, then a k-nomial reduce among the leaders, inter-node k-nomial
 * factor 4); SimGrid's version (src/smpi/colls/reduce/
 * reduce-mvapich-two-level.cpp, a linear intra-node step), which is SMPI's
 * `mvapich2` reduce selection.
 */
#include "reduce/reduce.h"
#include "ctx/comm.h"
#include "sched/tree_engine.h"

#include <stdlib.h>

int pc_reduce_node_star(pc_tree_t *t, const pc_comm_t *c, int leader, int extra_children)
{
    int me = c->rank, my_node = c->my_node;

    *t = (pc_tree_t){.parent = leader, .nchildren = 0, .children = NULL, .height = 0};
    if (me != leader) return 0;
    /* + 1: a leader alone with no other child would otherwise ask malloc for 0 bytes, which may give NULL */
    t->children = malloc((size_t)(c->node_size - 1 + extra_children + 1) * sizeof *t->children);
    if (!t->children) return -1;
    for (int i = c->node_first[my_node]; i < c->node_first[my_node + 1]; i++)
        if (c->node_members[i] != me) t->children[t->nchildren++] = c->node_members[i];
    t->parent = -1;
    t->height = 1;
    return 0;
}

/* My place in the two-level tree: a member's parent is its node's leader
 * (pc_node_mailbox: the root on its own node, else the node's lowest rank); a
 * leader's children are its node's members (rank order), then the leaders
 * of its child nodes in the k-nomial tree of nodes (smallest subtree
 * first), its parent the leader of its parent node. */
static int build_two_level_tree(pc_tree_t *t, const pc_comm_t *c, int root, int radix)
{
    int me = c->rank, my_node = c->my_node, leader = pc_node_mailbox(c, root, my_node);
    pc_tree_t nodes;

    if (me != leader) return pc_reduce_node_star(t, c, leader, 0);
    if (pc_tree_build(&nodes, PC_TREE_KNOMIAL, radix, my_node, c->nnodes, c->node_of[root])) return -1;
    if (pc_reduce_node_star(t, c, leader, nodes.nchildren)) {
        pc_tree_free(&nodes);
        return -1;
    }
    for (int i = nodes.nchildren - 1; i >= 0; i--) /* pc_tree_build lists the largest subtree first */
        t->children[t->nchildren++] = pc_node_mailbox(c, root, nodes.children[i]);
    t->parent = nodes.parent < 0 ? -1 : pc_node_mailbox(c, root, nodes.parent);
    t->height = nodes.height + 1;
    pc_tree_free(&nodes);
    return 0;
}

int pc_reduce_two_level(const pc_call_t *a)
{
    pc_tree_t tree;

    if (a->params->reduce.knomial_radix < 2) return MPI_ERR_ARG;
    if (a->count == 0) return MPI_SUCCESS;
    if (build_two_level_tree(&tree, a->ctx, a->root, (int)a->params->reduce.knomial_radix)) return MPI_ERR_NO_MEM;
    int rc = pc_tree_reduce(a, a->sendbuf, a->ctx->rank == a->root ? a->recvbuf : NULL, a->count,
                            pc_reduce_segment_count(a), &tree, (int)a->params->max_inflight, PC_TAG_REDUCE_DATA);
    pc_tree_free(&tree);
    return rc;
}
