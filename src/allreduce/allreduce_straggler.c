/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * straggler - straggler-tolerant allreduce: a reduce-scatter in which every
 * process hands its pieces to their owners the moment it arrives and every
 * owner combines the pieces in the order they land, then an allgather in
 * which each owner sends its block out the moment it is complete.  Nobody
 * waits for a partner: the on-time processes reduce everything that does
 * not depend on the late ones while they are late, and each late process's
 * data is absorbed where it lands.
 *
 *   block j of p (ceil(count / p) elements) is owned by rank j
 *   arrival  rank s: Isend piece j of its vector to owner j, every j != s
 *            (staggered: s+1, s+2, ...); receives posted for its own block's
 *            p - 1 pieces and for the p - 1 finished blocks
 *   absorb   owner j: acc_j = x_j,j; then acc_j op= x_s,j for each piece in
 *            landing order (MPI_Waitany)
 *   out      owner j, its block complete: Isend acc_j to every other rank
 *
 * Why this shape.  Detecting who is late without knowing it in advance
 * costs nothing here: a piece that has not landed is a process that has not
 * arrived, and the posted receives are the arrival flags (MPI_Waitany on
 * them is the "detect by message arrival" of StragglAR's reduce-scatter
 * among the arrived).  The partner schedules of ring and rabenseifner make
 * an on-time process wait at the first step that needs a late partner's
 * data and run every later step after the last arrival; here only what
 * depends on the late data remains after the last arrival: the late
 * process's own p - 1 pieces (m bytes out of its link), one combine of
 * m / p per owner, and the allgather of the blocks (m bytes into every
 * link, m (p-1)/p out of each owner).  Any number of late processes, any
 * p (no power-of-two fold), no shared memory, no control messages.
 * Compared with the sources: StragglAR (Devraj et al. 2025) knows the
 * straggler, reduce-scatters among the others during its delay and then
 * runs a completion schedule of ~n rounds built for one straggler; Proficz
 * 2018 sorts processes by estimated arrival time (linear tree) or
 * pre-reduces along a ring in arrival order; papcoll's dynleader
 * pre-reduces through node shared memory and moves whole vectors up and
 * down a tree of nodes (2 log2 N hops of m after the last arrival).  This
 * one needs no estimate, no shared memory, tolerates many late processes,
 * and moves m / p per message; the price is 2 (p - 1) messages per process.
 * Cost (Hockney, m bytes, gamma per byte reduced), balanced:
 *   2 alpha + 2 (p-1) o + 2 ((p-1)/p) m beta + ((p-1)/p) m gamma
 *   (o: per-message overhead; the p - 1 messages of a phase are in flight
 *   at once), i.e. bandwidth-optimal like ring and rabenseifner, with the
 *   direct exchange's message count (pairwise reduce-scatter, direct
 *   allgather) instead of their 2 (p-1) or 2 log2 p latencies in sequence.
 * Late arrival: after the last arrival a_max, about
 *   2 alpha + 2 (p-1) o + 2 ((p-1)/p) m beta + (m / p) gamma
 *   (its pieces out, one combine per owner, the blocks out; the
 *   allgather's sends of the blocks completed before a_max are over by
 *   then and only the blocks a late process still owed are sent after it).
 *   Ordered mode (below) adds up to (p - 1) (m / p) gamma: the owners'
 *   combines of the pieces of ranks below the late one wait for it.
 * Order: commutative op, PAPCOLL_REPRODUCIBLE=0: landing order.  Otherwise
 *   (non-commutative op, or PAPCOLL_REPRODUCIBLE=1): every owner combines
 *   x_0 op (x_1 op (... op x_{p-1})) right to left, waiting for the pieces
 *   in that order: rank order for any op MPI allows, the same bits for any
 *   arrival.  Every process receives the owner's bits (one result).
 * Limitations: 2 (p - 1) messages per process, so the per-message cost o
 *   and the simulator's flow count grow as p^2 in total: for short vectors
 *   dynleader_flat or hier (few messages) are faster (the selection rules do
 *   not pick straggler).  With count < p only the first count blocks hold
 *   data and only their owners exchange.  No bound on messages in flight
 *   (p - 1 of m / p each per process, the bytes of one vector).
 * Memory: p pieces of one block (about m), plus a copy of the input (m)
 *   with MPI_IN_PLACE.
 * Parameters: PAPCOLL_REPRODUCIBLE.
 * Source: A. Devraj et al., "StragglAR: Mitigating Stragglers in
 *   Distributed ML Training via AllReduce", arXiv 2505.23523 (2025), §3
 *   (reduce-scatter during the straggler's delay, then completion);
 *   P. Proficz, "Improving all-reduce collective operations for imbalanced
 *   process arrival patterns", J. Supercomputing 74 (2018) (pre-reducing
 *   the arrived data); the direct exchanges: R. Thakur, R. Rabenseifner,
 *   W. Gropp, "Optimization of collective communication operations in
 *   MPICH", IJHPCA 19 (2005) (pairwise-exchange reduce-scatter).
 */
#include "allreduce/allreduce.h"
#include "sched/blocks.h"

#include <stdlib.h>

static void *block_at(const pc_call_t *a, const void *buf, int p, int b)
{
    return pc_red_at(a, buf, (long)pc_block_offset((size_t)a->count, p, b));
}
static long block_count(const pc_call_t *a, int p, int b) { return (long)pc_blocks_len((size_t)a->count, p, b, 1); }

/* acc (my block) = the op over every process's piece: landing order, or x_0
 * op (x_1 op (...)) waiting in rank order when `ordered`.  piece[s] is
 * process s's piece (mine: my input's block), precv[s] its receive. */
static int absorb(const pc_call_t *a, int ordered, void *acc, void *const *piece, MPI_Request *precv, long n)
{
    int p = a->ctx->size, rank = a->ctx->rank, rc;
    if (!ordered) {
        rc = pc_red_copy(a, acc, piece[rank], n);
        for (int left = p - 1; left > 0 && rc == MPI_SUCCESS; left--) {
            int s;
            rc = pc_waitany(p, precv, &s, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS && s != MPI_UNDEFINED) rc = pc_red_local(a, piece[s], acc, n);
        }
        return rc;
    }
    rc = pc_wait_request(&precv[p - 1], MPI_STATUS_IGNORE); /* MPI_REQUEST_NULL for my own piece */
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, acc, piece[p - 1], n);
    for (int s = p - 2; s >= 0 && rc == MPI_SUCCESS; s--) {
        rc = pc_wait_request(&precv[s], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) rc = pc_red_local(a, piece[s], acc, n); /* the lower rank on the left */
    }
    return rc;
}

int pc_allreduce_straggler(const pc_call_t *a)
{
    int p = a->ctx->size, rank = a->ctx->rank, rc = MPI_SUCCESS;
    int ordered = !a->commutative || a->params->reproducible;
    MPI_Comm comm = a->ctx->comm;
    long n = block_count(a, p, rank);
    void *slots = NULL, *slots_base = NULL, *copy_base = NULL, **piece = NULL;
    const void *src = a->sendbuf;
    MPI_Request *req = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    piece = malloc((size_t)p * sizeof *piece);
    req = malloc(4 * (size_t)p * sizeof *req);
    if (!piece || !req || !(slots = pc_red_alloc(a, n * p, &slots_base))) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    MPI_Request *precv = req, *psend = req + p, *brecv = req + 2 * p, *bsend = req + 3 * p;
    for (int i = 0; i < 4 * p; i++) req[i] = MPI_REQUEST_NULL;
    if (a->sendbuf == a->recvbuf) { /* MPI_IN_PLACE: the blocks arriving must not overwrite what I send */
        void *copy = pc_red_alloc(a, a->count, &copy_base);
        if (!copy) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        rc = pc_red_copy(a, copy, a->sendbuf, a->count);
        src = copy;
    }
    for (int s = 0; s < p; s++) piece[s] = s == rank ? block_at(a, src, p, rank) : pc_red_at(a, slots, (long)s * n);

    /* receives first: my block's pieces, then the other owners' blocks */
    for (int k = 1; k < p && rc == MPI_SUCCESS && n > 0; k++) {
        int s = (rank - k + p) % p;
        rc = PMPI_Irecv(piece[s], (int)n, a->datatype, s, PC_TAG_ALLREDUCE_PIECE, comm, &precv[s]);
    }
    for (int k = 1; k < p && rc == MPI_SUCCESS; k++) {
        int j = (rank - k + p) % p;
        long nj = block_count(a, p, j);
        if (nj > 0)
            rc = PMPI_Irecv(block_at(a, a->recvbuf, p, j), (int)nj, a->datatype, j, PC_TAG_ALLREDUCE_BLOCK, comm,
                            &brecv[j]);
    }
    /* my pieces to their owners, at once */
    for (int k = 1; k < p && rc == MPI_SUCCESS; k++) {
        int j = (rank + k) % p;
        long nj = block_count(a, p, j);
        if (nj > 0)
            rc = PMPI_Isend(block_at(a, src, p, j), (int)nj, a->datatype, j, PC_TAG_ALLREDUCE_PIECE, comm, &psend[j]);
    }
    /* my block, as the pieces land; then out to everybody */
    if (rc == MPI_SUCCESS && n > 0) rc = absorb(a, ordered, block_at(a, a->recvbuf, p, rank), piece, precv, n);
    for (int k = 1; k < p && rc == MPI_SUCCESS && n > 0; k++) {
        int j = (rank + k) % p;
        rc = PMPI_Isend(block_at(a, a->recvbuf, p, rank), (int)n, a->datatype, j, PC_TAG_ALLREDUCE_BLOCK, comm,
                        &bsend[j]);
    }
out:
    if (req) { /* every posted request completes, after an error too (its buffers are freed below) */
        int wrc = pc_waitall(4 * p, req, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(req);
    free(piece);
    free(slots_base);
    free(copy_base);
    return rc;
}
