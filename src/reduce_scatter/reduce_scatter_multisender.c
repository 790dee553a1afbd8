/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * multisender - hier's node reduction in shared memory, then MPICH's
 * pairwise exchange among nodes run by several processes of each node at
 * once: in step s (1 .. N-1) node n sends its node partial of node
 * (n + s) mod N's share and receives node (n - s)'s partial of its own
 * share.  Step s is done by sender 1 + (s - 1) mod S of the node (S senders,
 * node ranks 1 .. S): it sends straight from the node's shared result and
 * receives into its own shared slot, then marks the slot's flag; the
 * node's reducer (node rank 0) combines each landed piece into the node's
 * share as it comes, in any order, and frees the slot for its sender's next
 * step.  Every process then copies its block out of the node's share.
 *
 *   3 nodes A B C of 3 processes (S = 2), node A:
 *     node reduction: A's slot 0 = x_A0 op x_A1 op x_A2 (whole vector)
 *     A.1 (step 1): A's partial of B's share -> B.1, C's partial of A's
 *                   share <- C.1, into A's slot 1, flag 1
 *     A.2 (step 2): A's partial of C's share -> C.2, B's partial of A's
 *                   share <- B.2, into A's slot 2, flag 2     (at the same time)
 *     A.0: combines slot 1 and slot 2 into A's share as each lands
 *     A.0, A.1, A.2 copy their blocks out of A's share
 *   hier with pairwise among leaders: one process of A does both steps.
 *
 * Node order (reduce_scatter_hier.c): each node's share is one contiguous
 * range, so ranks may sit on nodes in any pattern and nodes may differ in
 * size; the pairing uses each partner node's own sender count.  The vector
 * runs through the node reduction area in rounds (pc_rs_node_run: round k
 * holds the k-th piece of every node's share), the exchange once per round
 * on the nodes' pieces (zero-element pieces send nothing).  A node of one process is its own sender and reducer
 * (a private receive buffer).
 * Cost (Hockney, m bytes in all, N nodes of q processes, S senders, gamma
 * per byte reduced, mu per byte copied): hier's node step (a reordering
 * copy m mu, copy-in m mu, (q - 1)(m / q) gamma, two node barriers per
 * round), then ceil((N - 1) / S) rounds of alpha + (m / N) beta on each
 * sender, the S senders of a node sharing its network link (the beta term
 * (N - 1)/N m beta per node stays when one link is the bottleneck; the
 * alpha term is divided by S: Parsons 2015's (p / ns - 1) alpha for ns = S),
 * the reducer's (N - 1)/N m gamma overlapped with the receives, then the
 * copy-out of my block.  No intra-node copy of the pieces: they land in
 * shared memory.
 * Late arrival: like hier, the node barriers wait for the whole node, and
 * step s of a node waits for the senders of step s on nodes n +- s: after
 * the last arrival, its node's copy-in and slice reduction plus the whole
 * exchange (each sender's share of the steps).
 * Order: node ranks within a node, then pieces in landing order:
 * commutative ops only; floating-point results may then differ in the last
 * bits from run to run.  PAPCOLL_REPRODUCIBLE=1: the reducer takes the
 * pieces in step order (1 .. N-1), whatever order they land in.
 * Limitations: a sender reuses its one slot, so it receives its next piece
 * only once the reducer combined the previous one (its next send is already
 * posted meanwhile).  A datatype whose
 * single element does not fit a slot runs PAPCOLL_REDUCE_SCATTER_INTER over
 * the whole communicator (logged).  A process whose step fails still marks
 * its flags (its node does not hang) and returns the error; the other nodes
 * are not told.
 * Parameters: PAPCOLL_REDUCE_SCATTER_SENDERS (default 0 = all but one),
 * PAPCOLL_SHM_SIZE, PAPCOLL_REPRODUCIBLE; under SMPI PAPCOLL_SIM_MEMBW.
 * Source: Parsons 2015 §2.3.2 (multi-sender inter-node communication,
 * reduce-scatter: "the senders then place the received data into a buffer,
 * and mark a flag for the reducer ... we reserve one process for performing
 * the reduction operation"), Fig. 2.7; MPICH
 * reduce_scatter_intra_pairwise.c for the exchange.
 */
#include "reduce_scatter/reduce_scatter_hier.h"

#include <stdlib.h>

typedef struct {
    long cap;            /* PAPCOLL_REDUCE_SCATTER_SENDERS (0 = all but one) */
    uint64_t *next;      /* [node_size] reducer: pieces of each slot combined so far */
    void *tmp, *tmp_base; /* a node of one process: the pieces it receives */
} multi_t;

static int node_size_of(const pc_comm_t *c, int k) { return c->node_first[k + 1] - c->node_first[k]; }

/* Senders of node k: node ranks 1 .. S; a node of one process sends alone. */
static int senders_of(const multi_t *m, const pc_comm_t *c, int k)
{
    int q = node_size_of(c, k);
    if (q == 1) return 1;
    return m->cap > 0 && m->cap < q - 1 ? (int)m->cap : q - 1;
}

/* Node rank of node k's sender for step s (1 .. N-1). */
static int step_lane(const multi_t *m, const pc_comm_t *c, int k, int s)
{
    return node_size_of(c, k) == 1 ? 0 : 1 + (s - 1) % senders_of(m, c, k);
}

static int step_rank(const multi_t *m, const pc_comm_t *c, int k, int s)
{
    return c->node_members[c->node_first[k] + step_lane(m, c, k, s)];
}

/* Step s of the pairwise exchange: my node's partial of node (n + s)'s part
 * of the round out, node (n - s)'s partial of my node's part (`in`
 * elements) into piece.  wait_slot (if not NULL) runs between posting the
 * send and receiving: the piece's buffer may be busy until then. */
static int pairwise_step(pc_rs_node_t *n, const pc_node_chunk_t *ch, const multi_t *m, int s, void *piece, long in,
                         void (*wait_slot)(pc_rs_node_t *, const pc_node_chunk_t *, uint64_t), uint64_t ordinal)
{
    const pc_call_t *a = n->a;
    const pc_comm_t *c = a->ctx;
    int to = (c->my_node + s) % c->nnodes, from = (c->my_node - s + c->nnodes) % c->nnodes;
    long at, out = pc_rs_node_part(n, to, &at);
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS;
    if (out > 0)
        rc = PMPI_Isend(pc_red_at(a, pc_node_red_slot(&n->r, ch, 0), at), (int)out, a->datatype, step_rank(m, c, to, s),
                        PC_TAG_REDUCE_SCATTER_MULTISENDER, c->comm, &req);
    if (wait_slot) wait_slot(n, ch, ordinal);
    if (rc == MPI_SUCCESS && in > 0)
        rc = pc_red_recv(a, piece, in, step_rank(m, c, from, s), PC_TAG_REDUCE_SCATTER_MULTISENDER);
    int wrc = pc_wait_request(&req, MPI_STATUS_IGNORE);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* A sender's slot is free for its piece number `ordinal` once the reducer
 * has combined the one before (hand-off counts: 2j + 1 landed, 2j + 2
 * combined). */
static void slot_free(pc_rs_node_t *n, const pc_node_chunk_t *ch, uint64_t ordinal)
{
    pc_node_red_slot_wait(&n->r, ch, n->a->ctx->node_rank, 2 * ordinal);
}

/* A sender (node rank lane, 1 .. S): steps lane, lane + S, ... */
static int send_steps(pc_rs_node_t *n, const pc_node_chunk_t *ch, const multi_t *m)
{
    const pc_comm_t *c = n->a->ctx;
    int lane = c->node_rank, S = senders_of(m, c, c->my_node), rc = MPI_SUCCESS;
    long in = pc_rs_node_part(n, c->my_node, NULL);
    char *slot = pc_node_red_slot(&n->r, ch, lane);
    uint64_t ordinal = 0;
    for (int s = lane; s < c->nnodes; s += S, ordinal++) {
        if (rc == MPI_SUCCESS) rc = pairwise_step(n, ch, m, s, slot, in, in > 0 ? slot_free : NULL, ordinal);
        else if (in > 0) slot_free(n, ch, ordinal);
        if (in > 0) pc_node_red_slot_post(&n->r, ch, lane, 2 * ordinal + 1); /* landed (even after an error) */
    }
    return rc;
}

/* Combines in (n elements) into acc, charging the memory traffic. */
static int combine(pc_rs_node_t *n, const void *in, void *acc, long count)
{
    int rc = pc_red_local(n->a, in, acc, count);
    pc_shm_charge(n->r.shm, (size_t)count * (size_t)n->r.type_size);
    return rc;
}

/* Pieces slot `lane` carries in this round: steps lane, lane + S, ... < N. */
static uint64_t pieces_of(const pc_comm_t *c, int lane, int S)
{
    return lane < c->nnodes ? (uint64_t)((c->nnodes - 1 - lane) / S + 1) : 0;
}

typedef struct {
    pc_rs_node_t *n;
    const pc_node_chunk_t *ch;
    const multi_t *m;
    int S;
} landed_t;

/* Some slot holds a piece the reducer has not combined yet. */
static int some_landed(void *arg)
{
    landed_t *w = arg;
    for (int lane = 1; lane <= w->S; lane++)
        if (w->m->next[lane] < pieces_of(w->n->a->ctx, lane, w->S) &&
            pc_node_red_slot_count(&w->n->r, w->ch, lane) == 2 * w->m->next[lane] + 1)
            return 1;
    return 0;
}

/* The reducer: combines piece number m->next[lane] of slot `lane` into acc
 * and gives the slot back to its sender. */
static int take_piece(pc_rs_node_t *n, const pc_node_chunk_t *ch, multi_t *m, int lane, void *acc, long in)
{
    int rc = combine(n, pc_node_red_slot(&n->r, ch, lane), acc, in);
    pc_node_red_slot_post(&n->r, ch, lane, 2 * m->next[lane] + 2); /* the slot is free again */
    m->next[lane]++;
    return rc;
}

/* The reducer (node rank 0 of a node of several): every landed piece into
 * the node's share in slot 0, in landing order; with PAPCOLL_REPRODUCIBLE=1
 * in step order (the same bits whatever the timing). */
static int reduce_pieces(pc_rs_node_t *n, const pc_node_chunk_t *ch, multi_t *m)
{
    const pc_comm_t *c = n->a->ctx;
    long at, in = pc_rs_node_part(n, c->my_node, &at);
    if (in == 0) return MPI_SUCCESS;
    int S = senders_of(m, c, c->my_node), rc = MPI_SUCCESS;
    char *acc = pc_red_at(n->a, pc_node_red_slot(&n->r, ch, 0), at);
    for (int lane = 1; lane <= S; lane++) m->next[lane] = 0;
    if (n->a->params->reproducible) {
        for (int s = 1; s < c->nnodes; s++) {
            int lane = step_lane(m, c, c->my_node, s);
            pc_node_red_slot_wait(&n->r, ch, lane, 2 * m->next[lane] + 1);
            int crc = take_piece(n, ch, m, lane, acc, in);
            if (rc == MPI_SUCCESS) rc = crc;
        }
        return rc;
    }
    landed_t w = {n, ch, m, S};
    for (int left = c->nnodes - 1; left > 0;) {
        pc_wait(n->r.shm, some_landed, &w);
        for (int lane = 1; lane <= S; lane++) {
            uint64_t j = m->next[lane];
            if (j >= pieces_of(c, lane, S) || pc_node_red_slot_count(&n->r, ch, lane) != 2 * j + 1) continue;
            int crc = take_piece(n, ch, m, lane, acc, in);
            if (rc == MPI_SUCCESS) rc = crc;
            left--;
        }
    }
    return rc;
}

/* A node of one process: every step itself, through a private buffer (my
 * block's size). */
static int exchange_alone(pc_rs_node_t *n, const pc_node_chunk_t *ch, multi_t *m)
{
    const pc_comm_t *c = n->a->ctx;
    long at, in = pc_rs_node_part(n, c->my_node, &at);
    char *acc = pc_red_at(n->a, pc_node_red_slot(&n->r, ch, 0), at);
    int rc = MPI_SUCCESS;
    for (int s = 1; s < c->nnodes && rc == MPI_SUCCESS; s++) {
        rc = pairwise_step(n, ch, m, s, m->tmp, in, NULL, 0);
        if (rc == MPI_SUCCESS && in > 0) rc = combine(n, m->tmp, acc, in);
    }
    return rc;
}

static int exchange(pc_rs_node_t *n, const pc_node_chunk_t *ch, int earlier_rc, void *arg)
{
    multi_t *m = arg;
    const pc_comm_t *c = n->a->ctx;
    (void)earlier_rc; /* the steps run regardless: the partner nodes wait for them */
    if (c->node_size == 1) return exchange_alone(n, ch, m);
    if (c->node_rank == 0) return reduce_pieces(n, ch, m);
    if (c->node_rank <= senders_of(m, c, c->my_node)) return send_steps(n, ch, m);
    return MPI_SUCCESS;
}

int pc_reduce_scatter_multisender(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    multi_t m = {a->params->reduce_scatter_senders, NULL, NULL, NULL};
    m.next = malloc((size_t)c->node_size * sizeof *m.next);
    /* alone on my node, my node's share is my block: the largest piece */
    if (c->node_size == 1) m.tmp = pc_red_alloc(a, pc_rs_count(a, c->rank), &m.tmp_base);
    int rc = m.next && (c->node_size > 1 || m.tmp) ? pc_rs_node_run(a, "multisender", exchange, &m) : MPI_ERR_NO_MEM;
    free(m.next);
    free(m.tmp_base);
    return rc;
}
