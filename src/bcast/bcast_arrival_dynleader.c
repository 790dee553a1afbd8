/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * arrival_dynleader - arrival_b among nodes whose leaders are dynamic: the
 * first process to arrive on each node claims it and announces itself
 * (ARRIVED) to the root; the root serves the node leaders that have arrived,
 * group after group, with arrival_b's sub-group broadcast (bcast/common/group.c: a
 * pipelined chain in arrival order or a binomial tree below the first
 * member, whichever the alpha-beta model finds faster; the group's list
 * travels in a header ahead of the data); each leader copies the message
 * into its node ring, where its node's processes copy it out.
 *
 *   root: wait ARRIVED {L5, L2, L7, L1} -> tree root -> L5 -> {L2, L7 -> L1} ; wait {L3} -> root -> L3 ; ...
 *   Lx: its part of the group broadcast, then copy-in; node processes: copy-out and leave
 *
 * Cost (Hockney, balanced, N nodes, one round): the lower of the chain's
 * (N - 2 + k)(alpha + beta m/k) and the tree's (1 + ceil(log2(N-1)))(alpha +
 * beta m), + one copy-in and one copy-out of m; one control message per node
 * (the root's N - 1 receives, then the group's headers).  Balanced arrivals
 * may come in a few rounds: a node leader announcing itself while the root
 * serves a group waits for the next one.
 * Late arrival: a node is served as soon as its first process arrives (an
 * early node waits at most about one round), its other processes copy out
 * and leave; the root leaves when every node has been served.
 * Limitations: a leader copies into the ring after its part of the group
 * broadcast (no overlap of the copy with the transfer); the root scans N
 * requests per round.
 * Parameters: as arrival_b (segment size with the group size as depth,
 * PAPCOLL_ALPHA / _BETA for chain or tree, PAPCOLL_ARRIVAL_WINDOW,
 * PAPCOLL_ARRIVAL_SAG_MIN / _SAG_BYTES), PAPCOLL_MAX_INFLIGHT,
 * PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL.
 * Source: Parsons 2015 §3.9.2, Fig. 3.23 ("Pat. Dyn. Lead."); Patarasuk & Yuan 2008 Fig. 5.
 */
#include "node/node.h"
#include "core/p2p.h"

#include <stdlib.h>

static int root(const pc_node_call_t *nc)
{
    const pc_call_t *a = nc->a;
    int n = a->ctx->nnodes - 1, waiting = n, ndone, rc = MPI_SUCCESS;
    long long (*msg)[2] = malloc((size_t)(n + 1) * sizeof *msg);
    MPI_Request *req = malloc((size_t)(n + 1) * sizeof *req);
    int *done = malloc((size_t)(n + 1) * sizeof *done), *members = malloc((size_t)(n + 1) * sizeof *members);
    size_t copied = 0;
    if (!msg || !req || !done || !members) rc = MPI_ERR_NO_MEM;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = PMPI_Irecv(msg[i], 2, MPI_LONG_LONG, MPI_ANY_SOURCE, pc_window_tag(PC_TAG_LEADER_ARRIVED, nc->seq),
                        a->ctx->comm, &req[i]);
    while (rc == MPI_SUCCESS && waiting > 0) {
        while (copied < nc->npieces && pc_shm_try_acquire(nc->shm, copied)) { /* my node, without blocking */
            pc_node_copy_in(nc, copied, copied + 1);
            copied++;
        }
        if ((rc = pc_arrival_round(a, n, req, waiting, done, &ndone)) != MPI_SUCCESS) break;
        for (int i = 0; i < ndone; i++) {
            if (msg[done[i]][0] != (long long)nc->seq) rc = MPI_ERR_INTERN; /* another call's: must not happen */
            members[i] = (int)msg[done[i]][1];
        }
        if (rc == MPI_SUCCESS) rc = pc_group_serve(a, members, ndone);
        waiting -= ndone;
    }
    pc_node_copy_in(nc, copied, nc->npieces);
    free(msg);
    free(req);
    free(done);
    free(members);
    return rc;
}

static int leader(const pc_node_call_t *nc)
{
    const pc_call_t *a = nc->a;
    long long arrived[2] = {(long long)nc->seq, a->ctx->rank};
    long long *hdr = malloc((size_t)(a->ctx->size + PC_HDR_FIXED) * sizeof *hdr);
    int from, rc = hdr ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Send(arrived, 2, MPI_LONG_LONG, a->root, pc_window_tag(PC_TAG_LEADER_ARRIVED, nc->seq),
                       a->ctx->comm);
    /* only this call's header can be addressed to me now: it answers my ARRIVED */
    if (rc == MPI_SUCCESS) rc = pc_group_recv_header(a, hdr, &from);
    if (rc == MPI_SUCCESS) rc = pc_group_join(a, hdr, from);
    pc_node_copy_in(nc, 0, nc->npieces); /* even after an error: my node must not hang */
    free(hdr);
    return rc;
}

int pc_bcast_arrival_dynleader(const pc_call_t *a)
{
    pc_node_call_t nc;
    int rc = pc_node_begin(a, &nc);
    if (rc != MPI_SUCCESS) return rc;
    if (a->ctx->rank == a->root) return root(&nc);
    if (a->ctx->my_node != nc.root_node && pc_shm_claim(nc.shm, nc.seq)) return leader(&nc);
    pc_node_copy_out(&nc);
    return MPI_SUCCESS;
}
