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
 *     sequence number, payload {seq, k}, all R receives posted on arrival;
 *     a later call's message that comes first is kept for it, ctx/early.h);
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
 * arrives; every later hop is received by a mailbox already waiting in MPI,
 * and the next round is sent by whoever completes the gate (the mailbox on
 * receipt, or the sender of the previous round), so after the last arrival
 * the barrier takes R message latencies plus one release, with no process
 * in between that must first notice shared memory (hier adds its leader's
 * noticing of the count on every node; flat dissemination ceil(log2 p) >= R
 * rounds).  A late mailbox delays only rounds whose messages reach it
 * before it arrives.  Simulated (SMPI, 64 ranks on 8 x 8 nodes,
 * docs/benchmark.md): 12.2 us after the last arrival, as hier, where SMPI's
 * exact shared-memory waits make the leader's noticing free; natively it
 * is not measured yet.
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

#include <stdlib.h>

typedef struct {
    const pc_call_t *a;
    pc_shm_t *shm;
    int rounds;
} la_call_t;

/* Round k's message of my node to the mailbox of node my_node + 2^k: {seq, k}. */
static int send_round(const la_call_t *l, int k)
{
    const pc_comm_t *c = l->a->ctx;
    long long msg[2] = {(long long)l->a->seq, k};
    int dst = pc_node_leader(c, (int)(((long)c->my_node + (1L << k)) % c->nnodes));
    return PMPI_Send(msg, 2, MPI_LONG_LONG, dst, pc_window_tag(PC_TAG_BARRIER_ROUND, l->a->seq), c->comm);
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

/* The mailbox got round k's message. */
static int received(const la_call_t *l, long long k, int *got)
{
    if (k < 0 || k >= l->rounds) {
        pc_log(PC_LOG_WARN, "barrier last_arriver seq=%lu: round %lld (%d rounds)", l->a->seq, k, l->rounds);
        return MPI_ERR_INTERN;
    }
    (*got)++;
    return pc_shm_gate_pass(l->shm, (int)k) ? run_from(l, (int)k + 1) : MPI_SUCCESS;
}

/* The mailbox: its node's R messages, in whatever order they come.  All R
 * receives are posted at once (MPI_ANY_SOURCE, the call's windowed tag) and
 * waited for in the order they were posted, which is the order MPI matches
 * the messages to them: the first to come completes the first posted.  No
 * probe, no wait-any: under SMPI a blocking probe's polls sleep longer and
 * longer (its iprobe cost grows with every miss) and MPI_Waitany cost up to
 * 60 us more per barrier at 64 ranks (8 x 8, balanced), either delaying each
 * hop.  A later call's message matched here (a tag window of a few calls) is
 * kept for that call (ctx/early.h) and its receive posted again, last. */
static int receive_rounds(const la_call_t *l)
{
    pc_comm_t *c = l->a->ctx;
    int n = l->rounds, tag = pc_window_tag(PC_TAG_BARRIER_ROUND, l->a->seq), got = 0, rc = MPI_SUCCESS, from;
    long long k;
    size_t bytes;
    while (rc == MPI_SUCCESS && got < n && pc_early_take(c, tag, l->a->seq, MPI_ANY_SOURCE, &k, sizeof k, &from, &bytes))
        rc = bytes == sizeof k ? received(l, k, &got) : MPI_ERR_INTERN;
    if (rc != MPI_SUCCESS || got == n) return rc;
    int posted = n - got, head = 0;
    long long (*msg)[2] = malloc((size_t)posted * sizeof *msg);
    MPI_Request *req = malloc((size_t)posted * sizeof *req);
    int *fifo = malloc((size_t)posted * sizeof *fifo); /* the posted receives, in matching order */
    if (!msg || !req || !fifo) rc = MPI_ERR_NO_MEM;
    for (int i = 0; req && i < posted; i++) req[i] = MPI_REQUEST_NULL;
    for (int i = 0; rc == MPI_SUCCESS && i < posted; i++) {
        fifo[i] = i;
        rc = PMPI_Irecv(msg[i], 2, MPI_LONG_LONG, MPI_ANY_SOURCE, tag, c->comm, &req[i]);
    }
    while (rc == MPI_SUCCESS && got < n) {
        int i = fifo[head];
        rc = pc_wait_request(&req[i], MPI_STATUS_IGNORE); /* yields when the node is oversubscribed */
        if (rc != MPI_SUCCESS) break;
        long long *m = msg[i];
        if (m[0] == (long long)l->a->seq) {
            head = (head + 1) % posted; /* consumed: the slot is never posted again */
            rc = received(l, m[1], &got);
        } else if (m[0] > (long long)l->a->seq) {
            rc = pc_early_keep(c, tag, (unsigned long)m[0], MPI_ANY_SOURCE, &m[1], sizeof m[1]);
            if (rc == MPI_SUCCESS) rc = PMPI_Irecv(m, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, tag, c->comm, &req[i]);
            /* now the last posted: it moves behind the others still posted */
            int still = n - got; /* receives still posted, fifo[head .. head + still) */
            for (int j = 0; j + 1 < still; j++) fifo[(head + j) % posted] = fifo[(head + j + 1) % posted];
            fifo[(head + still - 1) % posted] = i;
        } else {
            pc_log(PC_LOG_WARN, "barrier last_arriver seq=%lu: a message of call %lld", l->a->seq, m[0]);
            rc = MPI_ERR_INTERN;
        }
    }
    for (int i = 0; rc != MPI_SUCCESS && req && i < posted; i++) /* an error: nothing left posted into msg */
        if (req[i] != MPI_REQUEST_NULL && PMPI_Cancel(&req[i]) == MPI_SUCCESS) PMPI_Wait(&req[i], MPI_STATUS_IGNORE);
    free(msg);
    free(req);
    free(fifo);
    return rc;
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
