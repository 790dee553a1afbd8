/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the universal hierarchical gather: the blocks of each node are
 * gathered to its leader (node rank 0), the leaders run any flat gather on
 * the node-aggregated blocks (PAPCOLL_GATHER_INTER, gatherv-shaped: nodes
 * may differ in size) to the leader of the root's node, which hands the
 * node-ordered result to the root; the root puts the blocks in rank order.
 *
 *   node A (ranks 0 2), node B (ranks 1 3), root 2:
 *     copy-in    A: leader 0 <- b0 b2        B: leader 1 <- b1 b3
 *     leaders    0 <- [b1 b3]  : [b0 b2 | b1 b3] on 0   (node order)
 *     hand-off   0 -> 2, which reorders to b0 b1 b2 b3
 *
 * Node order keeps each node's share one contiguous range, so the leaders'
 * collective moves whole nodes and ranks may sit on nodes in any pattern.
 * Copy-in is a linear gather on the node (point-to-point inside the node,
 * the MPI library's shared-memory path; no node barrier).
 * The v form (gatherv, Parsons 2015 Fig. 2.1's ExchangeCntData): only the root
 * knows the counts, so each leader first gathers its members' block sizes
 * (MPI_Gather of one uint64 on the node), and a root that is not its node's
 * leader sends that leader every node's share (N uint64); the inner gather
 * then carries its own sizes (e.g. binomial's subtree totals).  The plain
 * form needs none of it: every block is as large as mine.
 * Cost (Hockney, m bytes gathered in all, N nodes of q processes): copy-in
 * (q - 1) intra-node messages into the leader, the inter-node gather on N
 * leaders (binomial: log2 N alpha + (N - 1)/N m beta), and when the root
 * does not lead its node one more intra-node message of m bytes and the
 * reorder (m bytes copied).  Against a flat binomial: log2 N instead of
 * log2 p inter-node latencies, every inter-node byte sent once.
 * Late arrival: a leader joins the inter-node gather only when its whole
 * node is in, so a late process delays its node's share and, in a tree,
 * its leader's ancestors; the root finishes after the last node's share.
 * Limitations: the inner gather takes int byte counts: when a node share or
 * the whole gather is above INT_MAX bytes the plain form runs linear over
 * the whole communicator instead (logged), the v form fails with
 * MPI_ERR_COUNT on the processes that see it.
 * Parameters: PAPCOLL_GATHER_INTER (default auto).
 * Source: Parsons 2015 §2.3.1, Fig. 2.1 (universal hierarchical
 * algorithm: copy-in, ANY flat collective among leaders, copy-out).
 */
#include "gather/gather.h"
#include "core/log.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t *size;        /* [node_size] my node's block sizes (leader) */
    size_t *node_offset;   /* [nnodes + 1] node-ordered layout (the root's node leader) */
    char *result;          /* the node-ordered result (the root's node leader, the root) */
    char *share;           /* my node's share (other leaders) */
} hier_t;

static void hier_free(hier_t *h)
{
    free(h->size);
    free(h->node_offset);
    free(h->result);
    free(h->share);
}

/* Copy-in: my block to my node's leader, which receives them all into share. */
static int copy_in(const pc_call_t *a, const hier_t *h, const char *mine, size_t my_bytes, char *share)
{
    const pc_comm_t *c = a->ctx;
    int leader = pc_node_leader(c, c->my_node), rc = MPI_SUCCESS, n = 0;
    if (c->rank != leader)
        return my_bytes ? pc_send(mine, my_bytes, leader, PC_TAG_GATHER_DATA, c->comm) : MPI_SUCCESS;
    MPI_Request *req = malloc((size_t)c->node_size * sizeof *req);
    if (!req) return MPI_ERR_NO_MEM;
    if (my_bytes) memcpy(share, mine, my_bytes);
    size_t pos = h->size[0];
    for (int j = 1; j < c->node_size && rc == MPI_SUCCESS; j++) {
        int r = c->node_members[c->node_first[c->my_node] + j];
        if (h->size[j] > PC_MAX_MSG) rc = pc_recv(share + pos, h->size[j], r, PC_TAG_GATHER_DATA, c->comm);
        else if (h->size[j]) rc = pc_irecv(share + pos, h->size[j], r, PC_TAG_GATHER_DATA, c->comm, &req[n++]);
        pos += h->size[j];
    }
    int wrc = n ? pc_waitall(n, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* The node-ordered result into the root's blocks, in rank order. */
static void reorder(const pc_call_t *a, const char *from)
{
    const pc_comm_t *c = a->ctx;
    for (int j = 0; j < c->size; j++) {
        int r = c->node_members[j];
        size_t len = pc_blocks_span(&a->rblocks, r, r);
        if (r != a->root && len) memcpy(pc_blocks_at(&a->rblocks, r), from, len);
        from += len;
    }
}

/* The leaders' gather, then the hand-off to the root. */
static int leaders_gather(const pc_call_t *a, hier_t *h, size_t share_bytes)
{
    const pc_comm_t *c = a->ctx;
    int root_node = c->node_of[a->root], at_root_node = c->my_node == root_node;
    size_t my_share[2] = {0, share_bytes};
    if (c->nnodes == 1) return MPI_SUCCESS;
    if (at_root_node) return pc_gather_on(a, a->params->gather.inter, h->result, h->node_offset, root_node, c->leaders);
    return pc_gather_on(a, a->params->gather.inter, h->share, my_share, root_node, c->leaders);
}

int pc_gather_hier(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int me = c->rank, at_root = me == a->root, leader = pc_node_leader(c, c->my_node), rc = MPI_SUCCESS;
    int is_leader = me == leader, root_node = c->node_of[a->root], root_leader = pc_node_leader(c, root_node);
    const char *mine = at_root ? pc_blocks_at(&a->rblocks, me) : a->sblocks.base;
    size_t my_bytes = at_root ? pc_blocks_span(&a->rblocks, me, me) : pc_blocks_span(&a->sblocks, 0, 0);
    if (!a->vform && (size_t)c->size * my_bytes > (size_t)INT_MAX) {
        if (me == a->root)
            pc_log(PC_LOG_WARN, "gather hier: %zu bytes do not fit int counts: linear instead", (size_t)c->size * my_bytes);
        return pc_gather_linear(a);
    }
    hier_t h = {NULL, NULL, NULL, NULL};
    if (is_leader) h.size = malloc((size_t)c->node_size * sizeof *h.size);
    if (me == root_leader || at_root) h.node_offset = malloc((size_t)(c->nnodes + 1) * sizeof *h.node_offset);
    if ((is_leader && !h.size) || ((me == root_leader || at_root) && !h.node_offset)) rc = MPI_ERR_NO_MEM;
    /* sizes: my node's blocks at its leader, every node's share at the root's node leader */
    uint64_t my_size = my_bytes;
    if (a->vform) {
        int rc2 = PMPI_Gather(&my_size, 1, MPI_UINT64_T, h.size, 1, MPI_UINT64_T, 0, c->node);
        if (rc == MPI_SUCCESS) rc = rc2;
    } else if (h.size)
        for (int j = 0; j < c->node_size; j++) h.size[j] = my_size;
    if (rc == MPI_SUCCESS && h.node_offset) {
        if (at_root) pc_blocks_node_offsets(a, &a->rblocks, h.node_offset);
        else if (!a->vform)
            for (int k = 0; k <= c->nnodes; k++) h.node_offset[k] = (size_t)c->node_first[k] * my_bytes;
    }
    if (a->vform && at_root && !is_leader && rc == MPI_SUCCESS)
        rc = pc_send(h.node_offset, (size_t)(c->nnodes + 1) * sizeof *h.node_offset, root_leader,
                     PC_TAG_GATHER_SIZES, c->comm);
    if (a->vform && me == root_leader && !at_root && rc == MPI_SUCCESS)
        rc = pc_recv(h.node_offset, (size_t)(c->nnodes + 1) * sizeof *h.node_offset, a->root, PC_TAG_GATHER_SIZES,
                     c->comm);
    size_t share_bytes = 0;
    for (int j = 0; h.size && j < c->node_size; j++) share_bytes += (size_t)h.size[j];
    if (rc == MPI_SUCCESS && is_leader && (share_bytes > (size_t)INT_MAX ||
                                           (me == root_leader && h.node_offset[c->nnodes] > (size_t)INT_MAX)))
        rc = MPI_ERR_COUNT;
    /* buffers: the whole node-ordered result where it ends up, else my node's share */
    size_t total = h.node_offset ? h.node_offset[c->nnodes] : 0;
    if (rc == MPI_SUCCESS && (me == root_leader || (at_root && !is_leader))) {
        h.result = malloc(total ? total : 1);
        if (!h.result) rc = MPI_ERR_NO_MEM;
    } else if (rc == MPI_SUCCESS && is_leader) {
        h.share = malloc(share_bytes ? share_bytes : 1);
        if (!h.share) rc = MPI_ERR_NO_MEM;
    }
    if (rc == MPI_SUCCESS)
        rc = copy_in(a, &h, mine, my_bytes,
                     me == root_leader ? h.result + h.node_offset[root_node] : h.share);
    if (rc == MPI_SUCCESS && is_leader) rc = leaders_gather(a, &h, share_bytes);
    if (rc == MPI_SUCCESS && me == root_leader && !at_root)
        rc = pc_send(h.result, total, a->root, PC_TAG_GATHER_NODE, c->comm);
    if (rc == MPI_SUCCESS && at_root && !is_leader) rc = pc_recv(h.result, total, root_leader, PC_TAG_GATHER_NODE, c->comm);
    if (rc == MPI_SUCCESS && at_root) reorder(a, h.result);
    hier_free(&h);
    return rc;
}
