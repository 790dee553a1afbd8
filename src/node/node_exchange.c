/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_exchange.c - the node exchange area (see node_exchange.h).
 */
#include "node/node_exchange.h"
#include "core/p2p.h"
#include "core/params.h"
#include "ctx/node_window.h"

#include <stdlib.h>
#include <string.h>

#define PC_LINE 64
#define PC_XCHG_BANKS 2
#define PC_WORDS_PER_LINE (PC_LINE / sizeof(uint64_t))

struct pc_node_xchg {
    pc_node_window_t window;
    pc_shm_t *shm;
    int q, nnodes, max_ppn;
    size_t ready_row, landed_row; /* bytes per row (whole lines) */
    size_t ready_off, landed_off, data_off, bank_bytes;
    uint64_t uses; /* uses taken by this process */
};

static int keyval = MPI_KEYVAL_INVALID;

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

/* Freed with the node communicator (context teardown, MPI_Finalize): every
 * node process frees it there, in the same order as the node segment. */
static int delete_area(MPI_Comm comm, int kv, void *value, void *extra)
{
    (void)comm; (void)kv; (void)extra;
    pc_node_xchg_t *x = value;
    pc_node_window_free(&x->window);
    free(x);
    return MPI_SUCCESS;
}

/* Bank bytes for a wish of `bank`: at most PC_MAX_MSG (a fragment is one
 * message), whole lines, at least one line. */
static size_t bank_size(size_t bank)
{
    if (bank > PC_MAX_MSG) bank = PC_MAX_MSG;
    return bank > PC_LINE ? round_up(bank, PC_LINE) : PC_LINE;
}

static int create(pc_comm_t *ctx, pc_shm_t *shm, size_t bank, pc_node_xchg_t **out)
{
    pc_node_xchg_t *x = calloc(1, sizeof *x);
    if (!x) return MPI_ERR_NO_MEM;
    x->shm = shm;
    x->q = ctx->node_size;
    x->nnodes = ctx->nnodes;
    x->max_ppn = ctx->max_ppn;
    x->bank_bytes = bank_size(bank);
    x->ready_row = round_up((size_t)x->nnodes * sizeof(uint64_t), PC_LINE);
    x->landed_row = round_up(2 * (size_t)x->max_ppn * sizeof(uint64_t), PC_LINE);
    x->ready_off = PC_XCHG_BANKS * PC_LINE;
    x->landed_off = x->ready_off + (size_t)x->q * x->ready_row;
    x->data_off = x->landed_off + PC_XCHG_BANKS * (size_t)x->nnodes * x->landed_row;
    size_t total = x->data_off + PC_XCHG_BANKS * x->bank_bytes;
    int rc = pc_node_window_allocate(ctx->node, total, &x->window);
    if (rc != MPI_SUCCESS) {
        free(x);
        return rc;
    }
    if (ctx->node_rank == 0) memset(x->window.base, 0, x->data_off); /* every word at 0 */
    atomic_thread_fence(memory_order_seq_cst);
    rc = PMPI_Barrier(ctx->node); /* zeroed before anyone uses it */
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(ctx->node, keyval, x);
    if (rc != MPI_SUCCESS) {
        pc_node_window_free(&x->window);
        free(x);
        return rc;
    }
    *out = x;
    return MPI_SUCCESS;
}

size_t pc_node_xchg_bank_limit(void)
{
    size_t bank = pc_params()->exchange_area / PC_XCHG_BANKS;
    if (bank > PC_MAX_MSG) bank = PC_MAX_MSG;
    return bank > PC_LINE ? bank / PC_LINE * PC_LINE : PC_LINE;
}

/* The bank to make for a wish of `bank` when the area has banks of `have`
 * bytes (0: none yet): at least PAPCOLL_SHM_SIZE / 2 and at least twice
 * `have`, both within the limit, and never less than the wish.  Growing in
 * steps keeps the remakes (a window freed and allocated, blocking collectives
 * over the node: about 0.1-0.5 s each under MPICH 4.0 with 10 processes on 2
 * cores, whose blocking calls poll without yielding) to a few per
 * communicator, where growing to each wish remade it on every call of a
 * sequence of growing calls (MPICH's allgatherv3: count doubling 1 .. 8192). */
static size_t bank_to_make(size_t bank, size_t have)
{
    size_t limit = pc_node_xchg_bank_limit(), want = pc_params()->shm_size / PC_XCHG_BANKS;
    if (have > 0 && want < 2 * have) want = 2 * have;
    if (want > limit) want = limit;
    return want > bank ? want : bank;
}

int pc_node_xchg_get_bank(pc_comm_t *ctx, size_t bank, pc_node_xchg_t **x, pc_shm_t **shm)
{
    int rc = pc_shm_get(ctx, shm);
    if (rc != MPI_SUCCESS) return rc;
    void *value;
    int found;
    rc = pc_comm_cache_get(ctx->node, &keyval, delete_area, &value, &found);
    if (rc != MPI_SUCCESS) return rc;
    size_t have_bytes = 0;
    if (found) {
        pc_node_xchg_t *have = value;
        if (have->bank_bytes >= bank_size(bank)) {
            *x = have;
            return MPI_SUCCESS;
        }
        /* too small: every node process is in this call with the same wish and
         * the same area (the same calls made it) and is done with every earlier
         * use, so the area is freed (delete_area) and made again, its words and
         * use numbers starting over */
        have_bytes = have->bank_bytes;
        rc = PMPI_Comm_delete_attr(ctx->node, keyval);
        if (rc != MPI_SUCCESS) return rc;
    }
    return create(ctx, *shm, bank_to_make(bank, have_bytes), x);
}

int pc_node_xchg_get(pc_comm_t *ctx, pc_node_xchg_t **x, pc_shm_t **shm)
{
    return pc_node_xchg_get_bank(ctx, pc_params()->shm_size / PC_XCHG_BANKS, x, shm);
}

size_t pc_node_xchg_bank_bytes(const pc_node_xchg_t *x) { return x->bank_bytes; }

static _Atomic uint64_t *done_word(const pc_node_xchg_t *x, int bank)
{
    return (_Atomic uint64_t *)(x->window.base + (size_t)bank * PC_LINE);
}

_Atomic uint64_t *pc_node_xchg_ready(const pc_node_xchg_t *x, int j, int k)
{
    return (_Atomic uint64_t *)(x->window.base + x->ready_off + (size_t)j * x->ready_row) + k;
}

_Atomic uint64_t *pc_node_xchg_landed(const pc_node_xchg_t *x, uint64_t use, int k, int g)
{
    size_t row = (size_t)(use % PC_XCHG_BANKS) * (size_t)x->nnodes + (size_t)k;
    return (_Atomic uint64_t *)(x->window.base + x->landed_off + row * x->landed_row) + 2 * (size_t)g;
}

_Atomic uint64_t *pc_node_xchg_where(const pc_node_xchg_t *x, uint64_t use, int k, int g)
{
    return pc_node_xchg_landed(x, use, k, g) + 1;
}

char *pc_node_xchg_begin(pc_node_xchg_t *x, uint64_t *use)
{
    uint64_t u = x->uses++;
    int bank = (int)(u % PC_XCHG_BANKS);
    pc_wait_at_least(x->shm, done_word(x, bank), (u / PC_XCHG_BANKS) * (uint64_t)x->q);
    *use = u;
    return x->window.base + x->data_off + (size_t)bank * x->bank_bytes;
}

void pc_node_xchg_end(pc_node_xchg_t *x, uint64_t use)
{
    atomic_fetch_add_explicit(done_word(x, (int)(use % PC_XCHG_BANKS)), 1, memory_order_acq_rel);
    pc_shm_notify(x->shm);
}

void pc_node_xchg_mark(pc_node_xchg_t *x, _Atomic uint64_t *word, uint64_t use)
{
    atomic_store_explicit(word, use + 1, memory_order_release);
    pc_shm_notify(x->shm);
}
