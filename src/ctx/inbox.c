/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * inbox.c - the node inbox (see inbox.h).
 */
#include "ctx/inbox.h"
#include "ctx/node_window.h"
#include "ctx/shm.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define PC_LINE 64
#define PC_INBOX_BANKS 2
#define PC_LOCAL_SHIFT 20 /* local arrivals: (use + 1) << 20 | count */
#define PC_LOCAL_MASK ((1u << PC_LOCAL_SHIFT) - 1)

typedef struct {
    _Atomic uint64_t v;
    char pad[PC_LINE - sizeof(uint64_t)];
} line_t;

struct pc_inbox {
    pc_node_window_t segment; /* the node segment (ctx/node_window.h), at its base in this process */
    MPI_Win rma_win;     /* the same segment exposed by every process to the whole communicator */
    pc_shm_t *shm;       /* the node's shared-memory layer: polling pauses */
    size_t bytes;
    int nslots;
    size_t slot_bytes;
    int usable;          /* MPI_WIN_UNIFIED (or unknown): loads see remote puts */
    uint64_t uses;       /* uses taken by this process (the same sequence on every process) */
    /* the last done words read at cached_target: lower bounds (done only grows) */
    int cached_target;
    uint64_t cached_done[PC_INBOX_BANKS];
};

/* ---- layout ----------------------------------------------------------------- */

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

static size_t done_off(int b) { return (size_t)b * PC_LINE; }
static size_t local_off(int b) { return (size_t)(PC_INBOX_BANKS + b) * PC_LINE; }
static size_t ready_off(const pc_inbox_t *x, int b, int j)
{
    return (size_t)(2 * PC_INBOX_BANKS + b * x->nslots + j) * PC_LINE;
}
static size_t claim_off(const pc_inbox_t *x, int b, int j)
{
    return (size_t)(2 * PC_INBOX_BANKS + (PC_INBOX_BANKS + b) * x->nslots + j) * PC_LINE;
}
static size_t control_bytes(int nslots) { return (size_t)(2 * PC_INBOX_BANKS + 2 * PC_INBOX_BANKS * nslots) * PC_LINE; }
static size_t data_off(const pc_inbox_t *x, int b, int j)
{
    return control_bytes(x->nslots) + ((size_t)b * (size_t)x->nslots + (size_t)j) * x->slot_bytes;
}

static _Atomic uint64_t *word(const pc_inbox_t *x, size_t off) { return &((line_t *)(x->segment.base + off))->v; }

static int bank_of(uint64_t u) { return (int)(u % PC_INBOX_BANKS); }
static uint64_t round_of(uint64_t u) { return u / PC_INBOX_BANKS; }

/* ---- creation and release ------------------------------------------------------ */

/* Children of the root of a binomial tree of n nodes: ceil(log2 n). */
static int max_children(int n)
{
    int s = 0;
    for (long w = 1; w < n; w *= 2) s++;
    return s;
}

static int memory_model_unified(MPI_Win win)
{
    int *model = NULL, flag = 0;
    if (PMPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag) != MPI_SUCCESS || !flag || !model) return 1;
    return *model != MPI_WIN_SEPARATE;
}

int pc_inbox_get(pc_comm_t *ctx, size_t slot_bytes, pc_inbox_t **out)
{
    if (ctx->inbox) {
        *out = ctx->inbox;
        return ctx->inbox->slot_bytes >= slot_bytes ? MPI_SUCCESS : MPI_ERR_INTERN;
    }
    pc_inbox_t *x = calloc(1, sizeof *x);
    if (!x) return MPI_ERR_NO_MEM;
    x->rma_win = MPI_WIN_NULL;
    x->cached_target = -1;
    x->nslots = max_children(ctx->nnodes);
    x->slot_bytes = round_up(slot_bytes ? slot_bytes : 1, PC_LINE);
    x->bytes = data_off(x, PC_INBOX_BANKS, 0);
    int rc = pc_shm_get(ctx, &x->shm);
    /* every process reaches both collectives, even after a local error.  The node's memory is an MPI
     * window here, not a POSIX object (node_window.h): Open MPI 4.1 names the shared segment of the
     * window below by the communicator's id, which two disjoint communicators on one host can share,
     * and with a POSIX object first, two such windows made at once collided (MPI_ERR_WIN, or EFAULT
     * in later one-sided calls) in 8 of 60 runs of test_reduce_matrix's dynleader_onesided replay
     * (PAPCOLL_PPN=2, 4 processes, the odd and even ranks' communicators), with the MPI window in 0 of 60 */
    int rc2 = pc_node_window_allocate_mpi(ctx->node, x->bytes, &x->segment);
    if (rc == MPI_SUCCESS) rc = rc2;
    if (rc == MPI_SUCCESS && ctx->node_rank == 0) memset(x->segment.base, 0, control_bytes(x->nslots)); /* every word at 0 */
    atomic_thread_fence(memory_order_seq_cst);
    /* zeroed before any remote write: the window creation below orders the rest.  Over the whole
     * communicator, not the node: no process starts the next creation while another still creates its
     * node's window (Open MPI 4.1 under MPI_THREAD_MULTIPLE, ctx/node_window.h) */
    rc2 = PMPI_Barrier(ctx->comm);
    if (rc == MPI_SUCCESS) rc = rc2;
    rc2 = PMPI_Win_create(rc == MPI_SUCCESS ? x->segment.base : NULL, rc == MPI_SUCCESS ? (MPI_Aint)x->bytes : 0, 1,
                          MPI_INFO_NULL, ctx->comm, &x->rma_win);
    if (rc == MPI_SUCCESS) rc = rc2;
    if (rc == MPI_SUCCESS) rc = PMPI_Win_lock_all(MPI_MODE_NOCHECK, x->rma_win);
    if (rc != MPI_SUCCESS) {
        if (x->rma_win != MPI_WIN_NULL) PMPI_Win_free(&x->rma_win);
        pc_node_window_free(&x->segment);
        free(x);
        return rc;
    }
    x->usable = memory_model_unified(x->rma_win);
    ctx->inbox = x;
    *out = x;
    return MPI_SUCCESS;
}

void pc_inbox_free(pc_inbox_t *x)
{
    if (!x) return;
    PMPI_Win_unlock_all(x->rma_win);
    PMPI_Win_free(&x->rma_win);
    pc_node_window_free(&x->segment);
    free(x);
}

int pc_inbox_usable(const pc_inbox_t *x) { return x->usable; }
int pc_inbox_nslots(const pc_inbox_t *x) { return x->nslots; }

uint64_t pc_inbox_take(pc_inbox_t *x, long n)
{
    uint64_t first = x->uses;
    x->uses += (uint64_t)n;
    return first;
}

/* ---- the receiving node ------------------------------------------------------------ */

int pc_inbox_count_local(pc_inbox_t *x, uint64_t u)
{
    _Atomic uint64_t *w = word(x, local_off(bank_of(u)));
    uint64_t stamp = (u + 1) << PC_LOCAL_SHIFT, v = atomic_load_explicit(w, memory_order_acquire), next;
    /* the first arrival of a use restarts the count (the bank's earlier use is
     * over for every node process: the caller holds the chunk's area bank) */
    do next = ((v & ~(uint64_t)PC_LOCAL_MASK) == stamp ? v : stamp) + 1;
    while (!atomic_compare_exchange_weak_explicit(w, &v, next, memory_order_acq_rel, memory_order_acquire));
    return (int)(next & PC_LOCAL_MASK);
}

int pc_inbox_ready(const pc_inbox_t *x, uint64_t u, int j)
{
    return atomic_load_explicit(word(x, ready_off(x, bank_of(u), j)), memory_order_acquire) == u + 1;
}

int pc_inbox_claimed(const pc_inbox_t *x, uint64_t u, int j)
{
    return atomic_load_explicit(word(x, claim_off(x, bank_of(u), j)), memory_order_acquire) == u + 1;
}

int pc_inbox_claim(pc_inbox_t *x, uint64_t u, int j)
{
    _Atomic uint64_t *w = word(x, claim_off(x, bank_of(u), j));
    uint64_t v = atomic_load_explicit(w, memory_order_acquire);
    while (v != u + 1)
        if (atomic_compare_exchange_weak_explicit(w, &v, u + 1, memory_order_acq_rel, memory_order_acquire)) return 1;
    return 0;
}

char *pc_inbox_slot(const pc_inbox_t *x, uint64_t u, int j) { return x->segment.base + data_off(x, bank_of(u), j); }

void pc_inbox_consumed(pc_inbox_t *x, uint64_t u)
{
    atomic_store_explicit(word(x, done_off(bank_of(u))), round_of(u) + 1, memory_order_release);
#ifndef PAPCOLL_SMPI /* SMPI 3.32 lacks MPI_Win_sync (one address space: nothing to sync) */
    PMPI_Win_sync(x->rma_win); /* the public copy, for remote readers (a fence under MPI_WIN_UNIFIED) */
#endif
}

/* ---- a writer on another node ----------------------------------------------------- */

void pc_inbox_pause(pc_inbox_t *x) { pc_poll_pause(x->shm); }

/* Reads target's done words into the cache (one Get, both banks). */
static int read_done(pc_inbox_t *x, int target)
{
    uint64_t lines[PC_INBOX_BANKS * PC_LINE / sizeof(uint64_t)];
    int rc = PMPI_Get(lines, (int)sizeof lines, MPI_BYTE, target, (MPI_Aint)done_off(0), (int)sizeof lines, MPI_BYTE,
                      x->rma_win);
    if (rc == MPI_SUCCESS) rc = PMPI_Win_flush(target, x->rma_win);
    if (rc != MPI_SUCCESS) return rc;
    x->cached_target = target;
    for (int b = 0; b < PC_INBOX_BANKS; b++) x->cached_done[b] = lines[done_off(b) / sizeof(uint64_t)];
    return MPI_SUCCESS;
}

int pc_inbox_wait_free(pc_inbox_t *x, int target, uint64_t u)
{
    int b = bank_of(u);
    uint64_t want = round_of(u);
    /* a cached value is a lower bound, and done[b] cannot pass `want` before
     * this use's data came: cached == want means free */
    if (x->cached_target == target && x->cached_done[b] == want) return MPI_SUCCESS;
    for (;;) {
        int rc = read_done(x, target);
        if (rc != MPI_SUCCESS) return rc;
        if (x->cached_done[b] == want) return MPI_SUCCESS;
        if (x->cached_done[b] > want) return MPI_ERR_INTERN; /* the uses of the communicator's processes disagree */
        pc_inbox_pause(x);
    }
}

int pc_inbox_put(pc_inbox_t *x, int target, uint64_t u, int j, const void *src, int count,
                      MPI_Datatype datatype, MPI_Aint shift)
{
    int b = bank_of(u);
    MPI_Aint at = (MPI_Aint)data_off(x, b, j);
    MPI_Datatype shifted = MPI_DATATYPE_NULL, target_type = datatype;
    int target_count = count, rc = MPI_SUCCESS;
    if (at + shift >= 0) {
        at += shift;
    } else { /* a target displacement is never negative: the shift goes into the type */
        rc = PMPI_Type_create_hindexed(1, &count, &shift, datatype, &shifted);
        if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&shifted);
        target_type = shifted;
        target_count = 1;
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Put(src, count, datatype, target, at, target_count, target_type, x->rma_win);
    if (rc == MPI_SUCCESS) rc = PMPI_Win_flush(target, x->rma_win); /* the data is in place before the stamp */
    if (shifted != MPI_DATATYPE_NULL) PMPI_Type_free(&shifted);
    uint64_t stamp = u + 1;
    uint64_t lines[PC_INBOX_BANKS * PC_LINE / sizeof(uint64_t)];
    if (rc == MPI_SUCCESS)
        rc = PMPI_Put(&stamp, 1, MPI_UINT64_T, target, (MPI_Aint)ready_off(x, b, j), 1, MPI_UINT64_T, x->rma_win);
    /* with the stamp's flush, the target's done words: usually spares the next use's wait_free a round trip */
    if (rc == MPI_SUCCESS)
        rc = PMPI_Get(lines, (int)sizeof lines, MPI_BYTE, target, (MPI_Aint)done_off(0), (int)sizeof lines, MPI_BYTE,
                      x->rma_win);
    if (rc == MPI_SUCCESS) rc = PMPI_Win_flush(target, x->rma_win);
    if (rc == MPI_SUCCESS) {
        x->cached_target = target;
        for (int k = 0; k < PC_INBOX_BANKS; k++) x->cached_done[k] = lines[done_off(k) / sizeof(uint64_t)];
    }
    return rc;
}
