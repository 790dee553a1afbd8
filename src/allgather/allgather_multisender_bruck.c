/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * multisender_bruck - the universal hierarchical allgather with a k-ary,
 * multi-sender Bruck among nodes: every process copies its block into its
 * node's share of a node-ordered result held in node shared memory
 * (allgather/common/node_share.h); then in round i every node sends the shares it
 * has gathered so far to the k - 1 nodes at distances j k^i (j = 1 .. k - 1)
 * before it and receives as many from the nodes j k^i after it, S = k - 1
 * processes of the node at once (sender s handles j = s + 1), all sending
 * from the shared buffer and receiving into it; after ceil(log_k N) rounds
 * every node has every share and each process copies the result out in
 * rank order.
 *
 *   N = 9 nodes of 2 processes, S = 2 (k = 3), node 0's view (shares it holds):
 *     round 0  s0: -> node 8, <- node 1;  s1: -> node 7, <- node 2    [0 1 2]
 *     round 1  s0: [0 1 2] -> node 6, <- [3 4 5] from node 3;
 *              s1: [0 1 2] -> node 3, <- [6 7 8] from node 6          [0 .. 8]
 *   Bruck with one sender: ceil(log2 9) = 4 rounds; here 2.
 *
 * The shares travel in each node's rotated order (its own first), so what a
 * node has gathered is one range of its bank and lands as one range in the
 * receiver's; copy-out reads every share where it is (no rotation).
 * Round i + 1 of a sender starts when every sender of its node has
 * finished round i (its data is in the shared buffer): a mark per round and
 * sender in the node exchange area.
 * Cost (Hockney, m bytes gathered in all, N nodes of q processes, mu per
 * byte copied): ceil(log_k N) rounds of alpha + (shares gathered) beta, in
 * all (N - 1)/N m beta per node spread over S senders at once: Parsons 2015's
 * point is that S senders drive the network harder than one (injection
 * bandwidth, multiple rails) where Bruck's leader sends alone and needs
 * ceil(log2 N) rounds; plus m/q mu copy-in and m mu copy-out per process and
 * a node synchronization per round.  A result larger than a bank runs as
 * ceil(largest share / w) such allgathers (chunks, w from the bank size:
 * allgather/common/node_share.h), each paying the rounds' alphas again.
 * Late arrival: nothing leaves a node before all its processes have copied
 * in, and a late sender holds up its node's next round (and so every node
 * after it): like hier, plus the senders' dependence on each other.
 * Limitations: S is capped by the smallest node's size (a node with fewer
 * processes limits every node's senders) and by N - 1; the last round may
 * keep fewer than S senders busy (distances j k^i >= N are idle).
 * Parsons 2015's senders are threads of one process; here they are the
 * node's MPI processes.
 * Parameters: PAPCOLL_ALLGATHER_SENDERS (0 = all processes of the smallest
 * node, Parsons 2015's choice: "all of our multi-sender results use all
 * processes as senders"), PAPCOLL_EXCHANGE_AREA (the node exchange
 * area: two banks, each as large as the result up to half of it); under SMPI PAPCOLL_SIM_MEMBW charges the copies.
 * Source: Parsons 2015 §2.3.2 (multi-sender inter-node communication:
 * "for Bruck's algorithm the multi-sender version uses a k-ary style
 * modification ... each sender transmits the buffer, reducing the number of
 * rounds"), results 2.5.2 (Table 2.2, Allgather-Small); Bruck et al., IEEE
 * TPDS 8(11) 1997 (the k-port dissemination this is).
 */
#include "allgather/common/node_share.h"

typedef struct {
    int senders, radix, rounds;
} bruck_t;

/* Sender s (node rank s < S): round i exchanges with the nodes (s + 1) k^i
 * before and after mine. */
static int exchange(pc_ag_share_t *sh, int rc, const void *arg)
{
    const bruck_t *b = arg;
    int s = sh->c->node_rank;
    if (s >= b->senders) return rc;
    if (rc == MPI_SUCCESS) pc_ag_share_wait_staged(sh);
    long dist = 1;
    for (int i = 0; i < b->rounds; i++, dist *= b->radix) {
        /* every sender's round i - 1 landed; an error there is reported by its mark of the last round */
        if (i > 0 && rc == MPI_SUCCESS) (void)pc_ag_share_wait_marks(sh, i - 1, b->senders);
        long off = (long)(s + 1) * dist;
        if (rc == MPI_SUCCESS && off < sh->N) {
            int d = (int)off, n = dist < sh->N - off ? (int)dist : sh->N - d, nreq = 0;
            MPI_Request req[2];
            rc = pc_ag_share_post(sh, 0, n, pc_ag_share_member(sh, pc_ag_share_node_at(sh, -d), s), d, n,
                                  pc_ag_share_member(sh, pc_ag_share_node_at(sh, d), s), PC_TAG_ALLGATHER_MS_BRUCK,
                                  req, &nreq);
            rc = pc_ag_share_waitall(req, nreq, rc);
        }
        pc_ag_share_mark(sh, i, s, rc);
    }
    return rc;
}

int pc_allgather_multisender_bruck(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    bruck_t b = {c->node_size, 0, 0};
    for (int k = 0; k < c->nnodes; k++)
        if (c->node_first[k + 1] - c->node_first[k] < b.senders) b.senders = c->node_first[k + 1] - c->node_first[k];
    if (a->params->allgather.senders > 0 && a->params->allgather.senders < b.senders)
        b.senders = (int)a->params->allgather.senders;
    if (b.senders > c->nnodes - 1) b.senders = c->nnodes - 1;
    b.radix = b.senders + 1;
    for (long reach = 1; reach < c->nnodes; reach *= b.radix) b.rounds++;
    pc_ag_share_plan_t plan = {b.rounds, b.senders, exchange, &b};
    return pc_ag_share_run(a, "multisender_bruck", &plan);
}
