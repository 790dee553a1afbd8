/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * straggler_deputy - allreduce straggler (allreduce_straggler.c: collectors,
 * owners, no fixed partner) whose owners hand their block to a deputy on
 * another node when their own node is the late one, so that after the last
 * arrival the late node's link carries about one vector instead of two.
 * Nobody knows who is late: an owner sees it when the last partial of its
 * block still missing is its own node's.
 *
 * Commutative ops, PAPCOLL_REPRODUCIBLE=0, several nodes with several
 * processes (otherwise: straggler).  Steps (1)-(4) are straggler's, run by
 * one event loop over every role of a process (collector of its range,
 * owner of its block, deputy of its ward's block), so an owner can delegate
 * while its node still waits and a deputy can finish whatever else it waits
 * for; and (2)'s partials go out PARTIAL_WINDOW (4) synchronous sends at a
 * time per collector (below):
 *   (3') an owner whose N - 1 other nodes' partials are in while its own
 *        node's is not sends their sum to its deputy (PC_TAG_ALLREDUCE_DEPUTY),
 *        a 0-element PC_TAG_ALLREDUCE_BLOCK notice to each collector of its
 *        block, and its node's partial, once complete, to the deputy
 *        (PC_TAG_ALLREDUCE_DEPUTY_PART); the deputy combines them and sends
 *        the block to the collector of that block on every node
 *        (PC_TAG_ALLREDUCE_DEPUTY_BLOCK).  Otherwise the owner sends its
 *        deputy a 0-element decision and finishes its block itself.
 *
 *   late node X                              node X + 1 + (l mod (N - 1))
 *   owner j (local l): other partials in --sum-----> deputy of j
 *   collector --X's partial--> owner j ----------> deputy: block j
 *                                                   -> every node's collector
 *
 * Deputy of owner (node x, local l): local l on node x + 1 + (l mod (N-1)),
 * if that node has one (unequal nodes: else no delegation): one node's
 * deputies are spread over the others (all on node x + 1, that node would
 * send its own blocks and the late node's, 2 m, after the last arrival:
 * measured, no gain), one ward per deputy.
 * Pacing: with every partial in flight at once a late node's link is
 * shared fairly among all of them, every owner gets its partial at the same
 * moment (after m beta), and the blocks' way back (another m beta) starts
 * only then; with 4 per collector the owners finish one after the other and
 * send their blocks while the next partials still leave the late node.
 * Synchronous sends, so that the window holds for short (eager) messages.
 * Matching: every source is known, no MPI_ANY_SOURCE.  A collector posts
 * its receive of block j from the owner; 0 elements (the notice) -> it
 * reposts from the deputy.  One decision per owner and call, a notice, a
 * forwarded partial and a deputy's block exactly when the owner delegated,
 * all consumed in the call; one deputy per owner, so no (source, tag,
 * receiver) carries two messages of one call, and MPI's non-overtaking
 * order keeps calls apart.
 * Cost (balanced): straggler's plus one 0-element message per process and
 * the window's latencies: (p/q) / 4 rounds of partials per collector
 * instead of one burst, about + (p/q) alpha / 4 (window 2 and 8 measured:
 * docs/performance.md).  Measured SIMULATED
 * (cluster:16x16, gemini, 256 ranks): see docs/performance.md, "`straggler`:
 * no fixed partner".
 * Late arrival: one late process on node X: after its arrival X's link
 * carries its collectors' partials ((N-1)/N m) and its owners' node
 * partials to the deputies (m/N), m in all, paced; the blocks come back
 * from the owners and deputies (m in).  Bound: m beta + hops (about half
 * straggler's 2 m beta).  Several late nodes (late:0.1 at 16 per node: most
 * nodes): each late node delegates, but every block still waits for the
 * last late node's partial, and the allgather of all blocks (m (N-1)/N per
 * node) follows it: little to gain over straggler.
 * Order: landing order (PAPCOLL_REPRODUCIBLE=1, non-commutative ops:
 *   straggler's fixed orders, no delegation).
 * Limitations: as straggler; delegation needs the deputy's node to have the
 *   owner's local index (equal nodes: always).
 * Memory: straggler's plus 3 blocks (the sum sent, the ward's sum and
 *   partial).
 * Parameters: PAPCOLL_REPRODUCIBLE (and PAPCOLL_PPN for the nodes).
 * Source: Devraj et al. 2025 (StragglAR, arXiv 2505.23523: the straggler
 *   owns nothing in the completion; here the late node's owners hand their
 *   blocks off, found by observation, not named); J. Proficz 2018
 *   (pre-reducing what has arrived).
 */
#include "allreduce/common/straggler_blocks.h"

typedef struct {
    const pc_call_t *a;
    const pc_comm_t *c;
    int p, rank, x, N, q, me, dep, ward;
    long lo, hi, rn, n, nw;
    int left1, got, fgot, own_in, delegated, range_left, sent2, inflight2;
    char *slots1, *part, *slots2, *dsum, *dw, *dwp;
    /* acted on (one pc_waitany): r1 q | r2 N | r3 hi - lo | rd | rdp | s2 hi - lo; then the rest */
    MPI_Request *r1, *r2, *r3, *rd, *rdp, *s2, *r4, *s1, *s4, *s3, *sn, *sd, *sdb;
} dep_t;

long pc_straggler_deputy_nreq(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int p = c->size, q = c->node_size;
    long R = pc_strag_range_lo(p, q, c->node_rank + 1) - pc_strag_range_lo(p, q, c->node_rank);
    return 4L * q + 4L * c->nnodes + 2 * R + 4;
}

long pc_straggler_deputy_nslots(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int p = c->size, q = c->node_size, w = pc_strag_ward(c);
    long lo = pc_strag_range_lo(p, q, c->node_rank), hi = pc_strag_range_lo(p, q, c->node_rank + 1);
    long n = pc_strag_count(a, p, c->rank, c->rank + 1), nw = w >= 0 ? pc_strag_count(a, p, w, w + 1) : 0;
    return (q + 1L) * pc_strag_count(a, p, lo, hi) + (c->nnodes + 1L) * n + 2 * nw;
}

static void *my_block(const dep_t *d, long j) { return pc_strag_block(d->a, d->a->recvbuf, d->p, j); }

/* Every block of my range is final: my range to my node peers. */
static int spread(dep_t *d)
{
    int rc = MPI_SUCCESS;
    const int *members = d->c->node_members + d->c->node_first[d->x];
    for (int k = 1; k < d->q && rc == MPI_SUCCESS && d->rn > 0; k++) {
        int l = (d->me + k) % d->q;
        rc = PMPI_Isend(my_block(d, d->lo), (int)d->rn, d->a->datatype, members[l], PC_TAG_ALLREDUCE_RANGE, d->c->comm,
                        &d->s4[l]);
    }
    return rc;
}

static int block_final(dep_t *d)
{
    return --d->range_left == 0 ? spread(d) : MPI_SUCCESS;
}

/* My owner role is over (block out or delegated): my node peers' ranges,
 * my own block's among them, may now land in my result. */
static int post_ranges(dep_t *d)
{
    int rc = MPI_SUCCESS;
    const int *members = d->c->node_members + d->c->node_first[d->x];
    for (int k = 1; k < d->q && rc == MPI_SUCCESS; k++) {
        int l = (d->me - k + d->q) % d->q;
        long llo = pc_strag_range_lo(d->p, d->q, l), ln = pc_strag_count(d->a, d->p, llo, pc_strag_range_lo(d->p, d->q, l + 1));
        if (ln > 0)
            rc = PMPI_Irecv(my_block(d, llo), (int)ln, d->a->datatype, members[l], PC_TAG_ALLREDUCE_RANGE, d->c->comm,
                            &d->r4[l]);
    }
    return rc;
}

/* Sum of the foreign partials to my deputy, notices to my block's collectors. */
static int delegate(dep_t *d)
{
    MPI_Datatype t = d->a->datatype;
    MPI_Comm comm = d->c->comm;
    int rc = pc_red_copy(d->a, d->dsum, my_block(d, d->rank), d->n);
    d->delegated = 1;
    if (rc == MPI_SUCCESS) rc = PMPI_Isend(d->dsum, (int)d->n, t, d->dep, PC_TAG_ALLREDUCE_DEPUTY, comm, &d->sd[0]);
    for (int k = 0; k < d->N && rc == MPI_SUCCESS; k++) {
        int y = (d->x + k) % d->N, to = pc_strag_collector(d->c, y, d->rank);
        if (to != d->rank)
            rc = PMPI_Isend(d->dsum, 0, t, to, PC_TAG_ALLREDUCE_BLOCK, comm, &d->sn[y]);
        else /* I collect my block on my node: the deputy's block */
            rc = PMPI_Irecv(my_block(d, d->rank), (int)d->n, t, d->dep, PC_TAG_ALLREDUCE_DEPUTY_BLOCK, comm,
                            &d->r3[d->rank - d->lo]);
    }
    return rc == MPI_SUCCESS ? post_ranges(d) : rc;
}

/* Owner: node partial b (own: my node's) of my block has landed. */
static int owner_absorb(dep_t *d, const void *b, int own)
{
    MPI_Datatype t = d->a->datatype;
    char *acc = my_block(d, d->rank);
    int rc;
    if (d->delegated) /* my node's partial, the one missing */
        return PMPI_Isend(b, (int)d->n, t, d->dep, PC_TAG_ALLREDUCE_DEPUTY_PART, d->c->comm, &d->sd[1]);
    rc = d->got++ == 0 ? pc_red_copy(d->a, acc, b, d->n) : pc_red_local(d->a, b, acc, d->n);
    if (own) {
        d->own_in = 1;
        if (rc == MPI_SUCCESS && d->dep >= 0) /* decided: not delegated */
            rc = PMPI_Isend(acc, 0, t, d->dep, PC_TAG_ALLREDUCE_DEPUTY, d->c->comm, &d->sd[0]);
    } else if (++d->fgot == d->N - 1 && !d->own_in && d->dep >= 0 && rc == MPI_SUCCESS) {
        return delegate(d);
    }
    if (rc != MPI_SUCCESS || d->got < d->N) return rc;
    for (int k = 0; k < d->N && rc == MPI_SUCCESS; k++) { /* my block to its collector on every node */
        int y = (d->x + k) % d->N, to = pc_strag_collector(d->c, y, d->rank);
        if (to != d->rank) rc = PMPI_Isend(acc, (int)d->n, t, to, PC_TAG_ALLREDUCE_BLOCK, d->c->comm, &d->s3[y]);
    }
    if (rc == MPI_SUCCESS && pc_strag_collector(d->c, d->x, d->rank) == d->rank) rc = block_final(d);
    return rc == MPI_SUCCESS ? post_ranges(d) : rc;
}

/* Collector: the next blocks of my range's node partial to their owners,
 * PARTIAL_WINDOW synchronous sends in flight (staggered start).  All at once,
 * a late node's collectors would share its link among every block and every
 * owner would get its partial at the same moment, at the end: the blocks'
 * way back could not start before it (2 m after the last arrival, not m).
 * In a window the owners finish one after the other and send their blocks
 * while the late node's link still carries the next partials. */
enum { PARTIAL_WINDOW = 4 };
static int next_partials(dep_t *d)
{
    int rc = MPI_SUCCESS;
    long R = d->hi - d->lo;
    while (d->inflight2 < PARTIAL_WINDOW && d->sent2 < R && rc == MPI_SUCCESS) {
        long j = d->lo + (d->me + d->sent2++) % R, nj = pc_strag_count(d->a, d->p, j, j + 1);
        char *b = pc_red_at(d->a, d->part, pc_strag_count(d->a, d->p, d->lo, j));
        if (nj > 0 && j != d->rank) {
            rc = PMPI_Issend(b, (int)nj, d->a->datatype, (int)j, PC_TAG_ALLREDUCE_PARTIAL, d->c->comm, &d->s2[j - d->lo]);
            d->inflight2++;
        }
    }
    return rc;
}

/* Collector: my range's node partial is complete: my own block's (if mine)
 * to me as its owner, the others out. */
static int partial_done(dep_t *d)
{
    int rc = MPI_SUCCESS;
    if (d->rank >= d->lo && d->rank < d->hi && d->n > 0)
        rc = owner_absorb(d, pc_red_at(d->a, d->part, pc_strag_count(d->a, d->p, d->lo, d->rank)), 1);
    return rc == MPI_SUCCESS ? next_partials(d) : rc;
}

/* Deputy: my ward's decision (0 elements: nothing to do) or its foreign sum;
 * then its node partial, and the block out to every node's collector. */
static int deputy_step(dep_t *d, const MPI_Status *st, int part)
{
    MPI_Datatype t = d->a->datatype;
    int k = 0, rc = MPI_SUCCESS;
    if (!part) {
        rc = PMPI_Get_count(st, t, &k);
        if (rc == MPI_SUCCESS && k > 0)
            rc = PMPI_Irecv(d->dwp, (int)d->nw, t, d->ward, PC_TAG_ALLREDUCE_DEPUTY_PART, d->c->comm, d->rdp);
        return rc;
    }
    rc = pc_red_local(d->a, d->dwp, d->dw, d->nw);
    for (int y = 0; y < d->N && rc == MPI_SUCCESS; y++) {
        int to = pc_strag_collector(d->c, (d->x + y) % d->N, d->ward); /* myself too, as any collector */
        rc = PMPI_Isend(d->dw, (int)d->nw, t, to, PC_TAG_ALLREDUCE_DEPUTY_BLOCK, d->c->comm, &d->sdb[(d->x + y) % d->N]);
    }
    return rc;
}

/* Collector: block j from its owner (0 elements: delegated, wait for the
 * deputy's) or from its deputy. */
static int collect_step(dep_t *d, long j, const MPI_Status *st)
{
    int k = 0, rc = PMPI_Get_count(st, d->a->datatype, &k);
    if (rc == MPI_SUCCESS && k == 0)
        return PMPI_Irecv(my_block(d, j), (int)pc_strag_count(d->a, d->p, j, j + 1), d->a->datatype,
                          pc_strag_deputy(d->c, (int)j), PC_TAG_ALLREDUCE_DEPUTY_BLOCK, d->c->comm, &d->r3[j - d->lo]);
    return rc == MPI_SUCCESS ? block_final(d) : rc;
}

static void layout(dep_t *d, const pc_call_t *a, void *buf, MPI_Request *req)
{
    const pc_comm_t *c = a->ctx;
    d->a = a;
    d->c = c;
    d->p = c->size, d->rank = c->rank, d->x = c->my_node, d->N = c->nnodes, d->q = c->node_size, d->me = c->node_rank;
    d->lo = pc_strag_range_lo(d->p, d->q, d->me), d->hi = pc_strag_range_lo(d->p, d->q, d->me + 1);
    d->rn = pc_strag_count(a, d->p, d->lo, d->hi), d->n = pc_strag_count(a, d->p, d->rank, d->rank + 1);
    d->dep = pc_strag_deputy(c, d->rank), d->ward = pc_strag_ward(c);
    d->nw = d->ward >= 0 ? pc_strag_count(a, d->p, d->ward, d->ward + 1) : 0;
    d->slots1 = buf, d->part = pc_red_at(a, buf, (long)d->q * d->rn);
    d->slots2 = pc_red_at(a, d->part, d->rn), d->dsum = pc_red_at(a, d->slots2, (long)d->N * d->n);
    d->dw = pc_red_at(a, d->dsum, d->n), d->dwp = pc_red_at(a, d->dw, d->nw);
    d->r1 = req, d->r2 = d->r1 + d->q, d->r3 = d->r2 + d->N, d->rd = d->r3 + (d->hi - d->lo), d->rdp = d->rd + 1;
    d->s2 = d->rdp + 1, d->r4 = d->s2 + (d->hi - d->lo), d->s1 = d->r4 + d->q, d->s4 = d->s1 + d->q, d->s3 = d->s4 + d->q;
    d->sn = d->s3 + d->N, d->sd = d->sn + d->N, d->sdb = d->sd + 2;
}

/* Receives first (pieces of my range, partials of my block, final blocks of
 * my range, my ward's decision), then my pieces to my node peers. */
static int post(dep_t *d, const void *src)
{
    const pc_call_t *a = d->a;
    const int *members = d->c->node_members + d->c->node_first[d->x];
    MPI_Datatype t = a->datatype;
    MPI_Comm comm = d->c->comm;
    int rc = MPI_SUCCESS;
    for (int k = 1; k < d->q && rc == MPI_SUCCESS && d->rn > 0; k++, d->left1++) {
        int l = (d->me + k) % d->q;
        rc = PMPI_Irecv(pc_red_at(a, d->slots1, (long)l * d->rn), (int)d->rn, t, members[l], PC_TAG_ALLREDUCE_PIECE,
                        comm, &d->r1[l]);
    }
    for (int y = 0; y < d->N && rc == MPI_SUCCESS && d->n > 0; y++) {
        int from = pc_strag_collector(d->c, y, d->rank);
        if (from != d->rank)
            rc = PMPI_Irecv(pc_red_at(a, d->slots2, (long)y * d->n), (int)d->n, t, from, PC_TAG_ALLREDUCE_PARTIAL, comm,
                            &d->r2[y]);
    }
    for (long j = d->lo; j < d->hi && rc == MPI_SUCCESS; j++) {
        long nj = pc_strag_count(a, d->p, j, j + 1);
        d->range_left += nj > 0;
        if (nj > 0 && j != d->rank)
            rc = PMPI_Irecv(my_block(d, j), (int)nj, t, (int)j, PC_TAG_ALLREDUCE_BLOCK, comm, &d->r3[j - d->lo]);
    }
    if (rc == MPI_SUCCESS && d->nw > 0)
        rc = PMPI_Irecv(d->dw, (int)d->nw, t, d->ward, PC_TAG_ALLREDUCE_DEPUTY, comm, d->rd);
    for (int k = 1; k < d->q && rc == MPI_SUCCESS; k++) {
        int l = (d->me + k) % d->q;
        long llo = pc_strag_range_lo(d->p, d->q, l), ln = pc_strag_count(a, d->p, llo, pc_strag_range_lo(d->p, d->q, l + 1));
        if (ln > 0)
            rc = PMPI_Isend(pc_strag_block(a, src, d->p, llo), (int)ln, t, members[l], PC_TAG_ALLREDUCE_PIECE, comm,
                            &d->s1[l]);
    }
    if (rc == MPI_SUCCESS && d->rn > 0) rc = pc_red_copy(a, d->part, pc_strag_block(a, src, d->p, d->lo), d->rn);
    return rc;
}

int pc_straggler_deputy(const pc_call_t *a, const void *src, void *buf, MPI_Request *req)
{
    dep_t d = {0};
    int rc;
    layout(&d, a, buf, req);
    rc = post(&d, src);
    if (rc == MPI_SUCCESS && d.left1 == 0) rc = partial_done(&d);
    if (rc == MPI_SUCCESS && d.n == 0) rc = post_ranges(&d);
    int R = (int)(d.hi - d.lo), nact = d.q + d.N + 2 * R + 2;
    while (rc == MPI_SUCCESS) {
        MPI_Status st;
        int i;
        rc = pc_waitany(nact, req, &i, &st);
        if (rc != MPI_SUCCESS || i == MPI_UNDEFINED) break;
        if (i < d.q) {
            rc = pc_red_local(a, pc_red_at(a, d.slots1, (long)i * d.rn), d.part, d.rn);
            if (rc == MPI_SUCCESS && --d.left1 == 0) rc = partial_done(&d);
        } else if (i < d.q + d.N) {
            rc = owner_absorb(&d, pc_red_at(a, d.slots2, (long)(i - d.q) * d.n), i - d.q == d.x);
        } else if (i < d.q + d.N + R) {
            rc = collect_step(&d, d.lo + (i - d.q - d.N), &st);
        } else if (i < d.q + d.N + R + 2) {
            rc = deputy_step(&d, &st, i == d.q + d.N + R + 1);
        } else {
            d.inflight2--;
            rc = next_partials(&d);
        }
    }
    return rc;
}

int pc_allreduce_straggler_deputy(const pc_call_t *a) { return pc_straggler_run(a, PC_STRAGGLER_DEPUTY); }
