/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shm_direct.c - direct delivery between node processes (see shm.h): Morimoto
 * et al. 1999's write protocol, the readers' slots raced by compare-and-swap
 * (post, claim or close), the writer's single copies into claimed readers'
 * buffers or (read variant) their pulls from its source, and
 * pc_shm_put_pieces, which feeds the ring and the claimed readers together.
 */
#include "ctx/shm_impl.h"
#include "core/log.h"
#include "core/params.h"
#include "ctx/cma.h"

#include <stdatomic.h>
#include <string.h>

/* Makes pieces [first, last) of buf available to every claimed reader:
 * write variant: copies them straight into each reader's buffer (one single
 * copy per reader, one after the other) and tells it so; read variant:
 * publishes that they are valid in buf, and each reader pulls them itself
 * (the single copies run in parallel, on the readers). */
static void deliver(pc_shm_t *shm, unsigned long seq, const char *buf, size_t bytes, size_t first, size_t last)
{
    size_t off = first * shm->cell_size, end = last * shm->cell_size < bytes ? last * shm->cell_size : bytes;
    if (shm->direct_read) {
        slot_t *me = &shm->slots[shm->node_rank];
        if (me->src_addr != (uint64_t)(uintptr_t)buf) /* no reader of this call reads it before src_avail */
            me->src_addr = (uint64_t)(uintptr_t)buf;
        atomic_store_explicit(&me->src_avail, stamp_of(seq, last - 1), memory_order_release);
        pc_shm_notify(shm);
        return;
    }
    for (size_t i = 0; i < shm->ndirect; i++) {
        direct_reader_t *d = &shm->direct[i];
        int err = pc_cma_write(d->pid, d->addr + off, buf + off, end - off);
        if (err) { /* the probe at creation succeeded: the reader's buffer is not what it posted */
            pc_log(PC_LOG_WARN, "node protocol: single copy to process %lld failed: %s", (long long)d->pid,
                   strerror(err));
            PMPI_Abort(MPI_COMM_WORLD, MPI_ERR_INTERN);
        }
        pc_shm_charge(shm, end - off); /* SMPI: the copy model of one copy */
        atomic_store_explicit(&d->slot->delivered, stamp_of(seq, last - 1), memory_order_release);
    }
    pc_shm_notify(shm);
}

#define PC_DIRECT_GROUP 8 /* pieces per single copy: the ring and direct readers advance together */

/* The writer takes a free cell (released: node_size -> 0, one winner).
 * Needed once readers are written directly: a direct reader may finish the
 * call, and start writing the next one, before this writer has used the
 * ring; the cells of this call must be taken before it is released. */
static int cell_take(void *arg)
{
    cell_wait_t *w = arg;
    uint32_t expect = w->shm->node_size;
    return atomic_compare_exchange_strong(&w->cell->released, &expect, 0);
}

void pc_shm_put_pieces(pc_shm_t *shm, unsigned long seq, const char *buf, size_t bytes, size_t first, size_t last)
{
    int direct = shm->writer_stamp == (uint64_t)seq + 1 && shm->ndirect > 0;
    int ring = !direct || shm->ndirect + 1 < shm->node_size; /* someone reads the ring */
    if (!direct) {
        pc_shm_ring_put(shm, seq, buf, bytes, first, last, 1); /* released once: the writer's own share */
        return;
    }
    size_t group = shm->ncells < PC_DIRECT_GROUP ? shm->ncells : PC_DIRECT_GROUP;
    for (size_t g = first; g < last; g += group) {
        size_t g_last = last - g < group ? last : g + group;
        for (size_t k = g; ring && k < g_last; k++) {
            cell_wait_t w = {shm, cell_of(shm, k), 0};
            pc_wait(shm, cell_take, &w);
        }
        deliver(shm, seq, buf, bytes, g, g_last);
        for (size_t k = g; ring && k < g_last; k++) {
            size_t len = piece_len(shm, bytes, k);
            pc_shm_copy(data_of(shm, k), buf + k * shm->cell_size, len, shm);
            pc_shm_publish_released(shm, seq, k, len, (uint32_t)shm->ndirect); /* the direct readers will not read it */
            pc_shm_release(shm, k);
        }
    }
    if (shm->direct_read && last == pc_shm_pieces(shm, bytes)) {
        /* read variant: buf is the readers' source until every one of them has pulled it */
        for (size_t i = 0; i < shm->ndirect; i++) pc_wait_at_least(shm, &shm->direct[i].slot->pulled, (uint64_t)seq + 1);
    }
}

/* ---- the direct (write) protocol, Morimoto et al. 1999 (see shm.h) ---- */

static uint64_t slot_state(unsigned long seq, int tag) { return (uint64_t)seq << 2 | (uint64_t)tag; }

int pc_shm_single_copy(const pc_shm_t *shm) { return shm->single_copy; }

int pc_shm_read_variant(pc_node_protocol_t protocol)
{
    return protocol == PC_NODE_PROTOCOL_READ || protocol == PC_NODE_PROTOCOL_AUTO;
}

int pc_shm_post(pc_shm_t *shm, unsigned long seq, void *buf, size_t bytes)
{
    slot_t *s = &shm->slots[shm->node_rank];
    s->addr = (uint64_t)(uintptr_t)buf; /* read by the writer only once it has seen POSTED */
    s->bytes = bytes;
    uint64_t st = atomic_load(&s->state), posted = slot_state(seq, SLOT_POSTED);
    while (st < posted) /* an earlier call's state: the writer of this call has not started */
        if (atomic_compare_exchange_weak(&s->state, &st, posted)) {
            pc_shm_notify(shm);
            return 1;
        }
    return 0; /* CLOSED for this call: the writer came first (eager: read the ring) */
}

typedef struct {
    pc_shm_t *shm;
    slot_t *slot;
    unsigned long seq;
    uint64_t target;
} post_wait_t;

/* A posted reader's wait ends when the writer declined it (CLOSED), or
 * claimed it and delivered every piece.  The writer marks a claim in the
 * delivered word (seq << PC_PIECE_BITS) right after winning the slot: the
 * state word alone is not enough, since a reader already served may write
 * the next call, and close my slot for it, while my delivery is still going
 * on (the state is read first: what closed it happened after the mark).
 * Safety net: a writer that does not take part in the protocol (it wrote
 * piece 0 into the ring without looking at the slots) leaves the slot
 * POSTED: the reader withdraws and reads the ring. */
static int post_resolved(void *arg)
{
    post_wait_t *w = arg;
    uint64_t st = atomic_load(&w->slot->state);
    uint64_t d = atomic_load_explicit(&w->slot->delivered, memory_order_acquire);
    if (d >> PC_PIECE_BITS == w->seq) return 1;              /* claimed (the mark, maybe pieces) */
    if (st == slot_state(w->seq, SLOT_CLAIMED)) return 0;    /* claimed, mark on its way */
    if (st != slot_state(w->seq, SLOT_POSTED)) return 1;     /* declined */
    if (!pc_shm_test_piece(w->shm, w->seq, 0)) return 0;
    return atomic_compare_exchange_strong(&w->slot->state, &st, slot_state(w->seq, SLOT_CLOSED));
}

/* Read variant, a claimed reader: pulls pieces [0, npieces) of call seq
 * from the writer's source into the posted buffer, as many as are valid at
 * a time (one process_vm_readv each), then tells the writer it is done. */
static void pull(pc_shm_t *shm, unsigned long seq, slot_t *mine, size_t npieces)
{
    slot_t *src = &shm->slots[mine->source - 1];
    size_t done = 0;
    while (done < npieces) {
        pc_wait_at_least(shm, &src->src_avail, stamp_of(seq, done));
        uint64_t avail = atomic_load_explicit(&src->src_avail, memory_order_acquire);
        size_t upto = avail >> PC_PIECE_BITS == seq ? (size_t)(avail & ((1u << PC_PIECE_BITS) - 1)) : npieces;
        if (upto > npieces) upto = npieces;
        size_t off = done * shm->cell_size, end = upto * shm->cell_size < mine->bytes ? upto * shm->cell_size : mine->bytes;
        int err = pc_cma_read(src->pid, (char *)(uintptr_t)mine->addr + off, src->src_addr + off, end - off);
        if (err) { /* the probe at creation succeeded: the writer's buffer is not what it published */
            pc_log(PC_LOG_WARN, "node protocol: single copy from process %lld failed: %s", (long long)src->pid,
                   strerror(err));
            PMPI_Abort(MPI_COMM_WORLD, MPI_ERR_INTERN);
        }
        pc_shm_charge(shm, end - off); /* SMPI: one copy, on this reader (the readers copy in parallel) */
        done = upto;
    }
    atomic_store_explicit(&mine->pulled, (uint64_t)seq + 1, memory_order_release);
    pc_shm_notify(shm);
    if (pc_log_enabled(PC_LOG_DEBUG))
        pc_log(PC_LOG_DEBUG, "node protocol seq=%lu: read variant, %llu bytes pulled from node process %llu", seq,
               (unsigned long long)mine->bytes, (unsigned long long)(mine->source - 1));
}

int pc_shm_wait_delivery(pc_shm_t *shm, unsigned long seq, size_t npieces)
{
    slot_t *mine = &shm->slots[shm->node_rank];
    post_wait_t w = {shm, mine, seq, stamp_of(seq, npieces ? npieces - 1 : 0)};
    pc_wait(shm, post_resolved, &w);
    if (atomic_load_explicit(&mine->delivered, memory_order_acquire) >> PC_PIECE_BITS != seq) return 0; /* declined */
    if (mine->source) pull(shm, seq, mine, npieces); /* read variant */
    else pc_wait_at_least(shm, &mine->delivered, w.target); /* write variant: the writer copies */
    return 1;
}

size_t pc_shm_writer_begin(pc_shm_t *shm, unsigned long seq, size_t bytes, int accept)
{
    if (shm->writer_stamp == (uint64_t)seq + 1) return shm->ndirect;
    shm->writer_stamp = (uint64_t)seq + 1;
    shm->ndirect = 0;
    shm->direct_read = pc_shm_read_variant(pc_params()->node_protocol_kind);
    uint64_t posted = slot_state(seq, SLOT_POSTED), closed = slot_state(seq, SLOT_CLOSED);
    for (uint32_t r = 0; r < shm->node_size; r++) {
        if ((int)r == shm->node_rank) continue;
        slot_t *s = &shm->slots[r];
        uint64_t st = atomic_load(&s->state);
        for (;;) {
            if (st == posted) {
                int take = accept && shm->single_copy && s->bytes == bytes;
                if (!atomic_compare_exchange_weak(&s->state, &st, take ? slot_state(seq, SLOT_CLAIMED) : closed))
                    continue;
                if (take) {
                    s->source = shm->direct_read ? (uint64_t)shm->node_rank + 1 : 0; /* before the mark */
                    atomic_store_explicit(&s->delivered, (uint64_t)seq << PC_PIECE_BITS, memory_order_release);
                    shm->direct[shm->ndirect++] = (direct_reader_t){s->pid, s->addr, s};
                }
                break;
            }
            if (st < posted) { /* not posted (yet): from now on it reads the ring */
                if (!atomic_compare_exchange_weak(&s->state, &st, closed)) continue;
            }
            break; /* CLOSED by the reader itself (not for protocol writers) */
        }
    }
    pc_shm_notify(shm); /* declined readers wait on their slot */
    return shm->ndirect;
}
