/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_nbc.c - an unmodified program's nonblocking collectives (MPI_Ibarrier,
 * MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce) through the preloaded interposer:
 *   results   every root, counts 0..70000, MPI_INT/MPI_SUM, MPI_DOUBLE/MPI_MAX,
 *             a strided vector type with a user commutative op, a 2x2 matrix
 *             product (non-commutative), MPI_IN_PLACE; on MPI_COMM_WORLD, a
 *             reversed-order communicator and halves; each checked against
 *             the result computed locally in rank order
 *   mixed     several requests outstanding on one and on two communicators,
 *             with the program's own isend/irecv, in one MPI_Waitall
 *   many      48 outstanding on one communicator, completed out of order
 *   complete  by MPI_Wait (reverse order), Waitall, Waitany, Waitsome, Test,
 *             Testall, Testany, Testsome
 *   free      MPI_Request_free of an active request (its result arrives at a
 *             later progress)
 *   handles   a user op and derived datatype freed right after the start of
 *             MPI_Ireduce, MPI_Iallreduce and MPI_Ibcast that use them
 *   errors    the error class of each bad argument, against PMPI_I<coll>'s
 *   delays    seeded random delays before starts and between tests
 *   arrival   one late process (it sleeps) in MPI_Ireduce at every root;
 *             six MPI_Ireduce outstanding with a blocking MPI_Reduce among
 *             them (ireduce dynleader's node banks: the blocking one waits
 *             for a bank a nonblocking one still holds); with
 *             APP_NBC_IREDUCE=dynleader, a non-root process of the root's
 *             node is done in its MPI_Ireduce (its first MPI_Test)
 *   blocked   (APP_NBC_THREADS=1, MPI_THREAD_MULTIPLE, 4+ processes) a peer
 *             blocked in MPI_Send while others wait: the progress thread
 * Usage: app_nbc SEED [ALGORITHM]; exit 0 and "OK" on success.  With papcoll
 * preloaded, papcoll_last_algorithm (dlsym) must not say native, unless
 * ALGORITHM is native (then it must); MPI_Iallreduce must have run
 * ALGORITHM where it applies (commutative op, count >= p); MPI_Ireduce
 * must have run APP_NBC_IREDUCE, if set, for commutative ops.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_nbc_util.h"
#include "app_common.h" /* matmul, progress_until */

/* ---- cases: a datatype, an op, inputs and the local reference ---- */

/* vector of 2 ints, stride 3: element i at int offset 3*i*? (extent resized to 6 ints) */
static void vecsum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; i++) {
        y[6 * i] += x[6 * i];
        y[6 * i + 3] += x[6 * i + 3];
    }
}

enum { K_INT_SUM, K_DOUBLE_MAX, K_VEC_USER, K_MAT_NONCOMM, K_NKINDS };
static const char *kind_name[] = {"MPI_INT/MPI_SUM", "MPI_DOUBLE/MPI_MAX", "vector2_stride3/user_commutative",
                                  "mat2x2/user_noncommutative"};
static MPI_Datatype kind_type[K_NKINDS];
static MPI_Op kind_op[K_NKINDS];
static size_t kind_extent[K_NKINDS] = {sizeof(int), sizeof(double), 6 * sizeof(int), sizeof(mat_t)};

static void setup_kinds(void)
{
    MPI_Datatype v;
    kind_type[K_INT_SUM] = MPI_INT, kind_op[K_INT_SUM] = MPI_SUM;
    kind_type[K_DOUBLE_MAX] = MPI_DOUBLE, kind_op[K_DOUBLE_MAX] = MPI_MAX;
    MPI_Type_vector(2, 1, 3, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 6 * sizeof(int), &kind_type[K_VEC_USER]);
    MPI_Type_commit(&kind_type[K_VEC_USER]);
    MPI_Type_free(&v);
    MPI_Op_create(vecsum, 1, &kind_op[K_VEC_USER]);
    MPI_Type_contiguous(4, MPI_INT, &kind_type[K_MAT_NONCOMM]);
    MPI_Type_commit(&kind_type[K_MAT_NONCOMM]);
    MPI_Op_create(matmul, 0, &kind_op[K_MAT_NONCOMM]);
}

/* Input of rank r, element i, into buf (gaps untouched). */
static void fill(int kind, void *buf, int count, int r, int salt)
{
    for (int i = 0; i < count; i++) {
        int v = (r * 131 + i * 7 + salt) % 97;
        switch (kind) {
        case K_INT_SUM: ((int *)buf)[i] = v - 40; break;
        case K_DOUBLE_MAX: ((double *)buf)[i] = v * 0.5 - (r == i % 5) * 100; break;
        case K_VEC_USER: ((int *)buf)[6 * i] = v, ((int *)buf)[6 * i + 3] = -v; break;
        case K_MAT_NONCOMM: ((mat_t *)buf)[i] = (mat_t){v % 5 + 1, r % 3, (i + r) % 4, 1 + r % 2}; break;
        }
    }
}

/* The reduction of ranks' inputs, computed locally in rank order (ranks:
 * the communicator's ranks in MPI_COMM_WORLD order doesn't matter: inputs
 * depend on the communicator rank). */
static void reference(int kind, void *out, int count, int p, int salt)
{
    char *tmp = malloc(kind_extent[kind] * (size_t)(count ? count : 1));
    memset(out, 0, kind_extent[kind] * (size_t)count);
    fill(kind, out, count, p - 1, salt);
    for (int r = p - 2; r >= 0; r--) { /* out = in(r) op out */
        memset(tmp, 0, kind_extent[kind] * (size_t)count);
        fill(kind, tmp, count, r, salt);
        int n = count;
        MPI_Datatype t = kind_type[kind];
        if (count) MPI_Reduce_local(tmp, out, n, t, kind_op[kind]);
    }
    free(tmp);
}

static int same(int kind, const void *x, const void *y, int count)
{
    if (kind == K_VEC_USER) {
        for (int i = 0; i < count; i++)
            if (((int *)x)[6 * i] != ((int *)y)[6 * i] || ((int *)x)[6 * i + 3] != ((int *)y)[6 * i + 3]) return 0;
        return 1;
    }
    return memcmp(x, y, kind_extent[kind] * (size_t)count) == 0;
}

static const char *expected; /* iallreduce's algorithm where it applies; "native": every one native */
static const char *ireduce_expected; /* APP_NBC_IREDUCE */

/* papcoll ran `what` (not the MPI library) unless told native; want: the
 * algorithm expected, or NULL. */
static void check_served(const char *what, const char *want)
{
    if (!last_algorithm) return;
    const char *got = last_algorithm();
    int native = expected && strcmp(expected, "native") == 0;
    if (native) CHECK(strcmp(got, "native") == 0, "%s ran %s, expected native", what, got);
    else if (want) CHECK(strcmp(got, want) == 0, "%s ran %s, expected %s", what, got, want);
    else CHECK(strcmp(got, "native") != 0, "%s ran native", what);
}

/* ---- results ---- */

static void test_results(MPI_Comm comm, const char *cname, int *calls)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    static const int counts[] = {0, 1, 3, 7, 64, 1000, 20000};
    for (int k = 0; k < K_NKINDS; k++)
        for (unsigned ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
            int count = counts[ci], salt = (*calls)++;
            size_t bytes = kind_extent[k] * (size_t)(count ? count : 1);
            char *in = calloc(1, bytes), *out = calloc(1, bytes), *ref = calloc(1, bytes);
            reference(k, ref, count, p, salt);
            MPI_Request req[3];
            /* iallreduce, then in place, then ireduce at a moving root */
            for (int inplace = 0; inplace < 2; inplace++) {
                memset(out, 0, bytes);
                fill(k, inplace ? out : in, count, rank, salt);
                delay();
                MPI_Iallreduce(inplace ? MPI_IN_PLACE : in, out, count, kind_type[k], kind_op[k], comm, &req[0]);
                int fits = k != K_MAT_NONCOMM && count >= p; /* rabenseifner applies */
                if (count) check_served("iallreduce", expected && fits ? expected : NULL);
                complete(req, 1, salt + inplace);
                CHECK(same(k, out, ref, count), "iallreduce %s %s count=%d inplace=%d", cname, kind_name[k], count, inplace);
            }
            int root = salt % p;
            memset(out, 0, bytes);
            fill(k, rank == root && salt % 2 ? out : in, count, rank, salt);
            MPI_Ireduce(rank == root && salt % 2 ? MPI_IN_PLACE : in, out, count, kind_type[k], kind_op[k], root, comm, &req[0]);
            if (count && k != K_MAT_NONCOMM) check_served("ireduce", ireduce_expected);
            complete(req, 1, salt + 3);
            if (rank == root) CHECK(same(k, out, ref, count), "ireduce %s %s count=%d root=%d", cname, kind_name[k], count, root);
            /* ibcast of the reference from the root */
            memset(out, 0, bytes);
            if (rank == root) memcpy(out, ref, bytes);
            delay();
            MPI_Ibcast(out, count, kind_type[k], root, comm, &req[0]);
            if (count) check_served("ibcast", NULL);
            complete(req, 1, salt + 5);
            CHECK(same(k, out, ref, count), "ibcast %s %s count=%d root=%d", cname, kind_name[k], count, root);
            free(in), free(out), free(ref);
        }
    for (int i = 0; i < 8; i++) {
        MPI_Request r;
        delay();
        MPI_Ibarrier(comm, &r);
        check_served("ibarrier", NULL);
        complete(&r, 1, i);
    }
}

/* ---- several outstanding, with the program's own messages ---- */

static void test_mixed(MPI_Comm a, MPI_Comm b, int round)
{
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int pa, pb, ra, rb;
    MPI_Comm_size(a, &pa), MPI_Comm_size(b, &pb), MPI_Comm_rank(a, &ra), MPI_Comm_rank(b, &rb);
    enum { N = 3000 };
    static int x1[N], x2[N], x3[N], y1[N], y2[N], bc[N], sendv[N], recvv[N];
    static int r1[N], r2[N], r3[N];
    MPI_Request req[10];
    int n = 0;
    for (int i = 0; i < N; i++) x1[i] = rank + i, x2[i] = 2 * rank - i, x3[i] = i % 7 + rank, sendv[i] = rank * 1000 + i;
    MPI_Irecv(recvv, N, MPI_INT, (rank + p - 1) % p, 77, MPI_COMM_WORLD, &req[n++]);
    MPI_Iallreduce(x1, y1, N, MPI_INT, MPI_SUM, a, &req[n++]);
    MPI_Ibarrier(b, &req[n++]);
    delay();
    MPI_Iallreduce(x2, y2, N, MPI_INT, MPI_MAX, b, &req[n++]);
    for (int i = 0; i < N; i++) bc[i] = ra == round % pa ? 5 * i + round : -1;
    MPI_Ibcast(bc, N, MPI_INT, round % pa, a, &req[n++]);
    MPI_Ireduce(x3, r3, N, MPI_INT, MPI_SUM, pb - 1, b, &req[n++]);
    MPI_Ibarrier(a, &req[n++]);
    MPI_Isend(sendv, N, MPI_INT, (rank + 1) % p, 77, MPI_COMM_WORLD, &req[n++]);
    (void)r1, (void)r2;
    complete(req, n, round);
    /* expected values over communicator members: gather their world ranks */
    int *wa = malloc(sizeof(int) * pa), *wb = malloc(sizeof(int) * pb);
    MPI_Allgather(&rank, 1, MPI_INT, wa, 1, MPI_INT, a);
    MPI_Allgather(&rank, 1, MPI_INT, wb, 1, MPI_INT, b);
    for (int i = 0; i < N; i++) {
        long s1 = 0, m2 = -(1L << 40), s3 = 0;
        for (int j = 0; j < pa; j++) s1 += wa[j] + i;
        for (int j = 0; j < pb; j++) m2 = m2 > 2 * wb[j] - i ? m2 : 2 * wb[j] - i, s3 += i % 7 + wb[j];
        CHECK(y1[i] == s1, "mixed iallreduce a [%d] %d != %ld", i, y1[i], s1);
        CHECK(y2[i] == m2, "mixed iallreduce b [%d]", i);
        CHECK(bc[i] == 5 * i + round, "mixed ibcast [%d]", i);
        if (rb == pb - 1) CHECK(r3[i] == s3, "mixed ireduce [%d]", i);
        CHECK(recvv[i] == ((rank + p - 1) % p) * 1000 + i, "mixed own message [%d]", i);
        if (failures) break;
    }
    free(wa), free(wb);
}

/* ---- many outstanding on one communicator, completed out of order ---- */

static void test_many(MPI_Comm comm, int round)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    enum { R = 48, N = 200 };
    static int in[R][N], out[R][N];
    MPI_Request req[R];
    for (int k = 0; k < R; k++) {
        for (int i = 0; i < N; i++) in[k][i] = k * 3 + rank + i, out[k][i] = -1;
        if (k % 3 == 2) MPI_Ibarrier(comm, &req[k]);
        else if (k % 3 == 1) MPI_Ibcast(in[k], N, MPI_INT, k % p, comm, &req[k]);
        else MPI_Iallreduce(in[k], out[k], k % 2 ? N : k + 1, MPI_INT, MPI_SUM, comm, &req[k]);
    }
    /* reverse pairs, then the rest with Waitsome */
    for (int k = R - 1; k >= R / 2; k -= 2) MPI_Wait(&req[k], MPI_STATUS_IGNORE);
    complete(req, R, round % 2 ? 3 : 2);
    for (int k = 0; k < R && !failures; k++)
        for (int i = 0; i < N; i++) {
            if (k % 3 == 1) CHECK(in[k][i] == k * 3 + k % p + i, "many ibcast %d [%d]", k, i);
            else if (k % 3 == 0 && i < (k % 2 ? N : k + 1))
                CHECK(out[k][i] == p * (k * 3 + i) + p * (p - 1) / 2, "many iallreduce %d [%d]", k, i);
        }
}

/* ---- arrival: a late process; outstanding reduces beside a blocking one ---- */

static void test_arrival(MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    enum { N = 500, R = 6 };
    static int in[N], out[R][N];
    for (int i = 0; i < N; i++) in[i] = rank * 3 + i;
    int dyn = ireduce_expected && strcmp(ireduce_expected, "dynleader") == 0;
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    for (int root = 0; root < p; root++) {
        MPI_Barrier(comm); /* every earlier request complete: the banks are free */
        if (rank == (root + 1) % p) usleep(20000); /* the late process */
        MPI_Request req;
        MPI_Ireduce(in, out[0], N, MPI_INT, MPI_SUM, root, comm, &req);
        int flag = 0;
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        /* papcoll's virtual nodes (PAPCOLL_PPN) are not visible here: only
         * the real node's root counts, with every process on one node */
        int nsize;
        MPI_Comm_size(node, &nsize);
        if (dyn && nsize == p && !getenv("PAPCOLL_PPN") && rank != root)
            CHECK(flag, "ireduce dynleader: rank %d not done at once (root %d)", rank, root);
        if (!flag) MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (rank == root)
            for (int i = 0; i < N; i++) CHECK(out[0][i] == 3 * p * (p - 1) / 2 + p * i, "late ireduce root %d [%d]", root, i);
    }
    MPI_Comm_free(&node);
    MPI_Request req[R];
    static int blocking[N];
    for (int k = 0; k < R; k++) {
        delay();
        MPI_Ireduce(in, out[k], N, MPI_INT, MPI_SUM, k % p, comm, &req[k]);
        if (k == R / 2) MPI_Reduce(in, blocking, N, MPI_INT, MPI_SUM, p - 1, comm);
    }
    complete(req, R, rank);
    for (int k = 0; k < R && !failures; k++)
        for (int i = 0; i < N && rank == k % p; i++)
            CHECK(out[k][i] == 3 * p * (p - 1) / 2 + p * i, "outstanding ireduce %d [%d]", k, i);
    if (rank == p - 1) CHECK(blocking[N - 1] == 3 * p * (p - 1) / 2 + p * (N - 1), "blocking reduce among ireduces");
}

/* ---- a peer blocked in MPI_Send (APP_NBC_THREADS=1: the progress thread) ----
 * Rank 1's barrier needs rank 3's second round, which rank 3 posts only when
 * it makes progress; rank 3 sits in a large MPI_Send to rank 1, which rank 1
 * receives after its MPI_Wait.  Only a progress thread (or the MPI library's
 * own MPI_Ibarrier) gets out of this. */
static void test_blocked_peer(void)
{
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p < 4) return;
    enum { BIG = 1 << 20 };
    int *big = calloc(BIG, sizeof(int));
    MPI_Request r;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) usleep(300000); /* rank 3's first round cannot end in its MPI_Ibarrier */
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    if (rank == 3) {
        for (int i = 0; i < BIG; i++) big[i] = i;
        MPI_Send(big, BIG, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Recv(big, BIG, MPI_INT, 3, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(big[BIG - 1] == BIG - 1, "blocked peer: message");
    } else {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    free(big);
}

/* ---- MPI_Request_free of an active request ---- */

static void test_free(MPI_Comm comm)
{
    int p;
    MPI_Comm_size(comm, &p);
    enum { N = 500 };
    static int in[N];
    static volatile int out[N];
    for (int i = 0; i < N; i++) in[i] = 1, out[i] = 0;
    MPI_Request req;
    MPI_Iallreduce(in, (int *)out, N, MPI_INT, MPI_SUM, comm, &req);
    MPI_Request_free(&req);
    CHECK(req == MPI_REQUEST_NULL, "request_free left the handle");
    int all = progress_until(out, N, p);
    CHECK(all, "freed iallreduce: %d %d, expected %d", out[0], out[N - 1], p);
    /* a freed barrier: drained at MPI_Finalize at the latest */
    MPI_Ibarrier(comm, &req);
    MPI_Request_free(&req);
}

/* ---- handles freed while in use ---- */

/* MPI lets the program free a datatype or op right after starting a
 * collective that uses it (MPI-4.1 sec. 2.5.1; MPICH's coll/nonblocking3
 * does): the collective still completes right, and the handle is null at
 * once.  A fresh copy of each user kind per call, freed before the wait,
 * with the program's own messages between start and wait. */
static void test_freed_handles(MPI_Comm comm, int round)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    enum { N = 40 };
    static const int kinds[2] = {K_VEC_USER, K_MAT_NONCOMM};
    for (int k = 0; k < 2; k++) {
        int kind = kinds[k], root = (round + k) % p;
        size_t bytes = kind_extent[kind] * N;
        char *in = calloc(1, bytes), *out_r = calloc(1, bytes), *out_a = calloc(1, bytes), *want = malloc(bytes);
        char *b = calloc(1, bytes), *bwant = calloc(1, bytes);
        fill(kind, in, N, r, round);
        fill(kind, bwant, N, root, round + 1);
        if (r == root) memcpy(b, bwant, bytes);
        reference(kind, want, N, p, round);
        MPI_Datatype type;
        MPI_Op op;
        MPI_Type_dup(kind_type[kind], &type);
        MPI_Op_create(kind == K_VEC_USER ? vecsum : matmul, kind == K_VEC_USER, &op);
        MPI_Request req[3];
        MPI_Ireduce(in, out_r, N, type, op, root, comm, &req[0]);
        MPI_Iallreduce(in, out_a, N, type, op, comm, &req[1]);
        MPI_Ibcast(b, N, type, root, comm, &req[2]);
        MPI_Op_free(&op);
        MPI_Type_free(&type);
        CHECK(op == MPI_OP_NULL && type == MPI_DATATYPE_NULL, "%s: freed handles not null", kind_name[kind]);
        int token = r, got = -1; /* the program's own traffic before the wait */
        MPI_Sendrecv(&token, 1, MPI_INT, (r + 1) % p, 77, &got, 1, MPI_INT, (r + p - 1) % p, 77, comm,
                     MPI_STATUS_IGNORE);
        MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
        CHECK(got == (r + p - 1) % p, "%s: the program's message", kind_name[kind]);
        if (r == root) CHECK(same(kind, out_r, want, N), "%s: MPI_Ireduce with freed handles", kind_name[kind]);
        CHECK(same(kind, out_a, want, N), "%s: MPI_Iallreduce with freed handles", kind_name[kind]);
        CHECK(same(kind, b, bwant, N), "%s: MPI_Ibcast with a freed datatype", kind_name[kind]);
        free(in), free(out_r), free(out_a), free(want), free(b), free(bwant);
    }
}

/* ---- error classes against the MPI library's ---- */


static void test_errors(void)
{
    int buf[4] = {0}, out[4], p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Request r = MPI_REQUEST_NULL, q = MPI_REQUEST_NULL;
    SAME("iallreduce count -1", MPI_Iallreduce(buf, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r),
         PMPI_Iallreduce(buf, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q));
    SAME("iallreduce type null", MPI_Iallreduce(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD, &r),
         PMPI_Iallreduce(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD, &q));
    SAME("iallreduce op null", MPI_Iallreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &r),
         PMPI_Iallreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &q));
    SAME("iallreduce comm null", MPI_Iallreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &r),
         PMPI_Iallreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &q));
    SAME("ireduce root p", MPI_Ireduce(buf, out, 1, MPI_INT, MPI_SUM, p, MPI_COMM_WORLD, &r),
         PMPI_Ireduce(buf, out, 1, MPI_INT, MPI_SUM, p, MPI_COMM_WORLD, &q));
    SAME("ireduce count -1", MPI_Ireduce(buf, out, -1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &r),
         PMPI_Ireduce(buf, out, -1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &q));
    SAME("ibcast root -1", MPI_Ibcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD, &r),
         PMPI_Ibcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD, &q));
    SAME("ibcast count -1", MPI_Ibcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD, &r),
         PMPI_Ibcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD, &q));
    SAME("ibcast type null", MPI_Ibcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, &r),
         PMPI_Ibcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, &q));
    SAME("ibarrier comm null", MPI_Ibarrier(MPI_COMM_NULL, &r), PMPI_Ibarrier(MPI_COMM_NULL, &q));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    const char *threads = getenv("APP_NBC_THREADS");
    int provided = MPI_THREAD_SINGLE;
    if (threads && atoi(threads)) MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else MPI_Init(&argc, &argv);
    expected = app_nbc_setup(argc, argv);
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    ireduce_expected = getenv("APP_NBC_IREDUCE");
    setup_kinds();

    MPI_Comm rev, half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank_w, &rev);
    MPI_Comm_split(MPI_COMM_WORLD, rank_w % 2, rank_w, &half);
    int calls = 0;
    test_results(MPI_COMM_WORLD, "world", &calls);
    test_results(rev, "reversed", &calls);
    test_results(half, "half", &calls);
    for (int round = 0; round < 16 && !failures; round++) test_mixed(round % 2 ? rev : MPI_COMM_WORLD, half, round);
    test_arrival(MPI_COMM_WORLD);
    test_arrival(rev);
    for (int round = 0; round < 4 && !failures; round++) test_many(round % 2 ? rev : MPI_COMM_WORLD, round);
    /* MPI 4.0 §6.12 makes freeing a collective's request erroneous (Open MPI
     * refuses it); papcoll's requests tolerate it */
    if (last_algorithm && !(expected && strcmp(expected, "native") == 0)) test_free(rev);
    for (int round = 0; round < 4 && !failures; round++) test_freed_handles(round % 2 ? rev : MPI_COMM_WORLD, round);
    if (provided == MPI_THREAD_MULTIPLE) test_blocked_peer();
    test_errors();
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);

    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_w == 0)
        printf("app_nbc: np=%d papcoll=%s: %s\n", p, last_algorithm ? "preloaded" : "absent", total ? "FAIL" : "OK");
    MPI_Finalize();
    return total ? 1 : 0;
}
