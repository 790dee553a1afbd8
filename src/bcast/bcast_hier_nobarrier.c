/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier_nobarrier - the "intra-node optimized" hierarchical broadcast: fixed
 * node leaders (the lowest rank of each node) and no barriers.  On the
 * root's node the root copies the message into the node ring and its other
 * processes copy out as soon as each piece is valid; that node's leader then
 * runs PAPCOLL_BCAST_INTER among the leaders; every other leader copies what
 * it received into its ring, where its node's processes copy it out and leave.
 *
 *   root -> ring -> (root node's processes, leader) -> inter-node -> leader -> ring -> processes
 *
 * Cost (Hockney, balanced): as hier without the barriers: the inter-node
 * algorithm + one copy-in and one copy-out of m, pieces of PAPCOLL_SHM_CELL
 * pipelined through the ring.
 * Late arrival: a process waits only for its node's data; an early process
 * leaves before later ones arrive.  A late (fixed) leader still delays its
 * node and everything below it: dynleader removes that.
 * Limitations: a message larger than PAPCOLL_SHM_SIZE makes each writer (the
 * root, the leaders) wait for its node's slowest process to free ring cells.
 * With PAPCOLL_BCAST_COPYOUT=bcast|numa the copy-out is a tree of MPI
 * messages (node/node_copyout.h) and a late reader holds back its subtree;
 * a root that leads its node sends down its node's tree only after the
 * inter-node phase, so its node's late readers do not delay other nodes (a
 * root that does not lead sends first: its node's leader is in its tree).
 * Parameters: PAPCOLL_BCAST_INTER, PAPCOLL_BCAST_COPYOUT, PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL.
 * Source: Parsons 2015 §3.7.2 ("intra-node optimized" broadcast).
 */
#include "node/node.h"
#include "core/phase.h"

int pc_bcast_hier_nobarrier(const pc_call_t *a)
{
    pc_node_call_t nc;
    int rc = pc_node_begin(a, &nc);
    if (rc == MPI_SUCCESS) rc = pc_node_copyout_enable(&nc, 0);
    if (rc != MPI_SUCCESS) return rc;
    const pc_comm_t *c = a->ctx;
    int is_root = c->rank == a->root, is_leader = c->node_rank == 0, on_root_node = c->my_node == nc.root_node;
    if (is_leader && c->nnodes > 1) pc_phase_mark_leader();
    /* a tree copy-out's sends wait for late readers (rendezvous): a root that
     * leads its node serves the other nodes first */
    int tree_root_leader = is_root && is_leader && nc.co.variant != PC_COPYOUT_MEMCPY;
    if (tree_root_leader) pc_copyout_put(&nc.co, 0, nc.npieces);
    else if (is_root) rc = pc_node_copy_in(&nc, 0, nc.npieces);
    else if (on_root_node || !is_leader) rc = pc_node_copy_out(&nc);
    if (is_leader) {
        int irc = pc_bcast_bytes_on(a->params->bcast.inter, a->buf, a->bytes, nc.root_node, c->leaders);
        if (rc == MPI_SUCCESS) rc = irc;
    }
    if (tree_root_leader) {
        int src = pc_copyout_send(&nc.co, 0, nc.npieces);
        if (rc == MPI_SUCCESS) rc = src;
    }
    if (is_leader && !on_root_node) { /* even after an error: nobody hangs */
        int crc = pc_node_copy_in(&nc, 0, nc.npieces);
        if (rc == MPI_SUCCESS) rc = crc;
    }
    return rc;
}
