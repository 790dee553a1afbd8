/* SPDX-License-Identifier: BSD-3-Clause */
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

static const int counts[] = {0, 1, 7, 4097, 65537};
enum { NCOUNTS = sizeof counts / sizeof counts[0] };
static const char *const forms[2] = {"alltoall", "alltoallv"};

static const char *forms_opt = "alltoall,alltoallv"; /* --forms */
static const harness_opt_t own_options[] = {{"forms", HARNESS_OPT_STRING, &forms_opt}, {NULL}};
static void print_list(void);
static int known_case(const char *name);
static const matrix_spec_t spec = {
    counts, NCOUNTS, 1000,
    "  --forms=a,b       forms among alltoall,alltoallv (default both)\n"
    "  --algos=a,b       algorithm names (and auto) to run, 'x*' for a prefix (default: the library's\n"
    "                    list + auto)\n"
    "  --cases=a,b       datatype case names, e.g. MPI_INT,struct_cdi2/packed_cdi2 (default all)\n",
    own_options, ag_cases_init, print_list, known_case};

static matrix_t m;
static harness_matrix_shapes_t shapes;
static char **algos;
static int nalgo;

/* ---- one checked call ------------------------------------------------------ */

/* A call: ag_call_t (tests/harness/gather_call.h) with count the elements
 * per block (plain form) or the scale of the drawn counts (v form), and
 * vform papcoll_alltoallv_by_name, else papcoll_alltoall_by_name; or, for
 * the probes of the MPI library, PMPI_Alltoall(v). */

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

static void reserve_ranks(a2a_buffers_t *b, int p)
{
    if (p <= b->ranks_cap) return;
    size_t n = (size_t)p * sizeof(int);
    int **arrays[] = {&b->elems, &b->relems, &b->scounts, &b->sdispls, &b->rcounts, &b->rdispls};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) *arrays[i] = harness_grow(*arrays[i], n);
    b->copies = harness_grow(b->copies, 4 * n);
    b->ranks_cap = p;
}

static void buffers_free(a2a_buffers_t *b)
{
    void *all[] = {b->send, b->send_copy, b->recv, b->ref, b->stream, b->elems, b->relems,
                   b->scounts, b->sdispls, b->rcounts, b->rdispls, b->copies};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
    memset(b, 0, sizeof *b);
}

/* Elements from process i to process j: the same on every process. */
static int elements(const ag_call_t *call, int i, int j)
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
 * gaps, empty blocks anywhere (ag_place_blocks); returns the datatypes the
 * blocks span. */
static long lay_displs(const ag_call_t *call, const int *elems, int factor, int *displs, uint64_t stream)
{
    int p = call->size;
    if (!call->vform) {
        for (int r = 0; r < p; r++) displs[r] = r * call->count * factor;
        return (long)p * call->count * factor;
    }
    test_rng_t g;
    test_rng_seed(&g, mix(call->salt ^ stream));
    return ag_place_blocks(&g, p, elems, factor, displs);
}

/* Lays out the block from `from` to `to` (n elements) in buf as n x factor
 * `type`: bytes distinct per (from, to, offset, call). */
static void lay_out(a2a_buffers_t *b, const ag_call_t *call, int from, int to, int n, MPI_Datatype type,
                    int factor, void *buf)
{
    ag_lay_out(&b->stream, &b->stream_cap, call->c, from, n, type, factor, call->salt + (uint64_t)to * 37u, buf);
}

static void call_checked(const ag_call_t *call, int mpi_library, a2a_buffers_t *b, ag_result_t *res)
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
    harness_reserve(&b->recv, &b->recv_cap, total);
    b->ref = harness_grow(b->ref, b->recv_cap);
    unsigned char *recv = b->recv + HARNESS_GUARD;
    const uint64_t recv_salt = call->salt ^ 0x7e7e7eULL, send_salt = call->salt ^ 0x5e5e5eULL;
    harness_fill_pattern(b->recv, total, recv_salt);
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
        harness_reserve(&b->send, &b->send_cap, send_bytes);
        b->send_copy = harness_grow(b->send_copy, b->send_cap);
        harness_fill_pattern(b->send, send_bytes, send_salt);
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
    if (mpi_library)
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
    res->ran = mpi_library ? "the MPI library" : papcoll_last_algorithm();
    if (call->vform && (memcmp(b->copies, b->scounts, nb) || memcmp(b->copies + p, b->sdispls, nb) ||
                        memcmp(b->copies + 2 * p, b->rcounts, nb) || memcmp(b->copies + 3 * p, b->rdispls, nb)))
        HARNESS_PROBLEM(res, "the counts or displacement arrays changed");
    if (rc != MPI_SUCCESS) {
        HARNESS_PROBLEM(res, "returned %s", harness_class_name(rc));
        return;
    }
    if (!mpi_library && (!harness_ran_ok(call->algo, res->ran) ||
                               (!strcmp(call->algo, "auto") && !harness_is_algorithm("alltoall", res->ran))))
        HARNESS_PROBLEM(res, "papcoll_last_algorithm()=\"%s\"", res->ran);
    size_t first = 0;
    char where[200];
    long bad = ag_receive_differences(c, p, b->copies + 2 * p, b->copies + 3 * p, span, b->recv, b->ref, &first,
                                      where, sizeof where);
    if (bad)
        HARNESS_PROBLEM(res, "%ld wrong bytes in the receive buffer; the first in %s: got %02x want %02x", bad, where,
                        b->recv[first], b->ref[first]);
    if (send_bytes && harness_differences(b->send, b->send_copy, send_bytes, &first))
        HARNESS_PROBLEM(res, "the send buffer changed (first at byte %zu of %zu)", first, send_bytes - HARNESS_GUARD);
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
            ag_call_t call = {vform, "native", c, n, inplace, comm, rank, size, mix(0xa2a0beULL + (uint64_t)inplace)};
            ag_result_t res;
            harness_watchdog_label("probe of the MPI library: %s case=%s count=%d%s",
                                   vform ? "MPI_Alltoallv" : "MPI_Alltoall", c->name, n, inplace ? " in-place" : "");
            call_checked(&call, 1, &buffers, &res);
            bad |= res.problems != 0;
            if (n >= large) break;
        }
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, comm);
    return !any_bad;
}

/* ---- the matrix ------------------------------------------------------------ */

/* Count-0 calls while PAPCOLL_PPN is set build the communicator's context. */
static int create_contexts(MPI_Comm comm) { return papcoll_alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm); }

static int known_case(const char *name) { return ag_case_find(name) != NULL; }
/* --list (rank 0) */
static void print_list(void)
{
    ag_cases_print();
    harness_print_algorithms("alltoall");
}
static int known_form(const char *name) { return !strcmp(name, forms[0]) || !strcmp(name, forms[1]); }

static char *library_ok; /* [form][case][shape] */
#define LIBRARY_OK(f, ci, s) library_ok[((f) * ag_case_count() + (ci)) * HARNESS_NSHAPES + (s)]

/* The largest count of the run (at least 7). */
static int largest_count(void)
{
    int large = 7;
    for (int n = 0; n < NCOUNTS; n++)
        if (matrix_count_selected(&m, counts[n]) && counts[n] > large) large = counts[n];
    return large;
}

static void probe_mpi_library(void)
{
    library_ok = malloc((size_t)2 * (size_t)ag_case_count() * HARNESS_NSHAPES);
    for (int f = 0; f < 2; f++)
        for (int ci = 0; ci < ag_case_count(); ci++)
            for (int s = 0; s < HARNESS_NSHAPES; s++) {
                if (library_aborts(f, ag_case_at(ci))) {
                    LIBRARY_OK(f, ci, s) = 0;
                    if (m.world_rank == 0)
                        printf("note: the MPI library's own %s aborts on case %s: papcoll's native and auto are "
                               "skipped there\n", f ? "MPI_Alltoallv" : "MPI_Alltoall", ag_case_at(ci)->name);
                    continue;
                }
                int ok = mpi_library_ok(f, ag_case_at(ci), shapes.comm[s], largest_count()), all_ok; /* shapes split the world: agree */
                MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
                LIBRARY_OK(f, ci, s) = (char)all_ok;
                if (!all_ok && m.world_rank == 0)
                    printf("note: the MPI library's own %s gets case %s wrong on shape %s: papcoll's native and auto "
                           "(which may choose native) are skipped there\n",
                           f ? "MPI_Alltoallv" : "MPI_Alltoall", ag_case_at(ci)->name, harness_shape_names[s]);
            }
    fflush(stdout);
}

/* Runs point p of the matrix if the sample draws it, and reports problems. */
static void run_combination(const matrix_point_t *p)
{
    const char *form = forms[p->group], *algo = algos[p->algo];
    const ag_case_t *c = ag_case_at(p->case_index);
    const int s = p->shape;
    if ((!strcmp(algo, "native") || !strcmp(algo, "auto")) && !LIBRARY_OK(p->group, p->case_index, s)) {
        m.skipped++;
        return;
    }
    uint64_t salt;
    if (!matrix_point_drawn(&m, p, form, algo, c->name, c->weight, &salt)) return;
    ag_call_t call = {p->group, algo, c, p->count, p->inplace, shapes.comm[s], shapes.rank[s], shapes.size[s], salt};
    matrix_label(form, algo, c->name, call.count, s, call.size, -1, p->inplace, p->delayed);
    ag_result_t res;
    call_checked(&call, 0, &buffers, &res);
    char selection[64];
    snprintf(selection, sizeof selection, "--forms=%s", form);
    matrix_report(&m, res.problems, res.ran, res.rc, res.first, selection, algo, c->name, call.count);
}

static int form_selected(int f) { return harness_list_has(forms_opt, forms[f]); }
static const char *case_name(int ci) { return ag_case_at(ci)->name; }
static int algorithms(int f) { return (void)f, nalgo; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    matrix_init(&m, &spec, argc, argv);
    harness_list_require(forms_opt, known_form, "unknown form ", " (alltoall, alltoallv)");
    nalgo = matrix_algorithms(&m, "alltoall", 1, &algos);
    matrix_banner(&m, "test_alltoall_matrix", algos, nalgo);
    harness_watchdog_init(m.opt.call_timeout, 0, m.world_rank);
    harness_matrix_shapes_init(&shapes, create_contexts, 1);
    probe_mpi_library();
    const matrix_loops_t loops = {2, form_selected, ag_case_count(), case_name, NULL, algorithms, run_combination};
    matrix_run(&m, &loops);
    harness_watchdog_off();
    long totals[4];
    matrix_totals(&m, totals);
    matrix_forms_summary(&m, "test_alltoall_matrix", forms_opt, nalgo, ag_case_count(), totals,
                         "where the MPI library itself is wrong");
    harness_matrix_shapes_free(&shapes);
    harness_list_free(algos, nalgo);
    buffers_free(&buffers);
    free(library_ok);
    ag_cases_free();
    return matrix_finalize(totals[1] != 0);
}
