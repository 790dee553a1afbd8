/*
 * collective.c - see collective.h.
 */
#include "collective.h"

#include <papcoll.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest per-element base value c(k, rep, root) of the reductions' inputs. */
#define BASE_MAX 997

static unsigned char expected_byte(size_t i, long rep, int root)
{
    return (unsigned char)(i * 131u + (unsigned)rep * 7u + (unsigned)root * 29u + 1u);
}

/* c(k, rep, root) in [1, BASE_MAX]. */
static long base_value(size_t k, long rep, int root)
{
    unsigned long h = (unsigned long)k * 131u + (unsigned long)(rep + 1000000) * 7u + (unsigned long)root * 29u;
    return 1 + (long)(h % BASE_MAX);
}

static long contribution(size_t k, long rep, int root, int rank) { return base_value(k, rep, root) + rank + 1; }

static long exact_sum(size_t k, long rep, int root, int p) { return (long)p * base_value(k, rep, root) + (long)p * (p + 1) / 2; }

/* --shared-buffer (SMPI): every simulated rank's buffer is the same memory (SMPI keeps one copy and skips the
 * data copies of messages between shared blocks), so that 16384 ranks x 1 MiB fit in memory. */
static void *buffer(size_t bytes, int shared)
{
#ifdef PAPCOLL_SMPI
    if (shared) return SMPI_SHARED_MALLOC(bytes);
#else
    (void)shared;
#endif
    return malloc(bytes);
}

static void release(void *p, int shared)
{
    if (!p) return;
#ifdef PAPCOLL_SMPI
    if (shared) {
        SMPI_SHARED_FREE(p);
        return;
    }
#else
    (void)shared;
#endif
    free(p);
}

int collective_init(collective_t *c, bench_coll_t coll, const char *dtype, size_t max_size, int shared, MPI_Comm comm,
                    char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->coll = coll;
    c->shared = shared;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->nprocs);
    if (coll == BENCH_BCAST) {
        if (dtype) {
            snprintf(err, errlen, "--dtype applies to reduce and allreduce (a broadcast moves bytes)");
            return -1;
        }
        c->elem = ELEM_BYTE, c->type = MPI_BYTE, c->elem_size = 1;
    } else if (!dtype || !strcmp(dtype, "int")) {
        c->elem = ELEM_INT, c->type = MPI_INT, c->elem_size = sizeof(int);
        if ((long)c->nprocs * BASE_MAX + (long)c->nprocs * (c->nprocs + 1) / 2 > INT_MAX) {
            snprintf(err, errlen, "MPI_INT sums of %d processes can overflow: use --dtype=double", c->nprocs);
            return -1;
        }
    } else if (!strcmp(dtype, "double")) {
        c->elem = ELEM_DOUBLE, c->type = MPI_DOUBLE, c->elem_size = sizeof(double);
    } else {
        snprintf(err, errlen, "bad --dtype '%s' (int or double)", dtype);
        return -1;
    }
    size_t bytes = max_size ? max_size : 1;
    c->recvbuf = buffer(bytes, shared);
    if (coll != BENCH_BCAST) c->sendbuf = buffer(bytes, shared);
    if (!c->recvbuf || (coll != BENCH_BCAST && !c->sendbuf)) {
        snprintf(err, errlen, "cannot allocate %zu-byte buffers", bytes);
        collective_free(c);
        return -2;
    }
    /* sane inputs even without -c (no denormals or NaN in double sums); a shared buffer's contents are meaningless */
    if (!shared) collective_fill(c, max_size, 0, 0);
    return 0;
}

void collective_free(collective_t *c)
{
    release(c->sendbuf, c->shared);
    release(c->recvbuf, c->shared);
    c->sendbuf = c->recvbuf = NULL;
}

int collective_count(const collective_t *c, size_t size) { return (int)(size / c->elem_size); }

const char *collective_describe(const collective_t *c)
{
    switch (c->elem) {
    case ELEM_INT: return "MPI_INT (4 bytes), op MPI_SUM, count = floor(size / 4) (sizes below 4 B: count 0)";
    case ELEM_DOUBLE: return "MPI_DOUBLE (8 bytes), op MPI_SUM, count = floor(size / 8) (sizes below 8 B: count 0)";
    default: return "MPI_BYTE, count = size";
    }
}

void *collective_scratch(const collective_t *c) { return c->recvbuf; }

static void put(const collective_t *c, void *buf, size_t k, long value)
{
    if (c->elem == ELEM_INT) ((int *)buf)[k] = (int)value;
    else ((double *)buf)[k] = (double)value;
}

static long get(const collective_t *c, const void *buf, size_t k)
{
    if (c->elem == ELEM_INT) return ((const int *)buf)[k];
    double v = ((const double *)buf)[k];
    return v == (double)(long)v ? (long)v : LONG_MIN; /* not an integer: never equal to an expected value */
}

void collective_fill(collective_t *c, size_t size, long rep, int root)
{
    if (c->coll == BENCH_BCAST) {
        unsigned char *buf = c->recvbuf;
        for (size_t i = 0; i < size; i++)
            buf[i] = c->rank == root ? expected_byte(i, rep, root) : (unsigned char)~expected_byte(i, rep, root);
        return;
    }
    size_t count = (size_t)collective_count(c, size);
    for (size_t k = 0; k < count; k++) {
        put(c, c->sendbuf, k, contribution(k, rep, root, c->rank));
        put(c, c->recvbuf, k, -1);
    }
}

int collective_run(const collective_t *c, const char *algo, size_t size, int root, MPI_Comm comm)
{
    int count = collective_count(c, size);
    switch (c->coll) {
    case BENCH_REDUCE: return papcoll_reduce_by_name(algo, c->sendbuf, c->recvbuf, count, c->type, MPI_SUM, root, comm);
    case BENCH_ALLREDUCE: return papcoll_allreduce_by_name(algo, c->sendbuf, c->recvbuf, count, c->type, MPI_SUM, comm);
    default: return papcoll_bcast_by_name(algo, c->recvbuf, count, MPI_BYTE, root, comm);
    }
}

long collective_errors(const collective_t *c, size_t size, long rep, int root)
{
    long bad = 0;
    if (c->coll == BENCH_BCAST) {
        const unsigned char *buf = c->recvbuf;
        for (size_t i = 0; i < size; i++) bad += buf[i] != expected_byte(i, rep, root);
        return bad;
    }
    size_t count = (size_t)collective_count(c, size);
    for (size_t k = 0; k < count; k++) bad += get(c, c->sendbuf, k) != contribution(k, rep, root, c->rank);
    if (c->coll == BENCH_ALLREDUCE || c->rank == root)
        for (size_t k = 0; k < count; k++) bad += get(c, c->recvbuf, k) != exact_sum(k, rep, root, c->nprocs);
    return bad;
}

void collective_corrupt(collective_t *c, size_t size, int root)
{
    size_t count = (size_t)collective_count(c, size);
    if (!count) return;
    switch (c->coll) {
    case BENCH_BCAST:
        if (c->rank == (root + 1) % c->nprocs && c->rank != root) ((unsigned char *)c->recvbuf)[size / 2] ^= 0x40;
        break;
    case BENCH_REDUCE:
        if (c->rank == root) put(c, c->recvbuf, count / 2, get(c, c->recvbuf, count / 2) + 1);
        break;
    case BENCH_ALLREDUCE:
        if (c->rank == (root + 1) % c->nprocs) put(c, c->recvbuf, count / 2, get(c, c->recvbuf, count / 2) + 1);
        break;
    }
}
