/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * early.h - control messages that reach a call before the call exists.
 *
 * A dynamic leader is not known in advance, so its control messages are
 * received with MPI_ANY_SOURCE on a tag carrying the call's sequence number
 * modulo a window (pc_window_tag, core/tags.h), the payload repeating the
 * whole number.  In a collective that does not synchronize (a scatter's
 * root sends and leaves) the other processes may run a whole window of
 * calls ahead of a process that fell behind, and their message of a later
 * call then carries the same tag as the one this call waits for: MPI may
 * match either.  Such a message is not an error: the receive that matched it
 * keeps it in the context (pc_early_keep) and the call it belongs to takes
 * it from there (pc_early_take) before it asks MPI.  Nothing is lost, no
 * call ever uses another call's message, and the window stays the fast
 * path: the list is touched only when a message really came early.
 *
 * Memory: one malloc'ed copy per early message, for as long as its call has
 * not come (MPI's unexpected queue would hold it otherwise); the rest is
 * freed with the context.
 */
#ifndef PC_CTX_EARLY_H
#define PC_CTX_EARLY_H

#include "ctx/comm.h"

#include <stddef.h>

/* Keeps `bytes` bytes of data that arrived on tag `tag` from `source` for
 * the call numbered seq.  MPI_ERR_NO_MEM when no memory is left. */
int pc_early_keep(pc_comm_t *c, int tag, unsigned long seq, int source, const void *data, size_t bytes);
/* Takes the first message kept for (tag, seq) from any source (or from
 * `source` when it is not MPI_ANY_SOURCE): copies at most cap bytes into
 * buf, sets *from and *bytes and returns 1; returns 0 when none is kept. */
int pc_early_take(pc_comm_t *c, int tag, unsigned long seq, int source, void *buf, size_t cap, int *from,
                  size_t *bytes);
/* Frees every message still kept (the context's end). */
void pc_early_free(pc_comm_t *c);

/* Receives call seq's message on tag `tag` from `source` (MPI_ANY_SOURCE
 * allowed): a {long long seq} header followed by exactly `bytes` bytes into
 * buf, the header type of core/p2p.h (pc_header_type).  A message of a
 * later call matched instead is kept for it and the receive goes on; one
 * of an earlier call, or of another size, is an error (MPI_ERR_INTERN,
 * logged).  *from = the sender. */
int pc_recv_call(pc_comm_t *c, int tag, unsigned long seq, int source, void *buf, size_t bytes, int *from);

#endif
