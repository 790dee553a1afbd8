/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shm_impl.h - private to src/ctx/shm_*.c: the layout of the node segment
 * (header, ring cells, direct-delivery slots, data; see shm.h) and the
 * small helpers its files share.  Everyone else uses ctx/shm.h.
 *
 *   shm_segment.c  creating, attaching and freeing the segment and the reduction area
 *   shm_wait.c     waiting and notifying (native spin, SMPI condition), copy charges
 *   shm_ring.c     the ring of cells: acquire, publish, read, release
 *   shm_direct.c   direct delivery (Morimoto et al. 1999's write protocol, read variant)
 *   shm_sync.c     the header's node words: leader claim, barriers, releases, gates
 */
#ifndef PC_SHM_IMPL_H
#define PC_SHM_IMPL_H

#include "ctx/shm.h"
#include "ctx/node_window.h"

#include <stdatomic.h>
#include <stdint.h>

#ifdef PAPCOLL_SMPI
#include <simgrid/cond.h>
#include <simgrid/mutex.h>
#endif

#define PC_CACHE_LINE 64
#define PC_PIECE_BITS 24 /* stamp = seq << 24 | piece + 1: up to 16M pieces per call */
#define PC_SHM_POISON_BYTE 0xA5 /* PAPCOLL_SHM_POISON's fill of data never written yet */

typedef struct {
    _Atomic uint64_t claimed_seq;  /* highest call whose leader is claimed */
    char pad0[PC_CACHE_LINE - sizeof(uint64_t)];
    _Atomic uint64_t barrier_arrivals; /* monotonic: node_size per barrier */
    char pad1[PC_CACHE_LINE - sizeof(uint64_t)];
    _Atomic uint64_t release;      /* highest call whose node release was given (barriers) */
    char pad2[PC_CACHE_LINE - sizeof(uint64_t)];
    struct {                       /* gates: monotonic, 2 passes per use */
        _Atomic uint64_t passes;
        char pad[PC_CACHE_LINE - sizeof(uint64_t)];
    } gate[PC_SHM_GATES];
#ifdef PAPCOLL_SMPI
    sg_mutex_t mutex; /* SMPI: every rank lives in one process, so these are shared */
    sg_cond_t changed;
#endif
} header_t;

/* A node process's slot of the direct (write) protocol, see shm.h. */
enum { SLOT_FREE = 0, SLOT_POSTED = 1, SLOT_CLAIMED = 2, SLOT_CLOSED = 3 };
typedef struct {
    _Atomic uint64_t state;     /* seq << 2 | SLOT_*: changed only by compare-and-swap */
    _Atomic uint64_t delivered; /* stamp_of(seq, k): pieces 0..k of call seq are in the posted buffer */
    uint64_t addr, bytes;       /* the posted destination (written before POSTED) */
    int64_t pid;                /* the owner (ctx/cma.h), for the writer's single copies */
    uint64_t probe;             /* address of the owner's probe word (cma.h) */
    /* the read variant (the claimed readers pull from the writer's source) */
    uint64_t source;            /* written by the writer before its claim mark: 0 = it writes into the
                                   posted buffer; node rank + 1 = pull from that writer's source */
    _Atomic uint64_t pulled;    /* the owner as reader: seq + 1 once it has pulled all of call seq */
    uint64_t src_addr;          /* the owner as writer: its source buffer (written before src_avail) */
    _Atomic uint64_t src_avail; /* the owner as writer: stamp_of(seq, k): pieces 0..k valid in its source */
    char pad[2 * PC_CACHE_LINE - 80];
} slot_t;

/* A posted reader claimed by this process as writer of the current call. */
typedef struct {
    int64_t pid;
    uint64_t addr;
    slot_t *slot;
} direct_reader_t;

typedef struct {
    _Atomic uint64_t stamp;    /* content valid for (seq, piece); 0 = never written */
    _Atomic uint32_t released; /* node processes done with the content */
    uint32_t len;
    char pad[PC_CACHE_LINE - 16];
} cell_t;

struct pc_shm {
    pc_node_window_t segment; /* ctx/node_window.h */
    MPI_Comm progress_comm; /* probed for MPI progress while waiting */
    MPI_Comm node_comm;     /* the context's node communicator (the area's block) */
    int node_rank;
    header_t *hdr;
    cell_t *cells;
    slot_t *slots;          /* one per node process */
    char *data;
    size_t ncells, cell_size;
    uint32_t node_size;
    uint64_t barrier_epoch; /* barriers this process has entered */
    uint64_t gate_epoch;    /* uses of the gates by this process */
    double membw;           /* SMPI: bytes per second charged for copies */
    int poison;             /* PAPCOLL_SHM_POISON: data parts filled with PC_SHM_POISON_BYTE on creation */
    /* the reduction area: a second block, created by the first reduction that needs it */
    pc_node_window_t area_window; /* its base: NULL until then */
    size_t area_bytes;
    uint64_t area_uses;     /* uses of the area by this process (the same sequence on every node process) */
    /* the direct (write) protocol */
    int single_copy;        /* every pair of node processes can single-copy (agreed at creation) */
    uint64_t writer_stamp;  /* seq + 1 of the call this process began writing (0: none) */
    direct_reader_t *direct; /* its claimed readers */
    size_t ndirect;
    int direct_read;        /* the current call's claimed readers pull (read variant) instead of being written */
};

static inline size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

static inline uint64_t stamp_of(unsigned long seq, size_t k) { return ((uint64_t)seq << PC_PIECE_BITS) | (uint64_t)(k + 1); }

static inline cell_t *cell_of(pc_shm_t *shm, size_t k) { return &shm->cells[k % shm->ncells]; }
static inline char *data_of(pc_shm_t *shm, size_t k) { return shm->data + (k % shm->ncells) * shm->cell_size; }

static inline size_t piece_len(const pc_shm_t *shm, size_t bytes, size_t k)
{
    size_t off = k * shm->cell_size;
    return bytes - off < shm->cell_size ? bytes - off : shm->cell_size;
}

/* A wait on one cell: until it is free, valid for a stamp, or taken. */
typedef struct {
    pc_shm_t *shm;
    cell_t *cell;
    uint64_t stamp;
} cell_wait_t;

/* Publishes piece k of call seq; released0: node processes that will not
 * read it (readers written directly). */
void pc_shm_publish_released(pc_shm_t *shm, unsigned long seq, size_t k, size_t len, uint32_t released0);

#endif
