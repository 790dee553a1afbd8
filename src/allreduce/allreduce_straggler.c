/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * straggler - straggler-tolerant allreduce: a reduce-scatter and an
 * allgather in which nobody waits for a partner.  Every process hands its
 * pieces on the moment it arrives, every receiver combines the pieces in the
 * order they land, and every finished block goes out the moment it is
 * complete, so while some processes are late the on-time ones reduce and
 * forward everything that does not depend on them, and after the last
 * arrival only the late data's path remains.
 *
 * Commutative ops, several nodes (N nodes, q processes on mine; p blocks of
 * ceil(count / p) elements, block j owned by rank j; on each node, local
 * index l collects the contiguous range of blocks [ceil(l p/q), ceil((l+1) p/q))):
 *
 *   (1) arrive  Isend my piece of each node peer's range to it (q - 1 msgs)
 *   (2) collect absorb my node's q pieces of my range as they land; each
 *               block j of the node partial -> owner j (~p/q msgs, inter-node)
 *   (3) own     absorb the N node partials of my block as they land; my block
 *               -> the collector of my block on every node (N - 1 msgs)
 *   (4) spread  once my range's blocks are in, my range -> my node peers
 *
 *   node X                       node Y
 *   x0 x1 x2 --(1)--> collector --(2) partial of block j--> owner j
 *                     collector <--(3) block j--------------'
 *   x0 x1 x2 <--(4) range--'
 *
 * Non-commutative ops, or one process per node, or one node: flat, every
 * piece j straight to owner j, which combines them and sends block j to
 * every other process (2 (p - 1) messages per process).
 *
 * Why this shape (no knowledge of who is late).  A piece that has not landed
 * is a process that has not arrived: the posted receives are the arrival
 * flags (MPI_Waitany on them), as StragglAR's reduce-scatter among the
 * arrived, with no control messages, no timeouts, no shared memory, and any
 * number of late processes.  ring and rabenseifner pair processes in fixed
 * steps: an on-time process waits at the first step that needs a late
 * partner and runs every later step after the last arrival.  Here a node
 * without late processes has sent all its partials before the last arrival,
 * an owner has absorbed them, and after the last arrival (a_max) only the
 * late process's pieces (intra-node), its node's partials (m (N-1)/N bytes
 * out of its node), the owners' blocks (m (N-1)/N into every node) and the
 * intra-node spread remain.  The collectors keep the node links to the
 * bandwidth-optimal 2 m (N-1)/N each way: the flat form would push q m
 * through every node link (at 64 simulated ranks, 8 per node, 256 KiB: 842
 * us balanced flat against 124 us through the nodes, rabenseifner 198 us).
 * Compared with the sources: StragglAR (Devraj et al. 2025) knows its one
 * straggler, reduce-scatters among the others during the delay, then runs
 * a completion schedule in which the straggler exchanges its chunks with
 * the others; Proficz 2018 sorts processes by estimated arrival (sorted
 * linear tree) or pre-reduces along a ring in arrival order and needs the
 * estimate; papcoll's dynleader pre-reduces through node shared memory but
 * moves whole vectors up and down a tree of nodes (2 ceil(log2 N) hops of
 * m after the last arrival); this one needs no estimate and moves m / p or
 * m / q per message.
 * Cost (Hockney, m bytes, alpha, beta inter-node, beta_n intra-node, gamma
 * per byte reduced, balanced, every exchange of a stage in flight at once):
 *   4 alpha + (2q + 2N + 2p/q) o + 2 ((N-1)/N) m beta + 2 ((q-1)/q) m beta_n
 *   + ((p-1)/p) m gamma  (o: per-message overhead; the combines are
 *   ((q-1)/q) m gamma as a collector plus ((N-1)/p) m gamma as an owner).  Flat: 2 alpha + 2 (p-1) o + 2 ((p-1)/p) m
 *   beta + ((p-1)/p) m gamma.  Bandwidth-optimal as rabenseifner, with four
 *   message hops instead of 2 log2 p.
 * Late arrival: after a_max, about 4 alpha + 2 ((N-1)/N) m beta +
 *   2 ((q-1)/q) m beta_n on the late node's path; a node with no late
 *   process has nothing left to send.  With one late process on most nodes
 *   (10% late, 16 per node) that is close to the balanced time: the gain is
 *   the latencies and waits of the other algorithms' steps, not bandwidth.
 *   Ordered mode (below) adds waiting: the combines after a late piece in
 *   the fixed order wait for it (up to q + N combines of a block).
 *   The late process's node still has all its own stages to run (its
 *   collectors' partials and its owners' blocks leave through its link), so
 *   even with ONE late process the time after the last arrival is about the
 *   balanced time: what this shape gains is fewer hops, not StragglAR's
 *   below-bandwidth-bound completion (that needs the straggler known and
 *   owning nothing).  straggler_deputy (allreduce_straggler_deputy.c)
 *   hands a late node's blocks to deputies on other nodes and paces the
 *   partials: 0.76-0.80x this time at 1 MiB with one late process,
 *   SIMULATED, at a balanced cost (docs/performance.md).
 *   Measured (SIMULATED, SimGrid SMPI 3.32, cluster:16x16 preset gemini,
 *   MPI_INT + MPI_SUM, reduction compute not charged): time after the last
 *   arrival under late:0.1:10 at 8 KiB 16 us (hier 33, rabenseifner 52,
 *   SMPI mpich 36), at 256 KiB 270 us (rabenseifner 210, SMPI mpich 494);
 *   at 64 ranks (8x8) 256 KiB 123 us (rabenseifner 198).
 *   Read these with SMPI's model in mind: a node's loopback link is a
 *   FATPIPE (every intra-node message gets its full 10 GB/s however many
 *   run at once) and MPI-level combines cost no time, while papcoll's
 *   shared-memory copies and combines (hier) are charged at
 *   PAPCOLL_SIM_MEMBW.  This algorithm's q - 1 concurrent intra-node
 *   messages per process are therefore nearly free in simulation: on one
 *   node (cluster:1x16, balanced) it takes 5.4 us at 256 KiB where moving
 *   the data once over the loopback takes 26 us (rabenseifner 62 us), which
 *   no real node does.  Its multi-node advantage over hier is inflated by
 *   the same effect; measure natively before trusting it, which is what
 *   PAPCOLL_ADAPT does: the built-in rules name it among the measured
 *   candidates, not first.
 * Order: commutative op, PAPCOLL_REPRODUCIBLE=0: landing order.
 *   PAPCOLL_REPRODUCIBLE=1: every combination in a fixed order (node
 *   ranks, then nodes, right to left), the same bits for any arrival.
 *   Non-commutative: flat, x_0 op (x_1 op (... op x_{p-1})) per block,
 *   waiting in rank order.  Every process receives the owner's bits.
 * Limitations: with count < p only the first count blocks hold data (the
 *   empty ones send nothing).  No bound on messages in flight beyond one
 *   vector's bytes per process.  The flat form's 2 (p-1) messages per
 *   process make it slow for many processes per node (non-commutative ops
 *   only) and for short vectors on many processes.  The built-in rules
 *   name it only as a PAPCOLL_ADAPT candidate (see above).
 * Memory: (q + 1) ranges and N blocks (about 2 m / q + m N / p), flat p
 *   blocks (about m), plus a copy of the input (m) with MPI_IN_PLACE.
 * Parameters: PAPCOLL_REPRODUCIBLE (and PAPCOLL_PPN for the nodes).
 * Source: Devraj et al. 2025 (StragglAR, arXiv 2505.23523: reduce-scatter
 *   among the on-time processes during the straggler's delay, then a
 *   completion step; its completion reaches below the 2 m beta of
 *   bandwidth-optimal allreduces, which this one does not); J. Proficz, "Improving all-reduce
 *   collective operations for imbalanced process arrival patterns",
 *   J. Supercomputing 74 (2018) (pre-reducing what has arrived); the
 *   collectors are Parsons 2015 §2's hierarchy (node-level reduction before
 *   the inter-node step) without its node barrier.
 */
#include "allreduce/common/straggler_blocks.h"

#include <stdlib.h>

int pc_strag_absorb(const pc_call_t *a, int ordered, void *acc, void *const *piece, MPI_Request *req, int k, int mine,
                    long n)
{
    int rc = MPI_SUCCESS;
    if (!ordered) {
        if (mine < 0) rc = pc_waitany(k, req, &mine, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) rc = pc_red_copy(a, acc, piece[mine], n);
        for (int left = k - 1; left > 0 && rc == MPI_SUCCESS; left--) {
            int i;
            rc = pc_waitany(k, req, &i, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS && i != MPI_UNDEFINED) rc = pc_red_local(a, piece[i], acc, n);
        }
        return rc;
    }
    rc = pc_wait_request(&req[k - 1], MPI_STATUS_IGNORE); /* MPI_REQUEST_NULL for mine */
    if (rc == MPI_SUCCESS) rc = pc_red_copy(a, acc, piece[k - 1], n);
    for (int i = k - 2; i >= 0 && rc == MPI_SUCCESS; i--) {
        rc = pc_wait_request(&req[i], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS) rc = pc_red_local(a, piece[i], acc, n); /* the lower index on the left */
    }
    return rc;
}

/* Rank order, any op: every process's piece of block j straight to rank j,
 * which combines x_0 op (x_1 op ...) (or in landing order when `ordered`
 * is 0) and sends block j to every other process.  buf: slots for p
 * pieces of my block; req: 4 p requests, MPI_REQUEST_NULL. */
static int flat(const pc_call_t *a, int ordered, const void *src, void *slots, void **piece, MPI_Request *req)
{
    int p = a->ctx->size, rank = a->ctx->rank, rc = MPI_SUCCESS;
    MPI_Comm comm = a->ctx->comm;
    long n = pc_strag_count(a, p, rank, rank + 1);
    MPI_Request *precv = req, *psend = req + p, *brecv = req + 2 * p, *bsend = req + 3 * p;

    for (int s = 0; s < p; s++) piece[s] = s == rank ? pc_strag_block(a, src, p, rank) : pc_red_at(a, slots, (long)s * n);
    for (int k = 1; k < p && rc == MPI_SUCCESS && n > 0; k++) { /* receives first */
        int s = (rank - k + p) % p;
        rc = PMPI_Irecv(piece[s], (int)n, a->datatype, s, PC_TAG_ALLREDUCE_PIECE, comm, &precv[s]);
    }
    for (int k = 1; k < p && rc == MPI_SUCCESS; k++) {
        int j = (rank - k + p) % p;
        long nj = pc_strag_count(a, p, j, j + 1);
        if (nj > 0)
            rc = PMPI_Irecv(pc_strag_block(a, a->recvbuf, p, j), (int)nj, a->datatype, j, PC_TAG_ALLREDUCE_BLOCK, comm,
                            &brecv[j]);
    }
    for (int k = 1; k < p && rc == MPI_SUCCESS; k++) { /* my pieces to their owners, at once */
        int j = (rank + k) % p;
        long nj = pc_strag_count(a, p, j, j + 1);
        if (nj > 0)
            rc = PMPI_Isend(pc_strag_block(a, src, p, j), (int)nj, a->datatype, j, PC_TAG_ALLREDUCE_PIECE, comm, &psend[j]);
    }
    if (rc == MPI_SUCCESS && n > 0)
        rc = pc_strag_absorb(a, ordered, pc_strag_block(a, a->recvbuf, p, rank), piece, precv, p, rank, n);
    for (int k = 1; k < p && rc == MPI_SUCCESS && n > 0; k++) { /* my block out */
        int j = (rank + k) % p;
        rc = PMPI_Isend(pc_strag_block(a, a->recvbuf, p, rank), (int)n, a->datatype, j, PC_TAG_ALLREDUCE_BLOCK, comm,
                        &bsend[j]);
    }
    return rc;
}

/* Commutative ops, through the nodes: (1) my piece of each node peer's range
 * of blocks to it; (2) as a collector, my range absorbed, then each block's
 * node partial to the block's owner; (3) as an owner, the N node partials
 * absorbed, then my block to its collector on every node; (4) as a
 * collector, the finished blocks of my range to my node peers.  req: 4 q +
 * 2 N + 2 p requests, MPI_REQUEST_NULL. */
static int by_node(const pc_call_t *a, int ordered, const void *src, void *buf, void **piece, MPI_Request *req)
{
    const pc_comm_t *c = a->ctx;
    int p = c->size, rank = c->rank, x = c->my_node, N = c->nnodes, q = c->node_size, me = c->node_rank;
    const int *members = c->node_members + c->node_first[x];
    MPI_Comm comm = c->comm;
    MPI_Datatype t = a->datatype;
    long lo = pc_strag_range_lo(p, q, me), hi = pc_strag_range_lo(p, q, me + 1);
    long rn = pc_strag_count(a, p, lo, hi), n = pc_strag_count(a, p, rank, rank + 1);
    MPI_Request *r1 = req, *s1 = req + q, *r4 = req + 2 * q, *s4 = req + 3 * q, *r2 = req + 4 * q, *s3 = r2 + N,
                *s2 = s3 + N, *r3 = s2 + p;
    int rc = MPI_SUCCESS;
    /* buf: q slots of my range, my node partial (rn), N slots of my block */
    char *slots1 = buf, *part = pc_red_at(a, buf, (long)q * rn), *slots2 = pc_red_at(a, buf, (long)(q + 1) * rn);

    /* receives first: (1) node peers' pieces of my range, (3) node partials of my block */
    for (int k = 1; k < q && rc == MPI_SUCCESS && rn > 0; k++) {
        int l = (me + k) % q;
        rc = PMPI_Irecv(pc_red_at(a, slots1, (long)l * rn), (int)rn, t, members[l], PC_TAG_ALLREDUCE_PIECE, comm, &r1[l]);
    }
    for (int y = 0; y < N && rc == MPI_SUCCESS && n > 0; y++) {
        int from = pc_strag_collector(c, y, rank);
        if (from != rank)
            rc = PMPI_Irecv(pc_red_at(a, slots2, (long)y * n), (int)n, t, from, PC_TAG_ALLREDUCE_PARTIAL, comm, &r2[y]);
    }
    /* (1) my pieces to my node peers */
    for (int k = 1; k < q && rc == MPI_SUCCESS; k++) {
        int l = (me + k) % q;
        long llo = pc_strag_range_lo(p, q, l), lhi = pc_strag_range_lo(p, q, l + 1), ln = pc_strag_count(a, p, llo, lhi);
        if (ln > 0) rc = PMPI_Isend(pc_strag_block(a, src, p, llo), (int)ln, t, members[l], PC_TAG_ALLREDUCE_PIECE, comm, &s1[l]);
    }
    /* (2) my node's partial of my range, each block to its owner */
    for (int l = 0; l < q; l++) piece[l] = l == me ? pc_strag_block(a, src, p, lo) : pc_red_at(a, slots1, (long)l * rn);
    if (rc == MPI_SUCCESS && rn > 0) rc = pc_strag_absorb(a, ordered, part, piece, r1, q, me, rn);
    for (long k = 0; k < hi - lo && rc == MPI_SUCCESS; k++) {
        long j = lo + (me + k) % (hi - lo), nj = pc_strag_count(a, p, j, j + 1); /* staggered */
        if (nj > 0 && j != rank)
            rc = PMPI_Isend(pc_red_at(a, part, pc_strag_count(a, p, lo, j)), (int)nj, t, (int)j, PC_TAG_ALLREDUCE_PARTIAL,
                            comm, &s2[j - lo]);
    }
    /* (3) my block from the N node partials, then to each node's collector */
    for (int y = 0; y < N; y++)
        piece[y] = pc_strag_collector(c, y, rank) == rank ? pc_red_at(a, part, pc_strag_count(a, p, lo, rank))
                                                 : pc_red_at(a, slots2, (long)y * n);
    if (rc == MPI_SUCCESS && n > 0)
        rc = pc_strag_absorb(a, ordered, pc_strag_block(a, a->recvbuf, p, rank), piece, r2, N,
                             pc_strag_collector(c, x, rank) == rank ? x : -1, n);
    for (int k = 0; k < N && rc == MPI_SUCCESS && n > 0; k++) {
        int y = (x + k) % N, to = pc_strag_collector(c, y, rank);
        if (to != rank)
            rc = PMPI_Isend(pc_strag_block(a, a->recvbuf, p, rank), (int)n, t, to, PC_TAG_ALLREDUCE_BLOCK, comm, &s3[y]);
    }
    /* (4) the finished blocks of my range, then my range to my node peers */
    for (long j = lo; j < hi && rc == MPI_SUCCESS; j++) {
        long nj = pc_strag_count(a, p, j, j + 1);
        if (nj > 0 && j != rank)
            rc = PMPI_Irecv(pc_strag_block(a, a->recvbuf, p, j), (int)nj, t, (int)j, PC_TAG_ALLREDUCE_BLOCK, comm, &r3[j - lo]);
    }
    for (int k = 1; k < q && rc == MPI_SUCCESS; k++) {
        int l = (me - k + q) % q;
        long llo = pc_strag_range_lo(p, q, l), ln = pc_strag_count(a, p, llo, pc_strag_range_lo(p, q, l + 1));
        if (ln > 0)
            rc = PMPI_Irecv(pc_strag_block(a, a->recvbuf, p, llo), (int)ln, t, members[l], PC_TAG_ALLREDUCE_RANGE, comm, &r4[l]);
    }
    if (rc == MPI_SUCCESS) rc = pc_waitall((int)(hi - lo), r3, MPI_STATUSES_IGNORE);
    for (int k = 1; k < q && rc == MPI_SUCCESS && rn > 0; k++) {
        int l = (me + k) % q;
        rc = PMPI_Isend(pc_strag_block(a, a->recvbuf, p, lo), (int)rn, t, members[l], PC_TAG_ALLREDUCE_RANGE, comm, &s4[l]);
    }
    return rc;
}

int pc_straggler_run(const pc_call_t *a, pc_straggler_form_t form)
{
    const pc_comm_t *c = a->ctx;
    int p = c->size, rc = MPI_SUCCESS, nodes = a->commutative && c->nnodes > 1 && c->nnodes < p;
    int ordered = !a->commutative || a->params->reproducible;
    int deputy = form == PC_STRAGGLER_DEPUTY && nodes && !ordered, nodeblock = form == PC_STRAGGLER_NODEBLOCK && nodes;
    long nreq = deputy      ? pc_straggler_deputy_nreq(a)
                : nodeblock ? pc_straggler_nodeblock_nreq(a)
                : nodes     ? 4L * c->node_size + 2L * c->nnodes + 2L * p
                            : 4L * p;
    long nslots, npiece = p;
    void *slots = NULL, *slots_base = NULL, *copy_base = NULL, **piece = NULL;
    const void *src = a->sendbuf;
    MPI_Request *req = NULL;

    if (a->count == 0) return MPI_SUCCESS;
    if (deputy) {
        nslots = pc_straggler_deputy_nslots(a);
    } else if (nodeblock) {
        nslots = pc_straggler_nodeblock_nslots(a);
    } else if (nodes) {
        int q = c->node_size;
        long lo = pc_strag_range_lo(p, q, c->node_rank), hi = pc_strag_range_lo(p, q, c->node_rank + 1);
        nslots = (q + 1L) * pc_strag_count(a, p, lo, hi) + (long)c->nnodes * pc_strag_count(a, p, c->rank, c->rank + 1);
    } else {
        nslots = (long)p * pc_strag_count(a, p, c->rank, c->rank + 1);
    }
    piece = malloc((size_t)npiece * sizeof *piece);
    req = malloc((size_t)nreq * sizeof *req);
    if (!piece || !req || !(slots = pc_red_alloc(a, nslots, &slots_base))) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (long i = 0; i < nreq; i++) req[i] = MPI_REQUEST_NULL;
    if (a->sendbuf == a->recvbuf) { /* MPI_IN_PLACE: the blocks arriving must not overwrite what I send */
        void *copy = pc_red_alloc(a, a->count, &copy_base);
        if (!copy) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        rc = pc_red_copy(a, copy, a->sendbuf, a->count);
        src = copy;
    }
    if (rc == MPI_SUCCESS && deputy) rc = pc_straggler_deputy(a, src, slots, req);
    else if (rc == MPI_SUCCESS && nodeblock) rc = pc_straggler_nodeblock(a, ordered, src, slots, piece, req);
    else if (rc == MPI_SUCCESS) rc = nodes ? by_node(a, ordered, src, slots, piece, req) : flat(a, ordered, src, slots, piece, req);
out:
    if (req) { /* every posted request completes, after an error too (its buffers are freed below) */
        int wrc = pc_waitall((int)nreq, req, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(req);
    free(piece);
    free(slots_base);
    free(copy_base);
    return rc;
}

int pc_allreduce_straggler(const pc_call_t *a) { return pc_straggler_run(a, PC_STRAGGLER_PLAIN); }
