/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_nbc_blocks.c - an unmodified program's nonblocking block collectives
 * (MPI_Iallgather(v), MPI_Ialltoall(v), MPI_Igather(v), MPI_Iscatter(v),
 * MPI_Ireduce_scatter(_block)) through the preloaded interposer:
 *   blocks    block sizes of 0 to 4 pairs of ints (zeros on some processes
 *             in the v forms) and one of 5000 pairs; send and receive
 *             datatypes that differ (MPI_INT against a strided pair whose
 *             gaps must stay untouched); v forms with the blocks in reverse
 *             order and holes between them; MPI_IN_PLACE; every root; on
 *             MPI_COMM_WORLD and a reversed-order communicator.  Every
 *             receive buffer is compared whole (gaps included) with the
 *             expected one, send buffers must stay as they were.
 *   reduce    ireduce_scatter(_block): MPI_INT/MPI_SUM, the strided pair with
 *             a user commutative op, a non-commutative user op (rank order:
 *             linear, whatever was asked but native); MPI_IN_PLACE
 *   mixed     one of each outstanding at once on two communicators with the
 *             program's own isend/irecv, completed in one of 8 ways
 *   inter     iallgather and ialltoall on an intercommunicator (native)
 *   errors    the error class of bad arguments, against PMPI_I<coll>'s
 * Usage: app_nbc_blocks SEED [coll=algorithm,...|native]: with papcoll
 * preloaded papcoll_last_algorithm (dlsym) must name the algorithm given
 * for the collective (the v forms of igather and iscatter: linear for
 * binomial), or "native" for all, else anything but native.  Exit 0 and
 * "OK" on success; rank 0 prints the last algorithm of each collective.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_nbc_util.h"

enum { MAXP = 16, SENTINEL = -7, BIG = 5000 };

/* ---- layouts: K_INT (contiguous ints) and K_PAIR (2 ints at 0 and 3 of 4) ---- */

enum { K_INT, K_PAIR };
static MPI_Datatype ty[2];

/* elements of kind carrying `units` pairs of ints */
static int elems(int kind, int units) { return kind == K_INT ? 2 * units : units; }
/* int index of int j of the elements starting at element displ */
static long at(int kind, long displ, long j) { return kind == K_INT ? displ + j : (displ + j / 2) * 4 + (j % 2) * 3; }
static long ints_for(int kind, long nelem) { return kind == K_INT ? nelem : 4 * nelem; }

static int val(int src, int dst, long j, int salt) { return (int)((src * 7919L + dst * 104729L + j * 31 + salt) % 1000003); }

/* One side of a call: n blocks of units[i] pairs, the v form's blocks in
 * reverse order with a hole of one element before each, and what the
 * buffer must hold afterwards. */
typedef struct side {
    int kind, n, v;
    int units[MAXP], counts[MAXP], displs[MAXP];
    long nints;
    int *buf, *want;
} side_t;

static void side_init(side_t *s, int kind, int n, const int *units, int v)
{
    memset(s, 0, sizeof *s);
    s->kind = kind, s->n = n, s->v = v;
    long pos = 1;
    for (int i = 0; i < n; i++) s->units[i] = units[i], s->counts[i] = elems(kind, units[i]);
    for (int i = n - 1; i >= 0; i--) {
        s->displs[i] = v ? (int)pos : i * s->counts[0];
        pos += s->counts[i] + 1;
    }
    s->nints = ints_for(kind, v ? pos : (long)n * s->counts[0]) + 1;
    s->buf = malloc(sizeof(int) * (size_t)s->nints);
    s->want = malloc(sizeof(int) * (size_t)s->nints);
    for (long k = 0; k < s->nints; k++) s->buf[k] = s->want[k] = SENTINEL;
}

enum { IN_BUF = 1, IN_WANT = 2 };

/* Block i holds val(src, dst, ...): in the buffer and/or what it must hold. */
static void side_put(side_t *s, int i, int src, int dst, int salt, int where)
{
    for (long j = 0; j < 2L * s->units[i]; j++) {
        long k = at(s->kind, s->displs[i], j);
        if (where & IN_BUF) s->buf[k] = val(src, dst, j, salt);
        if (where & IN_WANT) s->want[k] = val(src, dst, j, salt);
    }
}

static void side_check(const side_t *s, const char *what)
{
    for (long k = 0; k < s->nints; k++)
        if (s->buf[k] != s->want[k]) {
            CHECK(0, "%s: int %ld of %ld is %d, expected %d", what, k, s->nints, s->buf[k], s->want[k]);
            return;
        }
}

static void side_free(side_t *s) { free(s->buf), free(s->want); }

/* ---- what papcoll must have run ---- */

static const char *expect_arg; /* "coll=algo,..." or "native" */

static void expected_of(const char *coll, int vform, char *out, size_t n)
{
    out[0] = 0;
    if (!expect_arg) return;
    if (strcmp(expect_arg, "native") == 0) {
        snprintf(out, n, "native");
        return;
    }
    size_t len = strlen(coll);
    for (const char *p = expect_arg; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, coll, len) == 0 && p[len] == '=') {
            snprintf(out, n, "%.*s", (int)strcspn(p + len + 1, ","), p + len + 1);
            if (vform && strcmp(out, "binomial") == 0) snprintf(out, n, "linear");
        }
}

static char last_of[5][64];
static const char *coll_names[5] = {"iallgather", "ialltoall", "igather", "iscatter", "ireduce_scatter"};

/* papcoll ran coll (index c) as expected (noncomm: a non-commutative op,
 * which only ireduce_scatter's linear combines in rank order). */
static void check_served(int c, int vform, int noncomm)
{
    if (!last_algorithm) return;
    const char *got = last_algorithm();
    char want[64];
    expected_of(coll_names[c], vform, want, sizeof want);
    if (noncomm && strcmp(want, "native") != 0) snprintf(want, sizeof want, "linear");
    if (want[0]) CHECK(strcmp(got, want) == 0, "%s ran %s, expected %s", coll_names[c], got, want);
    else CHECK(strcmp(got, "native") != 0, "%s ran native", coll_names[c]);
    if (!noncomm) snprintf(last_of[c], sizeof last_of[c], "%s", got);
}

/* ---- one call of a block collective: started, then checked ---- */

enum { C_ALLGATHER, C_ALLTOALL, C_GATHER, C_SCATTER };

typedef struct call {
    int coll, v, inplace, ks, kr, root, salt, big;
    side_t s, r;
    int has_r;
} call_t;

/* pairs from process i to process j (symmetric: alltoallv in place) */
static int units_of(const call_t *c, int i, int j)
{
    if (c->big) return BIG;
    if (!c->v) return c->salt % 4;
    return c->coll == C_ALLTOALL ? (i * j + i + j + c->salt) % 4 : (i * 3 + c->salt) % 5;
}

static void start(call_t *c, MPI_Comm comm, MPI_Request *req)
{
    int me, p, u[MAXP] = {0};
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int at_root = me == c->root, salt = c->salt;
    const void *sb = NULL;
    void *rb = NULL;
    switch (c->coll) {
    case C_ALLGATHER:
        for (int i = 0; i < p; i++) u[i] = units_of(c, i, 0);
        side_init(&c->s, c->ks, 1, &u[me], 0);
        side_put(&c->s, 0, me, 0, salt, IN_BUF | IN_WANT);
        side_init(&c->r, c->kr, p, u, c->v), c->has_r = 1;
        for (int i = 0; i < p; i++) side_put(&c->r, i, i, 0, salt, IN_WANT | (c->inplace && i == me ? IN_BUF : 0));
        sb = c->inplace ? MPI_IN_PLACE : c->s.buf, rb = c->r.buf;
        if (c->v)
            MPI_Iallgatherv(sb, c->s.counts[0], ty[c->ks], rb, c->r.counts, c->r.displs, ty[c->kr], comm, req);
        else
            MPI_Iallgather(sb, c->s.counts[0], ty[c->ks], rb, c->r.counts[0], ty[c->kr], comm, req);
        break;
    case C_ALLTOALL: {
        int ur[MAXP] = {0};
        for (int i = 0; i < p; i++) u[i] = units_of(c, me, i), ur[i] = units_of(c, i, me);
        side_init(&c->s, c->ks, p, u, c->v);
        side_init(&c->r, c->kr, p, ur, c->v), c->has_r = 1;
        for (int i = 0; i < p; i++) {
            side_put(&c->s, i, me, i, salt, IN_BUF | IN_WANT);
            if (c->inplace) side_put(&c->r, i, me, i, salt, IN_BUF);
            side_put(&c->r, i, i, me, salt, IN_WANT);
        }
        sb = c->inplace ? MPI_IN_PLACE : c->s.buf, rb = c->r.buf;
        if (c->v)
            MPI_Ialltoallv(sb, c->s.counts, c->s.displs, ty[c->ks], rb, c->r.counts, c->r.displs, ty[c->kr], comm, req);
        else
            MPI_Ialltoall(sb, c->s.counts[0], ty[c->ks], rb, c->r.counts[0], ty[c->kr], comm, req);
        break;
    }
    case C_GATHER:
        for (int i = 0; i < p; i++) u[i] = units_of(c, i, 0);
        side_init(&c->s, c->ks, 1, &u[me], 0);
        side_put(&c->s, 0, me, 0, salt, IN_BUF | IN_WANT);
        if (at_root) {
            side_init(&c->r, c->kr, p, u, c->v), c->has_r = 1;
            for (int i = 0; i < p; i++) side_put(&c->r, i, i, 0, salt, IN_WANT | (c->inplace && i == me ? IN_BUF : 0));
            rb = c->r.buf;
        }
        sb = c->inplace && at_root ? MPI_IN_PLACE : c->s.buf;
        if (c->v)
            MPI_Igatherv(sb, c->s.counts[0], ty[c->ks], rb, at_root ? c->r.counts : NULL, at_root ? c->r.displs : NULL,
                         ty[c->kr], c->root, comm, req);
        else
            MPI_Igather(sb, c->s.counts[0], ty[c->ks], rb, at_root ? c->r.counts[0] : 0, ty[c->kr], c->root, comm, req);
        break;
    case C_SCATTER:
        for (int i = 0; i < p; i++) u[i] = units_of(c, i, 0);
        if (at_root) {
            side_init(&c->s, c->ks, p, u, c->v);
            for (int i = 0; i < p; i++) side_put(&c->s, i, c->root, i, salt, IN_BUF | IN_WANT);
            sb = c->s.buf;
        } else {
            side_init(&c->s, c->ks, 0, u, 0);
        }
        if (!(c->inplace && at_root)) {
            side_init(&c->r, c->kr, 1, &u[me], 0), c->has_r = 1;
            side_put(&c->r, 0, c->root, me, salt, IN_WANT);
            rb = c->r.buf;
        } else {
            rb = MPI_IN_PLACE;
        }
        if (c->v)
            MPI_Iscatterv(sb, at_root ? c->s.counts : NULL, at_root ? c->s.displs : NULL, ty[c->ks], rb,
                          c->has_r ? c->r.counts[0] : 0, ty[c->kr], c->root, comm, req);
        else
            MPI_Iscatter(sb, at_root ? c->s.counts[0] : 0, ty[c->ks], rb, c->has_r ? c->r.counts[0] : 0, ty[c->kr],
                         c->root, comm, req);
        break;
    }
}

static void finish(call_t *c, const char *where)
{
    char what[160];
    snprintf(what, sizeof what, "%s %s%s v=%d inplace=%d kinds=%d,%d root=%d salt=%d", where, coll_names[c->coll],
             c->v ? "v" : "", c->v, c->inplace, c->ks, c->kr, c->root, c->salt);
    side_check(&c->s, what); /* the send buffer is untouched (scatter in place: the root's block stays) */
    if (c->has_r) side_check(&c->r, what);
    side_free(&c->s);
    if (c->has_r) side_free(&c->r);
}

static void test_blocks(MPI_Comm comm, const char *cname, int *calls)
{
    int p;
    MPI_Comm_size(comm, &p);
    static const int kinds[3][2] = {{K_INT, K_INT}, {K_INT, K_PAIR}, {K_PAIR, K_INT}};
    for (int coll = C_ALLGATHER; coll <= C_SCATTER; coll++)
        for (int v = 0; v < 2; v++)
            for (int variant = 0; variant < 4; variant++) {
                int rooted = coll == C_GATHER || coll == C_SCATTER;
                for (int root = 0; root < (rooted ? p : 1); root++) {
                    call_t c = {.coll = coll, .v = v, .root = root, .salt = (*calls)++};
                    c.inplace = variant % 2;
                    c.big = variant == 3 && root == (rooted ? p - 1 : 0);
                    c.ks = kinds[(variant + root) % 3][0], c.kr = kinds[(variant + root) % 3][1];
                    if (c.inplace && coll == C_ALLTOALL) c.ks = c.kr;
                    MPI_Request req;
                    delay();
                    start(&c, comm, &req);
                    check_served(coll, v, 0);
                    complete(&req, 1, c.salt);
                    finish(&c, cname);
                }
            }
}

/* ---- ireduce_scatter(_block) ---- */

enum { R_SUM, R_PAIR, R_LEFT };

static void pairsum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++) y[4 * i] += x[4 * i], y[4 * i + 3] += x[4 * i + 3];
}

static void left(void *in, void *inout, int *len, MPI_Datatype *t) /* x op y = x: rank 0's value */
{
    (void)t;
    memcpy(inout, in, sizeof(int) * (size_t)*len);
}

static MPI_Op op_pair, op_left;

static void test_reduce_scatter(MPI_Comm comm, const char *cname, int *calls)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (int r = R_SUM; r <= R_LEFT; r++)
        for (int v = 0; v < 2; v++)
            for (int variant = 0; variant < 4; variant++) {
                int salt = (*calls)++, kind = r == R_PAIR ? K_PAIR : K_INT, inplace = variant % 2;
                int counts[MAXP], first = 0, total = 0; /* elements */
                for (int i = 0; i < p; i++) {
                    counts[i] = variant == 3 ? 2 * BIG : v ? (i * 3 + salt) % 5 : salt % 4;
                    if (!v) counts[i] = counts[0];
                    if (i < me) first += counts[i];
                    total += counts[i];
                }
                long per = kind == K_INT ? 1 : 2, nin = ints_for(kind, total) + 1, nout = ints_for(kind, counts[me]) + 1;
                int *in = malloc(sizeof(int) * (size_t)nin), *out = malloc(sizeof(int) * (size_t)(inplace ? nin : nout));
                int *want = malloc(sizeof(int) * (size_t)nout);
                for (long k = 0; k < nin; k++) in[k] = SENTINEL;
                for (long k = 0; k < (inplace ? nin : nout); k++) out[k] = SENTINEL;
                for (long k = 0; k < nout; k++) want[k] = SENTINEL;
                for (long j = 0; j < per * total; j++) (inplace ? out : in)[at(kind, 0, j)] = val(me, 0, j, salt);
                for (long j = 0; j < per * counts[me]; j++) {
                    long sum = 0, g = per * first + j;
                    for (int q = 0; q < p; q++) sum += val(q, 0, g, salt);
                    want[at(kind, 0, j)] = r == R_LEFT ? val(0, 0, g, salt) : (int)sum;
                }
                MPI_Op op = r == R_SUM ? MPI_SUM : r == R_PAIR ? op_pair : op_left;
                MPI_Request req;
                delay();
                if (v) MPI_Ireduce_scatter(inplace ? MPI_IN_PLACE : in, out, counts, ty[kind], op, comm, &req);
                else MPI_Ireduce_scatter_block(inplace ? MPI_IN_PLACE : in, out, counts[0], ty[kind], op, comm, &req);
                check_served(4, v, r == R_LEFT);
                complete(&req, 1, salt);
                long check = inplace ? ints_for(kind, counts[me]) : nout; /* in place: the rest is undefined */
                for (long k = 0; k < check; k++)
                    if (out[k] != want[k] && !(inplace && want[k] == SENTINEL)) {
                        CHECK(0, "%s ireduce_scatter%s op=%d inplace=%d salt=%d: int %ld is %d, expected %d", cname,
                              v ? "" : "_block", r, inplace, salt, k, out[k], want[k]);
                        break;
                    }
                free(in), free(out), free(want);
            }
}

/* ---- one of each outstanding with the program's own messages ---- */

static void test_mixed(MPI_Comm a, MPI_Comm b, int round)
{
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);

    enum { N = 2000 };
    static int own_out[N], own_in[N];
    int rs_in[MAXP * 4], rs_out[4], pb;
    MPI_Comm_size(b, &pb);
    call_t c[5] = {
        {.coll = C_ALLTOALL, .v = 1, .salt = round, .ks = K_INT, .kr = K_PAIR},
        {.coll = C_GATHER, .v = round % 2, .root = round % pb, .salt = round + 1, .ks = K_PAIR, .kr = K_INT},
        {.coll = C_ALLGATHER, .v = 1, .salt = round + 2, .inplace = 1, .ks = K_INT, .kr = K_INT},
        {.coll = C_SCATTER, .v = round % 2, .root = (round + 1) % pb, .salt = round + 3, .ks = K_INT, .kr = K_PAIR},
        {.coll = C_ALLTOALL, .v = 0, .salt = round + 4, .ks = K_PAIR, .kr = K_INT},
    };
    MPI_Request req[10];
    int n = 0;
    for (int i = 0; i < N; i++) own_out[i] = me * 1000 + i + round;
    MPI_Irecv(own_in, N, MPI_INT, (me + p - 1) % p, 78, MPI_COMM_WORLD, &req[n++]);
    for (int k = 0; k < 5; k++) {
        start(&c[k], k % 2 ? b : a, &req[n++]);
        if (k == 2) {
            int rb;
            MPI_Comm_rank(b, &rb);
            for (int i = 0; i < 4 * pb; i++) rs_in[i] = rb + i;
            MPI_Ireduce_scatter_block(rs_in, rs_out, 4, MPI_INT, MPI_SUM, b, &req[n++]);
        }
        delay();
    }
    MPI_Isend(own_out, N, MPI_INT, (me + 1) % p, 78, MPI_COMM_WORLD, &req[n++]);
    complete(req, n, round);
    for (int k = 0; k < 5; k++) finish(&c[k], "mixed");
    int rb;
    MPI_Comm_rank(b, &rb);
    for (int i = 0; i < 4; i++) CHECK(rs_out[i] == pb * (4 * rb + i) + pb * (pb - 1) / 2, "mixed ireduce_scatter_block [%d]", i);
    for (int i = 0; i < N; i++) CHECK(own_in[i] == ((me + p - 1) % p) * 1000 + i + round, "mixed own message [%d]", i);
}

/* ---- intercommunicators: the MPI library's own ---- */

static void test_intercomm(void)
{
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p < 2) return;
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 ? 0 : 1, 31, &inter);
    int remote, out[MAXP * 2], in[MAXP * 2], mine[2] = {me, -me};
    MPI_Comm_remote_size(inter, &remote);
    MPI_Request req[2];
    MPI_Iallgather(mine, 2, MPI_INT, out, 2, MPI_INT, inter, &req[0]);
    if (last_algorithm) CHECK(strcmp(last_algorithm(), "native") == 0, "iallgather on an intercommunicator ran %s", last_algorithm());
    for (int i = 0; i < remote; i++) in[i] = 100 * me + i;
    MPI_Ialltoall(in, 1, MPI_INT, in + remote, 1, MPI_INT, inter, &req[1]);
    if (last_algorithm) CHECK(strcmp(last_algorithm(), "native") == 0, "ialltoall on an intercommunicator ran %s", last_algorithm());
    complete(req, 2, me);
    int lrank;
    MPI_Comm_rank(inter, &lrank);
    for (int i = 0; i < remote; i++) { /* remote rank i is world rank 2 i + (other parity) */
        int w = 2 * i + (me % 2 ? 0 : 1);
        CHECK(out[2 * i] == w && out[2 * i + 1] == -w, "intercommunicator iallgather [%d]", i);
        CHECK(in[remote + i] == 100 * w + lrank, "intercommunicator ialltoall [%d]", i);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/* ---- argument errors: the MPI library's own call reports them ---- */

static void test_errors(void)
{
    int buf[4 * MAXP] = {0}, out[4 * MAXP], counts[MAXP], displs[MAXP], p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int i = 0; i < p; i++) counts[i] = 1, displs[i] = i;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request r = MPI_REQUEST_NULL, q = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    SAME("iallgather count -1", MPI_Iallgather(buf, -1, MPI_INT, out, 1, MPI_INT, w, &r),
         PMPI_Iallgather(buf, -1, MPI_INT, out, 1, MPI_INT, w, &q));
    SAME("iallgatherv type null", MPI_Iallgatherv(buf, 1, MPI_INT, out, counts, displs, MPI_DATATYPE_NULL, w, &r),
         PMPI_Iallgatherv(buf, 1, MPI_INT, out, counts, displs, MPI_DATATYPE_NULL, w, &q));
    SAME("ialltoall type null", MPI_Ialltoall(buf, 1, MPI_DATATYPE_NULL, out, 1, MPI_INT, w, &r),
         PMPI_Ialltoall(buf, 1, MPI_DATATYPE_NULL, out, 1, MPI_INT, w, &q));
    SAME("ialltoallv comm null", MPI_Ialltoallv(buf, counts, displs, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_NULL, &r),
         PMPI_Ialltoallv(buf, counts, displs, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_NULL, &q));
    SAME("igather root p", MPI_Igather(buf, 1, MPI_INT, out, 1, MPI_INT, p, w, &r),
         PMPI_Igather(buf, 1, MPI_INT, out, 1, MPI_INT, p, w, &q));
    SAME("igatherv root -1", MPI_Igatherv(buf, 1, MPI_INT, out, counts, displs, MPI_INT, -1, w, &r),
         PMPI_Igatherv(buf, 1, MPI_INT, out, counts, displs, MPI_INT, -1, w, &q));
    SAME("iscatter type null", MPI_Iscatter(buf, 1, MPI_INT, out, 1, MPI_DATATYPE_NULL, 0, w, &r),
         PMPI_Iscatter(buf, 1, MPI_INT, out, 1, MPI_DATATYPE_NULL, 0, w, &q));
    SAME("iscatterv root p", MPI_Iscatterv(buf, counts, displs, MPI_INT, out, 1, MPI_INT, p, w, &r),
         PMPI_Iscatterv(buf, counts, displs, MPI_INT, out, 1, MPI_INT, p, w, &q));
    SAME("ireduce_scatter comm null", MPI_Ireduce_scatter(buf, out, counts, MPI_INT, MPI_SUM, MPI_COMM_NULL, &r),
         PMPI_Ireduce_scatter(buf, out, counts, MPI_INT, MPI_SUM, MPI_COMM_NULL, &q));
    SAME("ireduce_scatter_block op null", MPI_Ireduce_scatter_block(buf, out, 1, MPI_INT, MPI_OP_NULL, w, &r),
         PMPI_Ireduce_scatter_block(buf, out, 1, MPI_INT, MPI_OP_NULL, w, &q));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    expect_arg = app_nbc_setup(argc, argv);
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p > MAXP) {
        if (rank_w == 0) printf("app_nbc_blocks: at most %d processes\n", MAXP);
        MPI_Finalize();
        return 1;
    }
    MPI_Datatype v2;
    MPI_Type_vector(2, 1, 3, MPI_INT, &v2);
    MPI_Type_create_resized(v2, 0, 4 * sizeof(int), &ty[K_PAIR]);
    MPI_Type_commit(&ty[K_PAIR]);
    MPI_Type_free(&v2);
    ty[K_INT] = MPI_INT;
    MPI_Op_create(pairsum, 1, &op_pair);
    MPI_Op_create(left, 0, &op_left);

    MPI_Comm rev, half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank_w, &rev);
    MPI_Comm_split(MPI_COMM_WORLD, rank_w % 2, rank_w, &half);
    int calls = 0;
    test_blocks(MPI_COMM_WORLD, "world", &calls);
    test_blocks(rev, "reversed", &calls);
    test_reduce_scatter(MPI_COMM_WORLD, "world", &calls);
    test_reduce_scatter(rev, "reversed", &calls);
    for (int round = 0; round < 8 && !failures; round++) test_mixed(round % 2 ? rev : MPI_COMM_WORLD, half, round);
    test_intercomm();
    test_errors();
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    MPI_Op_free(&op_pair);
    MPI_Op_free(&op_left);
    MPI_Type_free(&ty[K_PAIR]);

    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_w == 0) {
        printf("app_nbc_blocks: np=%d papcoll=%s:", p, last_algorithm ? "preloaded" : "absent");
        for (int c = 0; c < 5; c++) printf(" %s=%s", coll_names[c], last_of[c][0] ? last_of[c] : "-");
        printf(": %s\n", total ? "FAIL" : "OK");
    }
    MPI_Finalize();
    return total ? 1 : 0;
}
