/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_nbc_scan.c - an unmodified program's MPI_Iscan and MPI_Iexscan
 * through the preloaded interposer, each result compared with the MPI
 * library's own blocking PMPI_Scan / PMPI_Exscan of the same data:
 *   cases     MPI_INT/MPI_SUM; a strided pair of ints (gaps that must stay
 *             untouched) with a commutative user op; 2x2 matrices mod 1009
 *             with their product, a non-commutative user op (rank order);
 *   shapes    counts 0, 1, 7 and 300; MPI_IN_PLACE or not; the four
 *             variants (iscan, iexscan, each in place or not) outstanding
 *             at once, completed in one of 8 ways; on MPI_COMM_WORLD and a
 *             reversed-order communicator;
 *             rank 0's iexscan buffer untouched; send buffers unchanged;
 *   errors    the error class of bad arguments, against PMPI_I<coll>'s.
 * Usage: app_nbc_scan SEED [algorithm|native]: with papcoll preloaded,
 * papcoll_last_algorithm (dlsym) must name it after every call, else
 * anything but native.  Exit 0 and "OK" on success.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_nbc_util.h"

enum { SENTINEL = -7, MAXCOUNT = 300, MOD = 1009 };

/* ---- the cases: an MPI datatype, an op, the ints of one element and where they lie ---- */

enum { C_SUM, C_PAIR, C_MAT, NCASES };
static MPI_Datatype case_type[NCASES];
static MPI_Op case_op[NCASES];
static const char *case_name[NCASES] = {"int/sum", "pair/user_commutative", "mat2x2/user_noncommutative"};
static const int stride[NCASES] = {1, 4, 4}; /* ints per element's extent */
static const int used[NCASES][4] = {{1, 0, 0, 0}, {1, 0, 0, 1}, {1, 1, 1, 1}}; /* which ints carry data */

static void pairsum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++) y[4 * i] += x[4 * i], y[4 * i + 3] += x[4 * i + 3];
}

static void matmul(void *in, void *inout, int *len, MPI_Datatype *t) /* inout = in x inout, mod MOD */
{
    (void)t;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++, x += 4, y += 4) {
        long a = x[0], b = x[1], c = x[2], d = x[3];
        int r[4] = {(int)((a * y[0] + b * y[2]) % MOD), (int)((a * y[1] + b * y[3]) % MOD),
                    (int)((c * y[0] + d * y[2]) % MOD), (int)((c * y[1] + d * y[3]) % MOD)};
        memcpy(y, r, sizeof r);
    }
}

/* ---- one call: buffers, the reference, the check ---- */

typedef struct call {
    int kase, count, exclusive, inplace, salt;
    long nints;
    int *send, *recv, *want, *send_copy;
} call_t;

static void start(call_t *c, MPI_Comm comm, MPI_Request *req)
{
    int me;
    MPI_Comm_rank(comm, &me);
    c->nints = (long)stride[c->kase] * (c->count > 0 ? c->count : 1);
    c->send = malloc(sizeof(int) * (size_t)c->nints), c->recv = malloc(sizeof(int) * (size_t)c->nints);
    c->want = malloc(sizeof(int) * (size_t)c->nints), c->send_copy = malloc(sizeof(int) * (size_t)c->nints);
    for (long k = 0; k < c->nints; k++) {
        int carries = used[c->kase][k % stride[c->kase]];
        c->send[k] = carries ? (int)((me * 131L + k * 17 + c->salt) % (c->kase == C_MAT ? MOD : 100000)) : SENTINEL;
        c->recv[k] = c->want[k] = SENTINEL;
    }
    memcpy(c->send_copy, c->send, sizeof(int) * (size_t)c->nints);
    /* the reference, by the MPI library's own blocking call (rank 0's exscan: its buffer as it was) */
    int rc = c->exclusive ? PMPI_Exscan(c->send, c->want, c->count, case_type[c->kase], case_op[c->kase], comm)
                          : PMPI_Scan(c->send, c->want, c->count, case_type[c->kase], case_op[c->kase], comm);
    CHECK(rc == MPI_SUCCESS, "reference %s: error %d", case_name[c->kase], rc);
    if (c->inplace) memcpy(c->recv, c->send, sizeof(int) * (size_t)c->nints);
    if ((c->exclusive && me == 0) || c->count == 0) memcpy(c->want, c->recv, sizeof(int) * (size_t)c->nints);
    const void *sb = c->inplace ? MPI_IN_PLACE : c->send;
    if (c->exclusive) MPI_Iexscan(sb, c->recv, c->count, case_type[c->kase], case_op[c->kase], comm, req);
    else MPI_Iscan(sb, c->recv, c->count, case_type[c->kase], case_op[c->kase], comm, req);
}

static void finish(call_t *c, const char *cname)
{
    for (long k = 0; k < c->nints; k++) {
        if (c->recv[k] != c->want[k]) {
            CHECK(0, "%s %s %s count=%d inplace=%d salt=%d: int %ld is %d, expected %d", cname,
                  c->exclusive ? "iexscan" : "iscan", case_name[c->kase], c->count, c->inplace, c->salt, k, c->recv[k],
                  c->want[k]);
            break;
        }
        if (!c->inplace && c->send[k] != c->send_copy[k]) {
            CHECK(0, "%s %s: send buffer changed at int %ld", cname, case_name[c->kase], k);
            break;
        }
    }
    free(c->send), free(c->recv), free(c->want), free(c->send_copy);
}

static const char *expect_arg;

static void check_served(const char *what)
{
    if (!last_algorithm) return;
    const char *got = last_algorithm();
    if (expect_arg) CHECK(strcmp(got, expect_arg) == 0, "%s ran %s, expected %s", what, got, expect_arg);
    else CHECK(strcmp(got, "native") != 0, "%s ran native", what);
}

/* Every case and count on comm, the four variants outstanding at once. */
static void test_scans(MPI_Comm comm, const char *cname, int *calls)
{
    static const int counts[] = {0, 1, 7, MAXCOUNT};
    for (int kase = 0; kase < NCASES; kase++)
        for (size_t n = 0; n < sizeof counts / sizeof counts[0]; n++) {
            call_t c[4];
            MPI_Request req[4];
            int how = *calls;
            for (int v = 0; v < 4; v++) {
                c[v] = (call_t){.kase = kase, .count = counts[n], .exclusive = v / 2, .inplace = v % 2, .salt = (*calls)++};
                delay();
                start(&c[v], comm, &req[v]);
                check_served(c[v].exclusive ? "iexscan" : "iscan");
            }
            complete(req, 4, how);
            for (int v = 0; v < 4; v++) finish(&c[v], cname);
        }
}

/* ---- argument errors: the MPI library's own call reports them ---- */

static void test_errors(void)
{
    int buf[4] = {0}, out[4];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request r = MPI_REQUEST_NULL, q = MPI_REQUEST_NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    SAME("iscan count -1", MPI_Iscan(buf, out, -1, MPI_INT, MPI_SUM, w, &r),
         PMPI_Iscan(buf, out, -1, MPI_INT, MPI_SUM, w, &q));
    SAME("iscan comm null", MPI_Iscan(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &r),
         PMPI_Iscan(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &q));
    SAME("iexscan op null", MPI_Iexscan(buf, out, 1, MPI_INT, MPI_OP_NULL, w, &r),
         PMPI_Iexscan(buf, out, 1, MPI_INT, MPI_OP_NULL, w, &q));
    SAME("iexscan type null", MPI_Iexscan(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, w, &r),
         PMPI_Iexscan(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, w, &q));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int p = app_nbc_init(&argc, &argv, &expect_arg);
    MPI_Datatype v2;
    MPI_Type_vector(2, 1, 3, MPI_INT, &v2);
    MPI_Type_create_resized(v2, 0, 4 * sizeof(int), &case_type[C_PAIR]);
    MPI_Type_commit(&case_type[C_PAIR]);
    MPI_Type_free(&v2);
    MPI_Type_contiguous(4, MPI_INT, &case_type[C_MAT]);
    MPI_Type_commit(&case_type[C_MAT]);
    case_type[C_SUM] = MPI_INT;
    case_op[C_SUM] = MPI_SUM;
    MPI_Op_create(pairsum, 1, &case_op[C_PAIR]);
    MPI_Op_create(matmul, 0, &case_op[C_MAT]);

    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank_w, &rev);
    int calls = 0;
    test_scans(MPI_COMM_WORLD, "world", &calls);
    test_scans(rev, "reversed", &calls);
    test_errors();

    MPI_Comm_free(&rev);
    MPI_Op_free(&case_op[C_PAIR]);
    MPI_Op_free(&case_op[C_MAT]);
    MPI_Type_free(&case_type[C_PAIR]);
    MPI_Type_free(&case_type[C_MAT]);
    char what[96];
    snprintf(what, sizeof what, "%d calls, last %s", calls, last_algorithm ? last_algorithm() : "(no papcoll)");
    int status = app_nbc_summary("app_nbc_scan", what);
    MPI_Finalize();
    return status;
}
