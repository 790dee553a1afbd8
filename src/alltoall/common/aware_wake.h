/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * alltoall/common/aware_wake.h - waking a node process of alltoall aware that waits
 * for a shared-memory event and an MPI request at the same time.
 *
 * aware's sender and receiver processes wait on two kinds of events at once:
 * node peers flagging segments in the exchange area (node_exchange.h) and
 * their own fragment sends and receives.  Natively they poll both
 * (pc_poll_pause between looks).  Under SMPI each look is a simulated step:
 * an early process polled every 0.5 us of simulated time for as long as the
 * late one was away, and a 512-rank alltoall under imbalance took the
 * simulator 15 minutes and more.  There a sleeper instead announces itself
 * in a shared word, posts a zero-byte receive on a private duplicate of the
 * node communicator and blocks in MPI_Waitany on it and on its requests; a
 * node process that flags a segment takes every announced sleeper's word
 * (compare-and-swap, so one message per sleep) and sends it that zero-byte
 * message.  The simulated cost of a wake is one intra-node zero-byte message
 * (the delay with which a poller would have seen the flag), and the
 * simulator runs only where something happens.
 *
 *   sleeper: post wake receive; asleep[me] = 1; re-check the flags (news);
 *            Waitany(requests + wake receive); asleep[me] = 1 -> 0
 *   waker:   flag a segment; for each j: asleep[j] = 1 -> 0 ? send j 0 bytes
 *
 * The wake receive stays posted across calls (a late message is a spurious
 * wake, harmless); it is cancelled when the node communicator is freed.
 * Memory: one cache line per node process (a shared window) and a
 * communicator per node communicator, once aware ran on it, under SMPI only.
 */
#ifndef PC_ALLTOALL_AWARE_WAKE_H
#define PC_ALLTOALL_AWARE_WAKE_H

#include "ctx/comm.h"

typedef struct pc_aware_wake pc_aware_wake_t;

/* The wake words of ctx's node: under SMPI, created by the first call
 * (collective over ctx->node then: every node process calls it in the same
 * call); natively *out = NULL (aware polls). */
int pc_aware_wake_get(pc_comm_t *ctx, pc_aware_wake_t **out);

/* Sends a wake message to every node process asleep in pc_aware_wake_sleep
 * (call after flagging shared words). */
int pc_aware_wake_all(pc_aware_wake_t *w);

/* Blocks until one of req[0 .. n-1] completes or a node process wakes me;
 * req has room for n + 1 (req[n] is borrowed).  news(arg) is re-checked
 * after announcing the sleep: when it holds, returns at once.  *index: the
 * completed request (set to MPI_REQUEST_NULL, as MPI_Waitany does) or
 * MPI_UNDEFINED (woken, or news). */
int pc_aware_wake_sleep(pc_aware_wake_t *w, int n, MPI_Request *req, int (*news)(void *arg), void *arg, int *index);

#endif
