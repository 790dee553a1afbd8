/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * last_arriver - the barrier that minimizes the time after the last
 * arrival: on each node the LAST process to arrive (the one whose increment
 * completes the node's shared arrival counter) enters the inter-node
 * dissemination at once, so no process that arrived early has to notice
 * anything before the node's round-0 message leaves.
 *
 * Nodes 0 .. N-1 run Hensgen 1988's dissemination: in round k node m sends
 * to node m + 2^k and hears from node m - 2^k (mod N), R = ceil(log2 N)
 * rounds.  Who does what on node m:
 *   - the receiving end is fixed: node m's MAILBOX, its lowest rank (senders
 *     must name a rank; nobody knows who will arrive last elsewhere).  The
 *     mailbox receives node m's R messages as they come (MPI_ANY_SOURCE: the
 *     sender is another node's runner; windowed tag carrying the call's
 *     sequence number, payload {seq, k}; a later call's message that comes
 *     first is kept for it, ctx/early.h);
 *   - the SENDS of round k need the node complete and rounds 0 .. k-1
 *     received.  The last arriver sends round 0 at once; round k + 1 is sent
 *     by whichever of (the process that sent round k, the mailbox receiving
 *     round k's message) comes second at gate k, a shared counter that
 *     opens on its second pass (ctx/shm.h).  So a message is relayed by the
 *     process that made it possible, never by a process that must first
 *     notice shared memory; after round R - 1 the gate's second passer
 *     releases the node (shared word = the call's sequence number).
 *
 *   node m:   P0 (mailbox, early)  P1 (early)   P2 (last)
 *             recv round k ..      wait         arrivals++ == 3: send round 0 --> mailbox of m+1
 *             got round 0: gate 0 ----------------- sent round 0: gate 0
 *               (second passer) send round 1 --> mailbox of m+2, gate 1, ...
 *             gate R-1's second passer: release = seq --> P0 P1 P2 leave
 *
 * Cost (Hockney): R alpha across nodes, one message per node and round
 * (N R messages), plus one atomic increment per process and the release.
 * Late arrival: the last process L to arrive in the whole job is its node's
 * last arriver: it sends its node's round-0 message itself, the instant it
 * arrives; every later hop is received by a mailbox already waiting in MPI
 * and sent on by that same process, so after the last arrival the barrier
 * takes R message latencies plus one release, with no early arriver's
 * reaction in between (hier adds its leader's noticing of the count on
 * every node; flat dissemination ceil(log2 p) >= R rounds).  A late mailbox
 * delays only rounds whose messages reach it before it arrives.
 * Limitations: the node segment is created on the first call (collective
 * over the node); one node: the last arriver releases its node at once.
 * Generation-safe: the arrival counter and gates are monotonic counters,
 * the release word holds the call's sequence number.
 * Source: Hensgen 1988 (dissemination among nodes) with Parsons 2015's
 * dynamic leader, the last arriver that leads its node (Fig. 3.14, the
 * dynamic-leader reduce; node/node_dynleader.h uses the same fixed mailbox).
 */
#include "barrier/barrier.h"
#include "core/log.h"
#include "ctx/early.h"
#include "ctx/shm.h"

typedef struct {
    const pc_call_t *a;
    pc_shm_t *shm;
    int rounds;
} la_call_t;

/* Round k's message of my node to the mailbox of node my_node + 2^k. */
static int send_round(const la_call_t *l, int k)
{
    const pc_comm_t *c = l->a->ctx;
    long long seq = (long long)l->a->seq, round = k;
    int dst = pc_node_leader(c, (int)(((long)c->my_node + (1L << k)) % c->nnodes));
    MPI_Datatype t;
    int rc = pc_header_type(&seq, 1, &round, (int)sizeof round, MPI_BYTE, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Send(MPI_BOTTOM, 1, t, dst, pc_window_tag(PC_TAG_BARRIER_ROUND, l->a->seq), c->comm);
    PMPI_Type_free(&t);
    return rc;
}

/* Sends round k, then every later round whose gate this process opens; past
 * the last round, releases the node. */
static int run_from(const la_call_t *l, int k)
{
    for (; k < l->rounds; k++) {
        int rc = send_round(l, k);
        if (rc != MPI_SUCCESS) return rc;
        if (!pc_shm_gate_pass(l->shm, k)) return MPI_SUCCESS; /* round k's message not here yet */
    }
    pc_shm_give_release(l->shm, l->a->seq);
    return MPI_SUCCESS;
}

/* The mailbox: node's R messages, in whatever order they come. */
static int receive_rounds(const la_call_t *l)
{
    pc_comm_t *c = l->a->ctx;
    int tag = pc_window_tag(PC_TAG_BARRIER_ROUND, l->a->seq);
    for (int i = 0; i < l->rounds; i++) {
        long long k = -1;
        int from, rc = pc_recv_call(c, tag, l->a->seq, MPI_ANY_SOURCE, &k, sizeof k, &from);
        if (rc != MPI_SUCCESS) return rc;
        if (k < 0 || k >= l->rounds) {
            pc_log(PC_LOG_WARN, "barrier last_arriver seq=%lu: round %lld from %d (%d rounds)", l->a->seq, k, from,
                   l->rounds);
            return MPI_ERR_INTERN;
        }
        if (pc_shm_gate_pass(l->shm, (int)k) && (rc = run_from(l, (int)k + 1)) != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

int pc_barrier_last_arriver(const pc_call_t *a)
{
    pc_comm_t *c = a->ctx;
    la_call_t l = {a, NULL, 0};
    int rc = pc_shm_get(c, &l.shm);
    if (rc != MPI_SUCCESS) return rc;
    while ((1L << l.rounds) < c->nnodes) l.rounds++;
    pc_shm_gates_begin(l.shm);
    if (pc_shm_arrive(l.shm)) rc = run_from(&l, 0); /* the node's last arriver */
    if (rc == MPI_SUCCESS && c->node_rank == 0) rc = receive_rounds(&l);
    if (rc != MPI_SUCCESS) return rc;
    pc_shm_wait_release(l.shm, a->seq);
    return MPI_SUCCESS;
}
