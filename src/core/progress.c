/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * progress.c - waiting for MPI requests without starving an oversubscribed
 * node (see progress.h).
 */
#include "core/progress.h"
#include "core/log.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

static _Atomic int node_procs; /* the most processes of one communicator seen on this node */
static _Atomic int verdict = -1; /* -1: not decided yet */

/* The job's processes on this node according to the launcher, 0 if unknown. */
static int launcher_local_size(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        int n = v ? atoi(v) : 0;
        if (n > 0) return n;
    }
    return 0;
}

static int decide(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int local = launcher_local_size(), seen = atomic_load(&node_procs);
    if (seen > local) local = seen;
    int over = cpus > 0 && local > cpus;
    if (over)
        pc_log(PC_LOG_DEBUG, "%d processes on this node, %ld CPUs online: waits on MPI requests yield", local, cpus);
    return over;
}

int pc_oversubscribed(void)
{
#ifdef PAPCOLL_SMPI
    return 0; /* SMPI schedules the ranks itself; blocking calls keep their simulated costs */
#endif
    int v = atomic_load_explicit(&verdict, memory_order_relaxed);
    if (v < 0) { /* racing threads decide the same */
        v = decide();
        atomic_store_explicit(&verdict, v, memory_order_relaxed);
    }
    return v;
}

void pc_progress_note_node(int n)
{
    int seen = atomic_load(&node_procs);
    while (n > seen && !atomic_compare_exchange_weak(&node_procs, &seen, n)) {
    }
    if (n > seen) atomic_store(&verdict, -1); /* decide again with it */
}

int pc_waitall(int n, MPI_Request *req, MPI_Status *statuses)
{
#ifndef PAPCOLL_SMPI
    if (pc_oversubscribed()) {
        int done = 0, rc;
        while ((rc = PMPI_Testall(n, req, &done, statuses)) == MPI_SUCCESS && !done) sched_yield();
        return rc;
    }
#endif
    return PMPI_Waitall(n, req, statuses);
}

int pc_wait_request(MPI_Request *req, MPI_Status *status)
{
#ifndef PAPCOLL_SMPI
    if (pc_oversubscribed()) {
        int done = 0, rc;
        while ((rc = PMPI_Test(req, &done, status)) == MPI_SUCCESS && !done) sched_yield();
        return rc;
    }
#endif
    return PMPI_Wait(req, status);
}

int pc_waitany(int n, MPI_Request *req, int *index, MPI_Status *status)
{
#ifndef PAPCOLL_SMPI
    if (pc_oversubscribed()) {
        int done = 0, rc;
        while ((rc = PMPI_Testany(n, req, index, &done, status)) == MPI_SUCCESS && !done) sched_yield();
        return rc;
    }
#endif
    return PMPI_Waitany(n, req, index, status);
}
