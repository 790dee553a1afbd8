/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ireduce_dynleader - MPI_Ireduce with a dynamic leader per node: on
 * entering, a process combines its data into its node's shared accumulator
 * (the node reduction area, shared layout, node/node_reduce.h) and, unless
 * it is the root or the last of a node to arrive, its request is complete
 * at once.  The process that finds itself last on its node (the count of
 * contributions it completes is the node's size) copies the node's result
 * out of the bank and sends it to the root (a flat tree of nodes); the root
 * waits for its own node's count, copies the accumulator into recvbuf and
 * combines the other nodes' results as they come (one receive each, posted
 * with MPI_ANY_SOURCE: the senders are dynamic, the request's tag is its
 * own, so nothing else matches).
 *
 *   node A (root a0):  a2 ... a0 ........ a1          each: acc op= x;
 *                      a0 waits for A's count, then recvbuf = acc op B op C
 *   node B:            b1 .. b0 ..... b2 -> a0       b2 came last: it sends
 *   node C:            c0 . c1 -> a0                  c1 came last: it sends
 *
 * Schedule (sched.h test steps, polled by progress): every process, round
 * 0: [bank free?] [combine mine; last?]; a non-root process that is not
 * the last of a node other than the root's stops there (PC_NBC_STOP: its
 * request completes in the MPI_Ireduce call itself when the bank is free);
 * the last one, round 1: [copy the node result out, release the bank]
 * send to root.  The root, round 0 also posts N - 1 receives; round 1:
 * [node count complete?] [copy out, release] then N - 1 reductions.
 *
 * Cost (Hockney, N nodes, m bytes, gamma per byte reduced): each process m
 * gamma into shared memory (under PAPCOLL_REDUCE_LOCK), then one hop alpha +
 * beta m per node to the root, which receives N - 1 messages and combines
 * (N - 1) m gamma: the flat tree suits few nodes.
 * Late arrival: nobody waits for a late process but the root: an early
 * process leaves (its request completes) right after its combine; a node's
 * result leaves as soon as its last process arrives, sent by that process
 * itself, so a late process costs its node one hop after its arrival, never
 * a wait of the early ones.  Against binomial, where a late leaf holds its
 * whole path of ancestors (each waits in its own MPI_Wait), here only the
 * root waits.
 * Limitations: commutative ops (arrival order; front.c runs native for the
 * others, logged); messages that fit one bank of the node reduction area
 * (PAPCOLL_SHM_SIZE / 2) and PAPCOLL_REPRODUCIBLE=0, else front.c runs
 * binomial (logged).  Taking the node segment on the first reduction of a
 * communicator is collective over the node, as for the blocking ones.
 * A bank is held by the root until its node's last contribution: a later
 * reduction on the node (blocking or not) that takes the same bank waits
 * for it, while pc_wait advances the nonblocking schedules.
 * Parameters: PAPCOLL_REDUCE_LOCK, PAPCOLL_SHM_SIZE.
 * Source: Parsons 2015 (PhD thesis, Purdue) §3.7.1, the dynamic leader
 * reduce, as a libNBC schedule (Hoefler et al. 2007).
 */
#include "nbc/nbc.h"
#include "coll/entry.h"
#include "core/params.h"
#include "node/node_reduce.h"

#include <stdlib.h>

typedef struct {
    pc_call_t call;          /* the call, for the node reduction area */
    pc_node_red_t r;
    pc_node_chunk_t ch;
    int open, released;      /* r begun; done counted for the bank */
    void *tmp;               /* the leader's copy of its node result */
} dl_t;

static void describe(const pc_nbc_args_t *a, pc_call_t *c)
{
    *c = (pc_call_t){.coll = &pc_reduce_coll, .params = pc_params(), .root = a->root, .sendbuf = a->sendbuf,
                     .recvbuf = a->recvbuf, .count = a->count, .datatype = a->type, .op = a->op};
    pc_call_describe(c);
}

int pc_ireduce_dynleader_fits(const pc_nbc_args_t *a)
{
    pc_call_t c;
    describe(a, &c);
    long chunk = pc_node_red_shared_chunk(&c);
    return !c.params->reproducible && chunk > 0 && chunk >= a->count;
}

static void release_bank(dl_t *d)
{
    if (d->released) return;
    d->released = 1;
    pc_node_red_done(&d->r, &d->ch);
}

static void dl_free(void *arg)
{
    dl_t *d = arg;
    if (d->open) {
        release_bank(d); /* an error before the release: the node must not hang */
        pc_node_red_end(&d->r);
    }
    free(d);
}

static int bank_free(void *arg)
{
    dl_t *d = arg;
    return pc_node_red_bank_free(&d->r, &d->ch) ? MPI_SUCCESS : PC_NBC_NOT_YET;
}

/* Combines my data; the root goes on, any other process stops unless it
 * completed the count of a node other than the root's. */
static int combine(dl_t *d, int goes_on)
{
    int last = 0;
    int rc = pc_node_red_combine(&d->r, &d->ch, d->call.sendbuf, d->r.me, &last);
    if (rc != MPI_SUCCESS) return rc;
    if (goes_on == 1 || (goes_on == 2 && last)) return MPI_SUCCESS;
    release_bank(d);
    return PC_NBC_STOP;
}
static int combine_root(void *arg) { return combine(arg, 1); }
static int combine_member(void *arg) { return combine(arg, 0); }
static int combine_other(void *arg) { return combine(arg, 2); }

static int node_complete(void *arg)
{
    dl_t *d = arg;
    return pc_node_red_all_arrived(&d->r, &d->ch) ? MPI_SUCCESS : PC_NBC_NOT_YET;
}

/* Copies the node result into buf (recvbuf at the root, tmp at a leader),
 * then releases the bank. */
static int take_result(dl_t *d, void *buf)
{
    int rc = pc_node_red_copy_out(&d->r, &d->ch, buf);
    release_bank(d);
    return rc;
}
static int root_result(void *arg)
{
    dl_t *d = arg;
    return take_result(d, d->call.recvbuf);
}
static int leader_result(void *arg)
{
    dl_t *d = arg;
    return take_result(d, d->tmp);
}

int pc_ireduce_dynleader(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    dl_t *d = calloc(1, sizeof *d);
    if (!d) return MPI_ERR_NO_MEM;
    pc_nbc_release(s, dl_free, d);
    describe(a, &d->call);
    int rc = pc_comm_get(a->comm, &d->call.ctx);
    if (rc == MPI_SUCCESS) rc = pc_node_red_begin(&d->call, PC_NODE_RED_SHARED, &d->r);
    if (rc != MPI_SUCCESS) return rc;
    d->open = 1;
    pc_node_red_take(&d->r, 0, a->count, &d->ch); /* front.c: the message fits one chunk */
    const pc_comm_t *ctx = d->call.ctx;
    int root_node = ctx->node_of[a->root];
    pc_nbc_test(s, bank_free, d);
    if (a->rank != a->root) { /* round 0: combine, stop unless I carry my node's result */
        pc_nbc_test(s, ctx->my_node == root_node ? combine_member : combine_other, d);
        pc_nbc_round(s);
        if (ctx->my_node == root_node || !(d->tmp = pc_nbc_alloc(s, a->count, a->type))) return s->rc;
        pc_nbc_test(s, leader_result, d); /* round 1: the last of my node */
        pc_nbc_send(s, d->tmp, a->count, a->type, a->root);
        return s->rc;
    }
    /* the root, round 0: combine, receive the other nodes' results */
    pc_nbc_test(s, combine_root, d);
    void **in = ctx->nnodes > 1 ? malloc((size_t)(ctx->nnodes - 1) * sizeof *in) : NULL;
    if (ctx->nnodes > 1 && !in) return MPI_ERR_NO_MEM;
    for (int k = 0; k < ctx->nnodes - 1; k++)
        if ((in[k] = pc_nbc_alloc(s, a->count, a->type))) pc_nbc_recv(s, in[k], a->count, a->type, MPI_ANY_SOURCE);
    pc_nbc_round(s);
    /* round 1: my node complete, its result out, the others combined into it */
    pc_nbc_test(s, node_complete, d);
    pc_nbc_test(s, root_result, d);
    for (int k = 0; k < ctx->nnodes - 1 && s->rc == MPI_SUCCESS; k++)
        pc_nbc_reduce(s, in[k], a->recvbuf, a->count, a->type, a->op);
    free(in);
    return s->rc;
}
