/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_alltoallw_matrix - every alltoall algorithm (the library's own list,
 * plus "auto") through papcoll_alltoallw x communicator shapes x counts x
 * datatype cases x MPI_IN_PLACE or not x arrival, back to back on the same
 * buffers, each call checked: every byte of every process's receive buffer
 * (blocks, the gaps of derived datatypes, the space between blocks, guard
 * bytes), the send buffer and the count, displacement and datatype arrays
 * unchanged, and the algorithm that ran.
 *
 * The w form's own freedom is what is drawn: one datatype per peer on each
 * side.  The block from process i to process j holds elements(i, j)
 * elements (0 to twice the count, zeros included, the same matrix on every
 * process) of the pair's case: the point's case (tests/harness/gather_call.h:
 * MPI_INT, MPI_DOUBLE, MPI_CHAR, gappy vector and struct datatypes, send
 * datatypes other than the receive datatype with the same signature) or,
 * for about half of the pairs in half of the calls, another case drawn per
 * pair, so one call mixes datatypes per peer and the send datatype to j
 * differs from the receive datatype from j.  Displacements are in bytes:
 * a quarter of the calls put the blocks in rank order without gaps (the
 * caller's buffer is the block view when the datatypes have no gaps), the
 * rest in a shuffled order with gaps, empty blocks at arbitrary
 * displacements.  MPI_IN_PLACE: the data for j starts in receive block j
 * (pairs symmetric in counts and cases); the send arrays are then NULL or
 * garbage, which MPI ignores.  Arrival: together, or each process delayed
 * by a random 0..--delay-us.
 *
 * Data: bytes distinct per (i, j, offset, call) laid out with MPI_Unpack,
 * so the expected receive buffer comes from the MPI library's datatype
 * engine.  The MPI library's own MPI_Alltoallw is probed first per case and
 * shape (count 7 and the largest, in place or not); where it is wrong,
 * native and auto are skipped there.  Under SimGrid SMPI they are skipped
 * everywhere (its MPI_Alltoallw is not probed: SMPI aborts the simulation
 * on derived-datatype cases of its alltoall(v), see test_alltoall_matrix).
 * Sampling and replay: tests/harness/matrix.h (--seed, --sample).
 */
#include <papcoll.h>

#include "harness/bcast_call.h"
#include "harness/buffers.h"
#include "harness/errors.h"
#include "harness/gather_call.h"
#include "harness/lists.h"
#include "harness/matrix.h"
#include "harness/shapes.h"
#include "harness/watchdog.h"
#include "test_random.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int counts[] = {0, 1, 7, 4097};
enum { NCOUNTS = sizeof counts / sizeof counts[0] };

static void print_list(void);
static int known_case(const char *name);
static const harness_opt_t own_options[] = {{NULL}};
static const matrix_spec_t spec = {
    counts, NCOUNTS, 1000,
    "  --algos=a,b       algorithm names (and auto) to run, 'x*' for a prefix (default: the library's\n"
    "                    list + auto)\n"
    "  --cases=a,b       datatype case names of the points, e.g. MPI_INT (default all)\n",
    own_options, ag_cases_init, print_list, known_case};

static matrix_t m;
static harness_matrix_shapes_t shapes;
static char **algos;
static int nalgo;

/* Scratch of the calls, grown as needed. */
typedef struct {
    unsigned char *send, *send_copy, *recv, *ref, *stream;
    size_t send_cap, recv_cap, stream_cap;
    int *elems, *relems, *scounts, *sdispls, *rcounts, *rdispls, *copies; /* copies: [4p] */
    MPI_Datatype *stypes, *rtypes, *tcopies;                             /* tcopies: [2p] */
    const ag_case_t **scase, **rcase; /* the case of my block to r, from r */
    int cap;
} w_buffers_t;

static w_buffers_t buffers;

static void reserve(w_buffers_t *b, int p)
{
    if (p <= b->cap) return;
    size_t n = (size_t)p * sizeof(int), t = (size_t)p * sizeof(MPI_Datatype), c = (size_t)p * sizeof(ag_case_t *);
    int **arrays[] = {&b->elems, &b->relems, &b->scounts, &b->sdispls, &b->rcounts, &b->rdispls};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) *arrays[i] = harness_grow(*arrays[i], n);
    b->copies = harness_grow(b->copies, 4 * n);
    b->stypes = harness_grow(b->stypes, t);
    b->rtypes = harness_grow(b->rtypes, t);
    b->tcopies = harness_grow(b->tcopies, 2 * t);
    b->scase = harness_grow((void *)b->scase, c);
    b->rcase = harness_grow((void *)b->rcase, c);
    b->cap = p;
}

static void buffers_free(w_buffers_t *b)
{
    void *all[] = {b->send, b->send_copy, b->recv, b->ref, b->stream, b->elems, b->relems, b->scounts,
                   b->sdispls, b->rcounts, b->rdispls, b->copies, b->stypes, b->rtypes, b->tcopies,
                   (void *)b->scase, (void *)b->rcase};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
    memset(b, 0, sizeof *b);
}

/* Elements from i to j: the same on every process; symmetric in place. */
static int elements(const ag_call_t *call, int i, int j)
{
    if (call->count == 0) return 0;
    if (call->inplace && i > j) {
        int t = i;
        i = j;
        j = t;
    }
    uint64_t h = mix(call->salt ^ 0xa2a77ULL ^ ((uint64_t)i << 32) ^ (uint64_t)j);
    if (i == 0 && j == (call->size > 1 ? 1 : 0)) return 0; /* one empty block */
    return h % 4 == 0 ? 0 : 1 + (int)((h >> 8) % (uint64_t)(2 * call->count));
}

/* The layout of a call: 0 rank order without gaps, one case; 1 shuffled,
 * one case; 2-3 shuffled, cases mixed per pair. */
static int layout_of(const ag_call_t *call) { return (int)((call->salt >> 8) % 4); }

/* The case of the block from i to j (symmetric: in place, j's block to me
 * lies where mine to j starts). */
static const ag_case_t *pair_case(const ag_call_t *call, int i, int j)
{
    if (layout_of(call) < 2) return call->c;
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    uint64_t h = mix(call->salt ^ 0xc45eULL ^ ((uint64_t)i << 32) ^ (uint64_t)j);
    return h % 2 ? call->c : ag_case_at((int)((h >> 8) % (uint64_t)ag_case_count()));
}

/* Byte displacements of p blocks of bytes[r] bytes: rank order without gaps,
 * or shuffled with gaps (8-byte aligned), empty blocks anywhere; returns the
 * bytes spanned. */
static size_t place(const ag_call_t *call, const size_t *bytes, int *displs, uint64_t stream)
{
    int p = call->size;
    size_t at = 0;
    if (layout_of(call) == 0) {
        for (int r = 0; r < p; r++) displs[r] = (int)at, at += bytes[r];
        return at;
    }
    test_rng_t g;
    test_rng_seed(&g, mix(call->salt ^ stream));
    int *order = harness_grow(NULL, (size_t)p * sizeof(int));
    for (int r = 0; r < p; r++) order[r] = r;
    for (int r = p - 1; r > 0; r--) {
        int j = test_rng_below(&g, r + 1), t = order[r];
        order[r] = order[j];
        order[j] = t;
    }
    at = 8 * (size_t)test_rng_below(&g, 3);
    for (int i = 0; i < p; i++) {
        int r = order[i];
        if (!bytes[r]) continue;
        displs[r] = (int)at;
        at += (bytes[r] + 7) / 8 * 8 + 8 * (size_t)test_rng_below(&g, 3);
    }
    for (int r = 0; r < p; r++)
        if (!bytes[r]) displs[r] = test_rng_below(&g, (int)at + 1);
    free(order);
    return at;
}

static void lay_out(w_buffers_t *b, const ag_call_t *call, const ag_case_t *c, int from, int to, int n,
                    MPI_Datatype type, int factor, void *buf)
{
    ag_lay_out(&b->stream, &b->stream_cap, c, from, n, type, factor, call->salt + (uint64_t)to * 37u, buf);
}

static void call_checked(const ag_call_t *call, int mpi_library, w_buffers_t *b, ag_result_t *res)
{
    const int p = call->size, me = call->rank;
    memset(res, 0, sizeof *res);
    reserve(b, p);
    size_t *bytes = harness_grow(NULL, (size_t)p * sizeof *bytes);
    for (int r = 0; r < p; r++) {
        b->elems[r] = elements(call, me, r);
        b->relems[r] = elements(call, r, me);
        b->scase[r] = pair_case(call, me, r);
        b->rcase[r] = pair_case(call, r, me);
        b->rcounts[r] = b->relems[r] * b->rcase[r]->rfactor;
        b->rtypes[r] = b->rcase[r]->rtype;
        bytes[r] = (size_t)b->rcounts[r] * (size_t)b->rcase[r]->rext;
    }
    size_t span = place(call, bytes, b->rdispls, 0x7ecULL + (uint64_t)me * 977);
    size_t total = HARNESS_GUARD + span + HARNESS_GUARD;
    harness_reserve(&b->recv, &b->recv_cap, total);
    b->ref = harness_grow(b->ref, b->recv_cap);
    unsigned char *recv = b->recv + HARNESS_GUARD;
    harness_fill_pattern(b->recv, total, call->salt ^ 0x7e7e7eULL);
    memcpy(b->ref, b->recv, total);
    for (int r = 0; r < p; r++)
        lay_out(b, call, b->rcase[r], r, me, b->relems[r], b->rtypes[r], b->rcase[r]->rfactor,
                b->ref + HARNESS_GUARD + b->rdispls[r]);
    const void *sendbuf = MPI_IN_PLACE;
    const int *scounts = NULL, *sdispls = NULL;
    const MPI_Datatype *stypes = NULL;
    size_t send_bytes = 0;
    if (call->inplace) { /* my block for r where r's block to me will be (the same case and size) */
        for (int r = 0; r < p; r++)
            lay_out(b, call, b->scase[r], me, r, b->elems[r], b->rtypes[r], b->rcase[r]->rfactor, recv + b->rdispls[r]);
        for (int r = 0; r < p; r++) b->scounts[r] = -1, b->sdispls[r] = -1, b->stypes[r] = MPI_DATATYPE_NULL;
        if (call->salt & 1) scounts = b->scounts, sdispls = b->sdispls, stypes = b->stypes; /* ignored */
    } else {
        for (int r = 0; r < p; r++) {
            b->scounts[r] = b->elems[r] * b->scase[r]->sfactor;
            b->stypes[r] = b->scase[r]->stype;
            bytes[r] = (size_t)b->scounts[r] * (size_t)b->scase[r]->sext;
        }
        send_bytes = place(call, bytes, b->sdispls, 0x5ecULL + (uint64_t)me * 991) + HARNESS_GUARD;
        harness_reserve(&b->send, &b->send_cap, send_bytes);
        b->send_copy = harness_grow(b->send_copy, b->send_cap);
        harness_fill_pattern(b->send, send_bytes, call->salt ^ 0x5e5e5eULL);
        for (int r = 0; r < p; r++)
            lay_out(b, call, b->scase[r], me, r, b->elems[r], b->stypes[r], b->scase[r]->sfactor, b->send + b->sdispls[r]);
        memcpy(b->send_copy, b->send, send_bytes);
        sendbuf = b->send, scounts = b->scounts, sdispls = b->sdispls, stypes = b->stypes;
    }
    free(bytes);
    const size_t nb = (size_t)p * sizeof(int), nt = (size_t)p * sizeof(MPI_Datatype);
    memcpy(b->copies, b->scounts, nb);
    memcpy(b->copies + p, b->sdispls, nb);
    memcpy(b->copies + 2 * p, b->rcounts, nb);
    memcpy(b->copies + 3 * p, b->rdispls, nb);
    memcpy(b->tcopies, b->stypes, nt);
    memcpy(b->tcopies + p, b->rtypes, nt);

    harness_watchdog_arm();
    int rc = mpi_library ? PMPI_Alltoallw(sendbuf, scounts, sdispls, stypes, recv, b->rcounts, b->rdispls, b->rtypes,
                                          call->comm)
                         : papcoll_alltoallw_by_name(call->algo, sendbuf, scounts, sdispls, stypes, recv, b->rcounts,
                                                     b->rdispls, b->rtypes, call->comm);
    harness_watchdog_call_done();
    res->rc = rc;
    res->ran = mpi_library ? "the MPI library" : papcoll_last_algorithm();
    if (memcmp(b->copies, b->scounts, nb) || memcmp(b->copies + p, b->sdispls, nb) ||
        memcmp(b->copies + 2 * p, b->rcounts, nb) || memcmp(b->copies + 3 * p, b->rdispls, nb) ||
        memcmp(b->tcopies, b->stypes, nt) || memcmp(b->tcopies + p, b->rtypes, nt))
        HARNESS_PROBLEM(res, "the count, displacement or datatype arrays changed");
    if (rc != MPI_SUCCESS) {
        HARNESS_PROBLEM(res, "returned %s", harness_class_name(rc));
        return;
    }
    if (!mpi_library && (!harness_ran_ok(call->algo, res->ran) ||
                         (!strcmp(call->algo, "auto") && !harness_is_algorithm("alltoall", res->ran))))
        HARNESS_PROBLEM(res, "papcoll_last_algorithm()=\"%s\"", res->ran);
    size_t first = 0;
    long bad = harness_differences(b->recv, b->ref, total, &first);
    if (bad) {
        long at = (long)first - HARNESS_GUARD;
        int in = -1;
        for (int r = 0; r < p && in < 0; r++)
            if (b->relems[r] && at >= b->rdispls[r] &&
                at < b->rdispls[r] + (long)b->rcounts[r] * (long)b->rcase[r]->rext)
                in = r;
        HARNESS_PROBLEM(res, "%ld wrong bytes in the receive buffer; the first at byte %ld (block from %d, case %s): "
                        "got %02x want %02x", bad, at, in, in >= 0 ? b->rcase[in]->name : "-", b->recv[first],
                        b->ref[first]);
    }
    if (send_bytes && harness_differences(b->send, b->send_copy, send_bytes, &first))
        HARNESS_PROBLEM(res, "the send buffer changed (first at byte %zu of %zu)", first, send_bytes - HARNESS_GUARD);
}

/* ---- the MPI library's own MPI_Alltoallw ------------------------------------- */

static int largest_count(void)
{
    int large = 7;
    for (int n = 0; n < NCOUNTS; n++)
        if (matrix_count_selected(&m, counts[n]) && counts[n] > large) large = counts[n];
    return large;
}

/* 1 when PMPI_Alltoallw gets case c right on comm (every layout, count 7
 * and the largest, in place or not; the same answer on every process). */
static int mpi_library_ok(const ag_case_t *c, MPI_Comm comm, int large)
{
#ifdef PAPCOLL_SMPI
    (void)c, (void)comm, (void)large;
    return 0;
#else
    int rank, size, bad = 0, any_bad;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int inplace = 0; inplace < 2; inplace++)
        for (uint64_t layout = 0; layout < 4; layout++)
            for (int n = 7;; n = large) {
                ag_call_t call = {2, "native", c, n, inplace, comm, rank, size, layout << 8 | (uint64_t)inplace};
                ag_result_t res;
                harness_watchdog_label("probe of MPI_Alltoallw: case=%s count=%d layout=%d%s", c->name, n,
                                       (int)layout, inplace ? " in-place" : "");
                call_checked(&call, 1, &buffers, &res);
                bad |= res.problems != 0;
                if (n >= large) break;
            }
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, comm);
    return !any_bad;
#endif
}

static char *library_ok; /* [case][shape] */

static void probe_mpi_library(void)
{
    library_ok = malloc((size_t)ag_case_count() * HARNESS_NSHAPES);
    for (int ci = 0; ci < ag_case_count(); ci++)
        for (int s = 0; s < HARNESS_NSHAPES; s++) {
            int ok = mpi_library_ok(ag_case_at(ci), shapes.comm[s], largest_count()), all_ok;
            MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            library_ok[ci * HARNESS_NSHAPES + s] = (char)all_ok;
#ifndef PAPCOLL_SMPI
            if (!all_ok && m.world_rank == 0)
                printf("note: the MPI library's own MPI_Alltoallw gets case %s wrong on shape %s: papcoll's native "
                       "and auto are skipped there\n", ag_case_at(ci)->name, harness_shape_names[s]);
#endif
        }
#ifdef PAPCOLL_SMPI
    if (m.world_rank == 0) printf("note: SMPI's own MPI_Alltoallw is not probed: native and auto are skipped\n");
#endif
    fflush(stdout);
}

/* ---- the matrix -------------------------------------------------------------- */

static int create_contexts(MPI_Comm comm) { return papcoll_alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm); }
static int known_case(const char *name) { return ag_case_find(name) != NULL; }
static void print_list(void)
{
    ag_cases_print();
    harness_print_algorithms("alltoall");
}

static void run_combination(const matrix_point_t *p)
{
    const char *algo = algos[p->algo];
    const ag_case_t *c = ag_case_at(p->case_index);
    const int s = p->shape;
    if ((!strcmp(algo, "native") || !strcmp(algo, "auto")) && !library_ok[p->case_index * HARNESS_NSHAPES + s]) {
        m.skipped++;
        return;
    }
    uint64_t salt;
    if (!matrix_point_drawn(&m, p, "alltoallw", algo, c->name, c->weight, &salt)) return;
    ag_call_t call = {2, algo, c, p->count, p->inplace, shapes.comm[s], shapes.rank[s], shapes.size[s], salt};
    matrix_label("alltoallw", algo, c->name, call.count, s, call.size, -1, p->inplace, p->delayed);
    ag_result_t res;
    call_checked(&call, 0, &buffers, &res);
    matrix_report(&m, res.problems, res.ran, res.rc, res.first, "", algo, c->name, call.count);
}

static int form_selected(int f) { return (void)f, 1; }
static const char *case_name(int ci) { return ag_case_at(ci)->name; }
static int algorithms(int f) { return (void)f, nalgo; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    matrix_init(&m, &spec, argc, argv);
    nalgo = matrix_algorithms(&m, "alltoall", 1, &algos);
    matrix_banner(&m, "test_alltoallw_matrix", algos, nalgo);
    harness_watchdog_init(m.opt.call_timeout, 0, m.world_rank);
    harness_matrix_shapes_init(&shapes, create_contexts, 1);
    probe_mpi_library();
    const matrix_loops_t loops = {1, form_selected, ag_case_count(), case_name, NULL, algorithms, run_combination};
    matrix_run(&m, &loops);
    harness_watchdog_off();
    long totals[4];
    matrix_totals(&m, totals);
    matrix_forms_summary(&m, "test_alltoallw_matrix", "alltoallw", nalgo, ag_case_count(), totals,
                         "where the MPI library itself is wrong or not probed");
    harness_matrix_shapes_free(&shapes);
    harness_list_free(algos, nalgo);
    buffers_free(&buffers);
    free(library_ok);
    ag_cases_free();
    return matrix_finalize(totals[1] != 0);
}
