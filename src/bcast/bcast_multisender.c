/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * multisender - pipelined binomial tree of nodes in which every process of a
 * node sends its share of the pieces, all from the one shared buffer.
 *
 *   node X (parent)                       node Y (child)
 *   process k%|X| sends piece k  ------>  process k%|Y| receives piece k into the ring
 *   every process of Y copies every piece out; process k%|Y| forwards piece k to Y's children
 *
 * Pieces are the node ring's cells (PAPCOLL_SHM_CELL); the message moves in
 * chunks of the ring's size.  On the root's node the root copies the message in.
 * Cost (Hockney, balanced, N nodes of c processes, k = m / cell pieces):
 * about ceil(log2 N)(alpha + beta m / min(k, c)) when the node's network can
 * carry c concurrent senders: every process drives part of the node's traffic.
 * Late arrival: not arrival-tolerant: every process is a sender and a
 * receiver, so a late process delays its pieces on its node and every node
 * below it (the price of using all senders).
 * Parameters: PAPCOLL_SHM_CELL (piece size), PAPCOLL_SHM_SIZE.
 * Source: Parsons 2015 §2.3.2 (multi-sender inter-node communication:
 * pipelined binomial broadcast, each sender one segment of the buffer).
 */
#include "node/node.h"
#include "core/p2p.h"

#include <stdlib.h>

/* The process of node n that handles piece k. */
static int member_for(const pc_comm_t *c, int n, size_t k)
{
    int size = c->node_first[n + 1] - c->node_first[n];
    return c->node_members[c->node_first[n] + (int)(k % (size_t)size)];
}

static size_t piece_len(const pc_node_call_t *nc, size_t k)
{
    size_t cell = pc_shm_cell_size(nc->shm);
    return pc_min_size(cell, nc->a->bytes - k * cell);
}

/* Phase A: the pieces of [first, last) this process brings onto its node. */
static int bring_in(const pc_node_call_t *nc, const pc_tree_t *t, size_t first, size_t last, MPI_Request *req)
{
    const pc_comm_t *c = nc->a->ctx;
    int n = 0, rc = MPI_SUCCESS;
    size_t *piece = malloc((last - first) * sizeof *piece);
    if (!piece) return MPI_ERR_NO_MEM;
    for (size_t k = first; k < last && rc == MPI_SUCCESS; k++) {
        if (c->rank == nc->a->root) {
            pc_shm_copy(pc_shm_acquire(nc->shm, k), (char *)nc->a->buf + k * pc_shm_cell_size(nc->shm),
                        piece_len(nc, k), nc->shm);
            pc_shm_publish(nc->shm, nc->seq, k, piece_len(nc, k));
        } else if (t->parent >= 0 && member_for(c, c->my_node, k) == c->rank) {
            piece[n] = k;
            rc = pc_irecv(pc_shm_acquire(nc->shm, k), piece_len(nc, k), member_for(c, t->parent, k),
                          PC_TAG_MULTISENDER, c->comm, &req[n]);
            n++;
        }
    }
    for (int done = 0; done < n && rc == MPI_SUCCESS; done++) { /* publish each as it lands */
        int i;
        rc = PMPI_Waitany(n, req, &i, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) pc_shm_publish(nc->shm, nc->seq, piece[i], piece_len(nc, piece[i]));
    }
    free(piece);
    return rc;
}

/* Phase B: forward my share of [first, last) to the child nodes. */
static int forward(const pc_node_call_t *nc, const pc_tree_t *t, size_t first, size_t last, MPI_Request *req, int *n)
{
    const pc_comm_t *c = nc->a->ctx;
    int rc = MPI_SUCCESS;
    for (size_t k = first; k < last && t->nchildren && rc == MPI_SUCCESS; k++) {
        if (member_for(c, c->my_node, k) != c->rank) continue;
        const char *cell = pc_shm_wait_piece(nc->shm, nc->seq, k);
        for (int ch = 0; ch < t->nchildren && rc == MPI_SUCCESS; ch++)
            rc = pc_isend(cell, piece_len(nc, k), member_for(c, t->children[ch], k), PC_TAG_MULTISENDER, c->comm,
                          &req[(*n)++]);
    }
    return rc;
}

int pc_bcast_multisender(const pc_call_t *a)
{
    pc_node_call_t nc;
    pc_tree_t tree = {0};
    int rc = pc_node_begin(a, &nc);
    if (rc == MPI_SUCCESS) rc = pc_node_tree(&nc, PC_TREE_BINOMIAL, &tree);
    if (rc != MPI_SUCCESS) return rc;
    size_t chunk = pc_shm_ncells(nc.shm);
    MPI_Request *req = malloc(chunk * (size_t)(tree.nchildren + 1) * sizeof *req);
    if (!req) rc = MPI_ERR_NO_MEM;
    for (size_t first = 0; first < nc.npieces && rc == MPI_SUCCESS; first += chunk) {
        size_t last = pc_min_size(first + chunk, nc.npieces);
        int nsend = 0;
        rc = bring_in(&nc, &tree, first, last, req);
        if (rc == MPI_SUCCESS) rc = forward(&nc, &tree, first, last, req, &nsend);
        if (rc == MPI_SUCCESS && a->ctx->rank != a->root) /* copy out, releasing later (my sends read the cells) */
            for (size_t k = first; k < last; k++)
                pc_shm_copy((char *)a->buf + k * pc_shm_cell_size(nc.shm), pc_shm_wait_piece(nc.shm, nc.seq, k),
                            piece_len(&nc, k), nc.shm);
        if (rc == MPI_SUCCESS) rc = pc_waitall(nsend, req, MPI_STATUSES_IGNORE);
        pc_shm_release_pieces(nc.shm, first, last);
    }
    free(req);
    pc_tree_free(&tree);
    return rc;
}
