/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * alltoall/common/aware_wake.c - waking aware's sleepers under SMPI (see
 * aware_wake.h).
 */
#include "alltoall/common/aware_wake.h"
#include "core/progress.h"
#include "ctx/node_window.h"

#include <stddef.h>

#ifdef PAPCOLL_SMPI


#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#define PC_LINE 64

struct pc_aware_wake {
    pc_node_window_t window;    /* the wake-up lines (ctx/node_window.h) */
    MPI_Comm comm;              /* a duplicate of the node communicator: wake messages only */
    _Atomic uint64_t **asleep;  /* [q]: node rank j's word (1: asleep, waiting for a message) */
    int q, me;
    MPI_Request req;            /* my posted wake receive, or MPI_REQUEST_NULL */
    char sink;                  /* its (zero-byte) buffer */
};

static int keyval = MPI_KEYVAL_INVALID;

/* Freed with the node communicator, by every node process in the same order. */
static int delete_wake(MPI_Comm comm, int kv, void *value, void *extra)
{
    (void)comm; (void)kv; (void)extra;
    pc_aware_wake_t *w = value;
    if (w->req != MPI_REQUEST_NULL) {
        PMPI_Cancel(&w->req);
        pc_wait_request(&w->req, MPI_STATUS_IGNORE);
    }
    pc_node_window_free(&w->window);
    PMPI_Comm_free(&w->comm);
    free(w->asleep);
    free(w);
    return MPI_SUCCESS;
}

static int create(pc_comm_t *ctx, pc_aware_wake_t **out)
{
    pc_aware_wake_t *w = calloc(1, sizeof *w);
    if (w) w->asleep = calloc((size_t)ctx->node_size, sizeof *w->asleep);
    if (!w || !w->asleep) {
        if (w) free(w);
        return MPI_ERR_NO_MEM;
    }
    w->q = ctx->node_size;
    w->me = ctx->node_rank;
    w->req = MPI_REQUEST_NULL;
    /* one line per process in one node block: SMPI 3.32's MPI_Win_shared_query
     * gives every rank the same base, so per-process shares would alias */
    int rc = pc_node_window_allocate(ctx->node, (size_t)w->q * PC_LINE, &w->window);
    if (rc != MPI_SUCCESS) {
        free(w->asleep);
        free(w);
        return rc;
    }
    for (int j = 0; j < w->q; j++) w->asleep[j] = (_Atomic uint64_t *)(w->window.base + (size_t)j * PC_LINE);
    atomic_store(w->asleep[w->me], 0);
    rc = PMPI_Comm_dup(ctx->node, &w->comm); /* (collective: also orders the zeroing) */
    if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(ctx->node, keyval, w);
    if (rc != MPI_SUCCESS) {
        pc_node_window_free(&w->window);
        free(w->asleep);
        free(w);
        return rc;
    }
    *out = w;
    return MPI_SUCCESS;
}

int pc_aware_wake_get(pc_comm_t *ctx, pc_aware_wake_t **out)
{
    void *value;
    int found;
    int rc = pc_comm_cache_get(ctx->node, &keyval, delete_wake, &value, &found);
    if (rc != MPI_SUCCESS) return rc;
    if (found) {
        *out = value;
        return MPI_SUCCESS;
    }
    return create(ctx, out);
}

/* Takes j's announced sleep: 1 -> 0; whoever takes it owes (or is owed) the message. */
static int take(_Atomic uint64_t *word)
{
    uint64_t one = 1;
    return atomic_compare_exchange_strong(word, &one, 0);
}

int pc_aware_wake_all(pc_aware_wake_t *w)
{
    int rc = MPI_SUCCESS;
    for (int j = 0; j < w->q && rc == MPI_SUCCESS; j++)
        if (j != w->me && atomic_load(w->asleep[j]) == 1 && take(w->asleep[j]))
            rc = PMPI_Send(NULL, 0, MPI_BYTE, j, 0, w->comm); /* (SMPI: detached, the waker does not wait) */
    return rc;
}

int pc_aware_wake_sleep(pc_aware_wake_t *w, int n, MPI_Request *req, int (*news)(void *arg), void *arg, int *index)
{
    *index = MPI_UNDEFINED;
    int rc = w->req == MPI_REQUEST_NULL ? PMPI_Irecv(&w->sink, 0, MPI_BYTE, MPI_ANY_SOURCE, 0, w->comm, &w->req)
                                        : MPI_SUCCESS;
    if (rc != MPI_SUCCESS) return rc;
    atomic_store(w->asleep[w->me], 1);
    if (news(arg)) { /* came while announcing: if a waker took the word, its message is a later spurious wake */
        take(w->asleep[w->me]);
        return MPI_SUCCESS;
    }
    int i;
    req[n] = w->req;
    rc = PMPI_Waitany(n + 1, req, &i, MPI_STATUS_IGNORE);
    w->req = req[n]; /* MPI_REQUEST_NULL when the wake came: posted again next time */
    req[n] = MPI_REQUEST_NULL;
    take(w->asleep[w->me]); /* woken by a request: a waker that took the word first sends a spurious wake */
    if (rc == MPI_SUCCESS && i != n) *index = i;
    return rc;
}

#else /* natively aware polls (pc_poll_pause): nothing to create */

int pc_aware_wake_get(pc_comm_t *ctx, pc_aware_wake_t **out)
{
    (void)ctx;
    *out = NULL;
    return MPI_SUCCESS;
}

int pc_aware_wake_all(pc_aware_wake_t *w)
{
    (void)w;
    return MPI_SUCCESS;
}

int pc_aware_wake_sleep(pc_aware_wake_t *w, int n, MPI_Request *req, int (*news)(void *arg), void *arg, int *index)
{
    (void)w; (void)n; (void)req; (void)news; (void)arg;
    *index = MPI_UNDEFINED;
    return MPI_ERR_INTERN; /* never called: pc_aware_wake_get gives NULL */
}

#endif
