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
#include "nbc/node_steps.h"

int pc_ireduce_dynleader(pc_nbc_sched_t *s, const pc_nbc_args_t *a)
{
    int rc, root = a->rank == a->root;
    pc_nbc_node_t *d = pc_nbc_node_open(s, a, !root, &rc); /* round 0: [bank free?] */
    if (!d) return rc;
    const pc_comm_t *ctx = d->call.ctx;
    int on_root_node = ctx->my_node == ctx->node_of[a->root];
    if (!root) { /* [combine; stop unless I carry my node's result] */
        pc_nbc_test(s, on_root_node ? pc_nbc_node_combine_leave : pc_nbc_node_combine_lead, d);
        pc_nbc_round(s);
        pc_nbc_test(s, pc_nbc_node_if_last, d); /* round 1, the last of my node: [copy my node's result] */
        pc_nbc_test(s, pc_nbc_node_release, d); /* [release], send it */
        pc_nbc_send(s, d->tmp, a->count, a->type, a->root);
        return s->rc;
    }
    /* the root: [combine], receive the other nodes' results */
    pc_nbc_test(s, pc_nbc_node_combine, d);
    void **in = pc_nbc_node_receive_others(s, a, d);
    if (!in) return s->rc;
    /* round 1: [my node complete] [its result out] [release], the other nodes' combined into it */
    pc_nbc_test(s, pc_nbc_node_copy_out, d);
    pc_nbc_test(s, pc_nbc_node_release, d);
    for (int k = 0; k < ctx->nnodes - 1; k++) pc_nbc_reduce(s, in[k], a->recvbuf, a->count, a->type, a->op);
    return s->rc;
}
