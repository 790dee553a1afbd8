/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dynleader_scatter_gather - a dynamic-leader reduce whose root receives
 * about one vector: the message is cut into N parts (N nodes), part j is
 * owned by node j's mailbox (its lowest rank; the root on the root's node).
 * Every process combines its data into its node's shared accumulator as
 * soon as it arrives and leaves (dynleader's node step); a node's LAST
 * contributor sends the node's part j to owner j, for every other node j;
 * owner j combines the N - 1 parts in the order they land, then its own
 * node's part j, and sends the finished part to the root.
 *
 *   node i:   x2 .... x0 ...... x3 .. x1     each: acc op= x, leave
 *             the last (x1) -> part j of acc to owner j, j = i+1, ..., i-1
 *   owner j:  part_j = (parts of the other nodes, as they land, from
 *             MPI_ANY_SOURCE: the senders are dynamic) op (my node's part j,
 *             once its acc is complete) -> the root
 *   root:     owner of its node's part; receives the other N - 1 parts
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
 * (N - 1)/N m.  The node step is one use of the node's accumulator per
 * call, as dynleader's: a version that ran each part as its own use (N
 * uses per call) made early processes wait for their node's late ones
 * (a node's processes run at most two uses apart), simulated e_bar under
 * late:0.2:256 1704 us at 4 KiB against dynleader_flat's 9.3.
 *
 * Cost (Hockney, balanced, m bytes, N nodes of q processes, gamma per byte
 * reduced): a process combines m gamma (PAPCOLL_REDUCE_LOCK); a node's
 * last process sends N - 1 parts at once ((N - 1)/N m beta out of its
 * node); an owner receives and combines N - 1 parts of m/N, combines its
 * node's, and sends one part to the root; the root receives N - 1 parts.
 * The critical path is two message hops (node -> owner -> root) after
 * N - 1 send overheads, and about 2 ((N - 1)/N) m beta, against
 * hier_scatter_gather's 2 log2(N) hops among the leaders and its gather,
 * and dynleader_flat's (N - 1) m beta into the root.  The N - 1 messages of
 * each node's last process make it latency-bound for short messages.
 * Simulated (SimGrid SMPI 3.32, cluster:16x16 ib-ddr, MPI_INT + MPI_SUM,
 * balanced), the root's time at 4 KiB / 64 KiB / 1 MiB: 25.0 / 105.2 /
 * 1337 us, against 55.1 / 166.2 / 1546 (hier_scatter_gather) and SMPI's
 * best reduce's 38.0 / 172.9 / 1569 (docs/performance.md has the command).
 * Late arrival: a non-owner pays its combine and leaves; a node's last
 * process also sends its node's parts and waits for those sends (at once
 * below the MPI library's eager limit; else until each owner takes it:
 * owners take parts in landing order); the owners (one per node) and the
 * root wait for the last node's part.  After the last arrival: its
 * combine, its node's N - 1 parts, one part's combines and send at each
 * owner: about m beta + m/N beta, against about 2 m beta
 * (hier_scatter_gather) and the whole tree (dynleader).  Under
 * PAPCOLL_REDUCE_LEADER=fixed the mailbox sends its node's parts after the
 * whole node.
 * Order: arrival order on a node and among the parts that land
 * (commutative ops only); PAPCOLL_REPRODUCIBLE=1: node ranks (the ordered
 * node step), then nodes in index order, the same bits for any arrival.
 * Limitations: the message must fit a bank of the node reduction area
 * (PAPCOLL_SHM_SIZE / 2, 1 MiB by default): a longer one runs
 * hier_scatter_gather (logged at the root); on one node it is
 * dynleader_flat.  Parts are sched/blocks.h's blocks of ceil(count / N)
 * whole elements; the last ones are shorter or empty (skipped).  Memory: an owner posts N - 1 receives
 * with room for a bank each (virtual memory: a part touches m/N bytes of
 * its room), plus N - 1 parts (about m) when reproducible, one otherwise.
 * Parameters: PAPCOLL_REDUCE_LEADER, PAPCOLL_REDUCE_LOCK,
 * PAPCOLL_REPRODUCIBLE, PAPCOLL_SHM_SIZE; under SMPI PAPCOLL_SIM_MEMBW.
 * Source: Parsons 2015 §3.7.1, Figs. 3.14-3.15 (dynamic leaders);
 * R. Rabenseifner, "Optimization of collective reduction operations",
 * ICCS 2004 (reduce-scatter, then gather to the root).
 */
#include "reduce/reduce.h"
#include "core/log.h"
#include "core/phase.h"
#include "ctx/early.h"
#include "node/node_reduce.h"
#include "sched/blocks.h"

#include <stdlib.h>
#include <string.h>

#define NAME "dynleader_scatter_gather"

/* Node j's owner of part j: its mailbox (ctx/comm.h). */
static int owner_of(const pc_call_t *a, int node)
{
    return pc_node_mailbox(a->ctx, a->root, node);
}

/* The node's last contributor: part j of the node's result (acc) -> owner j
 * for every other node j, all at once, starting with the next node (so the
 * nodes do not all send to the same owner first); then *nsent requests in
 * req to complete.  header is the call's number, read until they are. */
static int send_parts(const pc_call_t *a, const char *acc, long long *header, MPI_Request *req, int *nsent)
{
    const pc_comm_t *c = a->ctx;
    int rc = MPI_SUCCESS, tag = pc_window_tag(PC_TAG_REDUCE_PART, a->seq);
    *nsent = 0;
    for (int step = 1; step < c->nnodes && rc == MPI_SUCCESS; step++) {
        int j = (c->my_node + step) % c->nnodes;
        long first, n;
        pc_reduce_part(a, c->nnodes, j, &first, &n);
        if (n == 0) continue;
        MPI_Datatype t;
        rc = pc_header_type(header, 1, pc_red_at(a, acc, first), (int)n, a->datatype, &t);
        if (rc != MPI_SUCCESS) break;
        rc = PMPI_Isend(MPI_BOTTOM, 1, t, owner_of(a, j), tag, c->comm, &req[(*nsent)++]);
        PMPI_Type_free(&t);
    }
    return rc;
}

/* Owner of my node's part: the other nodes' parts come as messages of
 * {seq} and n elements, from dynamic senders (MPI_ANY_SOURCE).  One receive
 * per part is posted on entry, packed (MPI_PACKED matches any message) into
 * room for a whole bank, so that a later call's part, which may come on
 * this call's tag (windowed tags), is received whole and kept for that call
 * (ctx/early.h); parts an earlier call kept for this one are taken instead
 * of posting their receives.  The room is virtual memory: a part touches m/N
 * bytes of it. */
typedef struct inbox {
    int n, cap, tag;
    char **buf;
    int *len, *from;        /* a kept part in buf[i]: its length and sender (req[i] null) */
    MPI_Request *req;
} inbox_t;

static int inbox_open(const pc_call_t *a, const pc_node_red_t *r, inbox_t *in)
{
    memset(in, 0, sizeof *in);
    in->n = a->ctx->nnodes - 1;
    in->tag = pc_window_tag(PC_TAG_REDUCE_PART, a->seq);
    in->buf = calloc((size_t)in->n, sizeof *in->buf);
    in->len = calloc((size_t)in->n, sizeof *in->len);
    in->from = calloc((size_t)in->n, sizeof *in->from);
    in->req = malloc((size_t)in->n * sizeof *in->req);
    if (!in->buf || !in->len || !in->from || !in->req) {
        free(in->req);
        in->req = NULL;
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < in->n; i++) in->req[i] = MPI_REQUEST_NULL;
    int header_cap, rc = PMPI_Pack_size(1, MPI_LONG_LONG, a->ctx->comm, &header_cap);
    in->cap = header_cap + (int)r->bank_bytes;
    for (int i = 0; i < in->n && rc == MPI_SUCCESS; i++) {
        size_t got;
        if (!(in->buf[i] = malloc((size_t)in->cap))) rc = MPI_ERR_NO_MEM;
        else if (pc_early_take(a->ctx, in->tag, a->seq, MPI_ANY_SOURCE, in->buf[i], (size_t)in->cap, &in->from[i],
                               &got))
            in->len[i] = (int)got;
        else
            rc = PMPI_Irecv(in->buf[i], in->cap, MPI_PACKED, MPI_ANY_SOURCE, in->tag, a->ctx->comm, &in->req[i]);
    }
    return rc;
}

static void inbox_close(inbox_t *in)
{
    for (int i = 0; in->req && i < in->n; i++) { /* after an error only: a part never came */
        if (in->req[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&in->req[i]);
            pc_wait_request(&in->req[i], MPI_STATUS_IGNORE);
        }
    }
    for (int i = 0; in->buf && i < in->n; i++) free(in->buf[i]);
    free(in->buf);
    free(in->len);
    free(in->from);
    free(in->req);
}

/* The next part of this call into `into` (n elements); *from = its
 * sender.  A later call's part that lands instead is kept for it and its
 * receive posted again. */
static int inbox_next(const pc_call_t *a, inbox_t *in, void *into, long n, int *from)
{
    for (;;) {
        int i = -1, rc = MPI_SUCCESS;
        for (int k = 0; k < in->n && i < 0; k++)
            if (in->len[k] > 0) i = k; /* kept by an earlier call */
        if (i < 0) {
            MPI_Status st;
            rc = pc_waitany(in->n, in->req, &i, &st);
            if (rc == MPI_SUCCESS && i == MPI_UNDEFINED) rc = MPI_ERR_INTERN;
            if (rc == MPI_SUCCESS) rc = PMPI_Get_count(&st, MPI_PACKED, &in->len[i]);
            if (rc != MPI_SUCCESS) return rc;
            in->from[i] = st.MPI_SOURCE;
        }
        long long header = -1;
        int pos = 0, len = in->len[i];
        in->len[i] = 0;
        *from = in->from[i];
        rc = PMPI_Unpack(in->buf[i], len, &pos, &header, 1, MPI_LONG_LONG, a->ctx->comm);
        if (rc == MPI_SUCCESS && header == (long long)a->seq)
            return PMPI_Unpack(in->buf[i], len, &pos, into, (int)n, a->datatype, a->ctx->comm);
        if (rc == MPI_SUCCESS && header > (long long)a->seq) {
            rc = pc_early_keep(a->ctx, in->tag, (unsigned long)header, *from, in->buf[i], (size_t)len);
            if (rc == MPI_SUCCESS)
                rc = PMPI_Irecv(in->buf[i], in->cap, MPI_PACKED, MPI_ANY_SOURCE, in->tag, a->ctx->comm, &in->req[i]);
        } else if (rc == MPI_SUCCESS) {
            pc_log(PC_LOG_WARN, "reduce " NAME ": a part of call %lld from %d in call %lu", header, *from, a->seq);
            rc = MPI_ERR_INTERN;
        }
        if (rc != MPI_SUCCESS) return rc;
    }
}

/* The other nodes' parts and my node's, combined into part (n elements
 * from element `first`): in landing order, my node's last; reproducible, in
 * node order, x_{N-1} op (... op (x_1 op x_0)).  My node's accumulator
 * (r, ch) is complete on return. */
static int reduce_my_part(const pc_call_t *a, inbox_t *in, pc_node_red_t *r, const pc_node_chunk_t *ch, void *part,
                          long first, long n)
{
    int nnodes = a->ctx->nnodes, me = a->ctx->my_node, ordered = a->params->reproducible != 0, rc = MPI_SUCCESS;
    int nslots = ordered ? nnodes - 1 : 1;
    void **slot = calloc((size_t)nslots, sizeof *slot), **base = calloc((size_t)nslots, sizeof *base);
    int *slot_of = calloc((size_t)nnodes, sizeof *slot_of); /* ordered: node -> the slot its part landed in */
    if (!slot || !base || !slot_of) rc = MPI_ERR_NO_MEM;
    for (int i = 0; i < nslots && rc == MPI_SUCCESS; i++)
        if (!(slot[i] = pc_red_alloc(a, n, &base[i]))) rc = MPI_ERR_NO_MEM;
    for (int got = 0; got < nnodes - 1 && rc == MPI_SUCCESS; got++) {
        void *into = ordered ? slot[got] : got == 0 ? part : slot[0];
        int from;
        rc = inbox_next(a, in, into, n, &from);
        if (rc != MPI_SUCCESS) break;
        if (ordered) slot_of[a->ctx->node_of[from]] = got;
        else if (got > 0) rc = pc_red_local(a, slot[0], part, n);
    }
    pc_node_red_wait_arrived(r, ch);
    const char *mine = pc_red_at(a, pc_node_red_slot(r, ch, 0), first);
    if (rc == MPI_SUCCESS && !ordered) rc = pc_red_local(a, mine, part, n);
    for (int node = 0; ordered && node < nnodes && rc == MPI_SUCCESS; node++) {
        const void *x = node == me ? (const void *)mine : slot[slot_of[node]];
        rc = node == 0 ? pc_red_copy(a, part, x, n) : pc_red_local(a, x, part, n);
    }
    for (int i = 0; base && i < nslots; i++) free(base[i]);
    free(slot);
    free(base);
    free(slot_of);
    return rc;
}

/* The root: the other owners' finished parts, straight into recvbuf. */
static int post_gather(const pc_call_t *a, MPI_Request *req)
{
    const pc_comm_t *c = a->ctx;
    int rc = MPI_SUCCESS;
    for (int j = 0; j < c->nnodes && rc == MPI_SUCCESS; j++) {
        long first, n;
        pc_reduce_part(a, c->nnodes, j, &first, &n);
        if (j != c->my_node && n > 0)
            rc = PMPI_Irecv(pc_red_at(a, a->recvbuf, first), (int)n, a->datatype, owner_of(a, j),
                            PC_TAG_REDUCE_GATHER, c->comm, &req[j]);
    }
    return rc;
}

/* The owner of my node's part (n > 0 elements from `first`): reduces it,
 * into recvbuf at the root, else into a buffer sent to the root. */
static int own_part(const pc_call_t *a, inbox_t *in, pc_node_red_t *r, const pc_node_chunk_t *ch, long first, long n)
{
    if (a->ctx->rank == a->root) return reduce_my_part(a, in, r, ch, pc_red_at(a, a->recvbuf, first), first, n);
    void *base = NULL, *part = pc_red_alloc(a, n, &base);
    int rc = part ? reduce_my_part(a, in, r, ch, part, first, n) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = pc_red_send(a, part, n, a->root, PC_TAG_REDUCE_GATHER);
    free(base);
    return rc;
}

int pc_reduce_dynleader_scatter_gather(const pc_call_t *a)
{
    const pc_comm_t *c = a->ctx;
    int nnodes = c->nnodes, is_root = c->rank == a->root, rc;
    if (nnodes == 1) return pc_reduce_dynleader_tree(a, PC_TREE_FLAT, NAME);
    pc_node_red_t r;
    if (!pc_node_red_open(a, PC_NODE_RED_SHARED, NAME, a->params->reduce.inter, &r, &rc)) return rc;
    if (r.nchunks != 1) { /* 0: count 0, nothing to do */
        if (r.nchunks > 1 && is_root)
            pc_log(PC_LOG_INFO, "reduce " NAME ": %d elements do not fit a bank of %ld (PAPCOLL_SHM_SIZE / 2): "
                   "hier_scatter_gather instead", a->count, r.chunk);
        pc_node_red_end(&r);
        return r.nchunks > 1 ? pc_reduce_hier_scatter_gather(a) : MPI_SUCCESS;
    }
    long first, n;
    pc_reduce_part(a, nnodes, c->my_node, &first, &n);
    int owner = c->rank == owner_of(a, c->my_node) && n > 0; /* an empty part (count < N): nobody sends it */
    int fixed = !strcmp(a->params->reduce.leader, "fixed");
    inbox_t in = {0};
    MPI_Request *out = malloc((size_t)nnodes * sizeof *out); /* my node's parts, if I send them */
    MPI_Request *gather = is_root ? malloc((size_t)nnodes * sizeof *gather) : NULL; /* the finished parts */
    rc = out && (gather || !is_root) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int j = 0; rc == MPI_SUCCESS && j < nnodes; j++) {
        out[j] = MPI_REQUEST_NULL;
        if (gather) gather[j] = MPI_REQUEST_NULL;
    }
    if (owner && rc == MPI_SUCCESS) rc = inbox_open(a, &r, &in);
    pc_node_chunk_t ch;
    pc_node_red_chunk(&r, 0, &ch);
    int last = 0, nsent = 0;
    long long header = (long long)a->seq;
    int crc = pc_node_red_combine(&r, &ch, a->sendbuf, c->node_rank, &last);
    if (rc == MPI_SUCCESS) rc = crc;
    if (is_root && rc == MPI_SUCCESS) rc = post_gather(a, gather); /* after my combine read sendbuf (in place) */
    if (fixed ? c->rank == owner_of(a, c->my_node) : last) {
        pc_phase_mark_leader();
        pc_node_red_wait_arrived(&r, &ch);
        int src = send_parts(a, pc_node_red_slot(&r, &ch, 0), &header, out, &nsent);
        if (rc == MPI_SUCCESS) rc = src;
    }
    if (owner) { /* after my parts went out: owners that lead never wait for each other's parts */
        int orc = rc == MPI_SUCCESS ? own_part(a, &in, &r, &ch, first, n) : MPI_SUCCESS;
        if (rc == MPI_SUCCESS) rc = orc;
        inbox_close(&in);
    }
    int wrc = pc_waitall(nsent, out, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS) rc = wrc;
    pc_node_red_done(&r, &ch);
    if (gather) {
        for (int j = 0; rc != MPI_SUCCESS && j < nnodes; j++) /* an owner lost: its part never comes */
            if (gather[j] != MPI_REQUEST_NULL) PMPI_Cancel(&gather[j]);
        wrc = pc_waitall(nnodes, gather, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS) rc = wrc;
    }
    free(gather);
    free(out);
    pc_node_red_end(&r);
    return rc;
}
