/*
 * arrival_dynleader - arrival_b among nodes whose leaders are dynamic: the
 * first process to arrive on each node claims it and announces itself
 * (ARRIVED) to the root; the root serves the node leaders that have arrived,
 * group after group, with a pipelined chain in arrival order (the group's
 * list travels in a header ahead of the data); each leader copies the
 * message into its node ring, where its node's processes copy it out.
 *
 *   root: wait ARRIVED {L5, L2} -> chain root -> L5 -> L2 ; wait {L7} -> root -> L7 ; ...
 *   Lx: relay the chain, then copy-in; node processes: copy-out and leave
 *
 * Cost (Hockney, balanced, N nodes, one round): (N - 2 + k)(alpha + beta m/k)
 * + one copy-in and one copy-out of m; one control message per node.
 * Late arrival: a node is served as soon as its first process arrives (an
 * early node waits at most about one round), its other processes copy out
 * and leave; the root leaves when every node has been served.
 * Limitations: a leader copies into the ring after relaying (no overlap of
 * the copy with the transfer); the root scans N requests per round.
 * Parameters: segment size as arrival_b (model with the group size as
 * depth), PAPCOLL_MAX_INFLIGHT, PAPCOLL_SHM_SIZE, PAPCOLL_SHM_CELL.
 * Source: seed 001 section 3.9.2, Fig. 3.23 ("Pat. Dyn. Lead."); seed 002 Fig. 5.
 */
#include "node/node.h"
#include "core/p2p.h"
#include "sched/tree_engine.h"

#include <stdlib.h>

enum { HDR_SEQ, HDR_SEGSIZE, HDR_COUNT, HDR_FIXED }; /* then the successors */

static int relay(const pc_node_call_t *nc, const long long *hdr, int from)
{
    const pc_call_t *a = nc->a;
    long long count = hdr[HDR_COUNT];
    int rc = MPI_SUCCESS, next = count > 0 ? (int)hdr[HDR_FIXED] : -1;
    if (next >= 0) { /* the successor gets {seq, segsize, count - 1, the rest} */
        long long *fwd = malloc((size_t)(HDR_FIXED + count) * sizeof *fwd);
        if (!fwd) return MPI_ERR_NO_MEM;
        fwd[HDR_SEQ] = hdr[HDR_SEQ], fwd[HDR_SEGSIZE] = hdr[HDR_SEGSIZE], fwd[HDR_COUNT] = count - 1;
        for (long long i = 1; i < count; i++) fwd[HDR_FIXED + i - 1] = hdr[HDR_FIXED + i];
        rc = PMPI_Send(fwd, (int)(HDR_FIXED + count - 1), MPI_LONG_LONG, next, PC_TAG_GROUP_HEADER, a->ctx->comm);
        free(fwd);
    }
    pc_tree_t link = {.parent = from, .nchildren = next >= 0, .children = &next, .height = (int)count + 1};
    if (rc == MPI_SUCCESS)
        rc = pc_tree_bcast(a->buf, a->bytes, (size_t)hdr[HDR_SEGSIZE], &link, PC_SEND_NONBLOCKING,
                           (int)a->params->max_inflight, a->ctx->comm, PC_TAG_NODE_DATA);
    return rc;
}

static int root(const pc_node_call_t *nc)
{
    const pc_call_t *a = nc->a;
    int n = a->ctx->nnodes - 1, waiting = n, ndone, rc = MPI_SUCCESS;
    long long (*msg)[2] = malloc((size_t)(n + 1) * sizeof *msg);
    MPI_Request *req = malloc((size_t)(n + 1) * sizeof *req);
    int *done = malloc((size_t)(n + 1) * sizeof *done);
    long long *hdr = malloc((size_t)(n + HDR_FIXED) * sizeof *hdr);
    size_t copied = 0;
    if (!msg || !req || !done || !hdr) rc = MPI_ERR_NO_MEM;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = PMPI_Irecv(msg[i], 2, MPI_LONG_LONG, MPI_ANY_SOURCE, pc_window_tag(PC_TAG_LEADER_ARRIVED, nc->seq),
                        a->ctx->comm, &req[i]);
    while (rc == MPI_SUCCESS && waiting > 0) {
        while (copied < nc->npieces && pc_shm_try_acquire(nc->shm, copied)) { /* my node, without blocking */
            pc_node_copy_in(nc, copied, copied + 1);
            copied++;
        }
        if ((rc = PMPI_Waitsome(n, req, &ndone, done, MPI_STATUSES_IGNORE)) != MPI_SUCCESS) break;
        for (int i = 0; i < ndone; i++) {
            if (msg[done[i]][0] != (long long)nc->seq) rc = MPI_ERR_INTERN; /* another call's: must not happen */
            hdr[HDR_FIXED + i] = msg[done[i]][1];
        }
        hdr[HDR_SEQ] = (long long)nc->seq, hdr[HDR_COUNT] = ndone;
        hdr[HDR_SEGSIZE] = (long long)pc_bcast_segsize(a->params, a->bytes, ndone + 1);
        if (rc == MPI_SUCCESS) rc = relay(nc, hdr, -1);
        waiting -= ndone;
    }
    pc_node_copy_in(nc, copied, nc->npieces);
    free(msg);
    free(req);
    free(done);
    free(hdr);
    return rc;
}

static int leader(const pc_node_call_t *nc)
{
    const pc_call_t *a = nc->a;
    long long arrived[2] = {(long long)nc->seq, a->ctx->rank};
    long long *hdr = malloc((size_t)(a->ctx->nnodes + HDR_FIXED) * sizeof *hdr);
    if (!hdr) return MPI_ERR_NO_MEM;
    MPI_Status st;
    int rc = PMPI_Send(arrived, 2, MPI_LONG_LONG, a->root, pc_window_tag(PC_TAG_LEADER_ARRIVED, nc->seq),
                       a->ctx->comm);
    /* only this call's header can be addressed to me now: it answers my ARRIVED */
    if (rc == MPI_SUCCESS)
        rc = PMPI_Recv(hdr, a->ctx->nnodes + HDR_FIXED, MPI_LONG_LONG, MPI_ANY_SOURCE, PC_TAG_GROUP_HEADER,
                       a->ctx->comm, &st);
    if (rc == MPI_SUCCESS && hdr[HDR_SEQ] != (long long)nc->seq) rc = MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS) rc = relay(nc, hdr, st.MPI_SOURCE);
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
