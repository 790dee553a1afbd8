/*
 * test_alltoall_matrix - every alltoall algorithm (the library's own list,
 * plus "auto") x both forms (papcoll_alltoall, papcoll_alltoallv) x
 * communicator shapes x counts x datatype cases x MPI_IN_PLACE or not x
 * arrival, back to back on the same buffers, each call checked: every block
 * of every process's receive buffer byte for byte, the gaps of derived
 * datatypes, the space between the v form's blocks and guard bytes
 * untouched, the send buffer, counts and displacements unchanged, and the
 * algorithm that ran.
 *
 * Shapes: world, reversed, oddeven, vnodes3 (virtual nodes of 3 ranks),
 * vnodes3_reversed (tests/harness/shapes.h).  Counts: 0, 1, 7, 4097, 65537
 * elements per block.  The v form draws the elements from process i to
 * process j from 0 to twice that (zeros included; one matrix for all
 * processes) and places every process's send and receive blocks in its own
 * shuffled order with gaps (zero-count blocks at arbitrary displacements,
 * possibly inside another block).  MPI_IN_PLACE: the data for process j
 * starts in receive block j, so the counts matrix is symmetric.  Cases: the
 * datatype cases of tests/harness/gather_call.h (MPI_INT, MPI_DOUBLE,
 * MPI_CHAR, gappy vector and struct datatypes, send datatypes other than
 * the receive datatype with the same signature; --list prints them).
 * Arrival: together, or each process delayed by a random 0..--delay-us.
 *
 * Data: the block from i to j is a byte stream distinct per (i, j, offset,
 * call), laid out in the datatype with MPI_Unpack, so the expected receive
 * buffer is built by the MPI library's datatype engine, independently of
 * papcoll; gap bytes keep a sentinel.
 *
 * The MPI library itself is probed first (PMPI_Alltoall(v) of each case on
 * each shape, count 7 and the run's largest count, with and without
 * MPI_IN_PLACE): where it gets a case
 * wrong, papcoll's "native" (which is that function) and "auto" (which may
 * choose it) are skipped for that case and shape, and a note names them.
 * Under SimGrid SMPI (3.32) the library aborts the whole simulation on some
 * cases instead of returning: MPI_Alltoall when the send datatype differs
 * from the receive datatype (its bruck, 16 ranks, MPI_INT x 6 into a
 * vector: "MPI_Pack - returned MPI_ERR_OTHER"), and MPI_Alltoallv in place
 * on a datatype with gaps (the vector, 4097 elements: segmentation fault);
 * there native and auto are neither probed nor run on those cases (the v
 * form: gappy cases in place or not), counted as skipped.
 *
 * Sampling: each combination is kept with probability --sample x its case's
 * weight (derived datatypes 2), decided by a hash of the seed and the
 * combination itself (not its position), so a failure replays with the
 * same --seed and --sample and narrower --forms/--algos/--cases/--min-count/
 * --max-count; the seed is printed, and the replay options with the first
 * failure.
 */
#include <papcoll.h>

#include "harness/bcast_call.h"
#include "harness/gather_call.h"
#include "harness/lists.h"
#include "harness/shapes.h"
#include "harness/watchdog.h"
#include "test_random.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int counts[] = {0, 1, 7, 4097, 65537};
enum { NCOUNTS = sizeof counts / sizeof counts[0], NARRIVALS = 2 };
static const char *const forms[2] = {"alltoall", "alltoallv"};

static struct {
    double sample;
    unsigned long long seed;
    int min_count, max_count, delay_us, call_timeout;
    const char *algos, *forms, *cases;
} opt = {1.0, 12345, 0, 65537, 1000, 120, NULL, "alltoall,alltoallv", NULL};

static int world_rank, world_size;

/* ---- one checked call ------------------------------------------------------ */

typedef struct {
    int vform;          /* papcoll_alltoallv_by_name, else papcoll_alltoall_by_name */
    const char *algo;   /* an algorithm name or "auto" */
    const ag_case_t *c;
    int count;          /* elements per block (plain), the scale of the drawn counts (v) */
    int inplace;
    MPI_Comm comm;
    int rank, size;
    uint64_t salt;      /* the same on every process of the call */
    int mpi_library;    /* call PMPI_Alltoall(v) instead (probes of the MPI library) */
} a2a_call_t;

typedef struct {
    int rc;
    const char *ran;
    int problems;
    char first[480];
} a2a_result_t;

/* Scratch buffers, grown as needed. */
typedef struct {
    unsigned char *send, *send_copy, *recv, *ref, *stream;
    size_t send_cap, recv_cap, stream_cap;
    int *elems;                                  /* [p] elements from me to j (send) */
    int *relems;                                 /* [p] elements from i to me (receive) */
    int *scounts, *sdispls, *rcounts, *rdispls;  /* as passed (datatype units) */
    int *copies;                                 /* [4p] the arrays before the call */
    int ranks_cap;
} a2a_buffers_t;

static a2a_buffers_t buffers;

static void *grow(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q) {
        fprintf(stderr, "rank %d: out of memory (%zu bytes)\n", world_rank, bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return q;
}

static void reserve(unsigned char **p, size_t *cap, size_t bytes)
{
    if (bytes <= *cap) return;
    *p = grow(*p, bytes);
    *cap = bytes;
}

static void reserve_ranks(a2a_buffers_t *b, int p)
{
    if (p <= b->ranks_cap) return;
    size_t n = (size_t)p * sizeof(int);
    b->elems = grow(b->elems, n);
    b->relems = grow(b->relems, n);
    b->scounts = grow(b->scounts, n);
    b->sdispls = grow(b->sdispls, n);
    b->rcounts = grow(b->rcounts, n);
    b->rdispls = grow(b->rdispls, n);
    b->copies = grow(b->copies, 4 * n);
    b->ranks_cap = p;
}

static void buffers_free(a2a_buffers_t *b)
{
    free(b->send);
    free(b->send_copy);
    free(b->recv);
    free(b->ref);
    free(b->stream);
    free(b->elems);
    free(b->relems);
    free(b->scounts);
    free(b->sdispls);
    free(b->rcounts);
    free(b->rdispls);
    free(b->copies);
    memset(b, 0, sizeof *b);
}

/* Elements from process i to process j: the same on every process. */
static int elements(const a2a_call_t *call, int i, int j)
{
    if (!call->vform) return call->count;
    if (call->count == 0) return 0;
    if (call->inplace && i > j) { /* in place: what j sends me lies where I receive j's block */
        int t = i;
        i = j;
        j = t;
    }
    uint64_t h = mix(call->salt ^ 0xa2a11ULL ^ ((uint64_t)i << 32) ^ (uint64_t)j);
    if (i == 0 && j == (call->size > 1 ? 1 : 0)) return 0;                           /* one empty block */
    if (i == (call->size > 1 ? 1 : 0) && j == 0) return call->inplace ? 0 : call->count; /* one non-empty */
    return h % 4 == 0 ? 0 : 1 + (int)((h >> 8) % (uint64_t)(2 * call->count));
}

/* Displacements (in units of `factor` datatypes per element) of n blocks of
 * elems[] elements: rank order (plain form), else a shuffled order with
 * gaps, empty blocks anywhere; returns the datatypes the blocks span. */
static long lay_displs(const a2a_call_t *call, const int *elems, int factor, int *displs, uint64_t stream)
{
    int p = call->size;
    if (!call->vform) {
        for (int r = 0; r < p; r++) displs[r] = r * call->count * factor;
        return (long)p * call->count * factor;
    }
    test_rng_t g;
    test_rng_seed(&g, mix(call->salt ^ stream));
    int *order = malloc((size_t)p * sizeof(int));
    for (int r = 0; r < p; r++) order[r] = r;
    for (int r = p - 1; r > 0; r--) {
        int j = test_rng_below(&g, r + 1), t = order[r];
        order[r] = order[j];
        order[j] = t;
    }
    if (p > 1) {
        int increasing = 1;
        for (int r = 1; r < p; r++) increasing &= order[r] > order[r - 1];
        if (increasing) order[0] = 1, order[1] = 0;
    }
    long at = test_rng_below(&g, 3);
    for (int i = 0; i < p; i++) {
        int r = order[i];
        if (!elems[r]) continue;
        displs[r] = (int)at;
        at += (long)elems[r] * factor + (test_rng_below(&g, 3) ? test_rng_below(&g, 3) : 0);
    }
    for (int r = 0; r < p; r++)
        if (!elems[r]) displs[r] = test_rng_below(&g, (int)at + 1);
    free(order);
    return at;
}

static unsigned char data_byte(size_t k, int from, int to, uint64_t salt)
{
    return (unsigned char)(k + (k >> 8) * 7 + (k >> 16) * 13 + salt + (uint64_t)from * 101u + (uint64_t)to * 37u);
}

/* Lays out the block from `from` to `to` (n elements) in buf as n x factor `type`. */
static void lay_out(a2a_buffers_t *b, const a2a_call_t *call, int from, int to, int n, MPI_Datatype type,
                    int factor, void *buf)
{
    size_t bytes = (size_t)n * call->c->bytes;
    if (!bytes) return;
    reserve(&b->stream, &b->stream_cap, bytes);
    for (size_t k = 0; k < bytes; k++) b->stream[k] = data_byte(k, from, to, call->salt);
    int pos = 0;
    MPI_Unpack(b->stream, (int)bytes, &pos, buf, n * factor, type, MPI_COMM_SELF);
}

static void problem(a2a_result_t *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(a2a_result_t *res, const char *fmt, ...)
{
    if (res->problems++) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->first, sizeof res->first, fmt, ap);
    va_end(ap);
}

static const char *class_name(int rc)
{
    static char s[MPI_MAX_ERROR_STRING];
    int cls = rc, len;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    MPI_Error_string(cls, s, &len);
    return s;
}

/* Where offset `at` of the receive area (front guard included) lies. */
static void describe(const a2a_call_t *call, const a2a_buffers_t *b, size_t span, size_t at, char *out, size_t len)
{
    const ag_case_t *c = call->c;
    if (at < HARNESS_GUARD) {
        snprintf(out, len, "the guard before the receive buffer (byte %ld)", (long)at - HARNESS_GUARD);
        return;
    }
    size_t o = at - HARNESS_GUARD;
    if (o >= span) {
        snprintf(out, len, "the guard past the receive buffer (byte %zu past its end)", o - span);
        return;
    }
    for (int r = 0; r < call->size; r++) {
        size_t start = (size_t)b->rdispls[r] * (size_t)c->rext, end = start + (size_t)b->rcounts[r] * (size_t)c->rext;
        if (!b->rcounts[r] || o < start || o >= end) continue;
        snprintf(out, len, "rank %d's block (receive datatype %zu of %d, byte %zu of the block)", r,
                 (o - start) / (size_t)c->rext, b->rcounts[r], o - start);
        return;
    }
    snprintf(out, len, "outside every block, where nothing is to be written (byte %zu of the buffer)", o);
}

static void call_checked(const a2a_call_t *call, a2a_buffers_t *b, a2a_result_t *res)
{
    const ag_case_t *c = call->c;
    const int p = call->size, me = call->rank;
    memset(res, 0, sizeof *res);
    reserve_ranks(b, p);
    for (int r = 0; r < p; r++) {
        b->elems[r] = elements(call, me, r);
        b->relems[r] = elements(call, r, me);
    }
    /* receive side: rfactor receive datatypes per element */
    long rspan_types = lay_displs(call, b->relems, c->rfactor, b->rdispls, 0x7ecULL + (uint64_t)me * 977);
    size_t span = (size_t)rspan_types * (size_t)c->rext, total = HARNESS_GUARD + span + HARNESS_GUARD;
    for (int r = 0; r < p; r++) b->rcounts[r] = b->relems[r] * c->rfactor;
    reserve(&b->recv, &b->recv_cap, total);
    b->ref = grow(b->ref, b->recv_cap);
    unsigned char *recv = b->recv + HARNESS_GUARD;
    const uint64_t recv_salt = call->salt ^ 0x7e7e7eULL, send_salt = call->salt ^ 0x5e5e5eULL;
    for (size_t i = 0; i < total; i++) b->recv[i] = harness_pattern_byte(i, recv_salt);
    memcpy(b->ref, b->recv, total);
    for (int r = 0; r < p; r++)
        lay_out(b, call, r, me, b->relems[r], c->rtype, c->rfactor,
                b->ref + HARNESS_GUARD + (size_t)b->rdispls[r] * (size_t)c->rext);
    const void *sendbuf = MPI_IN_PLACE;
    int sendcount = 0;
    MPI_Datatype sendtype = MPI_DATATYPE_NULL; /* ignored with MPI_IN_PLACE */
    size_t send_bytes = 0;
    if (call->inplace) { /* my block for r where r's block to me will be (the same size) */
        for (int r = 0; r < p; r++)
            lay_out(b, call, me, r, b->elems[r], c->rtype, c->rfactor, recv + (size_t)b->rdispls[r] * (size_t)c->rext);
        for (int r = 0; r < p; r++) b->scounts[r] = b->sdispls[r] = 0;
        if (call->salt & 1) sendcount = call->count * c->sfactor, sendtype = c->stype;
    } else {
        long sspan_types = lay_displs(call, b->elems, c->sfactor, b->sdispls, 0x5ecULL + (uint64_t)me * 991);
        for (int r = 0; r < p; r++) b->scounts[r] = b->elems[r] * c->sfactor;
        send_bytes = (size_t)sspan_types * (size_t)c->sext + HARNESS_GUARD;
        reserve(&b->send, &b->send_cap, send_bytes);
        b->send_copy = grow(b->send_copy, b->send_cap);
        for (size_t i = 0; i < send_bytes; i++) b->send[i] = harness_pattern_byte(i, send_salt);
        for (int r = 0; r < p; r++)
            lay_out(b, call, me, r, b->elems[r], c->stype, c->sfactor, b->send + (size_t)b->sdispls[r] * (size_t)c->sext);
        memcpy(b->send_copy, b->send, send_bytes);
        sendbuf = b->send;
        sendcount = call->count * c->sfactor;
        sendtype = c->stype;
    }
    const size_t nb = (size_t)p * sizeof(int);
    memcpy(b->copies, b->scounts, nb);
    memcpy(b->copies + p, b->sdispls, nb);
    memcpy(b->copies + 2 * p, b->rcounts, nb);
    memcpy(b->copies + 3 * p, b->rdispls, nb);

    int rcount = call->count * c->rfactor;
    harness_watchdog_arm();
    int rc;
    if (call->mpi_library)
        rc = call->vform ? PMPI_Alltoallv(sendbuf, b->scounts, b->sdispls, sendtype, recv, b->rcounts, b->rdispls,
                                          c->rtype, call->comm)
                         : PMPI_Alltoall(sendbuf, sendcount, sendtype, recv, rcount, c->rtype, call->comm);
    else
        rc = call->vform ? papcoll_alltoallv_by_name(call->algo, sendbuf, b->scounts, b->sdispls, sendtype, recv,
                                                     b->rcounts, b->rdispls, c->rtype, call->comm)
                         : papcoll_alltoall_by_name(call->algo, sendbuf, sendcount, sendtype, recv, rcount, c->rtype,
                                                    call->comm);
    harness_watchdog_call_done();
    res->rc = rc;
    res->ran = call->mpi_library ? "the MPI library" : papcoll_last_algorithm();
    if (call->vform && (memcmp(b->copies, b->scounts, nb) || memcmp(b->copies + p, b->sdispls, nb) ||
                        memcmp(b->copies + 2 * p, b->rcounts, nb) || memcmp(b->copies + 3 * p, b->rdispls, nb)))
        problem(res, "the counts or displacement arrays changed");
    if (rc != MPI_SUCCESS) {
        problem(res, "returned %s", class_name(rc));
        return;
    }
    if (!call->mpi_library && (!harness_ran_ok(call->algo, res->ran) ||
                               (!strcmp(call->algo, "auto") && !harness_is_algorithm("alltoall", res->ran))))
        problem(res, "papcoll_last_algorithm()=\"%s\"", res->ran);
    if (memcmp(b->recv, b->ref, total)) {
        size_t first = 0;
        long bad = 0;
        for (size_t i = 0; i < total; i++)
            if (b->recv[i] != b->ref[i] && !bad++) first = i;
        char where[200];
        describe(call, b, span, first, where, sizeof where);
        problem(res, "%ld wrong bytes in the receive buffer; the first in %s: got %02x want %02x", bad, where,
                b->recv[first], b->ref[first]);
    }
    if (send_bytes && memcmp(b->send, b->send_copy, send_bytes)) {
        size_t at = 0;
        while (b->send[at] == b->send_copy[at]) at++;
        problem(res, "the send buffer changed (first at byte %zu of %zu)", at, send_bytes - HARNESS_GUARD);
    }
}

/* 1 where the MPI library aborts on case c of form vform instead of
 * returning (SMPI: see the file comment). */
static int library_aborts(int vform, const ag_case_t *c)
{
#ifdef PAPCOLL_SMPI
    return c->stype != c->rtype || c->sfactor != c->rfactor || (vform && c->gaps);
#else
    (void)vform;
    (void)c;
    return 0;
#endif
}

/* 1 when the MPI library's own alltoall(v) gets case c right on comm (count
 * 7 and `large`, with and without MPI_IN_PLACE; the same answer on every
 * process).  MPICH 4.0.2's in-place MPI_Alltoallv truncates the struct case
 * at 4097 elements, not at 7. */
static int mpi_library_ok(int vform, const ag_case_t *c, MPI_Comm comm, int large)
{
    int rank, size, bad = 0, any_bad;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int inplace = 0; inplace < 2; inplace++)
        for (int n = 7;; n = large) {
            a2a_call_t call = {vform, "native", c, n, inplace, comm, rank, size, mix(0xa2a0beULL + (uint64_t)inplace), 1};
            a2a_result_t res;
            harness_watchdog_label("probe of the MPI library: %s case=%s count=%d%s",
                                   vform ? "MPI_Alltoallv" : "MPI_Alltoall", c->name, n, inplace ? " in-place" : "");
            call_checked(&call, &buffers, &res);
            bad |= res.problems != 0;
            if (n >= large) break;
        }
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, comm);
    return !any_bad;
}

/* ---- the matrix ------------------------------------------------------------ */

static void usage(const char *prog, int code)
{
    if (world_rank == 0)
        fprintf(code ? stderr : stdout,
                "usage: %s [options]\n"
                "  --sample=F        keep each combination with probability F x its case's weight (default 1)\n"
                "  --seed=N          seed of the sampling and of the data (default 12345); printed\n"
                "  --min-count=N     smallest count of {0,1,7,4097,65537} to run (default 0)\n"
                "  --max-count=N     largest count to run (default 65537)\n"
                "  --forms=a,b       forms among alltoall,alltoallv (default both)\n"
                "  --algos=a,b       algorithm names (and auto) to run, 'x*' for a prefix (default: the library's\n"
                "                    list + auto)\n"
                "  --cases=a,b       datatype case names, e.g. MPI_INT,struct_cdi2/packed_cdi2 (default all)\n"
                "  --delay-us=D      largest random arrival delay of the delayed arrival (default 1000)\n"
                "  --call-timeout=S  watchdog: abort with the call's description after S s (default 120)\n"
                "  --list            print the cases and the algorithms, and exit\n"
                "  --help            this text\n",
                prog);
    if (code) MPI_Abort(MPI_COMM_WORLD, code);
}

/* Count-0 calls while PAPCOLL_PPN is set build the communicator's context. */
static int create_contexts(MPI_Comm comm) { return papcoll_alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm); }

/* A hash of a string (the combination key is built from names, not indices,
 * so that filtering does not change which combinations are drawn). */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void print_list(void)
{
    if (world_rank != 0) return;
    printf("cases (%d): send datatype x sfactor / receive datatype x rfactor per element\n", ag_case_count());
    for (int i = 0; i < ag_case_count(); i++) {
        const ag_case_t *c = ag_case_at(i);
        printf("  %-26s %2zu data bytes, send %d x extent %2ld, receive %d x extent %2ld%s, weight %d\n", c->name,
               c->bytes, c->sfactor, (long)c->sext, c->rfactor, (long)c->rext, c->gaps ? ", gaps" : "", c->weight);
    }
    char **algos;
    int n = harness_algorithms("alltoall", NULL, &algos);
    printf("alltoall algorithms:");
    for (int a = 0; a < n; a++) printf(" %s", algos[a]);
    printf("\n");
    harness_list_free(algos, n);
}

typedef struct {
    const char *form, *algo;
    const ag_case_t *c;
    int count, delayed, shape, inplace;
} combination_t;

static long calls, failures, skipped;
static char *library_ok; /* [form][case][shape] */
#define LIBRARY_OK(f, ci, s) library_ok[((f) * ag_case_count() + (ci)) * HARNESS_NSHAPES + (s)]

/* The largest count of the run (at least 7). */
static int largest_count(void)
{
    int large = 7;
    for (int n = 0; n < NCOUNTS; n++)
        if (counts[n] >= opt.min_count && counts[n] <= opt.max_count && counts[n] > large) large = counts[n];
    return large;
}

static void probe_mpi_library(const MPI_Comm *comms)
{
    library_ok = malloc((size_t)2 * (size_t)ag_case_count() * HARNESS_NSHAPES);
    for (int f = 0; f < 2; f++)
        for (int ci = 0; ci < ag_case_count(); ci++)
            for (int s = 0; s < HARNESS_NSHAPES; s++) {
                if (library_aborts(f, ag_case_at(ci))) {
                    LIBRARY_OK(f, ci, s) = 0;
                    if (world_rank == 0)
                        printf("note: the MPI library's own %s aborts on case %s: papcoll's native and auto are "
                               "skipped there\n", f ? "MPI_Alltoallv" : "MPI_Alltoall", ag_case_at(ci)->name);
                    continue;
                }
                int ok = mpi_library_ok(f, ag_case_at(ci), comms[s], largest_count()), all_ok; /* shapes split the world: agree */
                MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
                LIBRARY_OK(f, ci, s) = (char)all_ok;
                if (!all_ok && world_rank == 0)
                    printf("note: the MPI library's own %s gets case %s wrong on shape %s: papcoll's native and auto "
                           "(which may choose native) are skipped there\n",
                           f ? "MPI_Alltoallv" : "MPI_Alltoall", ag_case_at(ci)->name, harness_shape_names[s]);
            }
    fflush(stdout);
}

static uint64_t combination_key(const combination_t *m)
{
    return mix(name_hash(m->form) ^
               mix(name_hash(m->algo) ^
                   mix(name_hash(m->c->name) ^ mix(((uint64_t)m->count << 24) ^ ((uint64_t)m->delayed << 20) ^
                                                   ((uint64_t)m->shape << 16) ^ (uint64_t)m->inplace))));
}

static void run_combination(const combination_t *m, MPI_Comm comm, int rank, int size)
{
    uint64_t key = combination_key(m);
    if (!test_sampled(opt.seed, key, opt.sample * m->c->weight)) return;
    uint64_t salt = mix(key ^ (opt.seed << 20));
    a2a_call_t call = {m->form == forms[1], m->algo, m->c, m->count, m->inplace, comm, rank, size, salt, 0};
    long delay = m->delayed ? (long)(mix(salt ^ (uint64_t)world_rank) % (uint64_t)(opt.delay_us + 1)) : 0;
    harness_watchdog_label("%s algo=%s case=%s count=%d shape=%s p=%d%s arrival=%s", m->form, call.algo,
                           m->c->name, call.count, harness_shape_names[m->shape], size,
                           m->inplace ? " in-place" : "", m->delayed ? "delayed" : "together");
    if (delay) usleep((useconds_t)delay);
    a2a_result_t res;
    call_checked(&call, &buffers, &res);
    calls++;
    if (!res.problems) return;
    if (failures++ < 10)
        fprintf(stderr, "FAIL rank %d: %s (ran %s, rc %d): %s\n", world_rank, harness_watchdog_current(), res.ran,
                res.rc, res.first);
    if (failures == 1)
        fprintf(stderr,
                "  replay: --seed=%llu --sample=%g --forms=%s --algos=%s --cases=%s --min-count=%d --max-count=%d\n",
                opt.seed, opt.sample, m->form, call.algo, m->c->name, call.count, call.count);
}

static void check_names(void)
{
    char **names;
    int nnames = opt.cases ? harness_list_split(opt.cases, &names) : 0;
    for (int i = 0; i < nnames; i++)
        if (!ag_case_find(names[i])) {
            if (world_rank == 0) fprintf(stderr, "unknown case \"%s\" (--list prints them)\n", names[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    if (opt.cases) harness_list_free(names, nnames);
    nnames = harness_list_split(opt.forms, &names);
    for (int i = 0; i < nnames; i++)
        if (strcmp(names[i], forms[0]) && strcmp(names[i], forms[1])) {
            if (world_rank == 0) fprintf(stderr, "unknown form \"%s\" (alltoall, alltoallv)\n", names[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    harness_list_free(names, nnames);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    int list_only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=');
        v = v ? v + 1 : "";
#define OPT(name) (!strncmp(a, "--" name "=", strlen(name) + 3))
        if (OPT("sample")) opt.sample = atof(v);
        else if (OPT("seed")) opt.seed = strtoull(v, NULL, 10);
        else if (OPT("min-count")) opt.min_count = atoi(v);
        else if (OPT("max-count")) opt.max_count = atoi(v);
        else if (OPT("forms")) opt.forms = v;
        else if (OPT("algos")) opt.algos = v;
        else if (OPT("cases")) opt.cases = v;
        else if (OPT("delay-us")) opt.delay_us = atoi(v);
        else if (OPT("call-timeout")) opt.call_timeout = atoi(v);
        else if (!strcmp(a, "--list")) list_only = 1;
        else if (!strcmp(a, "--help")) {
            usage(argv[0], 0);
            MPI_Finalize();
            return 0;
        } else usage(argv[0], 2);
#undef OPT
    }
    ag_cases_init();
    if (list_only) {
        print_list();
        ag_cases_free();
        MPI_Finalize();
        return 0;
    }
    check_names(); /* a typo must not pass silently */
    char **algos;
    int nalgo = harness_algorithms("alltoall", opt.algos, &algos);
    if (nalgo == 0 || papcoll_algorithm_count("alltoall") < 1) {
        if (world_rank == 0)
            fprintf(stderr, "no alltoall algorithm to run (library lists %d; --algos=%s)\n",
                    papcoll_algorithm_count("alltoall"), opt.algos ? opt.algos : "(all)");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (world_rank == 0) {
        printf("test_alltoall_matrix: np=%d seed=%llu sample=%g algorithms:", world_size, opt.seed, opt.sample);
        for (int a = 0; a < nalgo; a++) printf(" %s", algos[a]);
        printf("\n");
        fflush(stdout);
    }
    harness_watchdog_init(opt.call_timeout, 0, world_rank);

    MPI_Comm comms[HARNESS_NSHAPES];
    int csize[HARNESS_NSHAPES], crank[HARNESS_NSHAPES];
    for (int s = 0; s < HARNESS_NSHAPES; s++) {
        comms[s] = harness_matrix_shape(s, create_contexts);
        MPI_Comm_set_errhandler(comms[s], MPI_ERRORS_RETURN);
        MPI_Comm_size(comms[s], &csize[s]);
        MPI_Comm_rank(comms[s], &crank[s]);
    }
    probe_mpi_library(comms);

    for (int f = 0; f < 2; f++) {
        if (!harness_list_has(opt.forms, forms[f])) continue;
        for (int ci = 0; ci < ag_case_count(); ci++) {
            const ag_case_t *c = ag_case_at(ci);
            if (opt.cases && !harness_list_has(opt.cases, c->name)) continue;
            for (int n = 0; n < NCOUNTS; n++) {
                if (counts[n] < opt.min_count || counts[n] > opt.max_count) continue;
                for (int arr = 0; arr < NARRIVALS; arr++)
                    for (int s = 0; s < HARNESS_NSHAPES; s++)
                        for (int inplace = 0; inplace < 2; inplace++)
                            for (int a = 0; a < nalgo; a++) {
                                int library = !strcmp(algos[a], "native") || !strcmp(algos[a], "auto");
                                if (library && !LIBRARY_OK(f, ci, s)) {
                                    skipped++;
                                    continue;
                                }
                                combination_t m = {forms[f], algos[a], c, counts[n], arr, s, inplace};
                                run_combination(&m, comms[s], crank[s], csize[s]);
                            }
            }
        }
    }
    harness_watchdog_off();
    long totals[3], mine[3] = {calls, failures, skipped};
    MPI_Reduce(mine, totals, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("test_alltoall_matrix: np=%d forms=%s algorithms=%d cases=%d shapes=%d counts=[%d,%d] arrivals=%d "
               "sample=%g seed=%llu: %ld calls (summed over processes), %ld failures; %ld combinations (summed, before "
               "sampling) skipped where the MPI library itself is wrong\n",
               world_size, opt.forms, nalgo, ag_case_count(), HARNESS_NSHAPES, opt.min_count, opt.max_count,
               NARRIVALS, opt.sample, opt.seed, totals[0], totals[1], totals[2]);
    for (int s = 0; s < HARNESS_NSHAPES; s++) MPI_Comm_free(&comms[s]);
    harness_list_free(algos, nalgo);
    buffers_free(&buffers);
    free(library_ok);
    ag_cases_free();
    int failed = world_rank == 0 ? totals[1] != 0 : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
