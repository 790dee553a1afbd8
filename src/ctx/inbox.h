/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * inbox.h - the node inbox: node shared memory that processes of OTHER
 * nodes write with MPI one-sided communication (reduce dynleader_onesided).
 *
 * One inbox per communicator and node, created by the first call that needs
 * it (collective over the whole communicator: a node block for the memory,
 * an MPI window, ctx/node_window.h, then MPI_Win_create over the context's
 * communicator).  Every process of a node exposes the SAME node segment in
 * the window, so a remote writer may target whichever process of the node it
 * chooses (the reduce targets its parent node's mailbox: the root on the
 * root's node, who is bound to be in the call and progress MPI) and any
 * process of the node reads what arrived with plain loads.  The window stays
 * in one MPI_Win_lock_all(MPI_MODE_NOCHECK) epoch from creation to free: no
 * lock traffic per call, MPI_Win_flush completes each transfer.
 *
 *   done x2               the node consumed this many rounds of bank b (remote Get)
 *   local x2              arrivals of the node's own processes in the bank's current use
 *   ready x2 x nslots     slot (b, j) holds use u's data once ready == u + 1 (remote Put)
 *   claim x2 x nslots     the node process that combines slot (b, j) in use u set it to u + 1
 *   data x2 x nslots      slot_bytes each (one chunk of the node reduction area)
 *   (control words: one 64-byte line each)
 *
 * Uses.  Every chunk of every call of the algorithm is one use of the inbox,
 * numbered 0, 1, 2, ... identically by EVERY process of the communicator
 * (pc_inbox_take: same calls, same chunking).  Use u takes bank u % 2,
 * round u / 2.  Nothing is ever reset: the ready and claim words carry the
 * use number, so a stale slot is never mistaken for a new one.  Flow control:
 * a writer may fill slot (b, j) of node P for use u only once P's done[b] ==
 * u / 2 (P consumed the bank's previous round, whoever wrote it: the writer of
 * a slot changes with the root); done[b] cannot exceed u / 2 before this
 * writer's data came, so equality is the test.  Two banks let a child node
 * put chunk c + 1 while its parent still combines chunk c.
 *
 * Memory: 2 x nslots x slot_bytes + control per communicator and node
 * (nslots = ceil(log2 nodes): the most children a node has in a binomial
 * tree of nodes), only once the algorithm ran on the communicator.
 * Assumes the MPI_WIN_UNIFIED memory model (checked: pc_inbox_usable)
 * and aligned 64-bit words written and read whole (every RMA transport).
 */
#ifndef PC_CTX_INBOX_H
#define PC_CTX_INBOX_H

#include "ctx/comm.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pc_inbox pc_inbox_t;

/* The inbox of ctx with slots of at least slot_bytes, created on first use
 * (collective over ctx->comm: every process calls it in the same call with
 * the same slot_bytes).  Cached in ctx->inbox, freed with the context. */
int pc_inbox_get(pc_comm_t *ctx, size_t slot_bytes, pc_inbox_t **inbox);
/* Frees the windows (collective over the context's communicator). */
void pc_inbox_free(pc_inbox_t *inbox);

/* 0 when loads cannot see remote puts (MPI_WIN_SEPARATE): same answer on every process. */
int pc_inbox_usable(const pc_inbox_t *inbox);
int pc_inbox_nslots(const pc_inbox_t *inbox);

/* Takes n consecutive use numbers; returns the first. */
uint64_t pc_inbox_take(pc_inbox_t *inbox, long n);

/* ---- the receiving node (shared memory) ---------------------------------- */
/* Counts one of my node's processes in use u; returns how many have been counted. */
int pc_inbox_count_local(pc_inbox_t *inbox, uint64_t u);
/* Slot j holds use u's data. */
int pc_inbox_ready(const pc_inbox_t *inbox, uint64_t u, int j);
/* Some node process claimed slot j in use u. */
int pc_inbox_claimed(const pc_inbox_t *inbox, uint64_t u, int j);
/* Claims slot j for use u: 1 for exactly one node process, 0 for the others. */
int pc_inbox_claim(pc_inbox_t *inbox, uint64_t u, int j);
/* Where slot j of use u's bank starts (the caller adds its layout shift). */
char *pc_inbox_slot(const pc_inbox_t *inbox, uint64_t u, int j);
/* The node consumed every slot of use u: writers of use u + 2 may come. */
void pc_inbox_consumed(pc_inbox_t *inbox, uint64_t u);

/* ---- a writer on another node (MPI one-sided) ----------------------------- */
/* Waits (polling, with MPI progress) until slot (u's bank, any j) of the node
 * exposed by `target` may take use u's data. */
int pc_inbox_wait_free(pc_inbox_t *inbox, int target, uint64_t u);
/* Puts count elements of datatype at src (user layout) into slot j of use u
 * at target, element 0 at slot start + shift, then marks the slot ready
 * (put, flush, stamp, flush). */
int pc_inbox_put(pc_inbox_t *inbox, int target, uint64_t u, int j, const void *src, int count,
                      MPI_Datatype datatype, MPI_Aint shift);

/* One step of a polling wait on the inbox (MPI progress, pause; SMPI: 0.5 us). */
void pc_inbox_pause(pc_inbox_t *inbox);

#endif
