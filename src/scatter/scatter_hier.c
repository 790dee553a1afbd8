/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the universal hierarchical scatter: the root puts its blocks in
 * node order and hands them to the leader (node rank 0) of its node, the
 * leaders run any flat scatter of the node-aggregated blocks
 * (PAPCOLL_SCATTER_INTER, scatterv-shaped: nodes may differ in size), and
 * each leader hands every process of its node its block.
 *
 *   node A (ranks 0 2), node B (ranks 1 3), root 2:
 *     hand-off   2 -> 0: [b0 b2 | b1 b3]           (node order)
 *     leaders    0 -> 1: [b1 b3]
 *     copy-out   A: 0 -> 2 nothing (the root keeps b2), 0 keeps b0
 *                B: 1 -> 3 b3, 1 keeps b1
 *
 * Node order keeps each node's share one contiguous range, so the leaders'
 * collective moves whole nodes and ranks may sit on nodes in any pattern.
 * Copy-out is a linear scatter on the node (point-to-point inside the node,
 * the MPI library's shared-memory path; no node barrier).
 * The v form (scatterv, Parsons 2015 Fig. 2.1's ExchangeCntData): only the root
 * knows the counts, so each leader first gathers its members' block sizes
 * (MPI_Gather of one uint64 on the node), and a root that is not its node's
 * leader sends that leader every node's share (N uint64); the inner scatter
 * then carries its own sizes (e.g. binomial's).  The plain form needs none
 * of it: every block is as large as mine.
 * Cost (Hockney, m bytes scattered in all, N nodes of q processes): m bytes
 * copied into node order at the root (and one intra-node message of m bytes
 * when the root does not lead its node), the inter-node scatter on N
 * leaders (binomial: log2 N alpha + (N - 1)/N m beta), then q - 1
 * intra-node messages from each leader.  Against a flat binomial: log2 N
 * instead of log2 p inter-node latencies, every inter-node byte sent once.
 * Late arrival: a late leader holds up its whole node (and, in a tree, the
 * nodes below it); a late non-leader only itself, its block waits for it.
 * Limitations: the inner scatter takes int byte counts: when a node share
 * or the whole scatter is above INT_MAX bytes the plain form runs linear
 * over the whole communicator instead (logged), the v form fails with
 * MPI_ERR_COUNT on the processes that see it.
 * Parameters: PAPCOLL_SCATTER_INTER (default auto).
 * Source: Parsons 2015 §2.3.1, Fig. 2.1 (universal hierarchical
 * algorithm: copy-in, ANY flat collective among leaders, copy-out).
 */
#include "scatter/scatter.h"
#include "core/log.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t *size;        /* [node_size] my node's block sizes (leader) */
    size_t *node_offset;   /* [nnodes + 1] node-ordered layout (the root, its node's leader) */
    char *all;             /* the node-ordered blocks (the root, its node's leader) */
    char *share;           /* my node's share (other leaders) */
} hier_t;

static void hier_free(hier_t *h)
{
    free(h->size);
    free(h->node_offset);
    free(h->all);
    free(h->share);
}

/* The root's blocks in node order, with every node's share. */
static void node_order(const pc_call_t *a, hier_t *h)
{
    pc_blocks_node_offsets(a, &a->sblocks, h->node_offset);
    pc_blocks_to_node_order(a, &a->sblocks, h->all);
}

/* Copy-out: my node's leader gives each process its block from share. */
static int copy_out(const pc_call_t *a, const hier_t *h, const char *share)
{
    const pc_comm_t *c = a->ctx;
    int leader = pc_node_leader(c, c->my_node), rc = MPI_SUCCESS, n = 0;
    if (c->rank != leader) {
        size_t bytes = c->rank == a->root ? 0 : pc_blocks_span(&a->rblocks, 0, 0);
        return bytes ? pc_recv(a->rblocks.base, bytes, leader, PC_TAG_SCATTER_DATA, c->comm) : MPI_SUCCESS;
    }
    MPI_Request *req = malloc((size_t)c->node_size * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    if (c->rank != a->root && h->size[0]) memcpy(a->rblocks.base, share, h->size[0]);
    size_t pos = h->size[0];
    for (int j = 1; j < c->node_size && rc == MPI_SUCCESS; j++) {
        int r = c->node_members[c->node_first[c->my_node] + j];
        if (r != a->root && h->size[j])
            rc = pc_scatter_post(share + pos, h->size[j], r, PC_TAG_SCATTER_DATA, c->comm, req, &n);
        pos += h->size[j];
    }
    int wrc = n ? pc_waitall(n, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

int pc_scatter_hier(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int me = c->rank, at_root = me == a->root, leader = pc_node_leader(c, c->my_node), rc = MPI_SUCCESS;
    int is_leader = me == leader, root_node = c->node_of[a->root], root_leader = pc_node_leader(c, root_node);
    size_t my_bytes = at_root ? pc_blocks_span(&a->sblocks, me, me) : pc_blocks_span(&a->rblocks, 0, 0);
    if (!a->vform && (size_t)c->size * my_bytes > (size_t)INT_MAX) {
        if (at_root)
            pc_log(PC_LOG_WARN, "scatter hier: %zu bytes do not fit int counts: linear instead", (size_t)c->size * my_bytes);
        return pc_scatter_linear(a);
    }
    hier_t h = {NULL, NULL, NULL, NULL};
    int whole = at_root || me == root_leader; /* holds every block */
    if (is_leader) h.size = malloc((size_t)c->node_size * sizeof *h.size);
    if (whole) h.node_offset = malloc((size_t)(c->nnodes + 1) * sizeof *h.node_offset);
    if ((is_leader && !h.size) || (whole && !h.node_offset)) rc = MPI_ERR_NO_MEM;
    /* sizes: my node's blocks at its leader, every node's share at the root's node leader */
    uint64_t my_size = my_bytes;
    if (a->vform) {
        int rc2 = PMPI_Gather(&my_size, 1, MPI_UINT64_T, h.size, 1, MPI_UINT64_T, 0, c->node);
        if (rc == MPI_SUCCESS) rc = rc2;
    } else if (h.size)
        for (int j = 0; j < c->node_size; j++) h.size[j] = my_size;
    size_t total = 0;
    if (rc == MPI_SUCCESS && at_root) {
        for (int r = 0; r < c->size; r++) total += pc_blocks_span(&a->sblocks, r, r);
        h.all = malloc(total ? total : 1);
        if (!h.all) rc = MPI_ERR_NO_MEM;
        else node_order(a, &h);
    } else if (rc == MPI_SUCCESS && whole && !a->vform)
        for (int k = 0; k <= c->nnodes; k++) h.node_offset[k] = (size_t)c->node_first[k] * my_bytes;
    /* the root's hand-off to its node's leader */
    if (rc == MPI_SUCCESS && at_root && !is_leader) {
        if (a->vform)
            rc = pc_send(h.node_offset, (size_t)(c->nnodes + 1) * sizeof *h.node_offset, root_leader,
                         PC_TAG_SCATTER_SIZES, c->comm);
        if (rc == MPI_SUCCESS) rc = pc_send(h.all, total, root_leader, PC_TAG_SCATTER_NODE, c->comm);
    }
    if (rc == MPI_SUCCESS && me == root_leader && !at_root) {
        if (a->vform)
            rc = pc_recv(h.node_offset, (size_t)(c->nnodes + 1) * sizeof *h.node_offset, a->root,
                         PC_TAG_SCATTER_SIZES, c->comm);
        total = h.node_offset[c->nnodes];
        h.all = rc == MPI_SUCCESS ? malloc(total ? total : 1) : NULL;
        if (rc == MPI_SUCCESS && !h.all) rc = MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS) rc = pc_recv(h.all, total, a->root, PC_TAG_SCATTER_NODE, c->comm);
    }
    /* the leaders' scatter */
    size_t share_bytes = 0;
    for (int j = 0; h.size && j < c->node_size; j++) share_bytes += (size_t)h.size[j];
    if (rc == MPI_SUCCESS && is_leader &&
        (share_bytes > (size_t)INT_MAX || (me == root_leader && total > (size_t)INT_MAX)))
        rc = MPI_ERR_COUNT;
    char *share = me == root_leader && h.all ? h.all + h.node_offset[root_node] : NULL;
    if (rc == MPI_SUCCESS && is_leader && me != root_leader) {
        share = h.share = malloc(share_bytes ? share_bytes : 1);
        if (!h.share) rc = MPI_ERR_NO_MEM;
    }
    if (rc == MPI_SUCCESS && is_leader && c->nnodes > 1) {
        size_t my_share[2] = {0, share_bytes};
        rc = me == root_leader ? pc_scatter_on(a, a->params->scatter.inter, h.all, h.node_offset, root_node, c->leaders)
                               : pc_scatter_on(a, a->params->scatter.inter, h.share, my_share, root_node, c->leaders);
    }
    if (rc == MPI_SUCCESS) rc = copy_out(a, &h, share);
    hier_free(&h);
    return rc;
}
