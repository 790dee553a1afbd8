/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collective.c - see collective.h.
 */
#include "collective.h"
#include "blocks.h"

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

/* The element type of --dtype; -1 with a message for a type that does not fit the collective. */
static int choose_type(collective_t *c, const char *dtype, char *err, size_t errlen)
{
    if (c->coll == BENCH_BCAST) {
        if (dtype) {
            snprintf(err, errlen, "--dtype does not apply to bcast (a broadcast moves bytes)");
            return -1;
        }
        c->elem = ELEM_BYTE, c->type = MPI_BYTE, c->elem_size = 1;
    } else if (!dtype || !strcmp(dtype, "int")) {
        c->elem = ELEM_INT, c->type = MPI_INT, c->elem_size = sizeof(int);
        if (bench_coll_reduces(c->coll) &&
            (long)c->nprocs * BASE_MAX + (long)c->nprocs * (c->nprocs + 1) / 2 > INT_MAX) {
            snprintf(err, errlen, "MPI_INT sums of %d processes can overflow: use --dtype=double", c->nprocs);
            return -1;
        }
    } else if (!strcmp(dtype, "double")) {
        c->elem = ELEM_DOUBLE, c->type = MPI_DOUBLE, c->elem_size = sizeof(double);
    } else if (!strcmp(dtype, "char") && bench_coll_gathers(c->coll)) {
        c->elem = ELEM_CHAR, c->type = MPI_CHAR, c->elem_size = 1;
    } else {
        snprintf(err, errlen, "bad --dtype '%s' (int or double; char for the block collectives)", dtype);
        return -1;
    }
    return 0;
}

static const char *type_text(const collective_t *c)
{
    switch (c->elem) {
    case ELEM_INT: return "MPI_INT (4 bytes)";
    case ELEM_DOUBLE: return "MPI_DOUBLE (8 bytes)";
    case ELEM_CHAR: return "MPI_CHAR (1 byte)";
    default: return "MPI_BYTE";
    }
}

static void describe(collective_t *c)
{
    size_t n = c->elem_size;
    const char *type = type_text(c);
    char *d = c->description;
    size_t len = sizeof c->description;
    const char *unequal = "floor(size (1 + r mod 3) / 2 / %zu) elements (size/2, size, 3 size/2)";
    char v[128];
    snprintf(v, sizeof v, unequal, n);
    switch (c->coll) {
    case BENCH_BCAST: snprintf(d, len, "MPI_BYTE, count = size"); break;
    case BENCH_BARRIER: snprintf(d, len, "MPI_Barrier: no data (the message sizes are ignored: one row, size 0)"); break;
    case BENCH_REDUCE:
    case BENCH_ALLREDUCE:
    case BENCH_SCAN:
    case BENCH_EXSCAN:
        snprintf(d, len, "%s, op MPI_SUM, count = floor(size / %zu) (sizes below %zu B: count 0)", type, n, n);
        break;
    case BENCH_REDUCE_SCATTER_BLOCK:
        snprintf(d, len, "%s, op MPI_SUM; size = the bytes of EACH result block: recvcount = floor(size / %zu), every "
                 "process contributes p x that", type, n);
        break;
    case BENCH_REDUCE_SCATTER:
        snprintf(d, len, "%s, op MPI_SUM (MPI_Reduce_scatter); size = the base bytes of a result block: rank r's "
                 "recvcounts[r] = %s, every process contributes their sum", type, v);
        break;
    case BENCH_ALLGATHER:
        snprintf(d, len, "%s blocks; size = the bytes EACH process contributes (OSU convention): sendcount = recvcount = "
                 "floor(size / %zu) elements, every process receives p x that", type, n);
        break;
    case BENCH_ALLGATHERV:
        snprintf(d, len, "%s blocks of unequal counts (MPI_Allgatherv); size = the base bytes per process (OSU "
                 "convention): rank r contributes %s, displacements in reverse rank order (rank p-1's block first)",
                 type, v);
        break;
    case BENCH_ALLTOALL:
        snprintf(d, len, "%s blocks; size = the bytes each process sends EACH destination (OSU convention): sendcount = "
                 "recvcount = floor(size / %zu) elements, p blocks sent and received per process", type, n);
        break;
    case BENCH_ALLTOALLV:
        snprintf(d, len, "%s blocks of unequal counts (MPI_Alltoallv); size = the base bytes per (sender, receiver) "
                 "block: s sends d floor(size (1 + (s + 2 d) mod 3) / 2 / %zu) elements, displacements in reverse "
                 "order of the peer (send and receive side)", type, n);
        break;
    case BENCH_ALLTOALLW:
        snprintf(d, len, "%s blocks of unequal counts (MPI_Alltoallw: alltoallv's blocks, displacements in bytes, one "
                 "datatype per peer, all %s); size = the base bytes per (sender, receiver) block: s sends d "
                 "floor(size (1 + (s + 2 d) mod 3) / 2 / %zu) elements", type, type, n);
        break;
    case BENCH_GATHER:
        snprintf(d, len, "%s blocks; size = the bytes EACH process contributes (OSU convention): sendcount = recvcount = "
                 "floor(size / %zu) elements, the root receives p x that", type, n);
        break;
    case BENCH_GATHERV:
        snprintf(d, len, "%s blocks of unequal counts (MPI_Gatherv); size = the base bytes per process (OSU "
                 "convention): rank r contributes %s, the root's displacements in reverse rank order", type, v);
        break;
    case BENCH_SCATTER:
        snprintf(d, len, "%s blocks; size = the bytes EACH process receives (OSU convention): sendcount = recvcount = "
                 "floor(size / %zu) elements, the root sends p x that", type, n);
        break;
    case BENCH_SCATTERV:
        snprintf(d, len, "%s blocks of unequal counts (MPI_Scatterv); size = the base bytes per process (OSU "
                 "convention): rank r receives %s, the root's displacements in reverse rank order", type, v);
        break;
    default: break;
    }
}

/* Whether the send / receive buffer holds one block per process (or pair): then its layout is c->send / c->recv. */
static int send_has_blocks(bench_coll_t coll)
{
    return coll == BENCH_SCATTER || coll == BENCH_SCATTERV || coll == BENCH_ALLTOALL || coll == BENCH_ALLTOALLV ||
           coll == BENCH_ALLTOALLW || coll == BENCH_REDUCE_SCATTER || coll == BENCH_REDUCE_SCATTER_BLOCK;
}

static int recv_has_blocks(bench_coll_t coll)
{
    return coll == BENCH_ALLGATHER || coll == BENCH_ALLGATHERV || coll == BENCH_GATHER || coll == BENCH_GATHERV ||
           coll == BENCH_ALLTOALL || coll == BENCH_ALLTOALLV || coll == BENCH_ALLTOALLW;
}

/* alltoallw: a layout's displacements in bytes, and its datatypes. */
static void w_layout(const collective_t *c, block_layout_t *l)
{
    for (int j = 0; j < c->nprocs; j++) l->byte_displs[j] = l->displs[j] * (int)c->elem_size, l->types[j] = c->type;
}

/* The layouts and this rank's own block at message size `size`; -1 when a count or a buffer exceeds INT_MAX
 * elements (the same on every rank for the one-block-per-process layouts). */
static int make_layouts(collective_t *c, size_t size)
{
    int v = bench_coll_vform(c->coll), p = c->nprocs;
    size_t n = c->elem_size;
    c->count = c->coll == BENCH_BARRIER ? 0 : blocks_count(v, size, n, c->rank);
    if (c->count < 0) return -1;
    c->send.total = c->recv.total = c->count;
    switch (c->coll) {
    case BENCH_SCATTER:
    case BENCH_SCATTERV: c->send.total = blocks_layout(v, size, n, p, c->send.counts, c->send.displs); break;
    case BENCH_REDUCE_SCATTER:
    case BENCH_REDUCE_SCATTER_BLOCK:
        c->send.total = blocks_rank_layout(v, size, n, p, c->send.counts, c->send.displs);
        break;
    case BENCH_ALLTOALL:
    case BENCH_ALLTOALLV:
    case BENCH_ALLTOALLW:
        c->send.total = blocks_pair_layout(v, size, n, p, c->rank, 1, c->send.counts, c->send.displs);
        c->recv.total = blocks_pair_layout(v, size, n, p, c->rank, 0, c->recv.counts, c->recv.displs);
        if (c->coll == BENCH_ALLTOALLW) w_layout(c, &c->send), w_layout(c, &c->recv);
        break;
    case BENCH_ALLGATHER:
    case BENCH_ALLGATHERV:
    case BENCH_GATHER:
    case BENCH_GATHERV: c->recv.total = blocks_layout(v, size, n, p, c->recv.counts, c->recv.displs); break;
    default: break;
    }
    return c->send.total < 0 || c->recv.total < 0 ? -1 : 0;
}

static int alloc_layout(block_layout_t *l, int p, int w)
{
    l->counts = malloc((size_t)p * sizeof *l->counts);
    l->displs = malloc((size_t)p * sizeof *l->displs);
    if (w) {
        l->byte_displs = malloc((size_t)p * sizeof *l->byte_displs);
        l->types = malloc((size_t)p * sizeof *l->types);
        if (!l->byte_displs || !l->types) return -1;
    }
    return l->counts && l->displs ? 0 : -1;
}

int collective_init(collective_t *c, bench_coll_t coll, const char *dtype, size_t max_size, int shared, MPI_Comm comm,
                    char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->coll = coll;
    c->shared = shared;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->nprocs);
    if (choose_type(c, dtype, err, errlen)) return -1;
    describe(c);
    int w = coll == BENCH_ALLTOALLW;
    if ((send_has_blocks(coll) && alloc_layout(&c->send, c->nprocs, w)) ||
        (recv_has_blocks(coll) && alloc_layout(&c->recv, c->nprocs, w))) {
        snprintf(err, errlen, "cannot allocate the counts of %d processes", c->nprocs);
        collective_free(c);
        return -2;
    }
    /* counts grow with the size: the layouts of max_size give the largest buffers */
    if (make_layouts(c, max_size)) { /* the same on every rank but for alltoallv, whose totals differ */
        snprintf(err, errlen, "%s of %zu bytes on %d processes: counts beyond INT_MAX elements", bench_coll_name(coll),
                 max_size, c->nprocs);
        collective_free(c);
        return coll == BENCH_ALLTOALLV || coll == BENCH_ALLTOALLW ? -2 : -1;
    }
    size_t send_bytes = (size_t)c->send.total * c->elem_size, recv_bytes = (size_t)c->recv.total * c->elem_size;
    if (send_bytes == 0) send_bytes = 1;
    if (recv_bytes < max_size) recv_bytes = max_size; /* recvbuf: also T's ping-pong buffer */
    if (recv_bytes == 0) recv_bytes = 1;
    c->recvbuf = buffer(recv_bytes, shared);
    if (coll != BENCH_BCAST) c->sendbuf = buffer(send_bytes, shared);
    if (!c->recvbuf || (coll != BENCH_BCAST && !c->sendbuf)) {
        snprintf(err, errlen, "cannot allocate %zu + %zu bytes of buffers", send_bytes, recv_bytes);
        collective_free(c);
        return -2;
    }
    /* sane inputs even without -c (no denormals or NaN in double sums); a shared buffer's contents are meaningless */
    if (!shared) collective_fill(c, max_size, 0, 0);
    return 0;
}

static void free_layout(block_layout_t *l)
{
    free(l->counts);
    free(l->displs);
    free(l->byte_displs);
    free(l->types);
    l->counts = l->displs = l->byte_displs = NULL;
    l->types = NULL;
}

void collective_free(collective_t *c)
{
    release(c->sendbuf, c->shared);
    release(c->recvbuf, c->shared);
    c->sendbuf = c->recvbuf = NULL;
    free_layout(&c->send);
    free_layout(&c->recv);
}

void collective_set_size(collective_t *c, size_t size) { make_layouts(c, size); /* checked at max_size by init */ }

int collective_count(const collective_t *c, size_t size)
{
    return blocks_count(bench_coll_vform(c->coll), size, c->elem_size, c->rank);
}

size_t collective_unit_bytes(const collective_t *c, size_t size)
{
    if (!bench_coll_vform(c->coll)) return size;
    return (size_t)blocks_count(1, size, c->elem_size, 0) * c->elem_size; /* r mod 3 = 0 (alltoallv: (0, 0)): the smallest */
}

const char *collective_describe(const collective_t *c) { return c->description; }

void *collective_scratch(const collective_t *c) { return c->recvbuf; }

static void put(const collective_t *c, void *buf, size_t k, long value)
{
    if (c->elem == ELEM_INT) ((int *)buf)[k] = (int)value;
    else if (c->elem == ELEM_CHAR) ((unsigned char *)buf)[k] = (unsigned char)value;
    else ((double *)buf)[k] = (double)value;
}

static long get(const collective_t *c, const void *buf, size_t k)
{
    if (c->elem == ELEM_INT) return ((const int *)buf)[k];
    if (c->elem == ELEM_CHAR) return ((const unsigned char *)buf)[k];
    double v = ((const double *)buf)[k];
    return v == (double)(long)v ? (long)v : LONG_MIN; /* not an integer: never equal to an expected value */
}

/* Largest value of a block element (blocks.h); the fill of buffers that receive blocks is below 1. */
static long block_max(const collective_t *c) { return c->elem == ELEM_CHAR ? UCHAR_MAX : INT_MAX - 1; }

static long block_fill(const collective_t *c) { return c->elem == ELEM_CHAR ? 0 : -1; }

/* Writes the block of `seed` (count elements from `at`) into buf. */
static void put_block(const collective_t *c, void *buf, size_t at, int count, unsigned long long seed)
{
    long vmax = block_max(c);
    for (int k = 0; k < count; k++) put(c, buf, at + (size_t)k, blocks_element(seed, (size_t)k, vmax));
}

/* Wrong elements of the block of `seed` (count elements from `at`) in buf. */
static long block_errors(const collective_t *c, const void *buf, size_t at, int count, unsigned long long seed)
{
    long bad = 0, vmax = block_max(c);
    for (int k = 0; k < count; k++) bad += get(c, buf, at + (size_t)k) != blocks_element(seed, (size_t)k, vmax);
    return bad;
}

static void put_fill(const collective_t *c, void *buf, long n)
{
    for (long i = 0; i < n; i++) put(c, buf, (size_t)i, block_fill(c));
}

/* Elements of buf that no longer hold the fill. */
static long fill_errors(const collective_t *c, const void *buf, long n)
{
    long bad = 0;
    for (long i = 0; i < n; i++) bad += get(c, buf, (size_t)i) != block_fill(c);
    return bad;
}

/* The seed of the block at position j of a buffer of many blocks on this rank. */
static unsigned long long seed_of(const collective_t *c, int sending, int j, long rep)
{
    if (c->coll == BENCH_ALLTOALL || c->coll == BENCH_ALLTOALLV || c->coll == BENCH_ALLTOALLW)
        return sending ? blocks_pair_seed(c->rank, j, rep) : blocks_pair_seed(j, c->rank, rep);
    return blocks_seed(j, rep);
}

/* Wrong elements among the blocks of a layout. */
static long layout_errors(const collective_t *c, const void *buf, const block_layout_t *l, int sending, long rep)
{
    long bad = 0;
    for (int j = 0; j < c->nprocs; j++) bad += block_errors(c, buf, (size_t)l->displs[j], l->counts[j], seed_of(c, sending, j, rep));
    return bad;
}

static void fill_blocks(collective_t *c, long rep, int root)
{
    if (!send_has_blocks(c->coll)) put_block(c, c->sendbuf, 0, c->count, blocks_seed(c->rank, rep));
    else if ((c->coll == BENCH_SCATTER || c->coll == BENCH_SCATTERV) && c->rank != root)
        put_fill(c, c->sendbuf, c->send.total); /* not significant: a library that sends it is caught */
    else
        for (int j = 0; j < c->nprocs; j++)
            put_block(c, c->sendbuf, (size_t)c->send.displs[j], c->send.counts[j], seed_of(c, 1, j, rep));
    put_fill(c, c->recvbuf, c->recv.total);
}

static long block_check(const collective_t *c, long rep, int root)
{
    int scatters = c->coll == BENCH_SCATTER || c->coll == BENCH_SCATTERV;
    int gathers_to_root = c->coll == BENCH_GATHER || c->coll == BENCH_GATHERV;
    long bad = 0;
    /* the send buffer unchanged */
    if (!send_has_blocks(c->coll)) bad += block_errors(c, c->sendbuf, 0, c->count, blocks_seed(c->rank, rep));
    else if (scatters && c->rank != root) bad += fill_errors(c, c->sendbuf, c->send.total);
    else bad += layout_errors(c, c->sendbuf, &c->send, 1, rep);
    /* the result */
    if (scatters) bad += block_errors(c, c->recvbuf, 0, c->count, blocks_seed(c->rank, rep));
    else if (gathers_to_root && c->rank != root) bad += fill_errors(c, c->recvbuf, c->recv.total); /* untouched */
    else bad += layout_errors(c, c->recvbuf, &c->recv, 0, rep);
    return bad;
}

/* The reductions' element g of the whole vector: reduce_scatter's result block starts at send.displs[rank]. */
static size_t result_offset(const collective_t *c) { return send_has_blocks(c->coll) ? (size_t)c->send.displs[c->rank] : 0; }

void collective_fill(collective_t *c, size_t size, long rep, int root)
{
    if (c->coll == BENCH_BARRIER) return; /* no data */
    if (bench_coll_gathers(c->coll)) {
        fill_blocks(c, rep, root);
        return;
    }
    if (c->coll == BENCH_BCAST) {
        unsigned char *buf = c->recvbuf;
        for (size_t i = 0; i < size; i++)
            buf[i] = c->rank == root ? expected_byte(i, rep, root) : (unsigned char)~expected_byte(i, rep, root);
        return;
    }
    for (long g = 0; g < c->send.total; g++) put(c, c->sendbuf, (size_t)g, contribution((size_t)g, rep, root, c->rank));
    for (int k = 0; k < c->count; k++) put(c, c->recvbuf, (size_t)k, -1);
}

int collective_run(const collective_t *c, const char *algo, size_t size, int root, MPI_Comm comm)
{
    (void)size; /* the layouts of collective_set_size */
    const void *s = c->sendbuf;
    void *r = c->recvbuf;
    MPI_Datatype t = c->type;
    int n = c->count;
    switch (c->coll) {
    case BENCH_REDUCE: return papcoll_reduce_by_name(algo, s, r, n, t, MPI_SUM, root, comm);
    case BENCH_ALLREDUCE: return papcoll_allreduce_by_name(algo, s, r, n, t, MPI_SUM, comm);
    case BENCH_REDUCE_SCATTER: return papcoll_reduce_scatter_by_name(algo, s, r, c->send.counts, t, MPI_SUM, comm);
    case BENCH_REDUCE_SCATTER_BLOCK: return papcoll_reduce_scatter_block_by_name(algo, s, r, n, t, MPI_SUM, comm);
    case BENCH_ALLGATHER: return papcoll_allgather_by_name(algo, s, n, t, r, n, t, comm);
    case BENCH_ALLGATHERV:
        return papcoll_allgatherv_by_name(algo, s, n, t, r, c->recv.counts, c->recv.displs, t, comm);
    case BENCH_ALLTOALL: return papcoll_alltoall_by_name(algo, s, n, t, r, n, t, comm);
    case BENCH_ALLTOALLV:
        return papcoll_alltoallv_by_name(algo, s, c->send.counts, c->send.displs, t, r, c->recv.counts, c->recv.displs,
                                         t, comm);
    case BENCH_ALLTOALLW:
        return papcoll_alltoallw_by_name(algo, s, c->send.counts, c->send.byte_displs, c->send.types, r, c->recv.counts,
                                         c->recv.byte_displs, c->recv.types, comm);
    case BENCH_GATHER: return papcoll_gather_by_name(algo, s, n, t, r, n, t, root, comm);
    case BENCH_GATHERV:
        return papcoll_gatherv_by_name(algo, s, n, t, r, c->recv.counts, c->recv.displs, t, root, comm);
    case BENCH_SCATTER: return papcoll_scatter_by_name(algo, s, n, t, r, n, t, root, comm);
    case BENCH_SCATTERV:
        return papcoll_scatterv_by_name(algo, s, c->send.counts, c->send.displs, t, r, n, t, root, comm);
    case BENCH_BARRIER: return papcoll_barrier_by_name(algo, comm);
    case BENCH_SCAN: return papcoll_scan_by_name(algo, s, r, n, t, MPI_SUM, comm);
    case BENCH_EXSCAN: return papcoll_exscan_by_name(algo, s, r, n, t, MPI_SUM, comm);
    default: return papcoll_bcast_by_name(algo, r, n, MPI_BYTE, root, comm);
    }
}

long collective_errors(const collective_t *c, size_t size, long rep, int root)
{
    long bad = 0;
    if (c->coll == BENCH_BARRIER) return 0; /* no data (tests/test_barrier.c checks the synchronization) */
    if (bench_coll_gathers(c->coll)) return block_check(c, rep, root);
    if (c->coll == BENCH_BCAST) {
        const unsigned char *buf = c->recvbuf;
        for (size_t i = 0; i < size; i++) bad += buf[i] != expected_byte(i, rep, root);
        return bad;
    }
    for (long g = 0; g < c->send.total; g++) bad += get(c, c->sendbuf, (size_t)g) != contribution((size_t)g, rep, root, c->rank);
    if (c->coll == BENCH_REDUCE && c->rank != root) return bad;
    size_t at = result_offset(c);
    /* the sum over all ranks, or over the prefix (exscan at rank 0: nothing, its -1s untouched) */
    int ranks = c->coll == BENCH_SCAN ? c->rank + 1 : c->coll == BENCH_EXSCAN ? c->rank : c->nprocs;
    for (int k = 0; k < c->count; k++)
        bad += get(c, c->recvbuf, (size_t)k) != (ranks ? exact_sum(at + (size_t)k, rep, root, ranks) : -1);
    return bad;
}

void collective_corrupt(collective_t *c, size_t size, int root)
{
    (void)size;
    if (c->coll == BENCH_BARRIER) return; /* nothing to damage */
    int at_root = bench_coll_fan_in(c->coll); /* reduce, gather: the result is the root's */
    if (c->rank != (at_root ? root : (root + 1) % c->nprocs)) return;
    if (c->coll == BENCH_BCAST) {
        if (c->rank != root && c->count) ((unsigned char *)c->recvbuf)[c->count / 2] ^= 0x40;
        return;
    }
    long n = recv_has_blocks(c->coll) ? c->recv.total : c->count;
    if (n) put(c, c->recvbuf, (size_t)(n / 2), get(c, c->recvbuf, (size_t)(n / 2)) + 1);
}
