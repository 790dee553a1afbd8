/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gather_call.c - see gather_call.h.
 */
#include "gather_call.h"

#include "bcast_call.h"
#include "buffers.h"
#include "errors.h"
#include "lists.h"
#include "watchdog.h"

#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- datatype cases ------------------------------------------------------ */

typedef struct {
    ag_case_t pub;
    unsigned char *rmask; /* [rext] 1 for the data bytes of one receive datatype */
} case_t;

static case_t *cases;
static int ncases;
enum { MAX_DERIVED = 8 };
static MPI_Datatype derived[MAX_DERIVED];
static int nderived;

static MPI_Datatype keep(MPI_Datatype t)
{
    MPI_Type_commit(&t);
    derived[nderived++] = t;
    return t;
}

/* The data bytes of one element of `type`: unpack 0xFF bytes into zeros. */
static unsigned char *data_mask(MPI_Datatype type, MPI_Aint extent)
{
    int size, pos = 0;
    MPI_Type_size(type, &size);
    unsigned char *mask = calloc((size_t)extent, 1), *ones = malloc((size_t)size);
    memset(ones, 0xFF, (size_t)size);
    MPI_Unpack(ones, size, &pos, mask, 1, type, MPI_COMM_SELF);
    for (MPI_Aint i = 0; i < extent; i++) mask[i] = mask[i] != 0;
    free(ones);
    return mask;
}

static void add_case(const char *name, MPI_Datatype st, int sf, MPI_Datatype rt, int rf, int weight)
{
    int ssize, rsize, rank;
    MPI_Aint lb, sext, rext;
    MPI_Type_size(st, &ssize);
    MPI_Type_size(rt, &rsize);
    MPI_Type_get_extent(st, &lb, &sext);
    MPI_Type_get_extent(rt, &lb, &rext);
    if ((size_t)ssize * (size_t)sf != (size_t)rsize * (size_t)rf) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0) fprintf(stderr, "gather_call: case %s left out: signatures differ in size\n", name);
        return;
    }
    case_t *c = &cases[ncases++];
    memset(c, 0, sizeof *c);
    snprintf(c->pub.name, sizeof c->pub.name, "%s", name);
    c->pub.stype = st;
    c->pub.rtype = rt;
    c->pub.sfactor = sf;
    c->pub.rfactor = rf;
    c->pub.sext = sext;
    c->pub.rext = rext;
    c->pub.bytes = (size_t)ssize * (size_t)sf;
    c->pub.gaps = sext != ssize || rext != rsize;
    c->pub.weight = weight;
    c->rmask = data_mask(rt, rext);
}

int ag_cases_init(void)
{
    enum { NCASES = 9 };
    cases = calloc(NCASES, sizeof *cases);
    /* vector(2,3,5,int) resized to 36 bytes: ints 3-4 and bytes 32-35 are gaps */
    MPI_Datatype v, vec, contig4, s, strct, pk, packed;
    MPI_Type_vector(2, 3, 5, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 36, &vec);
    MPI_Type_free(&v);
    vec = keep(vec);
    MPI_Type_contiguous(4, MPI_INT, &contig4);
    contig4 = keep(contig4);
    /* {char at 0, double at 8, int[2] at 16}, extent 24: bytes 1-7 are gaps;
     * the same signature packed: {char at 0, double at 1, int[2] at 9}, extent 17 */
    int blocks[3] = {1, 1, 2};
    MPI_Aint aligned[3] = {0, 8, 16}, tight[3] = {0, 1, 9};
    MPI_Datatype members[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(3, blocks, aligned, members, &s);
    MPI_Type_create_resized(s, 0, 24, &strct);
    MPI_Type_free(&s);
    strct = keep(strct);
    MPI_Type_create_struct(3, blocks, tight, members, &pk);
    MPI_Type_create_resized(pk, 0, 17, &packed);
    MPI_Type_free(&pk);
    packed = keep(packed);

    add_case("MPI_INT", MPI_INT, 1, MPI_INT, 1, 1);
    add_case("MPI_DOUBLE", MPI_DOUBLE, 1, MPI_DOUBLE, 1, 1);
    add_case("MPI_CHAR", MPI_CHAR, 1, MPI_CHAR, 1, 1);
    add_case("vector2x3s5", vec, 1, vec, 1, 2);
    add_case("MPI_INTx6/vector2x3s5", MPI_INT, 6, vec, 1, 2);
    add_case("struct_cdi2", strct, 1, strct, 1, 2);
    add_case("struct_cdi2/packed_cdi2", strct, 1, packed, 1, 2);
    add_case("MPI_INTx4/contig4", MPI_INT, 4, contig4, 1, 2);
    add_case("contig4/MPI_INTx4", contig4, 1, MPI_INT, 4, 2);
    return ncases;
}

int ag_case_count(void) { return ncases; }
const ag_case_t *ag_case_at(int i) { return i >= 0 && i < ncases ? &cases[i].pub : NULL; }

const ag_case_t *ag_case_find(const char *name)
{
    for (int i = 0; i < ncases; i++)
        if (!strcmp(cases[i].pub.name, name)) return &cases[i].pub;
    return NULL;
}

void ag_cases_free(void)
{
    for (int i = 0; i < ncases; i++) free(cases[i].rmask);
    free(cases);
    cases = NULL;
    ncases = 0;
    for (int i = 0; i < nderived; i++) MPI_Type_free(&derived[i]);
    nderived = 0;
}

void ag_cases_print(void)
{
    printf("cases (%d): send datatype x sfactor / receive datatype x rfactor per element\n", ncases);
    for (int i = 0; i < ncases; i++) {
        const ag_case_t *c = &cases[i].pub;
        printf("  %-26s %2zu data bytes, send %d x extent %2ld, receive %d x extent %2ld%s, weight %d\n", c->name,
               c->bytes, c->sfactor, (long)c->sext, c->rfactor, (long)c->rext, c->gaps ? ", gaps" : "", c->weight);
    }
}

static const unsigned char *rmask_of(const ag_case_t *c) { return ((const case_t *)c)->rmask; }

/* ---- buffers ------------------------------------------------------------- */

void ag_buffers_free(ag_buffers_t *b)
{
    free(b->send);
    free(b->send_copy);
    free(b->recv);
    free(b->ref);
    free(b->stream);
    free(b->counts);
    free(b->displs);
    free(b->counts_copy);
    free(b->displs_copy);
    memset(b, 0, sizeof *b);
}

static void reserve_ranks(ag_buffers_t *b, int p)
{
    if (p <= b->ranks_cap) return;
    size_t n = (size_t)p * sizeof(int);
    b->counts = harness_grow(b->counts, n);
    b->displs = harness_grow(b->displs, n);
    b->counts_copy = harness_grow(b->counts_copy, n);
    b->displs_copy = harness_grow(b->displs_copy, n);
    b->ranks_cap = p;
}

/* ---- layout -------------------------------------------------------------- */

size_t ag_layout(const ag_call_t *call, int *counts, int *displs)
{
    const int p = call->size, rf = call->c->rfactor;
    if (!call->vform) {
        for (int r = 0; r < p; r++) {
            counts[r] = call->count;
            displs[r] = r * call->count * rf;
        }
        return (size_t)p * (size_t)call->count * (size_t)rf * (size_t)call->c->rext;
    }
    test_rng_t g;
    test_rng_seed(&g, mix(call->salt ^ 0xa11a7e5ULL));
    for (int r = 0; r < p; r++)
        counts[r] = call->count == 0 || test_rng_below(&g, 4) == 0 ? 0 : 1 + test_rng_below(&g, 2 * call->count);
    if (p > 1 && call->count > 0) { /* at least one empty and one non-empty block */
        int z = test_rng_below(&g, p);
        counts[z] = 0;
        if (!counts[(z + 1) % p]) counts[(z + 1) % p] = call->count;
    }
    return (size_t)ag_place_blocks(&g, p, counts, rf, displs) * (size_t)call->c->rext;
}

long ag_place_blocks(test_rng_t *g, int p, const int *elems, int factor, int *displs)
{
    /* blocks in a shuffled order (never rank order), random gaps between them */
    int *order = harness_grow(NULL, (size_t)p * sizeof(int));
    for (int r = 0; r < p; r++) order[r] = r;
    for (int r = p - 1; r > 0; r--) {
        int j = test_rng_below(g, r + 1), t = order[r];
        order[r] = order[j];
        order[j] = t;
    }
    if (p > 1) {
        int increasing = 1;
        for (int r = 1; r < p; r++) increasing &= order[r] > order[r - 1];
        if (increasing) order[0] = 1, order[1] = 0;
    }
    long at = test_rng_below(g, 3);
    for (int i = 0; i < p; i++) {
        int r = order[i];
        if (!elems[r]) continue;
        displs[r] = (int)at;
        at += (long)elems[r] * factor + (test_rng_below(g, 3) ? test_rng_below(g, 3) : 0);
    }
    for (int r = 0; r < p; r++) /* anywhere: nothing may be written for an empty block */
        if (!elems[r]) displs[r] = test_rng_below(g, (int)at + 1);
    free(order);
    return at;
}

/* ---- the checked call ------------------------------------------------------ */

void ag_lay_out(unsigned char **stream, size_t *stream_cap, const ag_case_t *c, int r, int n, MPI_Datatype type,
                int factor, uint64_t salt, void *buf)
{
    size_t bytes = (size_t)n * c->bytes;
    if (!bytes) return;
    harness_reserve(stream, stream_cap, bytes);
    for (size_t k = 0; k < bytes; k++) (*stream)[k] = ag_data_byte(k, r, salt);
    int pos = 0;
    MPI_Unpack(*stream, (int)bytes, &pos, buf, n * factor, type, MPI_COMM_SELF);
}

/* Where offset `at` of the receive area (front guard included) lies. */
static void describe(const ag_case_t *c, int p, const int *rcounts, const int *displs, size_t span, size_t at,
                     char *out, size_t len)
{
    if (at < HARNESS_GUARD) {
        snprintf(out, len, "the guard before the receive buffer (byte %ld)", (long)at - HARNESS_GUARD);
        return;
    }
    size_t o = at - HARNESS_GUARD;
    if (o >= span) {
        snprintf(out, len, "the guard past the receive buffer (byte %zu past its end)", o - span);
        return;
    }
    for (int r = 0; r < p; r++) {
        size_t start = (size_t)displs[r] * (size_t)c->rext, end = start + (size_t)rcounts[r] * (size_t)c->rext;
        if (!rcounts[r] || o < start || o >= end) continue;
        size_t in_block = o - start, e = in_block / (size_t)c->rext;
        int data = rmask_of(c)[in_block % (size_t)c->rext];
        snprintf(out, len, "%s byte of rank %d's block (receive datatype %zu of %d, byte %zu of the block)",
                 data ? "a data" : "a GAP", r, e, rcounts[r], in_block);
        return;
    }
    snprintf(out, len, "between blocks, where nothing is to be written (byte %zu of the buffer)", o);
}

long ag_receive_differences(const ag_case_t *c, int p, const int *rcounts, const int *displs, size_t span,
                            const unsigned char *got, const unsigned char *want, size_t *first, char *where,
                            size_t len)
{
    long bad = harness_differences(got, want, HARNESS_GUARD + span + HARNESS_GUARD, first);
    if (bad) describe(c, p, rcounts, displs, span, *first, where, len);
    return bad;
}

void ag_call_checked(const ag_call_t *call, ag_buffers_t *b, ag_result_t *res)
{
    const ag_case_t *c = call->c;
    const int p = call->size, me = call->rank;
    const uint64_t send_salt = call->salt ^ 0x5e5e5eULL, recv_salt = call->salt ^ 0x7e7e7eULL;
    memset(res, 0, sizeof *res);
    reserve_ranks(b, p);
    const size_t span = ag_layout(call, b->counts, b->displs), total = HARNESS_GUARD + span + HARNESS_GUARD;
    harness_reserve(&b->recv, &b->recv_cap, total);
    b->ref = harness_grow(b->ref, b->recv_cap);

    /* expected receive area: sentinel, every rank's contribution in its block */
    unsigned char *recv = b->recv + HARNESS_GUARD;
    harness_fill_pattern(b->recv, total, recv_salt);
    memcpy(b->ref, b->recv, total);
    for (int r = 0; r < p; r++)
        ag_lay_out(&b->stream, &b->stream_cap, c, r, b->counts[r], c->rtype, c->rfactor, call->salt,
                   b->ref + HARNESS_GUARD + (size_t)b->displs[r] * (size_t)c->rext);
    const int mine = b->counts[me];
    const void *sendbuf = MPI_IN_PLACE;
    int sendcount = 0;
    MPI_Datatype sendtype = MPI_DATATYPE_NULL; /* ignored with MPI_IN_PLACE */
    size_t send_bytes = 0;
    if (call->inplace) {
        ag_lay_out(&b->stream, &b->stream_cap, c, me, mine, c->rtype, c->rfactor, call->salt,
                   recv + (size_t)b->displs[me] * (size_t)c->rext);
        if (call->salt & 1) sendcount = mine * c->sfactor, sendtype = c->stype;
    } else {
        send_bytes = (size_t)mine * (size_t)c->sfactor * (size_t)c->sext + HARNESS_GUARD;
        harness_reserve(&b->send, &b->send_cap, send_bytes);
        b->send_copy = harness_grow(b->send_copy, b->send_cap);
        harness_fill_pattern(b->send, send_bytes, send_salt);
        ag_lay_out(&b->stream, &b->stream_cap, c, me, mine, c->stype, c->sfactor, call->salt, b->send);
        memcpy(b->send_copy, b->send, send_bytes);
        sendbuf = b->send;
        sendcount = mine * c->sfactor;
        sendtype = c->stype;
    }
    for (int r = 0; r < p; r++) b->counts[r] *= c->rfactor; /* receive datatypes from here on */
    memcpy(b->counts_copy, b->counts, (size_t)p * sizeof(int));
    memcpy(b->displs_copy, b->displs, (size_t)p * sizeof(int));

    harness_watchdog_arm();
    int rc = call->vform ? papcoll_allgatherv_by_name(call->algo, sendbuf, sendcount, sendtype, recv, b->counts,
                                                      b->displs, c->rtype, call->comm)
                         : papcoll_allgather_by_name(call->algo, sendbuf, sendcount, sendtype, recv,
                                                     call->count * c->rfactor, c->rtype, call->comm);
    harness_watchdog_call_done();
    res->rc = rc;
    res->ran = papcoll_last_algorithm();
    const size_t ranks_bytes = (size_t)p * sizeof(int);
    if (call->vform &&
        (memcmp(b->counts, b->counts_copy, ranks_bytes) || memcmp(b->displs, b->displs_copy, ranks_bytes)))
        HARNESS_PROBLEM(res, "the recvcounts or displs arrays changed");
    if (rc != MPI_SUCCESS) {
        HARNESS_PROBLEM(res, "returned %s", harness_class_name(rc));
        return;
    }
    if (!harness_ran_ok(call->algo, res->ran) ||
        (!strcmp(call->algo, "auto") && !harness_is_algorithm("allgather", res->ran)))
        HARNESS_PROBLEM(res, "papcoll_last_algorithm()=\"%s\"", res->ran);

    size_t first = 0;
    char where[200];
    long bad = ag_receive_differences(c, p, b->counts_copy, b->displs_copy, span, b->recv, b->ref, &first, where,
                                      sizeof where);
    if (bad)
        HARNESS_PROBLEM(res, "%ld wrong bytes in the receive buffer; the first in %s: got %02x want %02x", bad, where,
                        b->recv[first], b->ref[first]);
    if (send_bytes && harness_differences(b->send, b->send_copy, send_bytes, &first))
        HARNESS_PROBLEM(res, "the send buffer changed (first at byte %zu of %zu)", first, send_bytes - HARNESS_GUARD);
}
