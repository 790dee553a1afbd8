/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_reduce.h - the node reduction area: where the hierarchical reductions
 * (reduce hier, hier_nobarrier, dynleader; allreduce hier) combine the
 * contributions of one node in shared memory before nodes talk to each other.
 *
 * The area is a second shared-memory block of the node (ctx/shm.h, pc_shm_area),
 * created by the first reduction that needs it: control lines, then two
 * banks of PAPCOLL_SHM_SIZE / 2 bytes each.
 *
 *   bank control x2: done | arrived | result        (one cache line each)
 *   cell control x2 x node_size: state | lock | post (one cache line each)
 *   bank 0 data | bank 1 data
 *
 * Uses.  A message is reduced in chunks of whole elements that fit a bank;
 * every chunk of every call is one "use" of the area, numbered 0, 1, 2, ...
 * identically by every process of the node (pc_shm_area_use: same calls,
 * same algorithm, same count and datatype, so the same chunking).  Use u
 * takes bank u % 2; it is round j = u / 2 of that bank.  Two banks let a
 * node fill chunk c + 1 while its leader still sends chunk c; a process
 * runs at most two uses ahead of the slowest process of its node.
 *
 * Generations.  Three words per bank; none is ever reset:
 *   done     every node process adds 1 when it will no longer touch the bank
 *            in this use; use u may start writing once done >= j x node_size
 *            (everyone finished round j - 1), so a late reader of an earlier
 *            call or chunk, of any algorithm or root, is never overwritten;
 *   arrived  (use + 1) << 20 | contributions combined into the shared
 *            accumulator in this use: the first contribution of a use
 *            restarts it, so the expected number may differ per use (node
 *            processes, plus child nodes' data for dynleader) and the
 *            contributor that completes it knows it is the last;
 *   result   the use number + 1 whose result the leader has published.
 * Each cell of the shared accumulator has a state word (use + 1) << 20 |
 * contributions so far: a process that finds another use's stamp is the
 * first of this use and copies instead of combining, so no stale partial
 * result is ever combined into and nothing needs clearing between calls.
 *
 * Layouts of a bank (chosen by the algorithm):
 *   slots   one slot per node process (copy-in; slots sized for the
 *           largest node, so every node cuts the same chunks), then each
 *           process reduces its 1/node_size slice of the elements across the
 *           slots into slot 0 (hier: between node barriers).  Pulled
 *           copy-in (PAPCOLL_NODE_PROTOCOL=read; auto from
 *           PAPCOLL_NODE_WRITE_MIN; contiguous datatypes, single copies
 *           allowed): the last process of the node to arrive (counted in
 *           `arrived`) does not copy its chunk in but posts its address in
 *           its cell control; after the barrier each process pulls its
 *           slice of it into that slot (process_vm_readv, one copy each, in
 *           parallel), so the late process's copy is spread over those
 *           that waited for it;
 *   shared  one accumulator: each process combines its data into it when it
 *           arrives (hier_nobarrier, dynleader), under one of three
 *           disciplines:
 *           serial   one lock for the chunk;
 *           parallel the chunk is cut into up to node_size cells of whole
 *                    elements (at least a cache line each), one lock per
 *                    cell; a process starts at cell (node rank mod cells),
 *                    takes any free cell it has not done and skips busy ones,
 *                    so processes arriving together combine different cells
 *                    at once;
 *           ordered  PAPCOLL_REPRODUCIBLE=1: the contribution at position p
 *                    (node rank, then child nodes) combines cell x once
 *                    position p - 1 has (the cell's state counts p
 *                    contributions), so the order never depends on arrival;
 *                    cells pipeline the positions.
 *           PAPCOLL_REDUCE_LOCK=auto takes serial for chunks below a cache
 *           line (false sharing), else parallel (Parsons 2015 §3.7.1).
 * Both layouts combine in the same order, acc = x[n-1] op (... op (x[1] op
 * x[0])) (node ranks) with a commutative op, so hier and ordered
 * hier_nobarrier give the same bits.  Buffers in a bank are in the user's
 * datatype layout (coll/reduction.h), shifted so that element 0 starts within
 * the first cache line of its slot with the same alignment modulo 64 as in a
 * 64-byte-aligned user buffer.
 *
 * Waits go through pc_wait (SMPI: the node's SimGrid condition; every change
 * is followed by pc_shm_notify).  Under SMPI each copy or local reduction of
 * b bytes is charged as b / PAPCOLL_SIM_MEMBW seconds (pc_shm_charge), like
 * pc_shm_copy.
 * Memory: node_size + 3 cache lines per bank of control, plus PAPCOLL_SHM_SIZE
 * of data, per communicator and node, only once a reduction ran on it.
 */
#ifndef PC_NODE_REDUCE_H
#define PC_NODE_REDUCE_H

#include "coll/reduction.h"
#include "ctx/shm.h"

#include <stdint.h>

typedef enum { PC_NODE_RED_SLOTS, PC_NODE_RED_SHARED } pc_node_red_layout_t;

typedef struct pc_node_red {
    const pc_call_t *a;
    pc_shm_t *shm;
    char *area;
    int n, me;              /* node size, node rank */
    pc_node_red_layout_t layout;
    size_t bank_bytes;      /* data bytes per bank */
    size_t slot_bytes;      /* slots layout: bytes per slot */
    MPI_Aint shift;         /* user-layout pointer = slot start + shift */
    int type_size;
    long chunk;             /* elements per chunk; 0 when one element does not fit */
    long nchunks;
    int contributors;       /* contributions per use (shared layout): n unless the algorithm adds some */
    unsigned char *cell_done; /* [n] scratch of the locked combine */
} pc_node_red_t;

/* One chunk (one use of the area). */
typedef struct pc_node_chunk {
    uint64_t use;           /* use number on the node */
    int bank;
    uint64_t round;         /* earlier uses of this bank */
    long first, count;      /* elements [first, first + count) of the message */
} pc_node_chunk_t;

/* Gets the segment and the area (collective over the node the first time)
 * and computes the chunking of a's message for `layout`.  r->chunk == 0:
 * one element of a's datatype does not fit a slot (the caller must reduce
 * some other way).  Release with pc_node_red_end. */
int pc_node_red_begin(const pc_call_t *a, pc_node_red_layout_t layout, pc_node_red_t *r);
void pc_node_red_end(pc_node_red_t *r);
/* The start of a hierarchical algorithm: pc_node_red_begin, and when one
 * element does not fit, `inter` over the whole communicator instead
 * (pc_red_whole_comm, logged as `algorithm`'s).  Returns 1 to go on with r,
 * 0 when the call is over (*rc is its result, r released). */
int pc_node_red_open(const pc_call_t *a, pc_node_red_layout_t layout, const char *algorithm, const char *inter,
                     pc_node_red_t *r, int *rc);

/* Elements per chunk of the shared layout for a's datatype (what
 * pc_node_red_begin computes, without the segment): 0 when one element does
 * not fit a bank. */
long pc_node_red_shared_chunk(const pc_call_t *a);

/* Takes the next use of the area for chunk c of the message and waits until
 * its bank is free (every node process done with its previous round). */
void pc_node_red_chunk(pc_node_red_t *r, long c, pc_node_chunk_t *ch);
/* The same for elements [first, first + count) of the message (count <=
 * r->chunk; every node process takes the same ranges in the same order). */
void pc_node_red_range(pc_node_red_t *r, long first, long count, pc_node_chunk_t *ch);

/* pc_node_red_range without the wait (nonblocking callers): the use is
 * taken; pc_node_red_bank_free tells when its bank may be written. */
void pc_node_red_take(pc_node_red_t *r, long first, long count, pc_node_chunk_t *ch);
int pc_node_red_bank_free(const pc_node_red_t *r, const pc_node_chunk_t *ch);

/* User-layout pointer of slot k (slots) or of the accumulator (shared, k
 * ignored).  The node's result is pc_node_red_slot(r, ch, 0) in both. */
char *pc_node_red_slot(const pc_node_red_t *r, const pc_node_chunk_t *ch, int k);

/* slots: copies the chunk's elements of msg (the whole message in the
 * user's layout) into my slot. */
int pc_node_red_copy_in(pc_node_red_t *r, const pc_node_chunk_t *ch, const void *msg);
/* slots, once every slot is in (a node barrier): slot 0 = slot n-1 op ... op
 * slot 0 on my 1/n slice of the elements. */
int pc_node_red_slice(pc_node_red_t *r, const pc_node_chunk_t *ch);
/* slots, the whole node step of the hierarchical algorithms: copy-in of
 * msg's chunk (or, pulled copy-in, the post of it by the last arrival),
 * node barrier, my slice (after pulling my part of a posted chunk), node
 * barrier (every process passes both barriers, errors or not); slot 0 then
 * holds the node's result; msg is read until the second barrier.
 * Returns the first error of the copy-in and the slice. */
int pc_node_red_reduce_slots(pc_node_red_t *r, const pc_node_chunk_t *ch, const void *msg);

/* slots, hand-offs inside a use: once pc_node_red_reduce_slots returned,
 * slots 1 .. n - 1 are free until pc_node_red_done, and may carry pieces
 * from one node process to another (reduce_scatter multisender: a sender
 * receives a piece from another node into its slot, the reducer combines it
 * into slot 0).  Slot k (1 <= k < n) has a hand-off count for the use,
 * 0 until its first post: the state word of cell k, which the slots layout
 * does not otherwise use, stamped with the use like the cells' states (so a
 * later use of the bank, of either layout, never takes it for its own and
 * nothing needs clearing).  Only one process at a time may post a slot's
 * count (the protocol alternates: writer posts odd counts, reader even). */
void pc_node_red_slot_post(pc_node_red_t *r, const pc_node_chunk_t *ch, int k, uint64_t count);
uint64_t pc_node_red_slot_count(const pc_node_red_t *r, const pc_node_chunk_t *ch, int k);
/* Waits until slot k's count in this use is `count`. */
void pc_node_red_slot_wait(pc_node_red_t *r, const pc_node_chunk_t *ch, int k, uint64_t count);

/* shared: combines src (the chunk's elements, user layout: element 0 of the
 * chunk at src) into the accumulator (PAPCOLL_REDUCE_LOCK /
 * PAPCOLL_REPRODUCIBLE, see the file comment) as contribution number
 * `position` (0 .. r->contributors - 1: my node rank for my own data), then
 * counts it; *last (if not NULL) = 1 when it was the use's last. */
int pc_node_red_combine(pc_node_red_t *r, const pc_node_chunk_t *ch, const void *src, int position, int *last);
/* shared: waits until the use's r->contributors contributions are in. */
void pc_node_red_wait_arrived(pc_node_red_t *r, const pc_node_chunk_t *ch);
/* The same without waiting: 1 once they are. */
int pc_node_red_all_arrived(const pc_node_red_t *r, const pc_node_chunk_t *ch);

/* The leader: the result (slot 0 / accumulator) is final for this use. */
void pc_node_red_publish(pc_node_red_t *r, const pc_node_chunk_t *ch);
/* Waits for pc_node_red_publish of this use. */
void pc_node_red_wait_result(pc_node_red_t *r, const pc_node_chunk_t *ch);
/* The same without waiting: 1 once it is published. */
int pc_node_red_is_published(const pc_node_red_t *r, const pc_node_chunk_t *ch);
/* Copies the result into the chunk's elements of msg. */
int pc_node_red_copy_out(pc_node_red_t *r, const pc_node_chunk_t *ch, void *msg);

/* I will not touch this use's bank any more (every node process, once per use,
 * also after an error: the node must not hang). */
void pc_node_red_done(pc_node_red_t *r, const pc_node_chunk_t *ch);

/* The chunk as a call of `count` elements (for the inter-node collective). */
pc_call_t pc_node_red_chunk_call(const pc_node_red_t *r, const pc_node_chunk_t *ch);

#endif
