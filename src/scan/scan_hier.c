/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hier - hierarchical scan and exscan: the node prefix in shared memory,
 * an exscan of the node totals among the node leaders, then a fix-up on
 * every node.
 *
 *   node j (ranks i0 .. i0+q-1):  copy-in: slot k <- x_(i0+k)     | node barrier
 *     process k: acc = slot 0 op ... op slot k  (exscan: ... slot k-1), read in place
 *     process q-1: slot q-1 <- node total T_j, posted to the leader
 *   leaders: slot q-1 <-PAPCOLL_SCAN_INTER exscan (in place over ctx->leaders)-> E_j = T_0 op ... op T_(j-1)
 *   leader publishes; process k: recvbuf = E_j op acc   (node 0: acc; exscan rank 0: untouched)
 *
 * The message goes in chunks of whole elements that fit a slot (the node
 * reduction area of node/node_reduce.h, slots sized for the largest node);
 * every chunk is one exscan among the leaders.  Only slot q-1 is written
 * after the barrier, and only process q-1 reads it before: no second
 * barrier; a process leaves as soon as it has its fix-up.
 * Order: the node prefix is combined from slot k down to slot 0 with the
 * lower ranks on the left, the leaders' exscan keeps rank order, and the
 * fix-up puts E_j on the left: rank order for every op (non-commutative,
 * user-defined), provided each node's ranks are consecutive in the
 * communicator (then node j's leader is the j-th leader).  When they are
 * not (a node's ranks interleaved with another's), no node prefix is a
 * prefix of the scan: hier runs PAPCOLL_SCAN_INTER over the whole
 * communicator instead, for every op, logged by rank 0 at PAPCOLL_LOG=info
 * (the built-in rules choose hier without knowing the placement: a
 * warning would come with every call).
 * Cost (Hockney, m bytes, N nodes of q processes, gamma per byte reduced,
 * mu per byte copied): copy-in m mu + a node barrier + up to (q - 1) gamma m
 * of node prefix (process q - 1; process k does k) + the exscan of N
 * leaders (recursive doubling: ceil(log2 N) (alpha + beta m + 2 gamma m))
 * + the fix-up gamma m + copy-out m mu.  Against recursive doubling over
 * all p = N q processes, the network carries ceil(log2 N) rather than
 * ceil(log2 p) rounds, and from one process per node.
 * Late arrival: the node barrier makes each process wait for its node's
 * last arrival, and the leaders' exscan makes each node wait for the last
 * arrival on every node whose leader exchanges with it (recursive
 * doubling: every node); a process on node j never needs a later node's
 * data, but its leader must still hand its total upward.  linear makes no
 * process wait for a higher rank.
 * Limitations: a datatype whose single element does not fit a slot is
 * scanned by PAPCOLL_SCAN_INTER over the whole communicator (logged).
 * Memory: one private buffer of a chunk, and the node reduction area.
 * Parameters: PAPCOLL_SCAN_INTER (default recursive_doubling; any flat
 * scan algorithm, native, auto), PAPCOLL_SHM_SIZE; under SMPI
 * PAPCOLL_SIM_MEMBW.
 * Source: MPICH's SMP-aware scan (src/mpi/coll/scan/scan_intra_smp.c,
 * Argonne National Laboratory, MPICH 3.x: a scan on each node, a scan of
 * the node totals among the node roots, the result combined on each node;
 * only on communicators whose nodes are consecutive in rank order, as
 * here), in shared memory as the universal hierarchical algorithm of
 * Parsons 2015 §2.3.1 (node step, the collective among leaders, node step
 * back); the leaders' exscan by the exchanges of Sanders & Traff 2006.
 */
#include "scan/scan.h"
#include "node/node_reduce.h"
#include "coll/entry.h"
#include "core/log.h"
#include "core/phase.h"

#include <stdlib.h>

/* Nodes whose ranks are not consecutive: PAPCOLL_SCAN_INTER over everyone. */
static int whole_comm(const pc_call_t *a)
{
    if (a->ctx->rank == 0)
        pc_log(PC_LOG_INFO, "%s hier: the nodes' ranks are not consecutive in the communicator: %s over the whole "
               "communicator", pc_call_name(a), a->params->scan.inter);
    return pc_red_call_on(a, a->params->scan.inter, a->sendbuf, a->recvbuf, 0, a->ctx->comm);
}

/* acc = slot 0 op ... op slot top, top = my node rank (exscan: minus one);
 * *have = 0 when that is empty (exscan, node rank 0). */
static int node_prefix(pc_node_red_t *r, const pc_node_chunk_t *ch, const pc_call_t *c, void *acc, int *have)
{
    int top = pc_scan_exclusive(c) ? r->me - 1 : r->me;
    *have = top >= 0;
    if (top < 0) return MPI_SUCCESS;
    int rc = pc_red_copy(c, acc, pc_node_red_slot(r, ch, top), ch->count);
    for (int k = top - 1; k >= 0 && rc == MPI_SUCCESS; k--) rc = pc_red_local(c, pc_node_red_slot(r, ch, k), acc, ch->count);
    pc_shm_charge(r->shm, (size_t)(top + 1) * c->bytes);
    return rc;
}

/* Process q - 1: slot q - 1 <- the node total (it alone has read that slot). */
static int node_total(pc_node_red_t *r, const pc_node_chunk_t *ch, const pc_call_t *c, const void *acc, int have)
{
    char *total = pc_node_red_slot(r, ch, r->n - 1);
    pc_shm_charge(r->shm, c->bytes);
    if (!pc_scan_exclusive(c)) return pc_red_copy(c, total, acc, ch->count);
    return have ? pc_red_local(c, acc, total, ch->count) : MPI_SUCCESS; /* acc op x_(q-1) */
}

/* My result for the chunk from the leaders' exscan E (NULL on node 0). */
static int fix_up(pc_node_red_t *r, const pc_node_chunk_t *ch, const pc_call_t *c, const void *e, void *acc, int have)
{
    char *out = pc_red_at(c, r->a->recvbuf, ch->first);
    int rc = MPI_SUCCESS;
    pc_shm_charge(r->shm, c->bytes);
    if (!have) return e ? pc_red_copy(c, out, e, ch->count) : MPI_SUCCESS; /* exscan rank 0: untouched */
    if (e) rc = pc_red_local(c, e, acc, ch->count);
    return rc == MPI_SUCCESS ? pc_red_copy(c, out, acc, ch->count) : rc;
}

/* One chunk; every node process passes every wait and post, errors or not. */
static int chunk(pc_node_red_t *r, long k, void *acc, int rc)
{
    const pc_call_t *a = r->a;
    int last = r->me == r->n - 1, have = 0;
    pc_node_chunk_t ch;
    pc_node_red_chunk(r, k, &ch);
    pc_call_t c = pc_node_red_chunk_call(r, &ch);
    if (rc == MPI_SUCCESS) rc = pc_node_red_copy_in(r, &ch, a->sendbuf);
    pc_shm_barrier(r->shm);
    if (rc == MPI_SUCCESS) rc = node_prefix(r, &ch, &c, acc, &have);
    if (rc == MPI_SUCCESS && last) rc = node_total(r, &ch, &c, acc, have);
    char *e = pc_node_red_slot(r, &ch, r->n - 1); /* the node total, then E */
    if (r->n > 1 && last) pc_node_red_slot_post(r, &ch, r->n - 1, 1);
    if (r->me == 0) {
        if (r->n > 1) pc_node_red_slot_wait(r, &ch, r->n - 1, 1);
        if (a->ctx->nnodes > 1) {
            pc_call_t ex = c;
            ex.vform = 1; /* the leaders' exscan, whatever this call's form */
            int irc = pc_red_call_on(&ex, a->params->scan.inter, e, e, 0, a->ctx->leaders);
            if (rc == MPI_SUCCESS) rc = irc;
        }
        pc_node_red_publish(r, &ch); /* even after an error: the node must not hang */
    } else {
        pc_node_red_wait_result(r, &ch);
    }
    if (rc == MPI_SUCCESS) rc = fix_up(r, &ch, &c, a->ctx->my_node > 0 ? e : NULL, acc, have);
    pc_node_red_done(r, &ch);
    return rc;
}

int pc_scan_hier(const pc_call_t *a)
{
    if (!a->ctx->nodes_in_rank_order) return whole_comm(a);
    pc_node_red_t r;
    int rc;
    if (!pc_node_red_open(a, PC_NODE_RED_SLOTS, "hier", a->params->scan.inter, &r, &rc)) return rc;
    if (a->ctx->node_rank == 0 && a->ctx->nnodes > 1) pc_phase_mark_leader();
    void *acc_base = NULL;
    void *acc = pc_red_alloc(a, r.chunk, &acc_base);
    rc = acc ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (long k = 0; k < r.nchunks; k++) rc = chunk(&r, k, acc, rc);
    free(acc_base);
    pc_node_red_end(&r);
    return rc;
}
