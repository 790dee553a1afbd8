/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nonblocking.c - see nonblocking.h.
 */
#include "nonblocking.h"

#include <papcoll.h>

#include <string.h>

static int start_ibarrier(const collective_t *c, const char *algo, int root, MPI_Comm comm, MPI_Request *req)
{
    (void)c, (void)root;
    return papcoll_ibarrier_by_name(algo, comm, req);
}

static int start_ibcast(const collective_t *c, const char *algo, int root, MPI_Comm comm, MPI_Request *req)
{
    return papcoll_ibcast_by_name(algo, c->recvbuf, c->count, MPI_BYTE, root, comm, req);
}

static int start_ireduce(const collective_t *c, const char *algo, int root, MPI_Comm comm, MPI_Request *req)
{
    return papcoll_ireduce_by_name(algo, c->sendbuf, c->recvbuf, c->count, c->type, MPI_SUM, root, comm, req);
}

static int start_iallreduce(const collective_t *c, const char *algo, int root, MPI_Comm comm, MPI_Request *req)
{
    (void)root;
    return papcoll_iallreduce_by_name(algo, c->sendbuf, c->recvbuf, c->count, c->type, MPI_SUM, comm, req);
}

static const bench_nbc_t forms[] = {
    {"ibarrier", BENCH_BARRIER, start_ibarrier},
    {"ibcast", BENCH_BCAST, start_ibcast},
    {"ireduce", BENCH_REDUCE, start_ireduce},
    {"iallreduce", BENCH_ALLREDUCE, start_iallreduce},
};
#define NFORMS (int)(sizeof forms / sizeof forms[0])

const bench_nbc_t *bench_nbc_find(const char *name)
{
    for (int i = 0; i < NFORMS; i++)
        if (!strcmp(forms[i].name, name)) return &forms[i];
    return NULL;
}

const bench_nbc_t *bench_nbc_at(int i) { return i >= 0 && i < NFORMS ? &forms[i] : NULL; }

int bench_nbc_test(MPI_Request *req, int *done)
{
    /* SimGrid 3.32's MPI_Test leaves *flag unset for MPI_REQUEST_NULL with
     * MPI_STATUS_IGNORE: a completed request is answered here */
    if (*req == MPI_REQUEST_NULL) return *done = 1, MPI_SUCCESS;
    int rc = MPI_Test(req, done, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && !*done) papcoll_nbc_progress();
    return rc;
}

int bench_nbc_wait(MPI_Request *req)
{
    for (;;) {
        int done = 0, rc = bench_nbc_test(req, &done);
        if (rc != MPI_SUCCESS || done) return rc;
    }
}
