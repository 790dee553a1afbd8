/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iallreduce_dynleader - MPI_Iallreduce with a dynamic leader per node: on
 * entering, a process combines its data into its node's shared accumulator
 * (node reduction area, shared layout: node_steps.h); the process that
 * finds itself last on its node sends the node's result to rank 0, which
 * combines the other nodes' results into its own node's accumulator once
 * its node is complete, publishes it there and sends it to each other
 * node's mailbox (its lowest rank), which receives it into its node's
 * accumulator and publishes it; every process copies the published result
 * out.  Rank 0 and the mailboxes are fixed, the senders up are dynamic (the
 * receives take MPI_ANY_SOURCE: the request's tag is its own).
 *
 *   node A (rank 0):  a1 . a0 ...... a2          acc op= x each; a0, A complete:
 *                                                 acc op= B op C, publish, send to b0, c0
 *   node B:           b0 .... b2 . b1 -> a0       b1 came last: it sends B's result up;
 *                     b0 receives the result into B's acc, publishes; all copy out
 *
 * Schedule (test steps, sched.h): every process, round 0: [bank free?]
 * [combine]; rank 0 also receives N - 1 node results.  Rank 0, round 1:
 * [node complete?], the N - 1 results combined into the accumulator,
 * [publish] [copy out], sends to the mailboxes; round 2: [release].  On the
 * other nodes, round 1: [if I was last: copy my node's result] sent to rank
 * 0 (skipped otherwise); then a mailbox receives the result into the
 * accumulator (round 2) and [publishes] [copies out] [releases]; any other
 * process [waits for the publication] [copies out] [releases].
 *
 * Cost (Hockney, N nodes, m bytes, gamma per byte reduced): each process m
 * gamma into shared memory and m to copy out; 2 hops of alpha + beta m;
 * rank 0 receives and sends N - 1 messages and combines (N - 1) m gamma:
 * the flat tree suits few nodes.
 * Late arrival: a node's result leaves as soon as its last process arrives,
 * sent by that process inside its own MPI_Iallreduce; the early processes
 * have done their part in theirs and wait only for the result.  Against
 * recursive doubling, whose rounds each need a partner's progress call, the
 * work left after the last arrival is two hops and rank 0's combination.
 * Limitations: commutative ops (arrival order), messages that fit one bank
 * (PAPCOLL_SHM_SIZE / 2), PAPCOLL_REPRODUCIBLE=0; front.c runs
 * recursive_doubling otherwise (logged).
 * Parameters: PAPCOLL_REDUCE_LOCK, PAPCOLL_SHM_SIZE.
 * Source: Parsons 2015 (PhD thesis, Purdue) §3.7.1-3.7.2, the dynamic
 * leader reduce followed by a broadcast, as a libNBC schedule (Hoefler et
 * al. 2007).
 */
#include "nbc/node_steps.h"

/* Rank 0: the other nodes' results in, combined, the result out to them. */
static int root_rounds(pc_nbc_sched_t *s, const pc_nbc_args_t *a, pc_nbc_node_t *d)
{
    const pc_comm_t *ctx = d->call.ctx;
    void **in = pc_nbc_node_receive_others(s, a, d);
    if (!in) return s->rc;
    char *acc = pc_nbc_node_acc(d);
    for (int k = 0; k < ctx->nnodes - 1; k++) pc_nbc_reduce(s, in[k], acc, a->count, a->type, a->op);
    pc_nbc_test(s, pc_nbc_node_publish, d);
    pc_nbc_test(s, pc_nbc_node_copy_out, d);
    for (int node = 0; node < ctx->nnodes; node++)
        if (node != ctx->my_node) pc_nbc_send(s, acc, a->count, a->type, ctx->node_members[ctx->node_first[node]]);
    pc_nbc_round(s);
    pc_nbc_test(s, pc_nbc_node_release, d); /* once the sends from the accumulator are done */
    return s->rc;
}

int pc_iallreduce_dynleader(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int rc;
    pc_nbc_node_t *d = pc_nbc_node_open(s, a, a->rank != 0, &rc);
    if (!d) return rc;
    const pc_comm_t *ctx = d->call.ctx;
    pc_nbc_test(s, pc_nbc_node_combine, d);
    if (a->rank == 0) return root_rounds(s, a, d);
    int mailbox = ctx->node_members[ctx->node_first[ctx->my_node]] == a->rank;
    if (ctx->my_node != ctx->node_of[0]) { /* round 1: the last of my node sends its result up */
        pc_nbc_round(s);
        pc_nbc_test(s, pc_nbc_node_if_last, d);
        pc_nbc_send(s, d->tmp, a->count, a->type, 0);
        pc_nbc_round(s);
        if (mailbox) { /* the result into my node's accumulator */
            pc_nbc_recv(s, pc_nbc_node_acc(d), a->count, a->type, 0);
            pc_nbc_round(s);
            pc_nbc_test(s, pc_nbc_node_publish, d);
        }
    }
    pc_nbc_round(s);
    pc_nbc_test(s, pc_nbc_node_published, d);
    pc_nbc_test(s, pc_nbc_node_copy_out, d);
    pc_nbc_test(s, pc_nbc_node_release, d);
    return s->rc;
}
