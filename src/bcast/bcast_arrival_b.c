/*
 * arrival_b - process-arrival-pattern-aware broadcast for the blocking model.
 *
 * Idea: a receiver announces ARRIVED to the root as soon as it enters the
 * call.  The root works in rounds: it waits until at least one receiver has
 * arrived, takes every receiver that has arrived by then as a group, and
 * serves that group with a sub-group broadcast, a pipelined chain in arrival
 * order.  The chain is described by a header that travels ahead of the data:
 * each member receives {sequence, segment size, its successors}, forwards the
 * shortened list to its successor, then relays the segments.
 *
 *   root: wait ARRIVED {3, 7} -> header+data 0 -> 3 -> 7 ; wait ARRIVED {1} -> 0 -> 1 ; ...
 *
 * Cost (Hockney, balanced arrival, one round): (p - 2 + k)(alpha + beta m/k)
 * plus one control message per receiver.  Late arrival: an early process
 * waits at most one round (about T, the time to send m) before its group is
 * served, and leaves once it has relayed the data: seed 002 Theorem 6 bounds
 * e_bar by 3x the optimum (blocking model, control messages free).  The root
 * leaves after the last receiver has arrived and been served.
 * Limitations: sub-groups always use the pipelined chain (seed 002 used
 * scatter-allgather for large groups on its InfiniBand cluster); the root
 * scans p-1 requests per round (O(p^2) work at worst).
 * Parameters: segment size from PAPCOLL_BCAST_CHUNKS / _SEGSIZE / the model,
 * with the group size as pipeline depth; PAPCOLL_MAX_INFLIGHT.
 * Source: seed 002 section 4, Fig. 5 (arrival_b).
 */
#include "bcast.h"
#include "../p2p.h"
#include "../tree_engine.h"

#include <stdlib.h>

enum { HDR_SEQ, HDR_SEGSIZE, HDR_COUNT, HDR_FIXED }; /* header: fixed fields, then the successors */

/* Relays the data along the chain described by header (hdr[HDR_COUNT]
 * successors follow the fixed fields), receiving from `from` (-1 at the root). */
static int serve_chain(const pc_bcast_args_t *a, const long long *hdr, int from)
{
    MPI_Comm comm = a->ctx->comm;
    long long count = hdr[HDR_COUNT];
    int rc = MPI_SUCCESS, next = count > 0 ? (int)hdr[HDR_FIXED] : -1;
    if (next >= 0) { /* the successor gets the rest of the list */
        long long *fwd = malloc((size_t)(HDR_FIXED + count) * sizeof *fwd);
        if (!fwd) return MPI_ERR_NO_MEM;
        fwd[HDR_SEQ] = hdr[HDR_SEQ], fwd[HDR_SEGSIZE] = hdr[HDR_SEGSIZE], fwd[HDR_COUNT] = count - 1;
        for (long long i = 1; i < count; i++) fwd[HDR_FIXED + i - 1] = hdr[HDR_FIXED + i];
        rc = PMPI_Send(fwd, (int)(HDR_FIXED + count - 1), MPI_LONG_LONG, next, PC_TAG_GROUP_HEADER, comm);
        free(fwd);
    }
    pc_tree_t link = {.parent = from, .nchildren = next >= 0, .children = &next, .height = (int)count + 1};
    if (rc == MPI_SUCCESS)
        rc = pc_tree_bcast(a->buf, a->bytes, (size_t)hdr[HDR_SEGSIZE], &link, PC_SEND_NONBLOCKING,
                           (int)a->params->max_inflight, comm, PC_TAG_GROUP_DATA);
    return rc;
}

static int root(const pc_bcast_args_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, waiting = p - 1, rc = MPI_SUCCESS, ndone;
    unsigned long *seen = malloc((size_t)p * sizeof *seen);
    MPI_Request *req = malloc((size_t)p * sizeof *req);
    int *done = malloc((size_t)p * sizeof *done);
    long long *hdr = malloc((size_t)(p + HDR_FIXED) * sizeof *hdr);
    if (!seen || !req || !done || !hdr) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int r = 0; r < p; r++) {
        req[r] = MPI_REQUEST_NULL;
        if (r != me && (rc = PMPI_Irecv(&seen[r], 1, MPI_UNSIGNED_LONG, r, PC_TAG_ARRIVED, a->ctx->comm, &req[r])))
            goto out;
    }
    while (waiting > 0) {
        /* one round: everyone who has arrived by now, in arrival order of completion */
        rc = PMPI_Waitsome(p, req, &ndone, done, MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS) goto out;
        for (int i = 0; i < ndone; i++) {
            if (seen[done[i]] != a->ctx->seq) {
                rc = MPI_ERR_INTERN; /* a control message of another call: must not happen */
                goto out;
            }
            hdr[HDR_FIXED + i] = done[i];
        }
        hdr[HDR_SEQ] = (long long)a->ctx->seq;
        hdr[HDR_COUNT] = ndone;
        hdr[HDR_SEGSIZE] = (long long)pc_bcast_segsize(a->params, a->bytes, ndone + 1);
        if ((rc = serve_chain(a, hdr, -1)) != MPI_SUCCESS) goto out;
        waiting -= ndone;
    }
out:
    free(seen);
    free(req);
    free(done);
    free(hdr);
    return rc;
}

static int receiver(const pc_bcast_args_t *a)
{
    int p = a->ctx->size;
    unsigned long seq = a->ctx->seq;
    long long *hdr = malloc((size_t)(p + HDR_FIXED) * sizeof *hdr);
    if (!hdr) return MPI_ERR_NO_MEM;
    MPI_Status st;
    int rc = PMPI_Send(&seq, 1, MPI_UNSIGNED_LONG, a->root, PC_TAG_ARRIVED, a->ctx->comm);
    /* The header comes from the root or from the previous member of my group;
     * only this call's header can be addressed to me now (the next call's
     * needs my next ARRIVED), so ANY_SOURCE on this tag is unambiguous. */
    if (rc == MPI_SUCCESS)
        rc = PMPI_Recv(hdr, p + HDR_FIXED, MPI_LONG_LONG, MPI_ANY_SOURCE, PC_TAG_GROUP_HEADER, a->ctx->comm, &st);
    if (rc == MPI_SUCCESS && hdr[HDR_SEQ] != (long long)seq) rc = MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS) rc = serve_chain(a, hdr, st.MPI_SOURCE);
    free(hdr);
    return rc;
}

int pc_bcast_arrival_b(const pc_bcast_args_t *a)
{
    return a->ctx->rank == a->root ? root(a) : receiver(a);
}
