/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_large_count - an ordinary MPI program calling MPI-4's large-count
 * collectives (MPI_Bcast_c ...), for the drop-in test of pmpi/large_count.c:
 * run with LD_PRELOAD=libpapcoll_mpi.so on an MPI library that has them
 * (MPICH 4.0).  Two modes:
 *
 *   app_large_count ordinary
 *       every served _c function (bcast, reduce, allreduce, scan, exscan,
 *       reduce_scatter(_block), allgather(v), alltoall(v), gather(v),
 *       scatter(v)) with ordinary counts, compared byte for byte with the
 *       library's PMPI_<coll>_c on the same inputs: several counts (zero
 *       included), datatypes (a vector with gaps for the data movers),
 *       ops (a non-commutative user op), every root, MPI_IN_PLACE; the v
 *       forms with uneven counts, zeros and reversed displacements; negative
 *       counts give the library's error class.  Checks that MPI_Bcast_c
 *       resolves to libpapcoll_mpi.  With PAPCOLL_LARGE_COUNT_LIMIT=k the
 *       counts above k take papcoll's paths beyond int.
 *   app_large_count big
 *       beyond 2^31 elements, 2 processes: MPI_Bcast_c of 2^31 + 7
 *       MPI_SIGNED_CHAR, MPI_Allreduce_c (MPI_IN_PLACE, MPI_SUM) of 2^31 + 7
 *       MPI_UINT8_T, MPI_Gather_c of 2^31 + 5 MPI_CHAR per process (block 1
 *       at byte 2^31 + 5 of the root's buffer; the root in place),
 *       contents checked at sampled positions.  About 6 GiB at the peak.
 */
#define _GNU_SOURCE /* dladdr */
#include <mpi.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, bad;

#define EXPECT(cond, ...)                                        \
    do {                                                         \
        if (!(cond)) {                                           \
            if (bad++ < 20) {                                    \
                fprintf(stderr, "rank %d: FAIL line %d: ", rank, __LINE__); \
                fprintf(stderr, __VA_ARGS__);                    \
                fputc('\n', stderr);                             \
            }                                                    \
        }                                                        \
    } while (0)

/* ------------------------------------------------------------------ */
/* ordinary counts, against PMPI_<coll>_c                              */

typedef struct {
    const char *name;
    MPI_Datatype type;
    int ints_per_elem; /* the type is made of ints (or of bytes: 0) */
} dtype_t;

static MPI_Datatype vec_type; /* 2 ints, stride 3: gaps */
static long limit;            /* PAPCOLL_LARGE_COUNT_LIMIT, 0 if unset */

/* Counts of more than 50 pieces of limit are left out (one call per piece). */
static int too_many_pieces(MPI_Count n) { return limit > 0 && n > 50 * (MPI_Count)limit; }

static unsigned char pattern(int who, size_t i, int salt) { return (unsigned char)(who * 37 + i * 11 + salt * 5 + 1); }

static void fill(void *buf, size_t bytes, int who, int salt)
{
    for (size_t i = 0; i < bytes; i++) ((unsigned char *)buf)[i] = pattern(who, i, salt);
}

/* Ints with small values, so sums are exact and do not overflow. */
static void fill_ints(int *v, size_t n, int who, int salt)
{
    for (size_t i = 0; i < n; i++) v[i] = (int)((who * 7 + i * 3 + salt) % 1000) - 300;
}

static void fill_doubles(double *v, size_t n, int who, int salt)
{
    for (size_t i = 0; i < n; i++) v[i] = (double)((who * 5 + i * 13 + salt) % 777) * 0.5;
}

/* Non-commutative, associative: a o b = a (the lower rank's value). */
static void first_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    memcpy(inout, in, (size_t)*len * sizeof(int));
}

static void compare(const char *what, const void *x, const void *y, size_t bytes)
{
    if (bytes && memcmp(x, y, bytes)) {
        size_t i = 0;
        while (((const unsigned char *)x)[i] == ((const unsigned char *)y)[i]) i++;
        EXPECT(0, "%s: differs from PMPI at byte %zu of %zu", what, i, bytes);
    }
}

typedef enum { C_BCAST, C_REDUCE, C_ALLREDUCE, C_SCAN, C_EXSCAN, C_RSB, C_RS, NRED } red_coll_t;
static const char *const red_names[] = {"bcast", "reduce", "allreduce", "scan", "exscan", "reduce_scatter_block",
                                        "reduce_scatter"};

/* One reduction-like call (or bcast), by papcoll (pm = 0) or PMPI (pm = 1). */
static int run_red(int pm, red_coll_t c, void *sb, void *rb, MPI_Count n, const MPI_Count *counts, MPI_Datatype t,
                   MPI_Op op, int root)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (c) {
    case C_BCAST: return pm ? PMPI_Bcast_c(rb, n, t, root, w) : MPI_Bcast_c(rb, n, t, root, w);
    case C_REDUCE: return pm ? PMPI_Reduce_c(sb, rb, n, t, op, root, w) : MPI_Reduce_c(sb, rb, n, t, op, root, w);
    case C_ALLREDUCE: return pm ? PMPI_Allreduce_c(sb, rb, n, t, op, w) : MPI_Allreduce_c(sb, rb, n, t, op, w);
    case C_SCAN: return pm ? PMPI_Scan_c(sb, rb, n, t, op, w) : MPI_Scan_c(sb, rb, n, t, op, w);
    case C_EXSCAN: return pm ? PMPI_Exscan_c(sb, rb, n, t, op, w) : MPI_Exscan_c(sb, rb, n, t, op, w);
    case C_RSB:
        return pm ? PMPI_Reduce_scatter_block_c(sb, rb, n, t, op, w) : MPI_Reduce_scatter_block_c(sb, rb, n, t, op, w);
    default: return pm ? PMPI_Reduce_scatter_c(sb, rb, counts, t, op, w) : MPI_Reduce_scatter_c(sb, rb, counts, t, op, w);
    }
}

static void reductions(void)
{
    static const MPI_Count counts[] = {0, 1, 7, 1000, 70001};
    MPI_Op first;
    MPI_Op_create(first_op, 0, &first);
    struct {
        MPI_Datatype t;
        size_t esize;
        MPI_Op op;
        const char *name;
    } cases[] = {{MPI_INT, 4, MPI_SUM, "int/sum"},
                 {MPI_DOUBLE, 8, MPI_MAX, "double/max"},
                 {MPI_UINT8_T, 1, MPI_BXOR, "uint8/bxor"},
                 {MPI_INT, 4, first, "int/user_noncommutative"}};
    for (int c = 0; c < NRED; c++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
                for (int root = 0; root < (c == C_BCAST || c == C_REDUCE ? size : 1); root++)
                    for (int inplace = 0; inplace < 2; inplace++) {
                        if (c == C_BCAST && (inplace || k)) continue;
                        MPI_Count n = counts[ci], total = n;
                        if (too_many_pieces(n)) continue;
                        MPI_Count *rcounts = malloc((size_t)size * sizeof *rcounts);
                        for (int i = 0; i < size; i++) rcounts[i] = (n + i * 5) % 11 * (n > 7 ? n / 7 : 1);
                        if (c == C_RSB) total = n * size;
                        if (c == C_RS) {
                            total = 0;
                            for (int i = 0; i < size; i++) total += rcounts[i];
                        }
                        size_t es = cases[k].esize, sbytes = (size_t)total * es + 1;
                        size_t rbytes = (c == C_RSB || c == C_RS) && !inplace ? (size_t)(c == C_RSB ? n : rcounts[rank]) * es + 1
                                                                              : sbytes;
                        char *sb[2], *rb[2];
                        for (int pm = 0; pm < 2; pm++) {
                            sb[pm] = calloc(1, sbytes);
                            rb[pm] = malloc(rbytes);
                            if (cases[k].t == MPI_INT) fill_ints((int *)sb[pm], (size_t)total, rank, (int)ci);
                            else if (cases[k].t == MPI_DOUBLE) fill_doubles((double *)sb[pm], (size_t)total, rank, (int)ci);
                            else fill(sb[pm], sbytes, rank, (int)ci);
                            memset(rb[pm], 0x5a, rbytes);
                            if (inplace || c == C_BCAST) memcpy(rb[pm], sb[pm], sbytes < rbytes ? sbytes : rbytes);
                        }
                        int rc[2];
                        if (getenv("APP_LARGE_COUNT_TRACE"))
                            fprintf(stderr, "rank %d: %s %s count=%lld root=%d inplace=%d\n", rank, red_names[c],
                                    cases[k].name, (long long)n, root, inplace);
                        for (int pm = 0; pm < 2; pm++) {
                            void *s = inplace && !(c == C_REDUCE && rank != root) ? MPI_IN_PLACE : sb[pm];
                            /* MPICH 4.0.2's MPI_Reduce crashes in place at a root other than 0
                             * (pmodels/mpich#6540): the reference gets a copy of the data instead */
                            if (pm && c == C_REDUCE && s == MPI_IN_PLACE && root != 0) s = sb[pm];
                            rc[pm] = run_red(pm, c, s, rb[pm], n, rcounts, cases[k].t, cases[k].op, root);
                        }
                        char what[128];
                        snprintf(what, sizeof what, "%s_c %s count=%lld root=%d%s", red_names[c], cases[k].name,
                                 (long long)n, root, inplace ? " in place" : "");
                        EXPECT(rc[0] == MPI_SUCCESS && rc[1] == MPI_SUCCESS, "%s: rc %d/%d", what, rc[0], rc[1]);
                        int significant = !(c == C_REDUCE && rank != root) && !(c == C_EXSCAN && rank == 0);
                        size_t result = c == C_RSB ? (size_t)n * es : c == C_RS ? (size_t)rcounts[rank] * es : rbytes;
                        if (significant) compare(what, rb[0], rb[1], result); /* reduce_scatter in place: the rest undefined */
                        for (int pm = 0; pm < 2; pm++) {
                            free(sb[pm]);
                            free(rb[pm]);
                        }
                        free(rcounts);
                    }
    MPI_Op_free(&first);
}

typedef enum { B_ALLGATHER, B_ALLTOALL, B_GATHER, B_SCATTER, B_ALLGATHERV, B_ALLTOALLV, B_GATHERV, B_SCATTERV, NBLK } blk_coll_t;
static const char *const blk_names[] = {"allgather", "alltoall", "gather", "scatter",
                                        "allgatherv", "alltoallv", "gatherv", "scatterv"};

static int run_blk(int pm, blk_coll_t c, const void *sb, const MPI_Count *sc, MPI_Count scount, const MPI_Aint *sd,
                   MPI_Datatype st, void *rb, const MPI_Count *rc, MPI_Count rcount, const MPI_Aint *rd,
                   MPI_Datatype rt, int root)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (c) {
    case B_ALLGATHER:
        return pm ? PMPI_Allgather_c(sb, scount, st, rb, rcount, rt, w) : MPI_Allgather_c(sb, scount, st, rb, rcount, rt, w);
    case B_ALLTOALL:
        return pm ? PMPI_Alltoall_c(sb, scount, st, rb, rcount, rt, w) : MPI_Alltoall_c(sb, scount, st, rb, rcount, rt, w);
    case B_GATHER:
        return pm ? PMPI_Gather_c(sb, scount, st, rb, rcount, rt, root, w)
                  : MPI_Gather_c(sb, scount, st, rb, rcount, rt, root, w);
    case B_SCATTER:
        return pm ? PMPI_Scatter_c(sb, scount, st, rb, rcount, rt, root, w)
                  : MPI_Scatter_c(sb, scount, st, rb, rcount, rt, root, w);
    case B_ALLGATHERV:
        return pm ? PMPI_Allgatherv_c(sb, scount, st, rb, rc, rd, rt, w) : MPI_Allgatherv_c(sb, scount, st, rb, rc, rd, rt, w);
    case B_ALLTOALLV:
        return pm ? PMPI_Alltoallv_c(sb, sc, sd, st, rb, rc, rd, rt, w) : MPI_Alltoallv_c(sb, sc, sd, st, rb, rc, rd, rt, w);
    case B_GATHERV:
        return pm ? PMPI_Gatherv_c(sb, scount, st, rb, rc, rd, rt, root, w)
                  : MPI_Gatherv_c(sb, scount, st, rb, rc, rd, rt, root, w);
    default:
        return pm ? PMPI_Scatterv_c(sb, sc, sd, st, rb, rcount, rt, root, w)
                  : MPI_Scatterv_c(sb, sc, sd, st, rb, rcount, rt, root, w);
    }
}

/* Elements process `who` sends process `to` in the v forms: uneven, some zero. */
static MPI_Count vcount(MPI_Count n, int who, int to) { return (n * (1 + (who + 2 * to) % 3)) / 2; }

static void blocks(void)
{
    static const MPI_Count counts[] = {0, 1, 5, 999, 40000};
    struct {
        MPI_Datatype t;
        const char *name;
    } types[] = {{MPI_INT, "int"}, {MPI_SIGNED_CHAR, "signed_char"}, {vec_type, "vector2x1s3"}};
    for (int c = 0; c < NBLK; c++)
        for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
                for (int root = 0; root < (c == B_GATHER || c == B_SCATTER || c == B_GATHERV || c == B_SCATTERV ? size : 1);
                     root++)
                    for (int inplace = 0; inplace < 2; inplace++) {
                        MPI_Datatype t = types[k].t;
                        MPI_Aint lb, ext;
                        MPI_Type_get_extent(t, &lb, &ext);
                        MPI_Count n = counts[ci];
                        if (too_many_pieces(n)) continue;
                        int vform = c >= B_ALLGATHERV, at_root = rank == root;
                        int rooted = c == B_GATHER || c == B_SCATTER || c == B_GATHERV || c == B_SCATTERV;
                        /* per-peer counts and displacements (reversed order, gaps of 2 elements) */
                        MPI_Count *sc = malloc((size_t)size * sizeof *sc), *rc = malloc((size_t)size * sizeof *rc);
                        MPI_Aint *sd = malloc((size_t)size * sizeof *sd), *rd = malloc((size_t)size * sizeof *rd);
                        MPI_Count stotal = 0, rtotal = 0;
                        for (int i = size - 1; i >= 0; i--) {
                            int src_of_block = i;
                            if (c == B_ALLGATHERV || c == B_GATHERV) rc[i] = vcount(n, src_of_block, 0);
                            else if (c == B_SCATTERV) rc[i] = 0;
                            else rc[i] = vform ? vcount(n, i, rank) : n;
                            sc[i] = c == B_SCATTERV ? vcount(n, i, 0) : vform ? vcount(n, rank, i) : n;
                            sd[i] = stotal;
                            rd[i] = rtotal;
                            stotal += sc[i] + 2;
                            rtotal += rc[i] + 2;
                        }
                        if (!vform) {
                            for (int i = 0; i < size; i++) sd[i] = rd[i] = (MPI_Aint)i * n;
                            stotal = rtotal = n * size;
                        }
                        MPI_Count scount = c == B_ALLGATHERV || c == B_GATHERV ? vcount(n, rank, 0) : n;
                        MPI_Count rcount = c == B_SCATTERV ? vcount(n, rank, 0) : n;
                        /* buffer sizes in elements */
                        MPI_Count selems = c == B_ALLTOALL || c == B_ALLTOALLV || c == B_SCATTER || c == B_SCATTERV ? stotal
                                                                                                                  : scount;
                        MPI_Count relems = c == B_SCATTER || c == B_SCATTERV ? rcount : rtotal;
                        if (c == B_SCATTERV || c == B_SCATTER) selems = stotal > 0 ? stotal : 1;
                        int use_inplace = inplace && (!rooted || at_root);
                        if (inplace && c == B_ALLTOALLV) { /* in place: the receive layout is the send layout */
                            /* every process must then send what it receives: symmetric counts */
                            for (int i = 0; i < size; i++) rc[i] = sc[i] = n * ((i + rank) % 2 + 1) / 2;
                            MPI_Count tot = 0;
                            for (int i = size - 1; i >= 0; i--) rd[i] = sd[i] = tot, tot += rc[i] + 1;
                            relems = selems = tot;
                        }
                        size_t sbytes = (size_t)selems * (size_t)ext + 16, rbytes = (size_t)relems * (size_t)ext + 16;
                        char *sb[2], *rb[2];
                        for (int pm = 0; pm < 2; pm++) {
                            sb[pm] = malloc(sbytes);
                            rb[pm] = malloc(rbytes);
                            fill(sb[pm], sbytes, rank, c);
                            fill(rb[pm], rbytes, rank + 100, c);
                            if (use_inplace && (c == B_ALLGATHER || c == B_GATHER)) /* my block in place */
                                memcpy(rb[pm] + (size_t)(rank * n) * (size_t)ext, sb[pm], (size_t)n * (size_t)ext);
                            if (use_inplace && (c == B_ALLGATHERV || c == B_GATHERV))
                                memcpy(rb[pm] + (size_t)rd[rank] * (size_t)ext, sb[pm], (size_t)rc[rank] * (size_t)ext);
                        }
                        int r[2];
                        for (int pm = 0; pm < 2; pm++) {
                            const void *s = sb[pm];
                            void *rv = rb[pm];
                            if (use_inplace) {
                                if (c == B_SCATTER || c == B_SCATTERV) rv = MPI_IN_PLACE;
                                else s = MPI_IN_PLACE;
                                if (c == B_ALLTOALL || c == B_ALLTOALLV) memcpy(rb[pm], sb[pm], sbytes < rbytes ? sbytes : rbytes);
                            }
                            r[pm] = run_blk(pm, c, s, sc, scount, sd, t, rv, rc, rcount, rd, t, root);
                        }
                        char what[128];
                        snprintf(what, sizeof what, "%s_c %s count=%lld root=%d%s", blk_names[c], types[k].name,
                                 (long long)n, root, use_inplace ? " in place" : "");
                        EXPECT(r[0] == MPI_SUCCESS && r[1] == MPI_SUCCESS, "%s: rc %d/%d", what, r[0], r[1]);
                        int receives = !((c == B_GATHER || c == B_GATHERV) && !at_root);
                        if (receives) compare(what, rb[0], rb[1], rbytes);
                        for (int pm = 0; pm < 2; pm++) {
                            free(sb[pm]);
                            free(rb[pm]);
                        }
                        free(sc);
                        free(rc);
                        free(sd);
                        free(rd);
                    }
}

/* Negative counts: the error class of the library's own _c function. */
static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int buf[4] = {0};
    int a = MPI_Bcast_c(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), b = PMPI_Bcast_c(buf, -1, MPI_INT, 0, MPI_COMM_WORLD);
    int ca, cb;
    MPI_Error_class(a, &ca);
    MPI_Error_class(b, &cb);
    EXPECT(ca == cb && ca == MPI_ERR_COUNT, "MPI_Bcast_c count -1: class %d, PMPI %d", ca, cb);
    /* (MPICH 4.0.2's own MPI_Allreduce_c crashes on a negative count: not compared) */
    a = MPI_Allreduce_c(MPI_IN_PLACE, buf, -3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Error_class(a, &ca);
    EXPECT(ca == MPI_ERR_COUNT, "MPI_Allreduce_c count -3: class %d", ca);
    a = MPI_Gatherv_c(buf, -2, MPI_INT, buf + 2, NULL, NULL, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Error_class(a, &ca);
    EXPECT(ca == MPI_ERR_COUNT, "MPI_Gatherv_c count -2: class %d", ca);
    a = MPI_Allgather_c(buf, 1, MPI_DATATYPE_NULL, buf + 2, 1, MPI_INT, MPI_COMM_WORLD);
    b = PMPI_Allgather_c(buf, 1, MPI_DATATYPE_NULL, buf + 2, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Error_class(a, &ca);
    MPI_Error_class(b, &cb);
    EXPECT(ca == cb && ca == MPI_ERR_TYPE, "MPI_Allgather_c MPI_DATATYPE_NULL: class %d, PMPI %d", ca, cb);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* ------------------------------------------------------------------ */
/* beyond 2^31 elements                                                */

#define BIG_N (((MPI_Count)1 << 31) + 7)
#define SAMPLE_STEP 1048573 /* a prime: samples every residue class of small periods */

static unsigned char big_value(size_t i, int salt) { return (unsigned char)((i * 131u + (size_t)salt * 17u + 7u) & 0xff); }

/* The positions checked: every SAMPLE_STEP-th and the last 4096. */
#define FOR_SAMPLES(i, n) \
    for (size_t i = 0; i < (size_t)(n); i = i + SAMPLE_STEP < (size_t)(n) - 4096 ? i + SAMPLE_STEP : (i < (size_t)(n) - 4096 ? (size_t)(n) - 4096 : i + 1))

/* papcoll ran the last call: it set the last algorithm, reset before the call. */
static void (*set_last)(const char *);
static const char *(*last)(void);
static void before(void)
{
    if (set_last) set_last("(none)");
}
static void served(const char *what)
{
    EXPECT(last && strcmp(last(), "(none)"), "%s: not run by papcoll", what);
    if (rank == 0 && last) printf("app_large_count: %s ran papcoll's %s\n", what, last());
}

static void big(void)
{
    double t0 = MPI_Wtime();
    unsigned char *buf = malloc((size_t)BIG_N);
    EXPECT(buf != NULL, "cannot allocate %lld bytes", (long long)BIG_N);
    if (!buf) return;
    /* MPI_Bcast_c: 2^31 + 7 MPI_SIGNED_CHAR from rank 1 */
    if (rank == 1)
        for (size_t i = 0; i < (size_t)BIG_N; i++) buf[i] = big_value(i, 1);
    else
        memset(buf, 0, (size_t)BIG_N);
    before();
    int rc = MPI_Bcast_c(buf, BIG_N, MPI_SIGNED_CHAR, 1, MPI_COMM_WORLD);
    served("MPI_Bcast_c");
    EXPECT(rc == MPI_SUCCESS, "MPI_Bcast_c: rc %d", rc);
    FOR_SAMPLES(i, BIG_N) EXPECT(buf[i] == big_value(i, 1), "MPI_Bcast_c: byte %zu is %d, not %d", i, buf[i], big_value(i, 1));
    double t1 = MPI_Wtime();
    /* MPI_Allreduce_c in place: 2^31 + 7 MPI_UINT8_T, MPI_SUM (modulo 256) */
    for (size_t i = 0; i < (size_t)BIG_N; i++) buf[i] = (unsigned char)(big_value(i, 0) + rank);
    before();
    rc = MPI_Allreduce_c(MPI_IN_PLACE, buf, BIG_N, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD);
    served("MPI_Allreduce_c");
    EXPECT(rc == MPI_SUCCESS, "MPI_Allreduce_c: rc %d", rc);
    FOR_SAMPLES(i, BIG_N) {
        unsigned char want = 0;
        for (int r = 0; r < size; r++) want = (unsigned char)(want + big_value(i, 0) + r);
        EXPECT(buf[i] == want, "MPI_Allreduce_c: byte %zu is %d, not %d", i, buf[i], want);
    }
    free(buf);
    double t2 = MPI_Wtime();
    /* MPI_Gather_c to rank 0 in place: 2^31 + 5 MPI_CHAR per process */
    MPI_Count n = ((MPI_Count)1 << 31) + 5;
    size_t blk = (size_t)n;
    unsigned char *all = NULL, *mine = NULL;
    if (rank == 0) {
        all = malloc(blk * (size_t)size);
        EXPECT(all != NULL, "cannot allocate the gather's buffer");
        if (!all) return;
        memset(all + blk, 0, blk * (size_t)(size - 1));
        for (size_t i = 0; i < blk; i++) all[i] = big_value(i, 100);
        before();
        rc = MPI_Gather_c(MPI_IN_PLACE, n, MPI_CHAR, all, n, MPI_CHAR, 0, MPI_COMM_WORLD);
    } else {
        mine = malloc(blk);
        EXPECT(mine != NULL, "cannot allocate the gather's block");
        if (!mine) return;
        for (size_t i = 0; i < blk; i++) mine[i] = big_value(i, 100 + rank);
        before();
        rc = MPI_Gather_c(mine, n, MPI_CHAR, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
    }
    served("MPI_Gather_c");
    EXPECT(rc == MPI_SUCCESS, "MPI_Gather_c: rc %d", rc);
    if (rank == 0)
        for (int r = 0; r < size; r++)
            FOR_SAMPLES(i, blk) EXPECT(all[(size_t)r * blk + i] == big_value(i, 100 + r),
                                       "MPI_Gather_c: block %d byte %zu is %d, not %d", r, i, all[(size_t)r * blk + i],
                                       big_value(i, 100 + r));
    free(all);
    free(mine);
    double t3 = MPI_Wtime();
    if (rank == 0)
        printf("app_large_count: bcast %.1f s, allreduce %.1f s, gather %.1f s (with filling and checking)\n", t1 - t0,
               t2 - t1, t3 - t2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "ordinary";
    limit = getenv("PAPCOLL_LARGE_COUNT_LIMIT") ? atol(getenv("PAPCOLL_LARGE_COUNT_LIMIT")) : 0;
    void *fn = dlsym(RTLD_DEFAULT, "MPI_Bcast_c");
    Dl_info info;
    int preloaded = fn && dladdr(fn, &info) && info.dli_fname && strstr(info.dli_fname, "papcoll_mpi");
    EXPECT(preloaded, "MPI_Bcast_c is not libpapcoll_mpi's");
    set_last = (void (*)(const char *))dlsym(RTLD_DEFAULT, "pc_set_last_algorithm");
    last = (const char *(*)(void))dlsym(RTLD_DEFAULT, "papcoll_last_algorithm");
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec_type);
    MPI_Type_commit(&vec_type);
    if (!strcmp(mode, "big")) {
        big();
    } else {
        reductions();
        blocks();
        errors();
    }
    MPI_Type_free(&vec_type);
    int total;
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("app_large_count %s: np=%d: %s\n", mode, size, total ? "FAIL" : "OK");
    MPI_Finalize();
    return total != 0;
}
