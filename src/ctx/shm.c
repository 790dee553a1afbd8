/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shm.c - the node shared-memory layer (see shm.h).
 */
#include "ctx/shm.h"
#include "core/log.h"
#include "core/params.h"
#include "ctx/cma.h"
#include "ctx/node_window.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef PAPCOLL_SMPI
#include <simgrid/cond.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>
#include <smpi/smpi.h>
#include <time.h>
#endif

#define PC_CACHE_LINE 64
#define PC_PIECE_BITS 24 /* stamp = seq << 24 | piece + 1: up to 16M pieces per call */

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
    MPI_Win win;
    MPI_Comm progress_comm; /* probed for MPI progress while waiting */
    MPI_Comm node_comm;     /* the context's node communicator (the area's window) */
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
    /* the reduction area: a second window, created by the first reduction that needs it */
    MPI_Win area_win;
    char *area;
    size_t area_bytes;
    uint64_t area_uses;     /* uses of the area by this process (the same sequence on every node process) */
    /* the direct (write) protocol */
    int single_copy;        /* every pair of node processes can single-copy (agreed at creation) */
    uint64_t writer_stamp;  /* seq + 1 of the call this process began writing (0: none) */
    direct_reader_t *direct; /* its claimed readers */
    size_t ndirect;
    int direct_read;        /* the current call's claimed readers pull (read variant) instead of being written */
};

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

static uint64_t stamp_of(unsigned long seq, size_t k) { return ((uint64_t)seq << PC_PIECE_BITS) | (uint64_t)(k + 1); }

void pc_shm_notify(pc_shm_t *shm)
{
#ifdef PAPCOLL_SMPI
    sg_mutex_lock(shm->hdr->mutex);
    sg_cond_notify_all(shm->hdr->changed);
    sg_mutex_unlock(shm->hdr->mutex);
#else
    (void)shm;
#endif
}

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

void pc_poll_pause(pc_shm_t *shm)
{
#ifdef PAPCOLL_SMPI
    (void)shm;
    struct timespec ts = {0, 500}; /* 0.5 us of simulated time */
    nanosleep(&ts, NULL);
#else
    int flag;
    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, shm->progress_comm, &flag, MPI_STATUS_IGNORE);
    cpu_pause();
    sched_yield();
#endif
}

void pc_wait(pc_shm_t *shm, int (*ready)(void *arg), void *arg)
{
    if (ready(arg)) return;
#ifdef PAPCOLL_SMPI
    sg_mutex_lock(shm->hdr->mutex);
    while (!ready(arg)) sg_cond_wait(shm->hdr->changed, shm->hdr->mutex);
    sg_mutex_unlock(shm->hdr->mutex);
#else
    for (unsigned long spin = 1; !ready(arg); spin++) {
        cpu_pause();
        if (spin % 64 == 0) {
            int flag; /* progress for this process's outstanding sends */
            PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, shm->progress_comm, &flag, MPI_STATUS_IGNORE);
            sched_yield(); /* lets an oversubscribed peer run */
        }
    }
#endif
}

typedef struct {
    _Atomic uint64_t *word;
    uint64_t target;
} word_wait_t;

static int word_at_least(void *arg)
{
    word_wait_t *w = arg;
    return atomic_load_explicit(w->word, memory_order_acquire) >= w->target;
}

static int word_equal(void *arg)
{
    word_wait_t *w = arg;
    return atomic_load_explicit(w->word, memory_order_acquire) == w->target;
}

void pc_wait_at_least(pc_shm_t *shm, _Atomic uint64_t *word, uint64_t target)
{
    word_wait_t w = {word, target};
    pc_wait(shm, word_at_least, &w);
}

void pc_wait_equal(pc_shm_t *shm, _Atomic uint64_t *word, uint64_t target)
{
    word_wait_t w = {word, target};
    pc_wait(shm, word_equal, &w);
}

/* Whether every pair of node processes can single-copy: each process probes
 * every peer's probe word (cma.h), and the node agrees (MIN) so that all
 * choose the same.  Only when PAPCOLL_NODE_PROTOCOL may use it. */
static int detect_single_copy(pc_shm_t *shm, const pc_params_t *p)
{
    shm->single_copy = 0;
    if (p->node_protocol_kind == PC_NODE_PROTOCOL_RING) return MPI_SUCCESS;
    const char *why = NULL;
    int ok = pc_cma_prepare(&why), failed_peer = -1;
    for (uint32_t r = 0; ok && r < shm->node_size; r++)
        if ((int)r != shm->node_rank && !pc_cma_probe(shm->slots[r].pid, shm->slots[r].probe)) ok = 0, failed_peer = (int)r;
    int all = 0;
    int rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, shm->node_comm);
    if (rc != MPI_SUCCESS) return rc;
    shm->single_copy = all;
    if (!all && why) pc_log(PC_LOG_INFO, "node protocol: %s: the node ring only", why);
    else if (!all && failed_peer >= 0)
        pc_log(PC_LOG_INFO, "node protocol: cannot single-copy from node process %d (process_vm_readv): the node ring only",
               failed_peer);
    return MPI_SUCCESS;
}

int pc_shm_get(pc_comm_t *ctx, pc_shm_t **out)
{
    if (ctx->shm) {
        *out = ctx->shm;
        return MPI_SUCCESS;
    }
    const pc_params_t *p = pc_params();
    pc_shm_t *shm = calloc(1, sizeof *shm);
    if (!shm) return MPI_ERR_NO_MEM;
    shm->cell_size = round_up(p->shm_cell ? p->shm_cell : 1, PC_CACHE_LINE);
    shm->ncells = p->shm_size / shm->cell_size;
    if (shm->ncells < 2) shm->ncells = 2;
    shm->node_size = (uint32_t)ctx->node_size;
    shm->progress_comm = ctx->comm;
    shm->node_comm = ctx->node;
    shm->node_rank = ctx->node_rank;
    shm->area_win = MPI_WIN_NULL;
    shm->membw = p->sim_membw > 0 ? (double)p->sim_membw : 1e10;
    size_t cells_off = round_up(sizeof(header_t), PC_CACHE_LINE);
    size_t slots_off = cells_off + shm->ncells * sizeof(cell_t);
    size_t data_off = slots_off + (size_t)ctx->node_size * sizeof(slot_t);
    size_t total = data_off + shm->ncells * shm->cell_size;

    char *base;
    int rc = pc_node_window_allocate(ctx->node, total, &base, &shm->win);
    if (rc != MPI_SUCCESS) {
        free(shm);
        return rc;
    }
    shm->hdr = (header_t *)base;
    shm->cells = (cell_t *)(base + cells_off);
    shm->slots = (slot_t *)(base + slots_off);
    shm->data = base + data_off;
    shm->direct = malloc((size_t)ctx->node_size * sizeof *shm->direct);
    if (!shm->direct) {
        PMPI_Win_free(&shm->win);
        free(shm);
        return MPI_ERR_NO_MEM;
    }
    slot_t *mine = &shm->slots[ctx->node_rank]; /* each process initializes its own slot */
    memset(mine, 0, sizeof *mine);
    mine->pid = pc_cma_self();
    mine->probe = (uint64_t)(uintptr_t)pc_cma_probe_word();
    if (ctx->node_rank == 0) {
        memset(base, 0, slots_off);
        atomic_store(&shm->hdr->claimed_seq, 0);
        atomic_store(&shm->hdr->barrier_arrivals, 0);
        atomic_store(&shm->hdr->release, 0);
        for (int g = 0; g < PC_SHM_GATES; g++) atomic_store(&shm->hdr->gate[g].passes, 0);
        for (size_t i = 0; i < shm->ncells; i++) {
            atomic_store(&shm->cells[i].stamp, 0);
            atomic_store(&shm->cells[i].released, shm->node_size); /* free */
        }
#ifdef PAPCOLL_SMPI
        shm->hdr->mutex = sg_mutex_init();
        shm->hdr->changed = sg_cond_init();
#endif
    }
    atomic_thread_fence(memory_order_seq_cst);
    rc = PMPI_Barrier(ctx->node); /* the header is initialized before anyone uses it */
    if (rc == MPI_SUCCESS) rc = detect_single_copy(shm, p);
    if (rc != MPI_SUCCESS) {
        pc_shm_free(shm);
        return rc;
    }
    ctx->shm = shm;
    *out = shm;
    return MPI_SUCCESS;
}

void pc_shm_free(pc_shm_t *shm)
{
    if (!shm) return;
    if (shm->area_win != MPI_WIN_NULL) PMPI_Win_free(&shm->area_win);
#ifdef PAPCOLL_SMPI
    /* node rank 0 made them; everyone is past its last use after the barrier inside Win_free */
    sg_mutex_t m = shm->hdr->mutex;
    sg_cond_t c = shm->hdr->changed;
    int node_rank = -1;
    MPI_Group g;
    if (PMPI_Win_get_group(shm->win, &g) == MPI_SUCCESS) {
        PMPI_Group_rank(g, &node_rank);
        PMPI_Group_free(&g);
    }
    PMPI_Win_free(&shm->win);
    if (node_rank == 0) {
        sg_cond_destroy(c);
        sg_mutex_destroy(m);
    }
#else
    PMPI_Win_free(&shm->win);
#endif
    free(shm->direct);
    free(shm);
}

size_t pc_shm_cell_size(const pc_shm_t *shm) { return shm->cell_size; }
size_t pc_shm_ncells(const pc_shm_t *shm) { return shm->ncells; }

size_t pc_shm_pieces(const pc_shm_t *shm, size_t bytes) { return (bytes + shm->cell_size - 1) / shm->cell_size; }

static cell_t *cell_of(pc_shm_t *shm, size_t k) { return &shm->cells[k % shm->ncells]; }
static char *data_of(pc_shm_t *shm, size_t k) { return shm->data + (k % shm->ncells) * shm->cell_size; }

typedef struct {
    pc_shm_t *shm;
    cell_t *cell;
    uint64_t stamp;
} cell_wait_t;

static int cell_free(void *arg)
{
    cell_wait_t *w = arg;
    return atomic_load_explicit(&w->cell->released, memory_order_acquire) >= w->shm->node_size;
}

static int cell_valid(void *arg)
{
    cell_wait_t *w = arg;
    return atomic_load_explicit(&w->cell->stamp, memory_order_acquire) == w->stamp;
}

char *pc_shm_acquire(pc_shm_t *shm, size_t k)
{
    cell_wait_t w = {shm, cell_of(shm, k), 0};
    pc_wait(shm, cell_free, &w);
    return data_of(shm, k);
}

char *pc_shm_try_acquire(pc_shm_t *shm, size_t k)
{
    cell_wait_t w = {shm, cell_of(shm, k), 0};
    return cell_free(&w) ? data_of(shm, k) : NULL;
}

/* released0: node processes that will not read this piece (readers written directly). */
static void publish_released(pc_shm_t *shm, unsigned long seq, size_t k, size_t len, uint32_t released0)
{
    cell_t *c = cell_of(shm, k);
    c->len = (uint32_t)len;
    atomic_store_explicit(&c->released, released0, memory_order_relaxed);
    atomic_store_explicit(&c->stamp, stamp_of(seq, k), memory_order_release);
    pc_shm_notify(shm);
}

void pc_shm_publish(pc_shm_t *shm, unsigned long seq, size_t k, size_t len) { publish_released(shm, seq, k, len, 0); }

const char *pc_shm_wait_piece(pc_shm_t *shm, unsigned long seq, size_t k)
{
    cell_wait_t w = {shm, cell_of(shm, k), stamp_of(seq, k)};
    pc_wait(shm, cell_valid, &w);
    return data_of(shm, k);
}

const char *pc_shm_test_piece(pc_shm_t *shm, unsigned long seq, size_t k)
{
    cell_wait_t w = {shm, cell_of(shm, k), stamp_of(seq, k)};
    return cell_valid(&w) ? data_of(shm, k) : NULL;
}

void pc_shm_release(pc_shm_t *shm, size_t k)
{
    atomic_fetch_add_explicit(&cell_of(shm, k)->released, 1, memory_order_acq_rel);
    pc_shm_notify(shm);
}

void pc_shm_charge(const pc_shm_t *shm, size_t len)
{
#ifdef PAPCOLL_SMPI
    /* the memory-bandwidth model: len / membw seconds of this rank's core */
    if (len) smpi_execute_flops((double)len / shm->membw * sg_host_get_speed(sg_host_self()));
#else
    (void)shm;
    (void)len;
#endif
}

void pc_shm_copy(void *dst, const void *src, size_t len, const pc_shm_t *shm)
{
    memcpy(dst, src, len);
    pc_shm_charge(shm, len);
}

static size_t piece_len(const pc_shm_t *shm, size_t bytes, size_t k)
{
    size_t off = k * shm->cell_size;
    return bytes - off < shm->cell_size ? bytes - off : shm->cell_size;
}

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

void pc_shm_ring_put(pc_shm_t *shm, unsigned long seq, const char *buf, size_t bytes, size_t first, size_t last,
                     int releases)
{
    for (size_t k = first; k < last; k++) {
        size_t len = piece_len(shm, bytes, k);
        pc_shm_copy(pc_shm_acquire(shm, k), buf + k * shm->cell_size, len, shm);
        pc_shm_publish(shm, seq, k, len);
        for (int i = 0; i < releases; i++) /* per piece: a ring smaller than the message keeps flowing */
            pc_shm_release(shm, k);
    }
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
            publish_released(shm, seq, k, len, (uint32_t)shm->ndirect); /* the direct readers will not read it */
            pc_shm_release(shm, k);
        }
    }
    if (shm->direct_read && last == pc_shm_pieces(shm, bytes)) {
        /* read variant: buf is the readers' source until every one of them has pulled it */
        for (size_t i = 0; i < shm->ndirect; i++) pc_wait_at_least(shm, &shm->direct[i].slot->pulled, (uint64_t)seq + 1);
    }
}

void pc_shm_ring_get(pc_shm_t *shm, unsigned long seq, char *buf, size_t bytes, size_t first, size_t last,
                     int releases)
{
    for (size_t k = first; k < last; k++) {
        pc_shm_copy(buf + k * shm->cell_size, pc_shm_wait_piece(shm, seq, k), piece_len(shm, bytes, k), shm);
        for (int i = 0; i < releases; i++) pc_shm_release(shm, k);
    }
}

void pc_shm_get_pieces(pc_shm_t *shm, unsigned long seq, char *buf, size_t bytes, size_t first, size_t last)
{
    pc_shm_ring_get(shm, seq, buf, bytes, first, last, 1);
}

void pc_shm_release_pieces(pc_shm_t *shm, size_t first, size_t last)
{
    for (size_t k = first; k < last; k++) pc_shm_release(shm, k);
}

int pc_shm_claim(pc_shm_t *shm, unsigned long seq)
{
    uint64_t v = atomic_load(&shm->hdr->claimed_seq);
    while (v < seq)
        if (atomic_compare_exchange_weak(&shm->hdr->claimed_seq, &v, seq)) {
            pc_shm_notify(shm);
            return 1;
        }
    return 0;
}

void pc_shm_barrier(pc_shm_t *shm)
{
    pc_shm_arrive(shm);
    pc_shm_wait_arrived(shm);
}

int pc_shm_arrive(pc_shm_t *shm)
{
    uint64_t target = ++shm->barrier_epoch * shm->node_size;
    uint64_t before = atomic_fetch_add_explicit(&shm->hdr->barrier_arrivals, 1, memory_order_acq_rel);
    pc_shm_notify(shm);
    return before + 1 == target;
}

void pc_shm_wait_arrived(pc_shm_t *shm)
{
    pc_wait_at_least(shm, &shm->hdr->barrier_arrivals, shm->barrier_epoch * shm->node_size);
}

void pc_shm_give_release(pc_shm_t *shm, unsigned long seq)
{
    atomic_store_explicit(&shm->hdr->release, (uint64_t)seq, memory_order_release);
    pc_shm_notify(shm);
}

void pc_shm_wait_release(pc_shm_t *shm, unsigned long seq)
{
    pc_wait_at_least(shm, &shm->hdr->release, (uint64_t)seq);
}

void pc_shm_gates_begin(pc_shm_t *shm) { shm->gate_epoch++; }

int pc_shm_gate_pass(pc_shm_t *shm, int g)
{
    uint64_t before = atomic_fetch_add_explicit(&shm->hdr->gate[g].passes, 1, memory_order_acq_rel);
    return before + 1 == 2 * shm->gate_epoch;
}

int pc_shm_area(pc_shm_t *shm, size_t bytes, char **base)
{
    if (shm->area) {
        *base = shm->area;
        return shm->area_bytes >= bytes ? MPI_SUCCESS : MPI_ERR_INTERN;
    }
    size_t total = round_up(bytes ? bytes : 1, PC_CACHE_LINE);
    int rc = pc_node_window_allocate(shm->node_comm, total, &shm->area, &shm->area_win);
    if (rc == MPI_SUCCESS && shm->node_rank == 0) memset(shm->area, 0, total); /* every counter and stamp at 0 */
    atomic_thread_fence(memory_order_seq_cst);
    if (rc == MPI_SUCCESS) rc = PMPI_Barrier(shm->node_comm); /* zeroed before anyone uses it */
    if (rc != MPI_SUCCESS) {
        if (shm->area_win != MPI_WIN_NULL) PMPI_Win_free(&shm->area_win);
        shm->area_win = MPI_WIN_NULL;
        shm->area = NULL;
        return rc;
    }
    shm->area_bytes = total;
    *base = shm->area;
    return MPI_SUCCESS;
}

uint64_t pc_shm_area_use(pc_shm_t *shm) { return shm->area_uses++; }

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
