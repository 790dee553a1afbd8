/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * isend - every process posts its receives from, and its sends to, every
 * other process at once, destinations starting at rank + 1 (receives from
 * rank + i, sends to rank - i, so in round i everyone sends to a different
 * process), and waits for them all; at most PC_ALLTOALL_ISEND_BATCH peers
 * each way are in flight, the next batch posted once the previous one has
 * completed.
 *
 *   p = 4, process 1:  irecv from 2 3 0   isend to 0 3 2   waitall
 *
 * Cost (Hockney, m bytes sent in all by one process): (p - 1) alpha + (p -
 * 1)/p m beta, the messages overlapping in the network as far as it allows
 * (MPICH's medium-message choice, and its alltoallv).
 * Late arrival: no step structure: an early process's messages to everyone
 * who is in already leave at once (eager, or rendezvous once its receiver
 * posts), so when the last process arrives only its own exchange with each
 * peer remains; nobody waits for anybody but the late one.  Batches (above
 * PC_ALLTOALL_ISEND_BATCH peers) add a dependence on the batch's peers.
 * Blocks of any size (alltoallv), empty ones skipped (no message).
 * Source: MPICH src/mpi/coll/alltoall/alltoall_intra_scattered.c and
 * alltoallv_intra_scattered.c (MPIR_CVAR_ALLTOALL_THROTTLE, default 32).
 */
#include "alltoall/alltoall.h"

#include <stdlib.h>

/* peers in flight each way (MPICH's MPIR_CVAR_ALLTOALL_THROTTLE default) */
enum { PC_ALLTOALL_ISEND_BATCH = 32 };

int pc_alltoall_isend(const pc_call_t *a)
{
    int p = a->ctx->size, me = a->ctx->rank, rc = MPI_SUCCESS;
    const pc_blocks_t *s = &a->sblocks, *r = &a->rblocks;
    for (int first = 1; first < p && rc == MPI_SUCCESS; first += PC_ALLTOALL_ISEND_BATCH) {
        int n = p - first < PC_ALLTOALL_ISEND_BATCH ? p - first : PC_ALLTOALL_ISEND_BATCH, nreq = 0, npieces = 0;
        for (int i = 0; i < n; i++) {
            int src = (me + first + i) % p, dst = (me - first - i + p) % p;
            npieces += pc_alltoall_pieces(pc_blocks_span(r, src, src)) + pc_alltoall_pieces(pc_blocks_span(s, dst, dst));
        }
        MPI_Request *req = malloc(((size_t)npieces + 1) * sizeof *req);
        if (!req) return MPI_ERR_NO_MEM;
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
            int src = (me + first + i) % p;
            rc = pc_alltoall_post(0, pc_blocks_at(r, src), pc_blocks_span(r, src, src), src, PC_TAG_ALLTOALL_DATA,
                                  a->ctx->comm, req, &nreq);
        }
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
            int dst = (me - first - i + p) % p;
            rc = pc_alltoall_post(1, pc_blocks_at(s, dst), pc_blocks_span(s, dst, dst), dst, PC_TAG_ALLTOALL_DATA,
                                  a->ctx->comm, req, &nreq);
        }
        int wrc = pc_waitall(nreq, req, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS) rc = wrc;
        free(req);
    }
    return rc;
}
