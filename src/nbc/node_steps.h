/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_steps.h - the node part of the dynamic-leader schedules (ireduce and
 * iallreduce dynleader) as test steps (sched.h, pc_nbc_test): one use of
 * the node reduction area (node/node_reduce.h, shared layout) per call,
 * taken when the schedule is built (every node process starts its calls in
 * the same order), its bank written once it is free, every node process
 * combining its data into the accumulator; the state is freed with the
 * schedule (the bank released then at the latest, so an error cannot hang
 * the node).  Each step's argument is the pc_nbc_node_t.
 */
#ifndef PC_NBC_NODE_STEPS_H
#define PC_NBC_NODE_STEPS_H

#include "nbc/nbc.h"
#include "node/node_reduce.h"

typedef struct pc_nbc_node {
    pc_call_t call;          /* the call, for the node reduction area */
    pc_node_red_t r;
    pc_node_chunk_t ch;
    int open, released, last;
    void *tmp;               /* the node leader's copy of its node's result */
    void *out;               /* where the result goes (recvbuf) */
} pc_nbc_node_t;

/* Opens the area, takes the call's use, and puts the first step (the
 * bank is free) in s; tmp: room for the node's result when with_tmp.
 * NULL on failure (the error in *rc). */
pc_nbc_node_t *pc_nbc_node_open(pc_nbc_sched_t *s, const pc_nbc_args_t *a, int with_tmp, int *rc);
/* The accumulator (user layout). */
char *pc_nbc_node_acc(const pc_nbc_node_t *d);

/* The root of the climb's receives: one per other node's result, into
 * buffers of the schedule (MPI_ANY_SOURCE: the senders are dynamic, the
 * request's tag is its own) in the current round, which it closes; the next
 * round starts with [my node complete].  The buffers, or NULL (s->rc). */
void **pc_nbc_node_receive_others(pc_nbc_sched_t *s, const pc_nbc_args_t *a, const pc_nbc_node_t *d);

/* Steps.  combine: my data in, note whether I completed the node's count;
 * combine_leave: the same, then release the bank and stop the schedule;
 * combine_lead: the same unless I completed the count (then go on). */
int pc_nbc_node_combine(void *d);
int pc_nbc_node_combine_leave(void *d);
int pc_nbc_node_combine_lead(void *d);
/* Whether I completed the count: copy the node's result into tmp (go on),
 * else PC_NBC_SKIP (the rest of the round: the send up). */
int pc_nbc_node_if_last(void *d);
/* Waits until the node's count is complete / the result is published. */
int pc_nbc_node_complete(void *d);
int pc_nbc_node_published(void *d);
/* Publishes the accumulator as the node's result. */
int pc_nbc_node_publish(void *d);
/* Copies the accumulator into out. */
int pc_nbc_node_copy_out(void *d);
/* Releases the bank (once). */
int pc_nbc_node_release(void *d);

#endif
