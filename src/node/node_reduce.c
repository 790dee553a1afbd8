/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_reduce.c - the node reduction area (see node_reduce.h).
 */
#include "node/node_reduce.h"
#include "core/log.h"
#include "core/params.h"
#include "ctx/cma.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define PC_LINE 64
#define PC_NODE_RED_BANKS 2
#define PC_STATE_SHIFT 20 /* (use + 1) << 20 | contributions (fewer than 2^20 per use) */
#define PC_STATE_MASK ((1u << PC_STATE_SHIFT) - 1)

typedef struct {
    _Atomic uint64_t done;
    char pad0[PC_LINE - sizeof(uint64_t)];
    _Atomic uint64_t arrived;
    char pad1[PC_LINE - sizeof(uint64_t)];
    _Atomic uint64_t result;
    char pad2[PC_LINE - sizeof(uint64_t)];
} bank_ctl_t;

typedef struct {
    _Atomic uint64_t state;
    _Atomic uint32_t lock;
    /* slots layout, pulled copy-in: the process of this cell (node rank x)
     * posted its chunk instead of copying it into its slot */
    _Atomic uint64_t posted;  /* use + 1 of the post */
    uint64_t src_addr;        /* the chunk's element 0, in the poster's address space */
    int64_t pid;              /* the poster (ctx/cma.h) */
    char pad[PC_LINE - 40];
} cell_ctl_t;
_Static_assert(sizeof(cell_ctl_t) == PC_LINE, "one cache line per cell control");

typedef enum { COMBINE_SERIAL, COMBINE_PARALLEL, COMBINE_ORDERED } combine_t;

static size_t round_down(size_t v, size_t to) { return v / to * to; }

static bank_ctl_t *bank_ctl(const pc_node_red_t *r, int b) { return (bank_ctl_t *)r->area + b; }

static cell_ctl_t *cell_ctl(const pc_node_red_t *r, int b, int x)
{
    cell_ctl_t *cells = (cell_ctl_t *)(r->area + PC_NODE_RED_BANKS * sizeof(bank_ctl_t));
    return cells + (size_t)b * (size_t)r->n + (size_t)x;
}

static size_t control_bytes(int n)
{
    return PC_NODE_RED_BANKS * (sizeof(bank_ctl_t) + (size_t)n * sizeof(cell_ctl_t));
}

static char *bank_data(const pc_node_red_t *r, int b)
{
    return r->area + control_bytes(r->n) + (size_t)b * r->bank_bytes;
}

/* Whole elements of the call's datatype that fit `bytes` at the slot's shift. */
static long capacity(const pc_call_t *a, size_t bytes, MPI_Aint lead)
{
    size_t need = (size_t)lead + (size_t)a->true_extent;
    if (bytes < need) return 0;
    if (a->extent <= 0) return 1;
    size_t more = (bytes - need) / (size_t)a->extent;
    return more >= (size_t)a->count ? a->count : (long)more + 1;
}

static size_t bank_bytes(const pc_call_t *a)
{
    size_t data = a->params->shm_size / PC_NODE_RED_BANKS;
    return round_down(data > PC_LINE ? data : PC_LINE, PC_LINE);
}

/* element 0's first byte sits `lead` bytes into its slot: true_lb modulo a line */
static MPI_Aint lead_of(const pc_call_t *a) { return ((a->true_lb % PC_LINE) + PC_LINE) % PC_LINE; }

long pc_node_red_shared_chunk(const pc_call_t *a) { return capacity(a, bank_bytes(a), lead_of(a)); }

int pc_node_red_begin(const pc_call_t *a, pc_node_red_layout_t layout, pc_node_red_t *r)
{
    memset(r, 0, sizeof *r);
    r->a = a;
    r->n = a->ctx->node_size;
    r->me = a->ctx->node_rank;
    r->contributors = r->n;
    r->layout = layout;
    PMPI_Type_size(a->datatype, &r->type_size);
    r->bank_bytes = bank_bytes(a);
    int rc = pc_shm_get(a->ctx, &r->shm);
    size_t control = control_bytes(r->n);
    if (rc == MPI_SUCCESS) rc = pc_shm_area(r->shm, control, control + PC_NODE_RED_BANKS * r->bank_bytes, &r->area);
    if (rc != MPI_SUCCESS) return rc;
    r->cell_done = malloc((size_t)r->n);
    if (!r->cell_done) return MPI_ERR_NO_MEM;
    MPI_Aint lead = lead_of(a);
    r->shift = lead - a->true_lb;
    /* every node cuts the message the same way (the leaders reduce chunk by
     * chunk together): slots are sized for the largest node */
    size_t most = (size_t)a->ctx->max_ppn;
    r->slot_bytes = layout == PC_NODE_RED_SLOTS ? round_down(r->bank_bytes / most, PC_LINE) : r->bank_bytes;
    r->chunk = capacity(a, r->slot_bytes, lead);
    r->nchunks = r->chunk ? (a->count + r->chunk - 1) / r->chunk : 0;
    return MPI_SUCCESS;
}

int pc_node_red_open(const pc_call_t *a, pc_node_red_layout_t layout, const char *algorithm, const char *inter,
                     pc_node_red_t *r, int *rc)
{
    *rc = pc_node_red_begin(a, layout, r);
    if (*rc == MPI_SUCCESS && r->chunk == 0) *rc = pc_red_whole_comm(a, algorithm, r->slot_bytes, inter);
    if (*rc == MPI_SUCCESS && r->chunk > 0) return 1;
    pc_node_red_end(r);
    return 0;
}

void pc_node_red_end(pc_node_red_t *r)
{
    free(r->cell_done);
    r->cell_done = NULL;
}

/* ---- counters ------------------------------------------------------------- */

static void add_one(pc_node_red_t *r, _Atomic uint64_t *word)
{
    atomic_fetch_add_explicit(word, 1, memory_order_acq_rel);
    pc_shm_notify(r->shm);
}

/* ---- chunks --------------------------------------------------------------- */

void pc_node_red_take(pc_node_red_t *r, long first, long count, pc_node_chunk_t *ch)
{
    ch->use = pc_shm_area_use(r->shm);
    ch->bank = (int)(ch->use % PC_NODE_RED_BANKS);
    ch->round = ch->use / PC_NODE_RED_BANKS;
    ch->first = first;
    ch->count = count;
}

int pc_node_red_bank_free(const pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    return atomic_load_explicit(&bank_ctl(r, ch->bank)->done, memory_order_acquire) >= ch->round * (uint64_t)r->n;
}

void pc_node_red_range(pc_node_red_t *r, long first, long count, pc_node_chunk_t *ch)
{
    pc_node_red_take(r, first, count, ch);
    pc_wait_at_least(r->shm, &bank_ctl(r, ch->bank)->done, ch->round * (uint64_t)r->n);
}

void pc_node_red_chunk(pc_node_red_t *r, long c, pc_node_chunk_t *ch)
{
    long first = c * r->chunk;
    pc_node_red_range(r, first, r->a->count - first < r->chunk ? r->a->count - first : r->chunk, ch);
}

char *pc_node_red_slot(const pc_node_red_t *r, const pc_node_chunk_t *ch, int k)
{
    size_t at = r->layout == PC_NODE_RED_SLOTS ? (size_t)k * r->slot_bytes : 0;
    return bank_data(r, ch->bank) + at + r->shift;
}

pc_call_t pc_node_red_chunk_call(const pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    pc_call_t c = *r->a;
    c.count = (int)ch->count;
    c.bytes = (size_t)ch->count * (size_t)r->type_size;
    return c;
}

static size_t bytes_of(const pc_node_red_t *r, long n) { return (size_t)n * (size_t)r->type_size; }

int pc_node_red_copy_in(pc_node_red_t *r, const pc_node_chunk_t *ch, const void *msg)
{
    int rc = pc_red_copy(r->a, pc_node_red_slot(r, ch, r->me), pc_red_at(r->a, msg, ch->first), ch->count);
    pc_shm_charge(r->shm, bytes_of(r, ch->count));
    return rc;
}

/* Block x of nblocks over n elements: [lo, hi). */
static void block(long n, long nblocks, long x, long *lo, long *hi)
{
    *lo = n * x / nblocks;
    *hi = n * (x + 1) / nblocks;
}

/* ---- hand-offs through the slots ----------------------------------------- */

void pc_node_red_slot_post(pc_node_red_t *r, const pc_node_chunk_t *ch, int k, uint64_t count)
{
    uint64_t stamp = (ch->use + 1) << PC_STATE_SHIFT;
    atomic_store_explicit(&cell_ctl(r, ch->bank, k)->state, stamp | count, memory_order_release);
    pc_shm_notify(r->shm);
}

uint64_t pc_node_red_slot_count(const pc_node_red_t *r, const pc_node_chunk_t *ch, int k)
{
    uint64_t state = atomic_load_explicit(&cell_ctl(r, ch->bank, k)->state, memory_order_acquire);
    return (state >> PC_STATE_SHIFT) == ch->use + 1 ? state & PC_STATE_MASK : 0;
}

void pc_node_red_slot_wait(pc_node_red_t *r, const pc_node_chunk_t *ch, int k, uint64_t count)
{
    if (count == 0 && pc_node_red_slot_count(r, ch, k) == 0) return; /* no post yet in this use */
    pc_wait_equal(r->shm, &cell_ctl(r, ch->bank, k)->state, ((ch->use + 1) << PC_STATE_SHIFT) | count);
}

/* ---- the shared accumulator ----------------------------------------------- */

static combine_t discipline(const pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    const pc_params_t *p = r->a->params;
    if (p->reproducible) return COMBINE_ORDERED;
    if (!strcmp(p->reduce.lock, "serial")) return COMBINE_SERIAL;
    if (!strcmp(p->reduce.lock, "parallel")) return COMBINE_PARALLEL;
    return bytes_of(r, ch->count) < PC_LINE ? COMBINE_SERIAL : COMBINE_PARALLEL;
}

/* Cells of the chunk: every node process computes the same number. */
static long cells_of(const pc_node_red_t *r, const pc_node_chunk_t *ch, combine_t how)
{
    if (how == COMBINE_SERIAL) return 1;
    long by_lines = (long)(bytes_of(r, ch->count) / PC_LINE);
    long cells = r->n < ch->count ? r->n : ch->count;
    if (by_lines < cells) cells = by_lines;
    return cells > 0 ? cells : 1;
}

/* Adds my elements of cell x into the accumulator (copies them if I am the
 * cell's first contributor in this use); the caller owns the cell. */
static int combine_cell(pc_node_red_t *r, const pc_node_chunk_t *ch, long x, long cells, const void *src)
{
    const pc_call_t *a = r->a;
    long lo, hi;
    block(ch->count, cells, x, &lo, &hi);
    cell_ctl_t *cc = cell_ctl(r, ch->bank, (int)x);
    uint64_t stamp = (ch->use + 1) << PC_STATE_SHIFT;
    uint64_t state = atomic_load_explicit(&cc->state, memory_order_acquire);
    uint64_t seen = (state >> PC_STATE_SHIFT) == ch->use + 1 ? state & PC_STATE_MASK : 0;
    char *acc = pc_red_at(a, pc_node_red_slot(r, ch, 0), lo);
    const char *mine = pc_red_at(a, src, lo);
    int rc = seen == 0 ? pc_red_copy(a, acc, mine, hi - lo) : pc_red_local(a, mine, acc, hi - lo);
    pc_shm_charge(r->shm, bytes_of(r, hi - lo));
    atomic_store_explicit(&cc->state, stamp | (seen + 1), memory_order_release);
    return rc;
}

typedef struct {
    pc_node_red_t *r;
    const pc_node_chunk_t *ch;
    long cells;
} cells_wait_t;

/* Some cell I have not done yet is unlocked. */
static int some_cell_free(void *arg)
{
    cells_wait_t *w = arg;
    for (long x = 0; x < w->cells; x++)
        if (!w->r->cell_done[x] && !atomic_load_explicit(&cell_ctl(w->r, w->ch->bank, (int)x)->lock, memory_order_acquire))
            return 1;
    return 0;
}

static int combine_locked(pc_node_red_t *r, const pc_node_chunk_t *ch, long cells, int position, const void *src)
{
    int rc = MPI_SUCCESS;
    memset(r->cell_done, 0, (size_t)cells);
    long left = cells, start = position % cells;
    while (left > 0) {
        int progress = 0;
        for (long i = 0; i < cells; i++) {
            long x = (start + i) % cells;
            if (r->cell_done[x]) continue;
            cell_ctl_t *cc = cell_ctl(r, ch->bank, (int)x);
            uint32_t unlocked = 0;
            if (!atomic_compare_exchange_strong_explicit(&cc->lock, &unlocked, 1, memory_order_acquire,
                                                         memory_order_relaxed))
                continue; /* busy: another process is combining this cell */
            int crc = combine_cell(r, ch, x, cells, src);
            if (rc == MPI_SUCCESS) rc = crc;
            atomic_store_explicit(&cc->lock, 0, memory_order_release);
            pc_shm_notify(r->shm);
            r->cell_done[x] = 1;
            left--;
            progress = 1;
        }
        if (!progress) {
            cells_wait_t w = {r, ch, cells};
            pc_wait(r->shm, some_cell_free, &w);
        }
    }
    return rc;
}

static int combine_ordered(pc_node_red_t *r, const pc_node_chunk_t *ch, long cells, int position, const void *src)
{
    int rc = MPI_SUCCESS;
    uint64_t stamp = (ch->use + 1) << PC_STATE_SHIFT;
    for (long x = 0; x < cells; x++) {
        /* position p goes once positions 0 .. p-1 have combined this cell */
        if (position > 0) pc_wait_equal(r->shm, &cell_ctl(r, ch->bank, (int)x)->state, stamp | (uint64_t)position);
        int crc = combine_cell(r, ch, x, cells, src);
        if (rc == MPI_SUCCESS) rc = crc;
        pc_shm_notify(r->shm);
    }
    return rc;
}

/* Counts one more contribution to this use; returns the count with it.  The
 * word carries the use's stamp: the first contribution of a use restarts the
 * count, whatever the bank's earlier uses counted. */
static uint64_t count_contribution(pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    _Atomic uint64_t *word = &bank_ctl(r, ch->bank)->arrived;
    uint64_t stamp = (ch->use + 1) << PC_STATE_SHIFT, v = atomic_load_explicit(word, memory_order_acquire), next;
    do next = ((v & ~(uint64_t)PC_STATE_MASK) == stamp ? v : stamp) + 1;
    while (!atomic_compare_exchange_weak_explicit(word, &v, next, memory_order_acq_rel, memory_order_acquire));
    pc_shm_notify(r->shm);
    return next & PC_STATE_MASK;
}

int pc_node_red_combine(pc_node_red_t *r, const pc_node_chunk_t *ch, const void *src, int position, int *last)
{
    combine_t how = discipline(r, ch);
    long cells = cells_of(r, ch, how);
    int rc = how == COMBINE_ORDERED ? combine_ordered(r, ch, cells, position, src)
                                    : combine_locked(r, ch, cells, position, src);
    uint64_t count = count_contribution(r, ch);
    if (last) *last = count == (uint64_t)r->contributors;
    return rc;
}

int pc_node_red_all_arrived(const pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    return atomic_load_explicit(&bank_ctl(r, ch->bank)->arrived, memory_order_acquire) ==
           (((ch->use + 1) << PC_STATE_SHIFT) | (uint64_t)r->contributors);
}

void pc_node_red_wait_arrived(pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    pc_wait_equal(r->shm, &bank_ctl(r, ch->bank)->arrived, ((ch->use + 1) << PC_STATE_SHIFT) | (uint64_t)r->contributors);
}

/* ---- the slots layout's node step ---------------------------------------- */

/* Whether this use's copy-in may be pulled (PAPCOLL_NODE_PROTOCOL, Morimoto et al. 1999's
 * switch applied to the reductions' copy-in): the same answer on every node
 * process (same parameters and chunk, node-agreed single copies).  Only
 * contiguous datatypes: a pull moves one byte range. */
static int pull_allowed(const pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    const pc_call_t *a = r->a;
    const pc_params_t *p = a->params;
    if (r->n < 2 || !pc_shm_single_copy(r->shm) || p->node_protocol_kind == PC_NODE_PROTOCOL_RING) return 0;
    if (a->extent != r->type_size || a->true_extent != r->type_size || a->true_lb != 0) return 0;
    if (p->node_protocol_kind == PC_NODE_PROTOCOL_READ) return 1;
    return p->node_protocol_kind == PC_NODE_PROTOCOL_AUTO && bytes_of(r, ch->count) >= p->node_write_min;
}

/* Pulls my slice [lo, hi) of every contribution posted in this use into its
 * slot (one single copy each: process_vm_readv; the copy model under SMPI). */
static int pull_posted(pc_node_red_t *r, const pc_node_chunk_t *ch, long lo, long hi)
{
    const pc_call_t *a = r->a;
    for (int k = 0; k < r->n; k++) {
        cell_ctl_t *cc = cell_ctl(r, ch->bank, k);
        if (atomic_load_explicit(&cc->posted, memory_order_acquire) != ch->use + 1) continue;
        uint64_t src = cc->src_addr + (uint64_t)lo * (uint64_t)a->extent;
        size_t len = bytes_of(r, hi - lo);
        int err = pc_cma_read(cc->pid, pc_red_at(a, pc_node_red_slot(r, ch, k), lo), src, len);
        if (err) {
            pc_log(PC_LOG_WARN, "node reduction: single copy from process %lld failed: %s", (long long)cc->pid,
                   strerror(err));
            return MPI_ERR_INTERN;
        }
        pc_shm_charge(r->shm, len);
    }
    return MPI_SUCCESS;
}

int pc_node_red_slice(pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    long lo, hi;
    block(ch->count, r->n, r->me, &lo, &hi);
    if (hi == lo) return MPI_SUCCESS;
    int rc = pull_posted(r, ch, lo, hi);
    char *acc = pc_red_at(r->a, pc_node_red_slot(r, ch, 0), lo);
    for (int k = 1; k < r->n && rc == MPI_SUCCESS; k++) {
        rc = pc_red_local(r->a, pc_red_at(r->a, pc_node_red_slot(r, ch, k), lo), acc, hi - lo);
        pc_shm_charge(r->shm, bytes_of(r, hi - lo));
    }
    return rc;
}

/* The copy-in, switched by arrival like Morimoto et al. 1999's protocols: a process
 * that is not the last of its node to arrive copies its chunk into its slot
 * (the others are not all waiting yet: its copy costs nobody anything); the
 * last one, when pulls are allowed, only posts the chunk's address, and
 * after the barrier every node process pulls its own slice of it straight
 * from the poster's buffer, in parallel: the late process's copy is spread
 * over the processes that waited for it.  Its buffer stays valid until the
 * second barrier (after every slice). */
int pc_node_red_reduce_slots(pc_node_red_t *r, const pc_node_chunk_t *ch, const void *msg)
{
    int rc = MPI_SUCCESS;
    if (pull_allowed(r, ch) && count_contribution(r, ch) == (uint64_t)r->n) {
        cell_ctl_t *cc = cell_ctl(r, ch->bank, r->me);
        cc->src_addr = (uint64_t)(uintptr_t)pc_red_at(r->a, msg, ch->first);
        cc->pid = pc_cma_self();
        atomic_store_explicit(&cc->posted, ch->use + 1, memory_order_release); /* before the barrier */
        if (pc_log_enabled(PC_LOG_DEBUG))
            pc_log(PC_LOG_DEBUG, "node reduction: last to arrive, chunk of %zu bytes posted: pulled by the node",
                   bytes_of(r, ch->count));
    } else {
        rc = pc_node_red_copy_in(r, ch, msg);
    }
    pc_shm_barrier(r->shm);
    int src = pc_node_red_slice(r, ch);
    pc_shm_barrier(r->shm);
    return rc != MPI_SUCCESS ? rc : src;
}

/* ---- result and release --------------------------------------------------- */

void pc_node_red_publish(pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    atomic_store_explicit(&bank_ctl(r, ch->bank)->result, ch->use + 1, memory_order_release);
    pc_shm_notify(r->shm);
}

int pc_node_red_is_published(const pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    return atomic_load_explicit(&bank_ctl(r, ch->bank)->result, memory_order_acquire) == ch->use + 1;
}

void pc_node_red_wait_result(pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    pc_wait_equal(r->shm, &bank_ctl(r, ch->bank)->result, ch->use + 1);
}

int pc_node_red_copy_out(pc_node_red_t *r, const pc_node_chunk_t *ch, void *msg)
{
    int rc = pc_red_copy(r->a, pc_red_at(r->a, msg, ch->first), pc_node_red_slot(r, ch, 0), ch->count);
    pc_shm_charge(r->shm, bytes_of(r, ch->count));
    return rc;
}

void pc_node_red_done(pc_node_red_t *r, const pc_node_chunk_t *ch)
{
    add_one(r, &bank_ctl(r, ch->bank)->done);
}
