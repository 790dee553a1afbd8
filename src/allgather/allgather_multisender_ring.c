/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * multisender_ring - the universal hierarchical allgather with a two-way
 * ring of nodes and two senders per node: every process copies its block
 * into its node's share of a node-ordered result held in node shared memory
 * (allgather/common/node_share.h); node rank 0 passes shares rightwards round the
 * ring of nodes (to node + 1, from node - 1) and node rank 1 leftwards, both
 * sending from the shared buffer and receiving into it, the rightward
 * direction ceil((N - 1)/2) steps, the leftward floor((N - 1)/2); then each
 * process copies the result out in rank order.  A node of one process runs
 * both directions itself (nonblocking, both in flight at once).
 *
 *   N = 5 nodes, node 0's shares as they arrive:
 *     step 0  right <- share 4 (from node 4)   left <- share 1 (from node 1)
 *     step 1  right <- share 3                 left <- share 2
 *   one-way ring: 4 steps; here 2.
 *
 * Each direction forwards in step t what the same process received in step
 * t - 1, so the two senders never wait for each other; the node's result is
 * complete when both have marked their direction done (node exchange area).
 * Cost (Hockney, m bytes gathered in all, N nodes, mu per byte copied):
 * ceil((N - 1)/2) (alpha + m/N beta) with two messages leaving and two
 * arriving per node at once, against hier with ring's (N - 1)(alpha + m/N
 * beta); still nearest-neighbour traffic only (each link carries one
 * message per direction at a time, the ring's low contention kept: Parsons 2015's
 * reason for this shape); plus m/q mu copy-in and m mu copy-out per
 * process.  A result larger than a bank runs as chunks (each chunk an
 * allgather of one slice of every share: allgather/common/node_share.h).
 * Late arrival: nothing leaves a node before all its processes have copied
 * in (any late process holds up its node's two senders); a late node then
 * holds up its neighbours and, step by step, everyone, like ring, but with
 * about half the steps after it.
 * Limitations: two senders only (Parsons 2015's: "this method only works with
 * two senders per node"); the other processes of a node only copy.
 * Parameters: PAPCOLL_EXCHANGE_AREA (the node exchange area: two banks,
 * each as large as the result up to half of it); under SMPI PAPCOLL_SIM_MEMBW charges the copies.
 * Source: Parsons 2015 §2.3.2 (multi-sender inter-node communication:
 * "the multi-sender version ... still using nearest neighbor communication,
 * but with a two-way ring"), results 2.5.2 (Table 2.2, Allgather-Large);
 * the ring itself: MPICH allgather_intra_ring.c.
 */
#include "allgather/common/node_share.h"

/* The process of `node` that runs the leftward direction. */
static int left_member(const pc_ag_share_t *sh, int node)
{
    return pc_ag_share_member(sh, node, pc_ag_share_node_size(sh, node) > 1 ? 1 : 0);
}

/* Node rank 0: rightwards; node rank 1 (node rank 0 when alone): leftwards. */
static int exchange(pc_ag_share_t *sh, int rc, const void *arg)
{
    (void)arg;
    int me = sh->c->node_rank, N = sh->N, alone = sh->c->node_size == 1;
    int right = me == 0, left = me == 1 || alone;
    if (!right && !left) return rc;
    if (rc == MPI_SUCCESS) pc_ag_share_wait_staged(sh);
    int next = pc_ag_share_node_at(sh, 1), prev = pc_ag_share_node_at(sh, -1);
    int right_steps = N / 2, left_steps = (N - 1) / 2; /* right_steps + left_steps = N - 1 */
    for (int t = 0; t < right_steps && rc == MPI_SUCCESS; t++) {
        MPI_Request req[4];
        int nreq = 0;
        if (right) /* send relative share -t (mine first), receive relative share -t - 1 */
            rc = pc_ag_share_post(sh, (N - t) % N, 1, pc_ag_share_member(sh, next, 0), N - 1 - t, 1,
                                  pc_ag_share_member(sh, prev, 0), PC_TAG_ALLGATHER_MS_RIGHT, req, &nreq);
        if (left && t < left_steps && rc == MPI_SUCCESS) /* send relative share t, receive t + 1 */
            rc = pc_ag_share_post(sh, t, 1, left_member(sh, prev), t + 1, 1, left_member(sh, next),
                                  PC_TAG_ALLGATHER_MS_LEFT, req, &nreq);
        rc = pc_ag_share_waitall(req, nreq, rc);
    }
    pc_ag_share_mark(sh, 0, me, rc);
    return rc;
}

int pc_allgather_multisender_ring(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    pc_ag_share_plan_t plan = {1, c->nnodes > 1 ? (c->node_size > 1 ? 2 : 1) : 0, exchange, NULL};
    return pc_ag_share_run(a, "multisender_ring", &plan);
}
