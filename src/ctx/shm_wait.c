/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * shm_wait.c - waiting for the node segment (see shm.h): pc_wait() and its
 * variants, pc_shm_notify(), pc_poll_pause(), and the simulated cost of
 * copies (pc_shm_charge, pc_shm_copy).  The one place where native runs and
 * SimGrid SMPI differ in how a process waits or pays for memory traffic:
 * natively a spin with a pause that probes MPI progress and yields; under
 * SMPI the node's SimGrid condition and smpi_execute_flops.
 */
#include "ctx/shm_impl.h"
#include "core/phase.h"

#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#ifdef PAPCOLL_SMPI
#include <simgrid/cond.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>
#include <smpi/smpi.h>
#include <time.h>
#endif

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

void (*pc_wait_progress)(void);

void pc_wait(pc_shm_t *shm, int (*ready)(void *arg), void *arg)
{
    if (ready(arg)) return;
    double t0 = pc_phase_enabled ? pc_phase_now() : 0;
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
            if (pc_wait_progress) pc_wait_progress();
        }
    }
#endif
    if (pc_phase_enabled) pc_phase_add(PC_PHASE_SHM_WAIT, t0);
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

static void charge(const pc_shm_t *shm, size_t len)
{
#ifdef PAPCOLL_SMPI
    /* the memory-bandwidth model: len / membw seconds of this rank's core */
    if (len) smpi_execute_flops((double)len / shm->membw * sg_host_get_speed(sg_host_self()));
#else
    (void)shm;
    (void)len;
#endif
}

void pc_shm_charge(const pc_shm_t *shm, size_t len)
{
    double t0 = pc_phase_enabled ? pc_phase_now() : 0;
    charge(shm, len);
    if (pc_phase_enabled) pc_phase_add(PC_PHASE_SHM_COPY, t0);
}

void pc_shm_copy(void *dst, const void *src, size_t len, const pc_shm_t *shm)
{
    double t0 = pc_phase_enabled ? pc_phase_now() : 0;
    memcpy(dst, src, len);
    charge(shm, len);
    if (pc_phase_enabled) pc_phase_add(PC_PHASE_SHM_COPY, t0);
}
