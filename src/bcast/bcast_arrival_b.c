/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * arrival_b - process-arrival-pattern-aware broadcast for the blocking model.
 *
 * Idea: a receiver announces ARRIVED to the root as soon as it enters the
 * call.  The root works in rounds: it waits until at least one receiver has
 * arrived (then, optionally, a short batching window), takes every receiver
 * that has arrived by then as a group, and serves that group with a
 * sub-group broadcast (bcast/common/group.c): a pipelined chain in arrival order,
 * or a binomial tree below the first member, whichever the alpha-beta model
 * finds faster, or binomial scatter + ring allgather if asked for.  A header
 * travels ahead of the data and tells each member what to do.
 *
 *   root: wait ARRIVED {3, 7} -> header+data 0 -> 3 -> 7 ; wait ARRIVED {1} -> 0 -> 1 ; ...
 *
 * Cost (Hockney, balanced arrival, one round): the lower of the chain's
 * (p - 2 + k)(alpha + beta m/k) and the tree's (1 + ceil(log2(p-1))) T,
 * T = alpha + beta m, plus one control message per receiver.  Late arrival: an early process
 * waits at most one round (about T, the time to send m) before its group is
 * served, and leaves once it has relayed the data: Patarasuk & Yuan 2008 Theorem 6 bounds
 * e_bar by 3x the optimum (blocking model, control messages free).  The root
 * leaves after the last receiver has arrived and been served.  A late
 * receiver is sent nothing before it has announced itself.
 * Limitations: the root scans p-1 requests per round (O(p^2) work at worst);
 * a process that arrives while the root serves a group waits for that round.
 * Parameters: segment size from PAPCOLL_BCAST_CHUNKS / _SEGSIZE / the model,
 * with the group size as pipeline depth; PAPCOLL_ALPHA / _BETA (chain or
 * tree); PAPCOLL_MAX_INFLIGHT;
 * PAPCOLL_ARRIVAL_SAG_MIN / _SAG_BYTES (scatter-allgather groups);
 * PAPCOLL_ARRIVAL_WINDOW (batching window, a fraction of T).
 * Source: Patarasuk & Yuan 2008 §4, Fig. 5 (arrival_b).
 */
#include "bcast/bcast.h"
#include "core/p2p.h"

#include <stdlib.h>

static int root(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, waiting = p - 1, rc = MPI_SUCCESS, ndone;
    unsigned long *seen = malloc((size_t)p * sizeof *seen);
    MPI_Request *req = malloc((size_t)p * sizeof *req);
    int *done = malloc((size_t)p * sizeof *done);
    if (!seen || !req || !done) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 0; r < p; r++) {
        req[r] = MPI_REQUEST_NULL;
        if (r != me && (rc = PMPI_Irecv(&seen[r], 1, MPI_UNSIGNED_LONG, r, PC_TAG_ARRIVED, a->ctx->comm, &req[r])))
            goto out;
    }
    while (waiting > 0) {
        /* one round: everyone who has arrived by now (or by the end of the
         * window, if any), in order of completion */
        if ((rc = pc_arrival_round(a, p, req, waiting, done, &ndone)) != MPI_SUCCESS) goto out;
        for (int i = 0; i < ndone; i++)
            if (seen[done[i]] != a->ctx->seq) {
                rc = MPI_ERR_INTERN; /* a control message of another call: must not happen */
                goto out;
            }
        if ((rc = pc_group_serve(a, done, ndone)) != MPI_SUCCESS) goto out;
        waiting -= ndone;
    }
out:
    free(seen);
    free(req);
    free(done);
    return rc;
}

static int receiver(const pc_call_t *a)
{
    unsigned long seq = a->ctx->seq;
    long long *hdr = malloc((size_t)(a->ctx->size + PC_HDR_FIXED) * sizeof *hdr);
    if (!hdr) return MPI_ERR_NO_MEM;
    int from, rc = PMPI_Send(&seq, 1, MPI_UNSIGNED_LONG, a->root, PC_TAG_ARRIVED, a->ctx->comm);
    if (rc == MPI_SUCCESS) rc = pc_group_recv_header(a, hdr, &from);
    if (rc == MPI_SUCCESS) rc = pc_group_join(a, hdr, from);
    free(hdr);
    return rc;
}

int pc_bcast_arrival_b(const pc_call_t *a)
{
    return a->ctx->rank == a->root ? root(a) : receiver(a);
}
