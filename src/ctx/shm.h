/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shm.h - the node shared-memory layer: one segment per node per context.
 *
 * The segment (a block of the context's node, ctx/node_window.h, created on
 * the first call of an algorithm that needs it) holds a header and
 * a ring of data cells:
 *
 *   header: leader claim word, barrier counter     cells: [stamp|released|len] x ncells
 *   data:   cell 0 | cell 1 | ... | cell ncells-1  (PAPCOLL_SHM_CELL bytes each)
 *
 * A message moves through the ring in pieces of one cell: piece k of call
 * `seq` lives in cell k % ncells, stamped (seq, k) when valid.  Every process
 * of the node (the writer included) releases each piece once it is done with
 * it; a cell is reused only when all node processes have released it.  So a
 * message larger than the ring is pipelined through it, back-to-back calls
 * never read a stale cell (the stamp names the call), and memory per
 * communicator is bounded (PAPCOLL_SHM_SIZE).  The cost: a writer reusing a
 * cell waits for the slowest process of its node to have read the piece.
 *
 * Reductions also get a second window, the reduction area (pc_shm_area,
 * laid out and used by node/node_reduce.h), created on their first call.
 *
 * All waiting goes through pc_wait(): natively a spin with a pause that
 * probes MPI progress and yields (oversubscription); under SimGrid SMPI a
 * SimGrid condition variable of the node (no polling, exact simulated time).
 * Direct delivery (Morimoto et al. 1999's write protocol, below) bypasses the ring for
 * readers that arrive before the data: one copy instead of two.
 *
 * Under SMPI every copy into or out of the segment is charged as
 * bytes / PAPCOLL_SIM_MEMBW seconds of computation (smpi_execute_flops).
 *
 * The implementation, one file per part (layout shared in shm_impl.h):
 * shm_segment.c (creation, sizes, reduction area, freeing), shm_wait.c
 * (pc_wait, notify, copy charges: native vs SMPI), shm_ring.c (the ring of
 * cells), shm_direct.c (direct delivery), shm_sync.c (claim, barriers,
 * releases, gates).
 */
#ifndef PC_SHM_H
#define PC_SHM_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "core/params.h"
#include "ctx/comm.h"

typedef struct pc_shm pc_shm_t;

/* The node segment of ctx, created on first use (collective over ctx->node);
 * its ring's data starts as the MPI library gives it (PAPCOLL_SHM_POISON:
 * filled with a pattern). */
int pc_shm_get(pc_comm_t *ctx, pc_shm_t **shm);
/* Frees the segment (collective over the node communicator). */
void pc_shm_free(pc_shm_t *shm);

size_t pc_shm_cell_size(const pc_shm_t *shm);
/* Cells in the ring. */
size_t pc_shm_ncells(const pc_shm_t *shm);
/* Pieces of one cell in a message of `bytes` (at least 1 if bytes > 0). */
size_t pc_shm_pieces(const pc_shm_t *shm, size_t bytes);

/* Writer side: waits until the cell of piece k is free and returns it. */
char *pc_shm_acquire(pc_shm_t *shm, size_t k);
/* Marks piece k of call seq valid (len bytes written in the acquired cell). */
void pc_shm_publish(pc_shm_t *shm, unsigned long seq, size_t k, size_t len);
/* Reader side: waits until piece k of call seq is valid and returns the cell. */
const char *pc_shm_wait_piece(pc_shm_t *shm, unsigned long seq, size_t k);
/* Non-blocking: the cell of piece k of call seq if valid, else NULL. */
const char *pc_shm_test_piece(pc_shm_t *shm, unsigned long seq, size_t k);
/* This process is done with piece k. */
void pc_shm_release(pc_shm_t *shm, size_t k);
/* Non-blocking acquire: the cell of piece k if it is free, else NULL. */
char *pc_shm_try_acquire(pc_shm_t *shm, size_t k);

/* Copy helpers that charge the simulated memory time under SMPI. */
void pc_shm_copy(void *dst, const void *src, size_t len, const pc_shm_t *shm);
/* Charges len bytes of memory traffic to the calling rank under SMPI (len /
 * PAPCOLL_SIM_MEMBW seconds); nothing natively.  For copies and local
 * reductions that do not go through pc_shm_copy. */
void pc_shm_charge(const pc_shm_t *shm, size_t len);

/* Writes buf[piece range] as pieces [first, last) of call seq (acquire, copy,
 * publish, and release as their writer), and after pc_shm_writer_begin for
 * seq also into every claimed reader's buffer. */
void pc_shm_put_pieces(pc_shm_t *shm, unsigned long seq, const char *buf, size_t bytes, size_t first, size_t last);
/* Copies pieces [first, last) of call seq out into buf and releases them. */
void pc_shm_get_pieces(pc_shm_t *shm, unsigned long seq, char *buf, size_t bytes, size_t first, size_t last);
/* The ring alone, each piece released `releases` times as soon as it is
 * copied (a reader that serves others, e.g. a NUMA domain's root, releases
 * for all of them; 0: someone else releases for me).  The release stays per
 * piece: after the loop, a message larger than the ring would deadlock.
 * pc_shm_put_pieces without a claimed reader and pc_shm_get_pieces are these
 * with one release. */
void pc_shm_ring_put(pc_shm_t *shm, unsigned long seq, const char *buf, size_t bytes, size_t first, size_t last,
                     int releases);
void pc_shm_ring_get(pc_shm_t *shm, unsigned long seq, char *buf, size_t bytes, size_t first, size_t last,
                     int releases);
/* Releases pieces [first, last) without reading them (their writer). */
void pc_shm_release_pieces(pc_shm_t *shm, size_t first, size_t last);

/* ---- Direct delivery: Morimoto et al. 1999's write protocol (node/node.c decides when) ----
 * Every node process has a slot in the segment: its pid and probe word
 * (ctx/cma.h, probed for every pair when the segment is created, the node
 * agreeing), and for one call at a time the destination it posts.  The
 * slot's state word, seq << 2 | POSTED/CLAIMED/CLOSED, changes only by
 * compare-and-swap, so exactly one side wins each slot in each call: the
 * reader posting first (POSTED), or the writer starting first (CLOSED: the
 * reader copies out of the ring, the eager protocol).  The writer claims a
 * POSTED slot (CLAIMED), copies every piece straight into that buffer (one
 * copy, pc_cma_write) and counts the pieces delivered in the slot, stamped
 * with seq like the ring's cells, so back-to-back calls never mix; pieces
 * still go through the ring for the other readers, pre-released for the
 * direct ones (or not at all when every reader is direct).
 *
 * The read variant (PAPCOLL_NODE_PROTOCOL=read, pc_shm_read_variant): the
 * same race and claims, but the writer does not copy into its claimed
 * readers' buffers: it publishes its source in its own slot (address; pieces
 * valid so far, stamped with seq, as they become valid) and each claimed
 * reader pulls them with pc_cma_read, all readers in parallel (Morimoto et al. 1999's
 * receiver-side single copy; Open MPI's smsc/cma and xhc also read from the
 * peer).  The writer's last pc_shm_put_pieces of the call returns only once
 * every claimed reader has said it pulled everything (its slot's `pulled`
 * word), so the source buffer stays valid and unchanged until then. */

/* 1 if the writer of a call under PAPCOLL_NODE_PROTOCOL=protocol lets its
 * claimed readers pull (read variant), 0 if it writes into them. */
int pc_shm_read_variant(pc_node_protocol_t protocol);

/* 1 if every pair of node processes can single-copy (PAPCOLL_NODE_PROTOCOL
 * not ring and the probe succeeded everywhere). */
int pc_shm_single_copy(const pc_shm_t *shm);
/* Reader: posts buf (bytes) as its destination for call seq.  1 = posted
 * (the writer had not started: wait with pc_shm_wait_delivery); 0 = the
 * writer came first (read the ring). */
int pc_shm_post(pc_shm_t *shm, unsigned long seq, void *buf, size_t bytes);
/* Reader, after posting: waits until the writer has written npieces pieces
 * into the posted buffer, or (read variant) pulls them from the writer's
 * source (1); or until the writer declined it (0: read the ring). */
int pc_shm_wait_delivery(pc_shm_t *shm, unsigned long seq, size_t npieces);
/* Writer, before its first piece of call seq (later calls in the same call
 * return at once): claims every reader posted with `bytes` if accept, else
 * declines it, and closes the slots of the others.  pc_shm_put_pieces then
 * delivers to the claimed readers.  Returns their number. */
size_t pc_shm_writer_begin(pc_shm_t *shm, unsigned long seq, size_t bytes, int accept);

/* First process of its node to call this for call seq gets 1 (the node's
 * leader for that call), the others 0. */
int pc_shm_claim(pc_shm_t *shm, unsigned long seq);

/* Node barrier through the segment (every node process must call it). */
void pc_shm_barrier(pc_shm_t *shm);

/* ---- Barriers' words (src/barrier/) ----
 * pc_shm_barrier in two halves, on the same monotonic arrival counter (every
 * node process takes part in the same node barriers): pc_shm_arrive counts
 * me in the node's next barrier and returns 1 to the process that completes
 * it (the node's last arriver), 0 to the others; pc_shm_wait_arrived waits
 * until the whole node has arrived in my latest barrier. */
int pc_shm_arrive(pc_shm_t *shm);
void pc_shm_wait_arrived(pc_shm_t *shm);
/* The node release of call seq: one process gives it, the others wait for
 * it.  The word holds the highest call released (sequence numbers grow on a
 * context, so a stale release is never taken for a new one). */
void pc_shm_give_release(pc_shm_t *shm, unsigned long seq);
void pc_shm_wait_release(pc_shm_t *shm, unsigned long seq);
/* Gates: PC_SHM_GATES monotonic counters that open on their second pass in
 * each use.  Every node process calls pc_shm_gates_begin once in each call
 * that uses the gates (the same calls everywhere), before its first pass;
 * pc_shm_gate_pass(g) is one of the two passes of gate g in the current use
 * and returns 1 to the second (the one that goes on), 0 to the first.  A use
 * may pass a gate only after every pass of the previous use (a barrier's
 * node release orders them). */
enum { PC_SHM_GATES = 64 };
void pc_shm_gates_begin(pc_shm_t *shm);
int pc_shm_gate_pass(pc_shm_t *shm, int g);

/* The node's reduction area (node/node_reduce.h lays it out): a second
 * shared-memory block of `bytes` whose first `control` bytes (its counters and
 * stamps) are zeroed, created on the first call (collective over the node:
 * every node process calls it in the same call, with the same sizes), freed
 * with the segment.  The rest is left as it comes (filled
 * with a pattern under PAPCOLL_SHM_POISON): its users write data before they
 * read it, and zeroing it would touch every page of the area (about 1 ms for
 * 2 MiB natively) where a small call touches one.
 * Reductions only: broadcast-only communicators never pay for it. */
int pc_shm_area(pc_shm_t *shm, size_t control, size_t bytes, char **base);
/* This process's next use number of the area (0, 1, 2, ...): every node
 * process takes the same numbers in the same calls, so a number names one
 * use of the area on the whole node. */
uint64_t pc_shm_area_use(pc_shm_t *shm);

/* Wakes the node's waiters (SMPI: the node's condition; natively nothing,
 * waiters poll): call it after every change another process may wait for. */
void pc_shm_notify(pc_shm_t *shm);

/* Waits until ready(arg) != 0 (see the file comment). */
void pc_wait(pc_shm_t *shm, int (*ready)(void *arg), void *arg);
/* Set by src/nbc once a nonblocking collective started: natively pc_wait
 * calls it between polls, so a blocking wait for a bank that a nonblocking
 * collective of this same process still holds (ireduce dynleader) ends. */
extern void (*pc_wait_progress)(void);
/* pc_wait for a shared counter or stamp: until *word >= target, or == target. */
void pc_wait_at_least(pc_shm_t *shm, _Atomic uint64_t *word, uint64_t target);
void pc_wait_equal(pc_shm_t *shm, _Atomic uint64_t *word, uint64_t target);
/* One step of a polling loop that also waits on MPI requests: gives MPI a
 * chance to progress, pauses, yields; under SMPI advances simulated time. */
void pc_poll_pause(pc_shm_t *shm);

#endif
