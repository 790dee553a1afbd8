/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * request.c - active schedules and their generalized requests (see
 * request.h).
 */
#include <papcoll.h>

#include "nbc/request.h"
#include "core/log.h"
#include "core/params.h"
#include "core/progress.h"
#include "core/tags.h"
#include "ctx/comm.h"
#include "ctx/shm.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <time.h>

enum { PC_NBC_DONE = 1, PC_NBC_MPI_FREED = 2 };

typedef struct pc_nbc_req {
    pc_nbc_sched_t s;
    MPI_Comm comm;          /* papcoll's private communicator */
    int tag;
    int round;              /* next round to start */
    int op;                 /* its next local op (a test step not yet passed) */
    MPI_Request *reqs;      /* the posted round's messages */
    int nreqs;
    int rc;                 /* first error: the request's status */
    atomic_int flags;       /* PC_NBC_DONE | PC_NBC_MPI_FREED (whoever sets the second frees r) */
    int busy;               /* a thread is stepping it (under nbc_mutex) */
    MPI_Request greq;       /* the program's handle (SMPI: a receive, see handle_start) */
    int tag_done;           /* SMPI: the handle's tag */
    struct pc_nbc_counter *counter; /* its communicator's (NULL: a persistent request's run) */
    void (*done)(void *);   /* a persistent request's run: called at the end instead of freeing s */
    void *done_arg;
    struct pc_nbc_req *next;
} pc_nbc_req_t;

/* Per private communicator (an attribute of it): the next sequence number,
 * and the requests not yet ended (freeing the communicator waits for them). */
typedef struct pc_nbc_counter {
    unsigned long seq;
    int active;
} pc_nbc_counter_t;

/* The active list, the busy marks and the counters' active counts.  Never
 * held across an MPI call: MPICH holds its global lock while it calls
 * free_fn or an attribute's delete function, and a thread holding
 * nbc_mutex while waiting for that lock would deadlock with them. */
static pthread_mutex_t nbc_mutex = PTHREAD_MUTEX_INITIALIZER;
static int thread_running(void);
static pc_nbc_req_t *active;
static int nactive;

/* ---- sequence numbers per communicator (an attribute of the private one) ---- */

static int seq_keyval = MPI_KEYVAL_INVALID;

/* The communicator is being freed (with the program's, or at MPI_Finalize):
 * its requests that the program freed while active run to their end first
 * (every process frees it, so every process makes progress here). */
static int delete_seq(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    pc_nbc_counter_t *counter = value;
    /* The progress thread may be stepping one of them inside an MPI call
     * that waits for the lock this callback's caller holds: wait 2 s at
     * most then (the request is left behind, logged). */
    double t0 = PMPI_Wtime();
    for (;;) {
        pthread_mutex_lock(&nbc_mutex);
        int left = counter->active;
        pthread_mutex_unlock(&nbc_mutex);
        if (!left) break;
        if (thread_running() && PMPI_Wtime() - t0 > 2) {
            pc_log(PC_LOG_WARN, "a communicator is freed with %d freed nonblocking collective request(s) still active", left);
            return MPI_SUCCESS; /* the counter stays: the requests still point at it */
        }
        pc_nbc_progress();
        pc_nbc_idle();
    }
    free(counter);
    return MPI_SUCCESS;
}

void pc_nbc_comm_release(MPI_Comm priv)
{
    /* nothing active (always so once MPI_Finalize drained them): nothing to run */
    if (seq_keyval != MPI_KEYVAL_INVALID && priv != MPI_COMM_NULL && pc_nbc_active())
        PMPI_Comm_delete_attr(priv, seq_keyval);
}

int pc_nbc_next(MPI_Comm comm, MPI_Comm *priv, int *tag, unsigned long *seq)
{
    pc_comm_t *ctx;
    int rc = pc_comm_get(comm, &ctx);
    return rc == MPI_SUCCESS ? pc_nbc_next_of(ctx, priv, tag, seq) : rc;
}

int pc_nbc_next_of(pc_comm_t *ctx, MPI_Comm *priv, int *tag, unsigned long *seq)
{
    int found = 0;
    pc_nbc_counter_t *counter = NULL;
    int rc = pc_comm_cache_get(ctx->comm, &seq_keyval, delete_seq, &counter, &found);
    if (rc != MPI_SUCCESS) return rc;
    if (!found) {
        if (!(counter = calloc(1, sizeof *counter))) return MPI_ERR_NO_MEM;
        rc = PMPI_Comm_set_attr(ctx->comm, seq_keyval, counter);
        if (rc != MPI_SUCCESS) {
            free(counter);
            return rc;
        }
    }
    *seq = counter->seq++;
    *priv = ctx->comm;
    *tag = PC_TAG_NBC_FIRST + (int)(*seq % PC_TAG_NBC_WINDOW);
    return MPI_SUCCESS;
}

/* ---- the program's handle ---- */

#ifdef PAPCOLL_SMPI
/* SimGrid SMPI has no generalized requests: the handle is a zero-byte
 * receive from this process itself, on a duplicate of MPI_COMM_SELF with a
 * tag of its own, which the end of the schedule matches with a zero-byte
 * send (its status: MPI_SOURCE 0, the tag; a schedule's error is logged,
 * not in the status).  The program advances the schedule with
 * papcoll_nbc_progress (no interposer under SMPI) between MPI_Test calls. */
static MPI_Comm done_comm = MPI_COMM_NULL;
static int done_tag;

static int handle_start(pc_nbc_req_t *r)
{
    if (done_comm == MPI_COMM_NULL) {
        int rc = PMPI_Comm_dup(MPI_COMM_SELF, &done_comm);
        if (rc != MPI_SUCCESS) return rc;
    }
    r->tag_done = done_tag = done_tag % 32767 + 1; /* MPI_TAG_UB >= 32767 */
    return PMPI_Irecv(NULL, 0, MPI_BYTE, 0, r->tag_done, done_comm, &r->greq);
}

static void handle_complete(pc_nbc_req_t *r)
{
    if (r->rc != MPI_SUCCESS) pc_log(PC_LOG_WARN, "a nonblocking collective failed (error %d)", r->rc);
    PMPI_Send(NULL, 0, MPI_BYTE, 0, r->tag_done, done_comm);
    free(r);
}
#else
/* ---- the generalized request's callbacks ---- */

static int query_fn(void *extra, MPI_Status *status)
{
    pc_nbc_req_t *r = extra;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    status->MPI_ERROR = r->rc;
    return r->rc;
}

static int free_fn(void *extra)
{
    pc_nbc_req_t *r = extra;
    /* MPI_Request_free of an active request: finish() frees r when it ends */
    if (atomic_fetch_or(&r->flags, PC_NBC_MPI_FREED) & PC_NBC_DONE) free(r);
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra, (void)complete; /* a collective cannot be cancelled: nothing to do */
    return MPI_SUCCESS;
}

static int handle_start(pc_nbc_req_t *r) { return PMPI_Grequest_start(query_fn, free_fn, cancel_fn, r, &r->greq); }

/* Completes the generalized request; frees r when MPI is already done with it. */
static void handle_complete(pc_nbc_req_t *r)
{
    MPI_Request g = r->greq;
    int freed_before = atomic_fetch_or(&r->flags, PC_NBC_DONE) & PC_NBC_MPI_FREED;
    PMPI_Grequest_complete(g); /* may run free_fn, which then frees r */
    if (freed_before) free(r);
}
#endif

/* ---- running ---- */

/* Advances r without waiting: 1 when its schedule has ended (or failed). */
static int step(pc_nbc_req_t *r)
{
    for (;;) {
        if (r->nreqs > 0) {
            int flag = 0;
            int rc = PMPI_Testall(r->nreqs, r->reqs, &flag, MPI_STATUSES_IGNORE);
            if (rc != MPI_SUCCESS) {
                r->rc = rc;
                return 1;
            }
            if (!flag) return 0;
            r->nreqs = 0;
        }
        if (r->round == r->s.nrounds) return 1;
        int rc = pc_nbc_run_from(&r->s, r->round, &r->op), stop = rc == PC_NBC_STOP, skip = rc == PC_NBC_SKIP;
        if (rc == PC_NBC_NOT_YET) return 0; /* a test step: polled again at the next progress */
        if (stop || skip) rc = MPI_SUCCESS;
        if (rc == MPI_SUCCESS && !skip) rc = pc_nbc_post(&r->s, r->round, r->comm, r->tag, r->reqs, &r->nreqs);
        r->round = stop ? r->s.nrounds : r->round + 1;
        if (rc != MPI_SUCCESS) {
            r->rc = rc;
            /* what was posted must end before its buffers go */
            if (r->nreqs) PMPI_Waitall(r->nreqs, r->reqs, MPI_STATUSES_IGNORE);
            r->nreqs = 0;
            return 1;
        }
    }
}

/* Called with r off the active list: frees the schedule, completes the
 * generalized request, frees r when MPI is already done with it. */
static void finish(pc_nbc_req_t *r)
{
    if (r->done) r->done(r->done_arg);
    else pc_nbc_sched_free(&r->s);
    free(r->reqs);
    r->reqs = NULL;
    pthread_mutex_lock(&nbc_mutex);
    if (r->counter) r->counter->active--;
    pthread_mutex_unlock(&nbc_mutex);
    handle_complete(r);
}

/* Each request is stepped by one thread at a time (busy), without nbc_mutex:
 * a request is removed from the list only by the thread that has it. */
void pc_nbc_progress(void)
{
    pc_nbc_req_t *ended = NULL;
    pthread_mutex_lock(&nbc_mutex);
    pc_nbc_req_t *r = active;
    while (r) {
        if (r->busy) {
            r = r->next;
            continue;
        }
        r->busy = 1;
        pthread_mutex_unlock(&nbc_mutex);
        int over = step(r);
        pthread_mutex_lock(&nbc_mutex);
        r->busy = 0;
        pc_nbc_req_t *next = r->next;
        if (over) {
            pc_nbc_req_t **p = &active;
            while (*p != r) p = &(*p)->next;
            *p = r->next;
            nactive--;
            r->next = ended;
            ended = r;
        }
        r = next;
    }
    pthread_mutex_unlock(&nbc_mutex);
    while (ended) {
        pc_nbc_req_t *r = ended;
        ended = r->next;
        finish(r);
    }
}

int pc_nbc_active(void)
{
    pthread_mutex_lock(&nbc_mutex);
    int n = nactive;
    pthread_mutex_unlock(&nbc_mutex);
    return n;
}

void pc_nbc_idle(void)
{
    if (pc_oversubscribed()) sched_yield();
}

void pc_nbc_drain(void)
{
    while (pc_nbc_active()) {
        pc_nbc_progress();
        pc_nbc_idle();
    }
}

/* ---- the optional progress thread (PAPCOLL_NBC_PROGRESS_THREAD=1) ---- */

static pthread_t progress_thread;
static int thread_state; /* 0 not started, 1 running, 2 refused or stopped */
static atomic_int thread_up;
static volatile int thread_stop;

static void *progress_loop(void *arg)
{
    (void)arg;
    while (!thread_stop) {
        int busy = pc_nbc_active();
        if (busy) pc_nbc_progress();
        struct timespec ts = {0, busy ? 20000 : 1000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static pthread_mutex_t setup_mutex = PTHREAD_MUTEX_INITIALIZER; /* thread start, finalize keyval */

static int thread_running(void) { return atomic_load(&thread_up); }

/* At each start: the thread, once, when asked for. */
static void start_thread(void)
{
    if (!pc_params()->nbc.progress_thread) return;
    pthread_mutex_lock(&setup_mutex);
    if (!thread_state) {
        int level = MPI_THREAD_SINGLE;
#ifndef PAPCOLL_SMPI
        PMPI_Query_thread(&level);
#endif
        if (level != MPI_THREAD_MULTIPLE) {
            pc_log(PC_LOG_WARN, "PAPCOLL_NBC_PROGRESS_THREAD=1 needs MPI_THREAD_MULTIPLE: no progress thread");
            thread_state = 2;
        } else {
            thread_state = pthread_create(&progress_thread, NULL, progress_loop, NULL) == 0 ? 1 : 2;
            atomic_store(&thread_up, thread_state == 1);
        }
    }
    pthread_mutex_unlock(&setup_mutex);
}

/* MPI_Finalize: the thread leaves at its next poll (it is only ever inside
 * MPI while a schedule is active; drained before). */
static void stop_thread(void)
{
    pthread_mutex_lock(&setup_mutex);
    int running = thread_state == 1;
    thread_state = 2;
    pthread_mutex_unlock(&setup_mutex);
    if (!running) return;
    thread_stop = 1;
    pthread_join(progress_thread, NULL);
    atomic_store(&thread_up, 0);
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first, the latest set
 * first (MPI 4.0 §11.2.4), so this runs before papcoll's contexts go
 * (ctx/comm.c sets its attribute when the first context is built): the
 * requests the program freed while active run to their end. */
static int drain_at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value, (void)extra;
    pc_nbc_drain();
    stop_thread();
    return MPI_SUCCESS;
}

static void watch_finalize(void)
{
    static int keyval = MPI_KEYVAL_INVALID;
    pthread_mutex_lock(&setup_mutex);
    if (keyval == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, drain_at_finalize, &keyval, NULL) == MPI_SUCCESS)
        PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
    pthread_mutex_unlock(&setup_mutex);
}

int pc_nbc_start(pc_nbc_sched_t *s, MPI_Comm priv, int tag, MPI_Request *request)
{
    return pc_nbc_start_run(s, priv, tag, NULL, NULL, request);
}

int pc_nbc_start_run(pc_nbc_sched_t *s, MPI_Comm priv, int tag, void (*done)(void *), void *done_arg,
                     MPI_Request *request)
{
    watch_finalize();
    int rc = s->rc;
    pc_nbc_req_t *r = NULL;
    if (rc == MPI_SUCCESS) {
        if (!done) pc_nbc_round(s); /* close the last round (a persistent one's is closed at init) */
        r = calloc(1, sizeof *r);
        if (r) r->reqs = malloc((size_t)(s->max_comm ? s->max_comm : 1) * sizeof *r->reqs);
        rc = s->rc != MPI_SUCCESS ? s->rc : (!r || !r->reqs) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS) rc = handle_start(r);
    if (rc != MPI_SUCCESS) {
        if (!done) pc_nbc_sched_free(s);
        if (r) free(r->reqs);
        free(r);
        return rc;
    }
    int found = 0;
    if (!done) PMPI_Comm_get_attr(priv, seq_keyval, &r->counter, &found); /* set by pc_nbc_next */
    r->done = done;
    r->done_arg = done_arg;
    r->s = *s;
    r->comm = priv;
    r->tag = tag;
    r->rc = MPI_SUCCESS;
    *request = r->greq;
    start_thread();
    pc_wait_progress = pc_nbc_progress; /* blocking node waits advance the schedules too */
    pthread_mutex_lock(&nbc_mutex);
    if (r->counter) r->counter->active++;
    pthread_mutex_unlock(&nbc_mutex);
    int ended = step(r); /* the first round now (r is not listed yet: no other thread sees it) */
    if (ended) {
        finish(r);
        return MPI_SUCCESS;
    }
    pthread_mutex_lock(&nbc_mutex);
    r->next = active;
    active = r;
    nactive++;
    pthread_mutex_unlock(&nbc_mutex);
    return MPI_SUCCESS;
}

void papcoll_nbc_progress(void) { pc_nbc_progress(); }
