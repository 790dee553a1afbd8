/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - the naive hierarchical broadcast: shared-memory copy-in on the
 * root's node, any flat broadcast among fixed node leaders (the lowest rank
 * of each node), shared-memory copy-out, with node barriers between phases.
 *
 *   root: copy-in | barrier | leaders: PAPCOLL_BCAST_INTER among nodes | barrier | all: copy-out
 *
 * The message goes through the node ring in chunks of PAPCOLL_SHM_SIZE; each
 * chunk runs the three phases.
 * Cost (Hockney, balanced): the inter-node algorithm on N leaders (binomial:
 * ceil(log2 N)(alpha + beta m)) + a copy-in and a copy-out of m + two node
 * barriers per chunk.
 * Late arrival: every phase waits for the whole node (barriers), so a node
 * moves at the pace of its last process, and a late leader holds back every
 * node below it: the baseline the other hierarchical algorithms improve on.
 * Copy-out: PAPCOLL_BCAST_COPYOUT (node/node_copyout.h): memcpy, every
 * process copies each chunk out of the ring; bcast, numa: trees of MPI
 * messages from each node's writer, after the barrier its readers wait at.
 * Parameters: PAPCOLL_BCAST_INTER (default binomial; native allowed),
 * PAPCOLL_BCAST_COPYOUT, PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL.
 * Source: Parsons 2015 §2.3, Fig. 2.1 (universal hierarchical algorithm);
 * section 3.7.2 (the naive hierarchical baseline with barriers).
 */
#include "node/node.h"
#include "core/p2p.h"
#include "core/phase.h"

/* The phases of one chunk with a tree copy-out (node/node_copyout.h): the
 * writer of each node (the root, the leader) sends down its node's tree
 * after the barrier its readers wait at; the root's node copies out before
 * the inter-node phase (its leader needs the chunk), the others after. */
static int chunk_tree(const pc_node_call_t *nc, size_t first, size_t last, size_t off, size_t len)
{
    const pc_call_t *a = nc->a;
    const pc_comm_t *c = a->ctx;
    int is_root = c->rank == a->root, is_leader = c->node_rank == 0, on_root_node = c->my_node == nc->root_node;
    if (is_leader && c->nnodes > 1) pc_phase_mark_leader();
    if (is_root) pc_copyout_put(&nc->co, first, last);
    pc_shm_barrier(nc->shm);
    int rc = MPI_SUCCESS;
    if (on_root_node) rc = is_root ? pc_copyout_send(&nc->co, first, last) : pc_copyout_get(&nc->co, first, last);
    if (is_leader) {
        int irc = pc_bcast_bytes_on(a->params->bcast.inter, (char *)a->buf + off, len, nc->root_node, c->leaders);
        if (rc == MPI_SUCCESS) rc = irc;
    }
    if (is_leader && !on_root_node) pc_copyout_put(&nc->co, first, last);
    pc_shm_barrier(nc->shm); /* reached even after an error: the node must not hang */
    if (!on_root_node) {
        int crc = is_leader ? pc_copyout_send(&nc->co, first, last) : pc_copyout_get(&nc->co, first, last);
        if (rc == MPI_SUCCESS) rc = crc;
    }
    return rc;
}

int pc_bcast_hier(const pc_call_t *a)
{
    pc_node_call_t nc;
    int rc = pc_node_begin(a, &nc);
    if (rc == MPI_SUCCESS) rc = pc_node_copyout_enable(&nc, 0);
    if (rc != MPI_SUCCESS) return rc;
    const pc_comm_t *c = a->ctx;
    int is_root = c->rank == a->root, is_leader = c->node_rank == 0, on_root_node = c->my_node == nc.root_node;
    if (is_leader && c->nnodes > 1) pc_phase_mark_leader();
    size_t per_chunk = pc_shm_ncells(nc.shm), cell = pc_shm_cell_size(nc.shm);
    for (size_t first = 0; first < nc.npieces && rc == MPI_SUCCESS; first += per_chunk) {
        size_t last = pc_min_size(first + per_chunk, nc.npieces);
        size_t off = first * cell, len = pc_min_size(last * cell, a->bytes) - off;
        if (nc.co.variant != PC_COPYOUT_MEMCPY) {
            rc = chunk_tree(&nc, first, last, off, len);
            continue;
        }
        if (is_root) pc_node_copy_in(&nc, first, last);
        pc_shm_barrier(nc.shm);
        int has_read = on_root_node && is_leader && !is_root;
        if (has_read) pc_shm_get_pieces(nc.shm, nc.seq, a->buf, a->bytes, first, last);
        if (is_leader) rc = pc_bcast_bytes_on(a->params->bcast.inter, (char *)a->buf + off, len, nc.root_node, c->leaders);
        if (is_leader && !on_root_node) pc_node_copy_in(&nc, first, last);
        pc_shm_barrier(nc.shm); /* reached even after an error: the node must not hang */
        if (!is_root && !has_read && !(is_leader && !on_root_node))
            pc_shm_get_pieces(nc.shm, nc.seq, a->buf, a->bytes, first, last);
    }
    return rc;
}
