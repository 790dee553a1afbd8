/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the universal hierarchical allgather: the blocks of each node are
 * gathered to its leader (node rank 0), the leaders run any flat allgather
 * on the node-aggregated blocks (PAPCOLL_ALLGATHER_INTER, allgatherv-shaped:
 * nodes may differ in size), and each leader hands the whole result to its
 * node through shared memory, from which every process puts the blocks in
 * rank order.
 *
 *   node A (ranks 0 2), node B (ranks 1 3):
 *     copy-in    A: leader 0 <- b0 b2        B: leader 1 <- b1 b3
 *     leaders    [b0 b2 | b1 b3] on 0 and 1  (node order)
 *     copy-out   node ring -> everyone; blocks reordered to b0 b1 b2 b3
 *
 * Node order keeps each node's share one contiguous range, so the leaders'
 * collective moves whole nodes and ranks may sit on nodes in any pattern.
 * Copy-in goes through the MPI library's intra-node gather (PMPI_Gatherv on
 * the node communicator: its shared-memory path) because blocks do not
 * align with the ring's cells; copy-out is PAPCOLL_ALLGATHER_COPYOUT
 * (node/node_copyout.h): memcpy (default) through the node ring (ctx/shm.h:
 * pipelined in cells, so a result larger than the ring works), bcast (a
 * binomial tree of MPI messages from the leader over the node) or numa (one
 * reader of the ring per NUMA domain, then a tree inside it).
 * Cost (Hockney, m bytes gathered in all, N nodes of q processes, mu per
 * byte copied): copy-in q blocks to the leader, the inter-node allgather on
 * N leaders (recursive doubling: log2 N alpha + (N - 1)/N m beta), then m
 * mu into the ring and 2 m mu out of it per process (ring, then reorder).
 * Against flat: log2 N instead of log2 p latencies, and every inter-node
 * byte crosses the network once per node instead of once per process.
 * Late arrival: allgather's all-to-all dependence (Wait at N x N) plus the
 * node's: a leader starts the inter-node exchange only when its whole node
 * is in, and a late leader holds up its node's copy-out.  Everyone is in
 * before the copy-out starts (the gather), so the copy-out variants differ
 * little here: with bcast/numa a process slow to leave the inter-node phase
 * holds back its tree subtree.
 * Limitations: node shares and node-ordered displacements above INT_MAX
 * bytes run ring over the whole communicator instead (logged).
 * Parameters: PAPCOLL_ALLGATHER_INTER (default auto), PAPCOLL_ALLGATHER_COPYOUT,
 * PAPCOLL_NUMA_DOMAINS, PAPCOLL_SHM_SIZE /
 * PAPCOLL_SHM_CELL (the ring); under SMPI PAPCOLL_SIM_MEMBW charges copies.
 * Source: Parsons 2015 §2.3, Fig. 2.1 (universal hierarchical
 * algorithm: copy-in, ANY flat collective among leaders, copy-out).
 */
#include "allgather/allgather.h"
#include "core/log.h"
#include "ctx/shm.h"
#include "node/node_copyout.h"

#include <limits.h>
#include <stdlib.h>

typedef struct {
    size_t *node_offset;   /* [nnodes + 1]: node k's share in the node-ordered result */
    int *counts, *displs;  /* [node_size]: my node's blocks in its share (bytes) */
    char *result;          /* node-ordered result (every process: the ring's copy) */
} hier_t;

static void hier_free(hier_t *h)
{
    free(h->node_offset);
    free(h->counts);
    free(h->displs);
    free(h->result);
}

/* The node-ordered layout; 0 when a node's share or an offset does not fit an int. */
static int layout(const pc_call_t *a, hier_t *h)
{
    const pc_comm_t *c = a->ctx;
    pc_blocks_node_offsets(a, &a->rblocks, h->node_offset);
    if (h->node_offset[c->nnodes] > (size_t)INT_MAX) return 0;
    for (int j = 0, pos = 0; j < c->node_size; j++) {
        int r = c->node_members[c->node_first[c->my_node] + j];
        h->counts[j] = (int)pc_blocks_span(&a->rblocks, r, r);
        h->displs[j] = pos;
        pos += h->counts[j];
    }
    return 1;
}

/* The node-ordered result into the blocks, in rank order. */
static void reorder(const pc_call_t *a, const hier_t *h, const pc_shm_t *shm)
{
    const pc_comm_t *c = a->ctx;
    const char *from = h->result;
    for (int j = 0; j < c->size; j++) {
        int r = c->node_members[j];
        size_t len = pc_blocks_span(&a->rblocks, r, r);
        if (r != c->rank) pc_shm_copy(pc_blocks_at(&a->rblocks, r), from, len, shm);
        from += len;
    }
}

int pc_allgather_hier(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    hier_t h = {malloc((size_t)(c->nnodes + 1) * sizeof(size_t)), malloc((size_t)c->node_size * sizeof(int)),
                malloc((size_t)c->node_size * sizeof(int)), malloc(a->bytes)};
    pc_shm_t *shm;
    int rc = h.node_offset && h.counts && h.displs && h.result ? pc_shm_get(a->ctx, &shm) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && !layout(a, &h)) {
        if (c->rank == 0)
            pc_log(PC_LOG_WARN, "allgather hier: %zu bytes do not fit int displacements: ring over the whole "
                   "communicator", a->bytes);
        hier_free(&h);
        return pc_allgather_ring(a);
    }
    if (rc != MPI_SUCCESS) {
        hier_free(&h);
        return rc;
    }
    pc_copyout_t co; /* the leader (node rank 0) writes; numa: the node agrees on its domains the first time */
    rc = pc_copyout_init(&co, a->ctx, shm, a->seq, pc_copyout_variant(a->params->allgather.copyout),
                         a->params->numa_domains, 0, h.result, a->bytes);
    if (rc != MPI_SUCCESS) {
        hier_free(&h);
        return rc;
    }
    int is_leader = c->node_rank == 0;
    char *my_share = h.result + h.node_offset[c->my_node];
    rc = PMPI_Gatherv(pc_blocks_at(&a->rblocks, c->rank), h.counts[c->node_rank], MPI_BYTE, my_share, h.counts, h.displs,
                      MPI_BYTE, 0, c->node);
    if (is_leader && c->nnodes > 1 && rc == MPI_SUCCESS)
        rc = pc_allgather_on(a, a->params->allgather.inter, h.result, h.node_offset, c->leaders);
    /* copy-out: even after an error the leader fills the ring, so its node does not hang */
    size_t npieces = pc_shm_pieces(shm, a->bytes);
    int crc;
    if (is_leader) {
        pc_copyout_put(&co, 0, npieces);
        crc = pc_copyout_send(&co, 0, npieces);
    } else {
        crc = pc_copyout_get(&co, 0, npieces);
    }
    if (rc == MPI_SUCCESS) rc = crc;
    if (rc == MPI_SUCCESS) reorder(a, &h, shm);
    hier_free(&h);
    return rc;
}
