/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent.c - papcoll's persistent collective requests (persistent.h):
 * their communicator and tags, the table from the program's handle to the
 * request, MPI_Start and MPI_Request_free of one.  The swap inside the
 * completion calls is persistent_swap.c; the API papcoll_<coll>_init is
 * persistent_front.c.
 */
#include "nbc/persistent.h"
#include "nbc/persistent_impl.h"
#include "nbc/request.h"
#include "core/args.h"
#include "core/log.h"
#include "ctx/comm.h"

#include <stdlib.h>
#include <string.h>

/* ---- the persistent communicator of a context (an attribute of its private one) ---- */

/* A request's tag: its number on the communicator modulo this (MPI
 * guarantees tags up to 32767), so 32768 requests alive on one
 * communicator are told apart. */
enum { PERSIST_TAG_WINDOW = 32768 };

typedef struct pc_persist_comm {
    MPI_Comm comm;         /* a duplicate of papcoll's private communicator */
    unsigned long seq;     /* persistent requests made on it */
    int refs;              /* requests alive on it */
    int orphan;            /* the program's communicator is gone: the last request frees it */
} pc_persist_comm_t;

static int pcomm_keyval = MPI_KEYVAL_INVALID;

/* The program's communicator is freed (or MPI_Finalize): the persistent
 * communicator goes with it, or with its last request (MPI lets a program
 * free a communicator before the persistent requests made on it). */
static int delete_pcomm(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    pc_persist_comm_t *pc = value;
    pthread_mutex_lock(&pc_persist_mutex);
    int refs = pc->refs;
    pc->orphan = 1;
    pthread_mutex_unlock(&pc_persist_mutex);
    if (!refs) {
        PMPI_Comm_free(&pc->comm);
        free(pc);
    }
    return MPI_SUCCESS;
}

static void pcomm_release(pc_persist_comm_t *pc)
{
    pthread_mutex_lock(&pc_persist_mutex);
    int last = --pc->refs == 0 && pc->orphan;
    pthread_mutex_unlock(&pc_persist_mutex);
    if (last) {
        PMPI_Comm_free(&pc->comm);
        free(pc);
    }
}

/* The request being made on comm: its persistent communicator (pc_persist_create takes it from here). */
static __thread pc_persist_comm_t *making_on;

int pc_persist_next(MPI_Comm comm, MPI_Comm *pcomm, int *tag, unsigned long *seq)
{
    pc_comm_t *ctx;
    pc_persist_comm_t *pc = NULL;
    int found = 0, rc = pc_comm_get(comm, &ctx);
    if (rc == MPI_SUCCESS) rc = pc_comm_cache_get(ctx->comm, &pcomm_keyval, delete_pcomm, &pc, &found);
    if (rc != MPI_SUCCESS) return rc;
    if (!found) { /* collective: every process makes its first persistent request on comm in this call */
        if (!(pc = calloc(1, sizeof *pc))) return MPI_ERR_NO_MEM;
        rc = PMPI_Comm_dup(ctx->comm, &pc->comm);
        if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(ctx->comm, pcomm_keyval, pc);
        if (rc != MPI_SUCCESS) {
            if (pc->comm != MPI_COMM_NULL) PMPI_Comm_free(&pc->comm);
            free(pc);
            return rc;
        }
    }
    *seq = pc->seq++;
    *pcomm = pc->comm;
    *tag = (int)(*seq % PERSIST_TAG_WINDOW);
    making_on = pc;
    return MPI_SUCCESS;
}

/* ---- the table: the program's handle -> the request ---- */

pthread_mutex_t pc_persist_mutex = PTHREAD_MUTEX_INITIALIZER;
static pc_persist_t **table;
static int ntable, table_cap;
static _Atomic int alive;

int pc_persist_any(void) { return alive > 0; }

static int same_handle(MPI_Request a, MPI_Request b) { return memcmp(&a, &b, sizeof a) == 0; }

pc_persist_t *pc_persist_find(MPI_Request handle)
{
    if (handle == MPI_REQUEST_NULL) return NULL;
    pthread_mutex_lock(&pc_persist_mutex);
    pc_persist_t *found = NULL;
    for (int i = 0; i < ntable && !found; i++)
        if (same_handle(table[i]->handle, handle)) found = table[i];
    pthread_mutex_unlock(&pc_persist_mutex);
    return found;
}

static int table_add(pc_persist_t *p)
{
    pthread_mutex_lock(&pc_persist_mutex);
    int ok = ntable < table_cap;
    if (!ok) {
        int cap = table_cap ? 2 * table_cap : 16;
        pc_persist_t **t = realloc(table, (size_t)cap * sizeof *t);
        if ((ok = t != NULL)) table = t, table_cap = cap;
    }
    if (ok) table[ntable++] = p, alive++;
    pthread_mutex_unlock(&pc_persist_mutex);
    return ok ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static void table_remove(pc_persist_t *p)
{
    pthread_mutex_lock(&pc_persist_mutex);
    for (int i = 0; i < ntable; i++)
        if (table[i] == p) {
            table[i] = table[--ntable];
            alive--;
            break;
        }
    pthread_mutex_unlock(&pc_persist_mutex);
}

/* ---- making, starting, freeing ---- */

static void destroy(pc_persist_t *p)
{
    pc_nbc_sched_free(&p->sched);
    pcomm_release(p->pcomm);
    free(p);
}

int pc_persist_create(pc_nbc_sched_t *s, MPI_Comm pcomm, int tag, MPI_Request *request)
{
    pc_persist_comm_t *pc = making_on;
    making_on = NULL;
    pc_nbc_round(s); /* close the last round: every run starts from a closed schedule */
    pc_persist_t *p = s->rc == MPI_SUCCESS ? calloc(1, sizeof *p) : NULL;
    int rc = s->rc != MPI_SUCCESS ? s->rc : p ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    /* never started, so it never matches; not from MPI_PROC_NULL: MPICH
     * 4.0.2 frees such a request wrongly (a persistent collective made after
     * the free hangs) */
    if (rc == MPI_SUCCESS) rc = PMPI_Recv_init(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_SELF, &p->handle);
    if (rc == MPI_SUCCESS && (rc = table_add(p)) != MPI_SUCCESS) PMPI_Request_free(&p->handle);
    if (rc != MPI_SUCCESS) {
        pc_nbc_sched_free(s);
        free(p);
        return rc;
    }
    p->sched = *s;
    p->comm = pcomm;
    p->tag = tag;
    p->run = MPI_REQUEST_NULL;
    p->coll = pc_persist_maker ? pc_persist_maker->coll : "?";
    pthread_mutex_lock(&pc_persist_mutex);
    p->pcomm = pc;
    pc->refs++;
    pthread_mutex_unlock(&pc_persist_mutex);
    pc_log(PC_LOG_DEBUG, "%s_init: persistent request tag=%d, %d round(s) built once", p->coll, tag, s->nrounds);
    *request = p->handle;
    return MPI_SUCCESS;
}

/* A run has ended (pc_nbc_start_run's done): the schedule is free again;
 * a request freed meanwhile goes now. */
static void run_done(void *arg)
{
    pc_persist_t *p = arg;
    pthread_mutex_lock(&pc_persist_mutex);
    p->running = 0;
    int freed = p->freed;
    pthread_mutex_unlock(&pc_persist_mutex);
    if (freed) destroy(p);
}

int pc_persist_start(MPI_Request *request, int *rc)
{
    pc_persist_t *p = pc_persist_find(*request);
    if (!p) return 0;
    if (p->run != MPI_REQUEST_NULL) { /* MPI: starting an active request is erroneous */
        pc_log(PC_LOG_WARN, "MPI_Start of an active persistent %s request", p->coll);
        *rc = pc_error(p->comm, MPI_ERR_REQUEST); /* the communicator's handler, as of its first papcoll use */
        return 1;
    }
    pthread_mutex_lock(&pc_persist_mutex);
    p->running = 1;
    pthread_mutex_unlock(&pc_persist_mutex);
    *rc = pc_nbc_start_run(&p->sched, p->comm, p->tag, run_done, p, &p->run);
    if (*rc != MPI_SUCCESS) {
        p->running = 0;
        p->run = MPI_REQUEST_NULL;
        *rc = pc_error(p->comm, *rc);
    }
    return 1;
}

int pc_persist_free(MPI_Request *request, int *rc)
{
    pc_persist_t *p = pc_persist_find(*request);
    if (!p) return 0;
    table_remove(p);
    *rc = PMPI_Request_free(&p->handle);
    *request = MPI_REQUEST_NULL;
    /* Active (MPI calls that erroneous; papcoll tolerates it as for its
     * nonblocking requests): the run goes on at later progress calls, and
     * its end frees the request. */
    if (p->run != MPI_REQUEST_NULL) PMPI_Request_free(&p->run);
    pthread_mutex_lock(&pc_persist_mutex);
    p->freed = 1;
    int running = p->running;
    pthread_mutex_unlock(&pc_persist_mutex);
    if (!running) destroy(p);
    return 1;
}
