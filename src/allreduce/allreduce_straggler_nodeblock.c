/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * straggler_nodeblock - allreduce straggler (allreduce_straggler.c: every
 * message posted at arrival, every piece combined in landing order, nobody
 * waiting for a fixed partner) whose inter-node messages carry node blocks:
 * k messages per pair of nodes and direction (k = 1 for short vectors)
 * instead of one per process of the receiving node.
 *
 * Why.  straggler sends each node's partial of block j to block j's owner
 * and the owner's finished block back to every node: (N - 1) q messages of
 * m / p out of every node link in each direction.  Small messages cost more
 * per byte than large ones (per-message overhead; SimGrid's calibrated
 * factors give 256-731 B messages a third of the link's bandwidth and twice
 * its latency, 4 KiB three quarters), and after the last arrival the late
 * node's link must still move all of them.  Here node x's partial of node
 * y's blocks travels in k messages (units), and so does node y's finished
 * node block back: k = 1 for the fewest messages, more to keep every
 * process collecting and each message at most PAPCOLL_ALLREDUCE_UNIT bytes.
 *
 * Blocks and units (p blocks of ceil(count / p) elements in node order:
 * block node_first[y] + i is owned by member i of node y; node y's q_y blocks
 * are its node block, cut into k units of whole blocks, k the largest of
 * ceil(max q / N) (every process collects a unit at least) and ceil(node
 * block bytes / PAPCOLL_ALLREDUCE_UNIT), at most max q; unit u = y k + s):
 *
 *   (1) arrive   my piece of unit u -> its collector on my node, member u mod q
 *   (2) collect  absorb my node's q pieces of my unit u; the node partial ->
 *                its gatherer on node y, member (x k + s) mod q_y (x: my node)
 *   (3) gather   absorb the partials of unit (y, s) of the nodes x that map to
 *                me; each block's piece -> the block's owner (intra-node)
 *   (4) own      absorb my block's pieces from my node's gatherers of its
 *                unit; my finished block -> each of them (intra-node)
 *   (5) return   once a unit's blocks are in and my own partials (2) have
 *                been received: the finished unit -> the collector of it on
 *                each node x that maps to me
 *   (6) spread   my finished unit -> my node peers
 *
 *   node x                       node y
 *   x0 x1 x2 -(1)-> collector -(2) unit-> gatherer -(3)-> owners
 *   x0 x1 x2 <-(6)- collector <-(5) unit- gatherer <-(4)---'
 *
 * With N >= q (k = 1) every gatherer of node y holds the partials of about
 * N / q nodes; with N = q it is one node's, and the owners combine the N
 * partials of their block as they land.
 * Cost (Hockney, m bytes, balanced, every stage's messages in flight):
 *   6 alpha-steps (2 inter-node: 2 alpha + 2 (N-1) k o + 2 ((N-1)/N) m beta;
 *   4 intra-node: about 2 (k N / q + q) o + 4 m beta_n) + ((p-1)/p) m gamma.
 *   straggler has 2 (N - 1) q inter-node messages per node link where this
 *   one has 2 (N - 1) k, and 2 intra-node steps where this one has 4.
 * Late arrival: after the last arrival (a late process on node x0) its
 *   pieces reach its node's collectors, node x0's partials leave (about
 *   m (N-1)/N through its link, in (N - 1) k messages), every gatherer
 *   forwards, the owners finish and return, and the finished units come
 *   back to node x0 while x0's own node block goes out of it.  The partials
 *   are synchronous sends and a process returns units only once its own
 *   partials have been received: on x0's link the partials, which every
 *   other node waits for, do not share the bandwidth with x0's node block,
 *   which can follow while the other nodes' blocks come in (a full-duplex
 *   link): about 2 alpha + 2 ((N-1)/N) m beta + 4 intra-node steps, where
 *   sharing would give 3 ((N-1)/N) m beta (x0's block and partials out at
 *   once, then the others' blocks in: 126 against 95 us at 256 KiB, 256
 *   ranks, SIMULATED, docs/performance.md).  Balanced, the wait costs
 *   nothing measurable: a node's blocks need every node's partials.
 *   Under many late processes on many nodes it is a reduce-scatter +
 *   allgather after the last arrival, as every bandwidth-optimal allreduce.
 * Order: landing order, or (`ordered`: PAPCOLL_REPRODUCIBLE=1) every
 *   combination in a fixed order (node ranks, sources' node indices,
 *   gatherers' node ranks), the same bits for any arrival.  Commutative
 *   ops only; non-commutative ones and one node (or one process per node)
 *   take straggler's flat form.
 * Limitations: with count < p only the first count blocks hold data (their
 *   units' messages only are sent).  No bound on messages in flight beyond
 *   one vector's bytes per process.
 * Memory: about m for my units' pieces, m / q to m / k for the gatherer's
 *   partials and its two copies of a unit, q + 1 blocks as an owner, plus a
 *   copy of the input with MPI_IN_PLACE.
 * Parameters: PAPCOLL_ALLREDUCE_UNIT, PAPCOLL_REPRODUCIBLE (and
 *   PAPCOLL_PPN for the nodes).
 * Source: Devraj et al. 2025 (StragglAR, arXiv 2505.23523: reduce-scatter
 *   among the on-time processes during the delay, then completion);
 *   Proficz 2018 (pre-reducing what has arrived); Parsons 2015 §2 (node
 *   level before inter-node).
 */
#include "allreduce/common/straggler_blocks.h"

#include <stdlib.h>

typedef struct nb {
    const pc_call_t *a;
    const pc_comm_t *c;
    int p, N, x, q, me, k, ordered;
    long U, ulo, uhi;  /* N k units; I collect units [ulo, uhi) */
    struct nb_unit {   /* per unit s of my node: */
        int sources;   /* nodes whose partials of it come to me (0: I gather nothing of it) */
        int remote;    /* of those, not mine */
        long off;      /* its slots' first element in `gather` */
    } *units;
    const void *src;
    char *pieces;      /* q slots of my range of units (slot me: my node's partial of it) */
    char *gather;      /* per unit (x, s) I gather: a slot per remote source, the sum, the finished unit */
    char *own;         /* q slots of my block's pieces, then my finished block */
    /* requests, each kind in its own range */
    MPI_Request *r_piece, *r_part, *r_fwd, *r_back, *r_unit, *r_spread;
    MPI_Request *s_piece, *s_part, *s_fwd, *s_back, *s_unit, *s_spread;
} nb_t;

static int node_size(const pc_comm_t *c, int y) { return c->node_first[y + 1] - c->node_first[y]; }
static int member(const pc_comm_t *c, int y, int i) { return c->node_members[c->node_first[y] + i]; }

/* Units per node block: every process of every node collects one at least,
 * and no unit is over PAPCOLL_ALLREDUCE_UNIT bytes unless it is one block. */
static int units_per_node(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int qmax = 1, k;
    for (int y = 0; y < c->nnodes; y++)
        if (node_size(c, y) > qmax) qmax = node_size(c, y);
    k = (qmax + c->nnodes - 1) / c->nnodes;
    if (a->params->allreduce.unit > 0) {
        double node_bytes = (double)a->count * (double)a->extent * qmax / c->size;
        double want = node_bytes / (double)a->params->allreduce.unit;
        if (want > k) k = want >= qmax ? qmax : (int)want + (want > (int)want);
    }
    return k;
}

/* Unit (y, s)'s blocks [*lo, *hi), positions in node order. */
static void unit_blocks(const nb_t *d, int y, int s, long *lo, long *hi)
{
    long qy = node_size(d->c, y);
    *lo = d->c->node_first[y] + (s * qy + d->k - 1) / d->k;
    *hi = d->c->node_first[y] + ((s + 1) * qy + d->k - 1) / d->k;
}
/* Unit u's first element (count for u = U): units are contiguous in u. */
static long unit_start(const nb_t *d, long u)
{
    long lo, hi;
    if (u >= d->U) return d->a->count;
    unit_blocks(d, (int)(u / d->k), (int)(u % d->k), &lo, &hi);
    return (long)pc_block_offset((size_t)d->a->count, d->p, lo);
}
static long unit_len(const nb_t *d, int y, int s)
{
    return unit_start(d, (long)y * d->k + s + 1) - unit_start(d, (long)y * d->k + s);
}
static void *unit_at(const nb_t *d, const void *buf, int y, int s)
{
    return pc_red_at(d->a, buf, unit_start(d, (long)y * d->k + s));
}
/* The node rank on node x that collects unit u (contiguous ranges of units,
 * as straggler's ranges of blocks), and the first unit of node rank l's
 * range on my node. */
static int collector_index(const nb_t *d, int x, long u) { return pc_strag_range_of((int)d->U, node_size(d->c, x), u); }
static int collector(const nb_t *d, int x, long u) { return member(d->c, x, collector_index(d, x, u)); }
static long range_lo(const nb_t *d, int l) { return pc_strag_range_lo((int)d->U, d->q, l); }
/* The node rank on node y that gathers node x's partials of unit (y, s):
 * node y's own partial stays with its collector, the other nodes' go to
 * the node ranks after it in turn (one node each when N <= q_y). */
static int gatherer_index(const nb_t *d, int y, int x, int s)
{
    return (collector_index(d, y, (long)y * d->k + s) + (x - y + d->N) % d->N) % node_size(d->c, y);
}
static int gatherer(const nb_t *d, int y, int x, int s) { return member(d->c, y, gatherer_index(d, y, x, s)); }
/* Do node x's partials of my node's unit s come to me? */
static int gathers(const nb_t *d, int x, int s) { return gatherer_index(d, d->x, x, s) == d->me; }
/* Sources of my unit s (remote ones only with `remote`). */
static int nsources(const nb_t *d, int s, int remote)
{
    int n = 0;
    for (int y = 0; y < d->N; y++) n += gathers(d, y, s) && (!remote || y != d->x);
    return n;
}
/* Does member g of my node gather anything of unit s?  The gatherers are
 * the N node ranks from the unit's collector on (gatherer_index). */
static int is_gatherer(const nb_t *d, int g, int s)
{
    return (g - collector_index(d, d->x, (long)d->x * d->k + s) + d->q) % d->q < d->N;
}
/* The unit of my node that holds my block. */
static int my_unit(const nb_t *d)
{
    long b = d->c->node_first[d->x] + d->me, lo, hi;
    for (int s = 0;; s++) {
        unit_blocks(d, d->x, s, &lo, &hi);
        if (b < hi) return s;
    }
}

static void plan(const pc_call_t *a, nb_t *d)
{
    const pc_comm_t *c = a->ctx;
    d->a = a;
    d->c = c;
    d->p = c->size;
    d->N = c->nnodes;
    d->x = c->my_node;
    d->q = c->node_size;
    d->me = c->node_rank;
    d->k = units_per_node(a);
    d->U = (long)d->N * d->k;
    d->ulo = range_lo(d, d->me);
    d->uhi = range_lo(d, d->me + 1);
}

/* Elements: my range of units; my gathering (fills units[0 .. k) if not NULL); my block. */
static long range_len(const nb_t *d) { return unit_start(d, d->uhi) - unit_start(d, d->ulo); }
/* Node rank l's range of units on my node: its first element and its elements. */
static long peer_range(const nb_t *d, int l, long *lo)
{
    *lo = unit_start(d, range_lo(d, l));
    return unit_start(d, range_lo(d, l + 1)) - *lo;
}
static long gather_len(const nb_t *d, struct nb_unit *units)
{
    long n = 0;
    for (int s = 0; s < d->k; s++) {
        int all = nsources(d, s, 0), remote = nsources(d, s, 1);
        if (units) units[s] = (struct nb_unit){all, remote, n};
        if (all > 0) n += (remote + 2L) * unit_len(d, d->x, s);
    }
    return n;
}
static long block_len(const nb_t *d)
{
    long b = d->c->node_first[d->x] + d->me;
    return pc_strag_count(d->a, d->p, b, b + 1);
}

long pc_straggler_nodeblock_nreq(const pc_call_t *a)
{
    nb_t d;
    plan(a, &d);
    return 8L * d.q + 2 * d.U + 2 * (d.uhi - d.ulo);
}

long pc_straggler_nodeblock_nslots(const pc_call_t *a)
{
    nb_t d;
    plan(a, &d);
    return d.q * range_len(&d) + gather_len(&d, NULL) + (d.q + 1L) * block_len(&d);
}

/* The gatherer's slots of unit s: remote partials, then the sum, then the finished unit. */
static char *gather_at(const nb_t *d, int s) { return pc_red_at(d->a, d->gather, d->units[s].off); }
static char *gather_sum(const nb_t *d, int s)
{
    return pc_red_at(d->a, gather_at(d, s), d->units[s].remote * unit_len(d, d->x, s));
}
static char *gather_done(const nb_t *d, int s) { return pc_red_at(d->a, gather_sum(d, s), unit_len(d, d->x, s)); }
/* Element offset of block b in its unit (y, s). */
static long in_unit(const nb_t *d, int y, int s, long b)
{
    return (long)pc_block_offset((size_t)d->a->count, d->p, b) - unit_start(d, (long)y * d->k + s);
}
/* My node's partial of unit u of my range: in slot me. */
static char *my_partial(const nb_t *d, long u)
{
    return pc_red_at(d->a, d->pieces, d->me * range_len(d) + unit_start(d, u) - unit_start(d, d->ulo));
}

/* Every receive, before any send. */
static int post_receives(nb_t *d)
{
    const pc_call_t *a = d->a;
    MPI_Comm comm = d->c->comm;
    MPI_Datatype t = a->datatype;
    int rc = MPI_SUCCESS, x = d->x, q = d->q, me = d->me;
    long nb = block_len(d), rn = range_len(d);

    for (int l = 0; l < q && rc == MPI_SUCCESS && rn > 0; l++) /* (1) my node's pieces of my range */
        if (l != me)
            rc = PMPI_Irecv(pc_red_at(a, d->pieces, l * rn), (int)rn, t, member(d->c, x, l), PC_TAG_ALLREDUCE_PIECE,
                            comm, &d->r_piece[l]);
    for (int s = 0; s < d->k && rc == MPI_SUCCESS; s++) { /* (2) the partials of my node's units I gather */
        long n = unit_len(d, x, s), lo, hi;
        int j = 0, remote = 0; /* j: the source's index among all, remote: its slot */
        if (n == 0 || d->units[s].sources == 0) continue;
        for (int y = 0; y < d->N && rc == MPI_SUCCESS; y++) {
            if (!gathers(d, y, s)) continue;
            if (y != x)
                rc = PMPI_Irecv(pc_red_at(a, gather_at(d, s), remote++ * n), (int)n, t,
                                collector(d, y, (long)x * d->k + s), PC_TAG_ALLREDUCE_PARTIAL, comm,
                                &d->r_part[s * d->N + j]);
            j++;
        }
        unit_blocks(d, x, s, &lo, &hi); /* (4) my node's finished blocks of it */
        for (long b = lo; b < hi && rc == MPI_SUCCESS; b++) {
            int i = (int)(b - d->c->node_first[x]);
            long bn = pc_strag_count(a, d->p, b, b + 1);
            if (i != me && bn > 0)
                rc = PMPI_Irecv(pc_red_at(a, gather_done(d, s), in_unit(d, x, s, b)), (int)bn, t, member(d->c, x, i),
                                PC_TAG_ALLREDUCE_BACK, comm, &d->r_back[i]);
        }
    }
    if (nb > 0) { /* (3) my block's pieces from my node's gatherers of its unit */
        int s = my_unit(d), j = 0;
        for (int g = 0; g < q && rc == MPI_SUCCESS; g++)
            if (is_gatherer(d, g, s)) {
                if (g != me)
                    rc = PMPI_Irecv(pc_red_at(a, d->own, g * nb), (int)nb, t, member(d->c, x, g),
                                    PC_TAG_ALLREDUCE_FORWARD, comm, &d->r_fwd[j]);
                j++;
            }
    }
    for (long u = d->ulo; u < d->uhi && rc == MPI_SUCCESS; u++) { /* (5) my units, finished, from their gatherers */
        int y = (int)(u / d->k), s = (int)(u % d->k);
        long n = unit_len(d, y, s);
        if (y != x && n > 0)
            rc = PMPI_Irecv(unit_at(d, a->recvbuf, y, s), (int)n, t, gatherer(d, y, x, s), PC_TAG_ALLREDUCE_UNIT, comm,
                            &d->r_unit[u - d->ulo]);
    }
    for (int l = 0; l < q && rc == MPI_SUCCESS; l++) { /* (6) my node peers' ranges, finished */
        long lo, n = peer_range(d, l, &lo);
        if (l != me && n > 0)
            rc = PMPI_Irecv(pc_red_at(a, a->recvbuf, lo), (int)n, t, member(d->c, x, l), PC_TAG_ALLREDUCE_RANGE, comm,
                            &d->r_spread[l]);
    }
    return rc;
}

/* (1) and (2): my pieces to their collectors; my range's node partials, unit by unit, to their gatherers. */
static int collect(nb_t *d, void **piece)
{
    const pc_call_t *a = d->a;
    MPI_Comm comm = d->c->comm;
    int rc = MPI_SUCCESS, x = d->x, q = d->q, me = d->me;
    long rn = range_len(d);

    for (int l = 0; l < q && rc == MPI_SUCCESS; l++) {
        long lo, n = peer_range(d, l, &lo);
        if (l != me && n > 0)
            rc = PMPI_Isend(pc_red_at(a, d->src, lo), (int)n, a->datatype, member(d->c, x, l), PC_TAG_ALLREDUCE_PIECE,
                            comm, &d->s_piece[l]);
    }
    for (int l = 0; l < q; l++)
        piece[l] = l == me ? pc_red_at(a, d->src, unit_start(d, d->ulo)) : pc_red_at(a, d->pieces, l * rn);
    if (rc == MPI_SUCCESS && rn > 0)
        rc = pc_strag_absorb(a, d->ordered, my_partial(d, d->ulo), piece, d->r_piece, q, me, rn);
    for (long u = d->ulo; u < d->uhi && rc == MPI_SUCCESS; u++) {
        int y = (int)(u / d->k), s = (int)(u % d->k);
        long n = unit_len(d, y, s);
        if (n > 0 && y != x)
            rc = PMPI_Issend(my_partial(d, u), (int)n, a->datatype, gatherer(d, y, x, s), PC_TAG_ALLREDUCE_PARTIAL, comm,
                             &d->s_part[u - d->ulo]);
    }
    return rc;
}

/* (3): the partials of my node's units I gather, summed; each block's piece to its owner. */
static int gather(nb_t *d, void **piece)
{
    const pc_call_t *a = d->a;
    int rc = MPI_SUCCESS, x = d->x;

    for (int s = 0; s < d->k && rc == MPI_SUCCESS; s++) {
        long n = unit_len(d, x, s), lo, hi;
        int j = 0, mine = -1;
        if (n == 0 || d->units[s].sources == 0) continue;
        for (int y = 0; y < d->N; y++) {
            if (!gathers(d, y, s)) continue;
            if (y == x) { /* my own node's partial: I collect unit x k + s (gatherer_index) */
                piece[j] = my_partial(d, (long)x * d->k + s);
                mine = j;
            } else {
                piece[j] = pc_red_at(a, gather_at(d, s), (j - (mine >= 0)) * n);
            }
            j++;
        }
        rc = pc_strag_absorb(a, d->ordered, gather_sum(d, s), piece, &d->r_part[s * d->N], j, mine, n);
        unit_blocks(d, x, s, &lo, &hi);
        for (long b = lo; b < hi && rc == MPI_SUCCESS; b++) {
            int i = (int)(b - d->c->node_first[x]);
            long bn = pc_strag_count(a, d->p, b, b + 1);
            if (i != d->me && bn > 0)
                rc = PMPI_Isend(pc_red_at(a, gather_sum(d, s), in_unit(d, x, s, b)), (int)bn, a->datatype,
                                member(d->c, x, i), PC_TAG_ALLREDUCE_FORWARD, d->c->comm, &d->s_fwd[i]);
        }
    }
    return rc;
}

/* (4): my block from my node's gatherers of its unit, then back to each of them. */
static int own(nb_t *d, void **piece)
{
    const pc_call_t *a = d->a;
    long nb = block_len(d), b = d->c->node_first[d->x] + d->me;
    int rc = MPI_SUCCESS, s, j = 0, mine = -1;
    char *done = pc_red_at(a, d->own, d->q * nb);

    if (nb == 0) return MPI_SUCCESS;
    s = my_unit(d);
    for (int g = 0; g < d->q; g++)
        if (is_gatherer(d, g, s)) {
            if (g == d->me) mine = j;
            piece[j++] = g == d->me ? pc_red_at(a, gather_sum(d, s), in_unit(d, d->x, s, b))
                                    : pc_red_at(a, d->own, g * nb);
        }
    rc = pc_strag_absorb(a, d->ordered, done, piece, d->r_fwd, j, mine, nb);
    for (int g = 0; g < d->q && rc == MPI_SUCCESS; g++)
        if (is_gatherer(d, g, s) && g != d->me)
            rc = PMPI_Isend(done, (int)nb, a->datatype, member(d->c, d->x, g), PC_TAG_ALLREDUCE_BACK, d->c->comm,
                            &d->s_back[g]);
    if (rc == MPI_SUCCESS && mine >= 0) /* as the gatherer of my block's unit */
        rc = pc_red_copy(a, pc_red_at(a, gather_done(d, s), in_unit(d, d->x, s, b)), done, nb);
    return rc;
}

/* (5): each unit I gather, once finished, to the collectors of it on its source nodes. */
static int give_back(nb_t *d)
{
    const pc_call_t *a = d->a;
    int rc = pc_waitall((int)(d->uhi - d->ulo), d->s_part, MPI_STATUSES_IGNORE), x = d->x;

    for (int s = 0; s < d->k && rc == MPI_SUCCESS; s++) {
        long n = unit_len(d, x, s), lo, hi;
        int j = 0;
        if (n == 0 || d->units[s].sources == 0) continue;
        unit_blocks(d, x, s, &lo, &hi);
        rc = pc_waitall((int)(hi - lo), &d->r_back[lo - d->c->node_first[x]], MPI_STATUSES_IGNORE);
        for (int y = 0; y < d->N && rc == MPI_SUCCESS; y++) {
            if (!gathers(d, y, s)) continue;
            if (y == x) /* I collect unit x k + s on my node */
                rc = pc_red_copy(a, unit_at(d, a->recvbuf, x, s), gather_done(d, s), n);
            else
                rc = PMPI_Isend(gather_done(d, s), (int)n, a->datatype, collector(d, y, (long)x * d->k + s),
                                PC_TAG_ALLREDUCE_UNIT, d->c->comm, &d->s_unit[s * d->N + j]);
            j++;
        }
    }
    return rc;
}

/* (6): my range, once its units are finished, to my node peers. */
static int spread(nb_t *d)
{
    const pc_call_t *a = d->a;
    int rc = pc_waitall((int)(d->uhi - d->ulo), d->r_unit, MPI_STATUSES_IGNORE); /* MPI_REQUEST_NULL: my node's units */
    long lo = unit_start(d, d->ulo), n = range_len(d);

    for (int l = 0; l < d->q && rc == MPI_SUCCESS && n > 0; l++)
        if (l != d->me)
            rc = PMPI_Isend(pc_red_at(a, a->recvbuf, lo), (int)n, a->datatype, member(d->c, d->x, l),
                            PC_TAG_ALLREDUCE_RANGE, d->c->comm, &d->s_spread[l]);
    return rc;
}

int pc_straggler_nodeblock(const pc_call_t *a, int ordered, const void *src, void *buf, void **piece, MPI_Request *req)
{
    nb_t d;
    int rc;
    long nu;

    plan(a, &d);
    d.ordered = ordered;
    d.src = src;
    d.units = malloc((size_t)d.k * sizeof *d.units);
    if (!d.units) return MPI_ERR_NO_MEM;
    d.pieces = buf;
    d.gather = pc_red_at(a, d.pieces, d.q * range_len(&d));
    d.own = pc_red_at(a, d.gather, gather_len(&d, d.units));
    nu = d.uhi - d.ulo;
    d.r_piece = req;
    d.r_part = d.r_piece + d.q;
    d.r_fwd = d.r_part + d.U;
    d.r_back = d.r_fwd + d.q;
    d.r_unit = d.r_back + d.q;
    d.r_spread = d.r_unit + nu;
    d.s_piece = d.r_spread + d.q;
    d.s_part = d.s_piece + d.q;
    d.s_fwd = d.s_part + nu;
    d.s_back = d.s_fwd + d.q;
    d.s_unit = d.s_back + d.q;
    d.s_spread = d.s_unit + d.U; /* q: 8 q + 2 U + 2 nu in all */
    rc = post_receives(&d);
    if (rc == MPI_SUCCESS) rc = collect(&d, piece);
    if (rc == MPI_SUCCESS) rc = gather(&d, piece);
    if (rc == MPI_SUCCESS) rc = own(&d, piece);
    if (rc == MPI_SUCCESS) rc = give_back(&d);
    if (rc == MPI_SUCCESS) rc = spread(&d);
    free(d.units);
    return rc;
}

int pc_allreduce_straggler_nodeblock(const pc_call_t *a) { return pc_straggler_run(a, PC_STRAGGLER_NODEBLOCK); }
