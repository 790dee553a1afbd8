/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_exchange.h - the node exchange area: where the processes of one node
 * stage the data an all-to-all exchanges with other nodes (alltoall aware,
 * aware_barrier), so that any process of the node can send or read any
 * other's part without waiting for a leader.
 *
 * The area is a shared-memory block of the context's node
 * (ctx/node_window.h), created by the first call that needs it,
 * cached on the node communicator (an attribute: freed with it) and laid out
 *
 *   done x2                                 (one cache line each)
 *   ready[j][k]    node rank j's data for node k is staged (q rows, a line each)
 *   landed[b][k][g] segment g from node k has landed in bank b / where (2 N rows)
 *   bank 0 data | bank 1 data               (as large as the calls need, at
 *                                            most PAPCOLL_EXCHANGE_AREA / 2 each)
 *
 * Growth.  A call that needs larger banks remakes the area (freed and
 * allocated again: blocking collectives over the node) with banks of at
 * least PAPCOLL_SHM_SIZE / 2 and at least twice the old ones (within the
 * limit), so calls of growing size remake it a few times per communicator,
 * not on every call.
 *
 * Uses.  An exchange larger than a bank runs in rounds; every round of every
 * call is one "use" of the area, numbered 0, 1, 2, ... identically by every
 * process of the node (same calls, same rounds).  Use u takes bank u % 2; it
 * is round u / 2 of that bank.  Every node process adds 1 to done[bank] once
 * it will not touch the bank again in this use; use u may start once
 * done >= (u / 2) x node_size, so a late process still reading an earlier
 * call's data is never overwritten, and a process runs at most one use ahead
 * of the slowest process of its node (the other bank).
 * Generations: ready and landed words hold use + 1 when set in use u; nothing
 * is ever reset.  A process finishes use u before it starts use u + 1, so a
 * word >= u + 1 means "done in use u" (tests are >=).  Control words are never
 * overwritten by data.
 *
 * Waits go through pc_wait (ctx/shm.h: SMPI a SimGrid condition; every change
 * is followed by pc_shm_notify).
 * Memory: up to PAPCOLL_EXCHANGE_AREA of data plus (2 + q + 2 N) cache lines and 32 N x
 * max_ppn bytes of control per communicator and node, only once the
 * algorithm ran on it.
 */
#ifndef PC_NODE_EXCHANGE_H
#define PC_NODE_EXCHANGE_H

#include "ctx/shm.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pc_node_xchg pc_node_xchg_t;

/* The area of ctx's node with banks of at least `bank` bytes (rounded up to
 * whole lines, at most PC_MAX_MSG; made or grown larger: see Growth).  Collective over ctx->node when it is
 * created or grown: every node process calls it in the same call with the
 * same `bank`, and a grown area starts its use numbers over.  Also returns
 * the node segment (pc_shm_get) whose waits it uses.  An area may have been
 * grown by another call on this node only: a size that other nodes must
 * agree on comes from parameters, never from pc_node_xchg_bank_bytes. */
int pc_node_xchg_get_bank(pc_comm_t *ctx, size_t bank, pc_node_xchg_t **x, pc_shm_t **shm);
/* The same with banks of at least PAPCOLL_SHM_SIZE / 2. */
int pc_node_xchg_get(pc_comm_t *ctx, pc_node_xchg_t **x, pc_shm_t **shm);
/* The largest bank (PAPCOLL_EXCHANGE_AREA / 2, the same on every process). */
size_t pc_node_xchg_bank_limit(void);

/* Data bytes per bank (the same on every process of the node). */
size_t pc_node_xchg_bank_bytes(const pc_node_xchg_t *x);

/* Takes the next use of the area, waits until its bank is free and returns
 * the bank's data; *use is the use number. */
char *pc_node_xchg_begin(pc_node_xchg_t *x, uint64_t *use);
/* I will not touch this use's bank any more (every node process, once per
 * use, also after an error: the node must not hang). */
void pc_node_xchg_end(pc_node_xchg_t *x, uint64_t use);

/* ready[j][k]: node rank j staged its data for node k (written by j only). */
_Atomic uint64_t *pc_node_xchg_ready(const pc_node_xchg_t *x, int j, int k);
/* landed[k][g]: segment g from node k is in use's bank (written by the
 * process receiving from node k only); where: its offset in the bank.  One
 * pair per bank: a receiver may run a use ahead of a reader. */
_Atomic uint64_t *pc_node_xchg_landed(const pc_node_xchg_t *x, uint64_t use, int k, int g);
_Atomic uint64_t *pc_node_xchg_where(const pc_node_xchg_t *x, uint64_t use, int k, int g);

/* Sets a word to use + 1 (release) and wakes the node's waiters. */
void pc_node_xchg_mark(pc_node_xchg_t *x, _Atomic uint64_t *word, uint64_t use);
/* The word was set in use `use` (or later). */
static inline int pc_node_xchg_is_set(_Atomic uint64_t *word, uint64_t use)
{
    return atomic_load_explicit(word, memory_order_acquire) >= use + 1;
}

#endif
