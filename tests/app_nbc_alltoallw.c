/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_nbc_alltoallw.c - an unmodified program's MPI_Ialltoallw through the
 * preloaded interposer, each result compared whole (holes included) with
 * the MPI library's own blocking PMPI_Alltoallw of the same data: per peer
 * either n contiguous MPI_INT or one vector of n ints with a hole after
 * each (the peer receives it as the other: the same signature), n of 0 to
 * 300 differing between pairs (zeros among them), byte displacements in
 * reverse rank order on the receive side, in place or not; two calls
 * outstanding at once, completed in one of 8 ways; on MPI_COMM_WORLD and a
 * reversed-order communicator; the error class of bad arguments against
 * PMPI_Ialltoallw's.  MPICH 4.0's own MPI_Ialltoallw fails in place
 * ("Message truncated" from its local copy, seen with 4.0.2): where the
 * library's call runs (native, or no papcoll) on MPICH 4.0 the in-place
 * calls are left out (a note says so); papcoll's schedules serve them.
 * Usage: app_nbc_alltoallw SEED [algorithm|native]: with papcoll preloaded,
 * papcoll_last_algorithm (dlsym) must name it, else anything but native.
 * Exit 0 and "OK" on success.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_nbc_util.h"

enum { SENTINEL = -7, MAXN = 300 };

/* ints from a to b (symmetric in a and b, so in place matches both ways) */
static int pair_n(int a, int b, int salt)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    int k = (lo * 5 + hi * 3 + salt) % 4;
    return k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 7 : MAXN;
}

typedef struct call {
    int inplace, salt, p;
    int *s, *r, *want;
    long len;
    int *counts; /* sc, sd, rc, rd: 4 p */
    MPI_Datatype *types; /* st, rt: 2 p */
    MPI_Datatype holes[4]; /* vectors of 1, 7, 300 ints with holes (index by n class), [0] unused */
} call_t;

static int nclass(int n) { return n == 1 ? 1 : n == 7 ? 2 : 3; }

static void start(call_t *c, MPI_Comm comm, MPI_Request *req)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    c->p = p;
    static const int lens[4] = {0, 1, 7, MAXN};
    for (int k = 1; k < 4; k++) {
        MPI_Type_vector(lens[k], 1, 2, MPI_INT, &c->holes[k]);
        MPI_Type_commit(&c->holes[k]);
    }
    c->len = (long)p * 2 * MAXN;
    c->s = malloc(sizeof(int) * (size_t)c->len), c->r = malloc(sizeof(int) * (size_t)c->len);
    c->want = malloc(sizeof(int) * (size_t)c->len);
    c->counts = malloc(4 * (size_t)p * sizeof(int));
    c->types = malloc(2 * (size_t)p * sizeof(MPI_Datatype));
    int *sc = c->counts, *sd = sc + p, *rc = sc + 2 * p, *rd = sc + 3 * p;
    MPI_Datatype *st = c->types, *rt = st + p;
    for (int q = 0; q < p; q++) {
        int n = pair_n(me, q, c->salt);
        int s_holes = (me + q + c->salt) % 2, r_holes = c->inplace ? s_holes : !s_holes;
        st[q] = n && s_holes ? c->holes[nclass(n)] : MPI_INT, sc[q] = n && s_holes ? 1 : n;
        rt[q] = n && r_holes ? c->holes[nclass(n)] : MPI_INT, rc[q] = n && r_holes ? 1 : n;
        sd[q] = q * 2 * MAXN * (int)sizeof(int);
        rd[q] = (p - 1 - q) * 2 * MAXN * (int)sizeof(int);
    }
    for (long i = 0; i < c->len; i++) c->s[i] = SENTINEL, c->r[i] = c->want[i] = SENTINEL - 1;
    for (int q = 0; q < p; q++) { /* my data for q, where the send (or, in place, receive) layout wants it */
        int n = pair_n(me, q, c->salt);
        int *at = c->inplace ? c->r + rd[q] / (int)sizeof(int) : c->s + sd[q] / (int)sizeof(int);
        int stride = (c->inplace ? rt[q] : st[q]) == MPI_INT ? 1 : 2;
        for (int i = 0; i < n; i++) at[i * stride] = 100000 * me + 1000 * q + i + c->salt;
    }
    /* the reference: the library's own blocking call on copies */
    int *ref_s = malloc(sizeof(int) * (size_t)c->len);
    memcpy(ref_s, c->s, sizeof(int) * (size_t)c->len);
    memcpy(c->want, c->r, sizeof(int) * (size_t)c->len);
    int rc_ = PMPI_Alltoallw(c->inplace ? MPI_IN_PLACE : ref_s, sc, sd, st, c->want, rc, rd, rt, comm);
    CHECK(rc_ == MPI_SUCCESS, "reference PMPI_Alltoallw: error %d", rc_);
    free(ref_s);
    MPI_Ialltoallw(c->inplace ? MPI_IN_PLACE : c->s, sc, sd, st, c->r, rc, rd, rt, comm, req);
}

static void finish(call_t *c, const char *cname)
{
    for (long i = 0; i < c->len; i++)
        if (c->r[i] != c->want[i]) {
            CHECK(0, "%s ialltoallw inplace=%d salt=%d: int %ld is %d, expected %d", cname, c->inplace, c->salt, i,
                  c->r[i], c->want[i]);
            break;
        }
    free(c->s), free(c->r), free(c->want), free(c->counts), free(c->types);
    for (int k = 1; k < 4; k++) MPI_Type_free(&c->holes[k]);
}

static const char *expect_arg;
static int skip_inplace; /* the MPI library's own in-place call is known wrong */

static void test_alltoallw(MPI_Comm comm, const char *cname, int *calls)
{
    for (int round = 0; round < 4; round++) {
        call_t c[2];
        MPI_Request req[2];
        int how = *calls;
        for (int v = 0; v < 2; v++) {
            c[v] = (call_t){.inplace = v && !skip_inplace, .salt = (*calls)++};
            delay();
            start(&c[v], comm, &req[v]);
            if (last_algorithm) {
                const char *got = last_algorithm();
                if (expect_arg) CHECK(strcmp(got, expect_arg) == 0, "ialltoallw ran %s, expected %s", got, expect_arg);
                else CHECK(strcmp(got, "native") != 0, "ialltoallw ran native");
            }
        }
        complete(req, 2, how);
        for (int v = 0; v < 2; v++) finish(&c[v], cname);
    }
}

static void test_errors(void)
{
    int p, buf[4] = {0}, out[4], counts[64], displs[64];
    MPI_Datatype types[64], bad[64];
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int i = 0; i < p && i < 64; i++) counts[i] = 0, displs[i] = 0, types[i] = MPI_INT, bad[i] = MPI_DATATYPE_NULL;
    counts[0] = 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request r = MPI_REQUEST_NULL, q = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    SAME("ialltoallw comm null", MPI_Ialltoallw(buf, counts, displs, types, out, counts, displs, types, MPI_COMM_NULL, &r),
         PMPI_Ialltoallw(buf, counts, displs, types, out, counts, displs, types, MPI_COMM_NULL, &q));
    SAME("ialltoallw type null", MPI_Ialltoallw(buf, counts, displs, types, out, counts, displs, bad, w, &r),
         PMPI_Ialltoallw(buf, counts, displs, types, out, counts, displs, bad, w, &q));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int p = app_nbc_init(&argc, &argv, &expect_arg);
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    int library_runs = !last_algorithm || (expect_arg && strcmp(expect_arg, "native") == 0);
    skip_inplace = library_runs && strstr(version, "MPICH Version:") && strstr(version, "Version:\t4.0");
    if (skip_inplace && rank_w == 0) printf("note: MPICH 4.0's own MPI_Ialltoallw in place is known wrong: not run\n");
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank_w, &rev);
    int calls = 0;
    test_alltoallw(MPI_COMM_WORLD, "world", &calls);
    test_alltoallw(rev, "reversed", &calls);
    if (p <= 64) test_errors();
    MPI_Comm_free(&rev);
    char what[96];
    snprintf(what, sizeof what, "%d calls, last %s", calls, last_algorithm ? last_algorithm() : "(no papcoll)");
    int status = app_nbc_summary("app_nbc_alltoallw", what);
    MPI_Finalize();
    return status;
}
