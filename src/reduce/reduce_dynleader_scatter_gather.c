/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader_scatter_gather - a dynamic-leader reduce whose root receives
 * about one vector: the message is cut into N parts (N nodes), part j is
 * owned by node j's mailbox (its lowest rank; the root on the root's node),
 * and each part climbs a flat tree of nodes to its owner the way dynleader
 * climbs to the root.  Every process combines each part of its data into
 * its node's shared accumulator as soon as it arrives and leaves; a node's
 * LAST contributor to part j sends the node's part j to owner j; owner j
 * combines the N - 1 parts that come, in landing order, into its own
 * node's part j and sends the finished part to the root.
 *
 *   node i, parts in the order i+1, i+2, ..., N-1, 0, ..., i (its own last):
 *     part j != i  x2 .. x0 .... x1   each: acc_j op= x_j; the last -> owner j
 *     part i       each: acc_i op= x_i; owner i also receives the other nodes'
 *                  part i (MPI_ANY_SOURCE: the senders are dynamic), acc_i op= each,
 *                  waits for acc_i to be complete, acc_i -> the root
 *   root           owner of its node's part; receives the other N - 1 parts
 *
 * Why: dynleader_flat funnels N - 1 whole node results into the root, and
 * dynleader's binomial tree of nodes makes the root's node receive and
 * combine ceil(log2 N) whole vectors in sequence; hier_scatter_gather
 * spreads the root's load with Rabenseifner's reduce among FIXED node
 * leaders, each waiting for its node's last process and pairing with other
 * leaders step by step, so one late node holds up its partner of every
 * halving step.  Here the reduce-scatter is one direct exchange: no owner
 * waits for one node while another node's part is there to combine, a
 * node's parts leave with its last process, and the root's link carries
 * (N - 1)/N m.  Each node takes its own part last, so an owner contributes
 * to every other part (and its node's processes are never held by its
 * waiting) before it waits for the other nodes.
 *
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced): a process combines m gamma in N uses of the node's accumulator
 * (N times the per-use overhead of dynleader's one); a node's last process
 * sends N - 1 parts ((N - 1) alpha + ((N - 1)/N) m beta); an owner receives
 * and combines N - 1 parts of m/N and sends one to the root
 * (alpha + m/N beta); the root receives N - 1 parts.  The critical path
 * is two message hops (node -> owner -> root) after N - 1 send overheads,
 * and about 2 ((N - 1)/N) m beta, against hier_scatter_gather's
 * 2 log2(N) hops among the leaders and its gather, and dynleader_flat's
 * (N - 1) m beta into the root.  The N - 1 sends of each node's last
 * process make it latency-bound for short messages.
 * Sends: a node's processes run at most two parts ahead of each other (the
 * node reduction area has two banks), so a part sent with a blocking send
 * from the accumulator holds the node's other processes while it travels.
 * Parts of PAPCOLL_REDUCE_DETACH_BYTES (64 KiB) and more leave from a
 * private copy with MPI_Isend (completed at the end of the call); smaller
 * ones with MPI_Send, which returns at once below the MPI library's eager
 * limit.  Simulated at 256 ranks, 1 MiB, balanced: e_bar 1236 us with
 * blocking sends, 407 us with copies.
 * Late arrival: a non-owner pays its combines and, if last on its node,
 * its sends (a send completes once the owner is in the call: every owner
 * posts its receives on entry); the owners (one per node) and the root wait
 * for the last node's part.  After the last arrival: its N combines, its
 * node's N - 1 sends, one part's combine and send at each owner: about
 * m beta + m/N beta, against about 2 m beta (hier_scatter_gather) and the
 * whole tree (dynleader).  Under PAPCOLL_REDUCE_LEADER=fixed the mailbox
 * sends its node's parts after the whole node.
 * Order: arrival order on a node and among the parts that come
 * (commutative ops only); PAPCOLL_REPRODUCIBLE=1: node ranks, then the
 * other nodes in a fixed order, per part (dynleader's ordered combine).
 * Limitations: every part must fit a bank of the node reduction area
 * (PAPCOLL_SHM_SIZE / 2): a longer message runs hier_scatter_gather
 * (logged at the root); on one node it is dynleader_flat's node step.
 * Parts are cut in whole elements; with count < N some parts are empty
 * and skipped.
 * Parameters: PAPCOLL_REDUCE_DETACH_BYTES, PAPCOLL_REDUCE_LEADER,
 * PAPCOLL_REDUCE_LOCK, PAPCOLL_REPRODUCIBLE, PAPCOLL_SHM_SIZE; under SMPI
 * PAPCOLL_SIM_MEMBW.
 * Code: each part's climb is node/node_dynleader.c's, with the owner as the
 * root of a flat tree of nodes.
 * Source: Parsons 2015 §3.7.1, Figs. 3.14-3.15 (dynamic leaders);
 * R. Rabenseifner, "Optimization of collective reduction operations",
 * ICCS 2004 (reduce-scatter, then gather to the root).
 */
#include "reduce/reduce.h"
#include "core/log.h"
#include "core/phase.h"
#include "node/node_dynleader.h"

#include <stdlib.h>
#include <string.h>

/* Part j of N: elements [*first, *first + *n) of count. */
static void part_range(long count, int nparts, int j, long *first, long *n)
{
    long base = count / nparts, extra = count % nparts;
    *first = j * base + (j < extra ? j : extra);
    *n = base + (j < extra);
}

/* Node j's owner of part j: its mailbox (node_dynleader.h). */
static int owner_of(const pc_call_t *a, int node)
{
    return node == a->ctx->node_of[a->root] ? a->root : pc_node_leader(a->ctx, node);
}

/* a restricted to part j: the same call on its elements. */
static pc_call_t part_call(const pc_call_t *a, int j)
{
    long first, n;
    part_range(a->count, a->ctx->nnodes, j, &first, &n);
    pc_call_t p = *a;
    p.sendbuf = pc_red_at(a, a->sendbuf, first);
    p.recvbuf = a->recvbuf ? pc_red_at(a, a->recvbuf, first) : NULL;
    p.count = (int)n;
    p.bytes = a->count > 0 ? a->bytes / (size_t)a->count * (size_t)n : 0;
    return p;
}

/* Part j's climb (one chunk) to its owner; d begun with part j's call. */
static int climb_part(pc_dynleader_t *d, int owner_role, void *root_part, int root)
{
    pc_node_chunk_t ch;
    pc_node_red_chunk(&d->r, 0, &ch);
    int rc = pc_dynleader_climb(d, &ch, 0);
    if (owner_role) { /* the end of the climb: my node and the other nodes' parts are in */
        pc_node_red_wait_arrived(&d->r, &ch);
        int orc = root_part ? pc_node_red_copy_out(&d->r, &ch, root_part)
                            : PMPI_Send(pc_node_red_slot(&d->r, &ch, 0), d->a->count, d->a->datatype, root,
                                        PC_TAG_REDUCE_GATHER, d->a->ctx->comm);
        if (rc == MPI_SUCCESS) rc = orc;
    }
    pc_node_red_done(&d->r, &ch);
    return rc;
}

static int begin_part(pc_dynleader_t *d, const pc_call_t *p, int owner, int fixed)
{
    return pc_dynleader_begin(d, p, owner, PC_TREE_FLAT, PC_TAG_REDUCE_LEADER, PC_TAG_REDUCE_NODE, fixed);
}

/* The root: the other nodes' finished parts, straight into recvbuf. */
static int post_gather(const pc_call_t *a, MPI_Request *req)
{
    const pc_comm_t *c = a->ctx;
    int rc = MPI_SUCCESS;
    for (int j = 0; j < c->nnodes; j++) {
        pc_call_t p = part_call(a, j);
        if (j != c->my_node && p.count > 0 && rc == MPI_SUCCESS)
            rc = PMPI_Irecv(p.recvbuf, p.count, a->datatype, owner_of(a, j), PC_TAG_REDUCE_GATHER, c->comm, &req[j]);
    }
    return rc;
}

int pc_reduce_dynleader_scatter_gather(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int nnodes = c->nnodes, me = c->my_node, is_root = c->rank == a->root;
    long chunk = pc_node_red_shared_chunk(a), largest = (a->count + nnodes - 1) / nnodes;
    if (nnodes == 1) return pc_reduce_dynleader_tree(a, PC_TREE_FLAT, "dynleader_scatter_gather");
    if (chunk == 0 || largest > chunk) {
        if (is_root)
            pc_log(PC_LOG_INFO, "reduce dynleader_scatter_gather: a part of %ld elements does not fit a bank of "
                   "%ld (PAPCOLL_SHM_SIZE / 2): hier_scatter_gather instead", largest, chunk);
        return pc_reduce_hier_scatter_gather(a);
    }
    int fixed = !strcmp(a->params->reduce.leader, "fixed");
    int owner = c->rank == owner_of(a, me);
    MPI_Request *req = is_root ? malloc((size_t)nnodes * sizeof *req) : NULL;
    if (is_root && !req) return MPI_ERR_NO_MEM;
    for (int j = 0; is_root && j < nnodes; j++) req[j] = MPI_REQUEST_NULL;
    if (owner && nnodes > 1) pc_phase_mark_leader();
    /* my node's part first: as its owner I post the other nodes' receives on entry */
    pc_call_t mine = part_call(a, me);
    pc_dynleader_t own;
    pc_dynleader_sends_t sent = {0}; /* my node's parts, if I lead them: the bank is free at once */
    int rc = mine.count > 0 ? begin_part(&own, &mine, owner_of(a, me), fixed) : MPI_SUCCESS;
    for (int step = 1; step < nnodes && rc == MPI_SUCCESS; step++) {
        int j = (me + step) % nnodes;
        pc_call_t p = part_call(a, j);
        if (p.count == 0) continue;
        pc_dynleader_t d;
        rc = begin_part(&d, &p, owner_of(a, j), fixed);
        if (p.bytes >= a->params->reduce.detach_bytes) d.detach = &sent;
        if (rc == MPI_SUCCESS) rc = climb_part(&d, 0, NULL, a->root);
        pc_dynleader_end(&d);
    }
    if (is_root && rc == MPI_SUCCESS) rc = post_gather(a, req); /* after my parts are read: MPI_IN_PLACE */
    if (mine.count > 0) {
        if (rc == MPI_SUCCESS) rc = climb_part(&own, owner, is_root ? mine.recvbuf : NULL, a->root);
        pc_dynleader_end(&own);
    }
    int src = pc_dynleader_sends_wait(&sent);
    if (rc == MPI_SUCCESS) rc = src;
    free(sent.req);
    free(sent.copy);
    if (is_root) {
        for (int j = 0; rc != MPI_SUCCESS && j < nnodes; j++) /* an owner lost: its part never comes */
            if (req[j] != MPI_REQUEST_NULL) PMPI_Cancel(&req[j]);
        int wrc = pc_waitall(nnodes, req, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS) rc = wrc;
        free(req);
    }
    return rc;
}
