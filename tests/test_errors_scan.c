/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_errors_scan - bad arguments of papcoll_scan and papcoll_exscan get the
 * error class the MPI library itself returns (compared call by call with
 * PMPI_Scan / PMPI_Exscan), through the communicator's error handler,
 * without crash or hang (every call under the watchdog), for "auto" and,
 * where the fault is in the datatype or the operation, for every algorithm
 * forced by name; an intercommunicator is MPI_ERR_COMM as MPI_Scan gives
 * in both libraries and MPICH's MPI_Exscan (Open MPI 4.1.4's crashes; MPI
 * defines neither collective on one); valid edge cases (count 0 with
 * NULL buffers, MPI_COMM_SELF: scan copies, exscan leaves the buffer alone,
 * MPI_IN_PLACE) work, and every algorithm still computes right after the
 * errors, a non-commutative user op included.  Where the MPI library
 * crashes instead of returning an error (Open MPI 4.1 on NULL buffers,
 * MPICH 4.0.2 on a negative count), papcoll's class is checked against
 * the other library's.
 *
 *   test_errors_scan [--call-timeout=S]   (watchdog, default 30 s)
 */
#include <papcoll.h>

#include "check.h"
#include "harness/errors.h"
#include "harness/watchdog.h"

#include <stdio.h>
#include <string.h>

static int rank, size;

/* the same fault through papcoll_scan and papcoll_exscan, each against the library */
#define BOTH_VS_MPI(what, want, algo, ...)                                                                       \
    do {                                                                                                         \
        HARNESS_VS_MPI(scan, PMPI_Scan, what, want, algo, __VA_ARGS__);                                          \
        HARNESS_VS_MPI(exscan, PMPI_Exscan, what, want, algo, __VA_ARGS__);                                      \
    } while (0)
#define BOTH_PAPCOLL_ONLY(what, want, ...)                                                                       \
    do {                                                                                                         \
        HARNESS_PAPCOLL_ONLY("scan: " what, want, want, papcoll_scan(__VA_ARGS__));                              \
        HARNESS_PAPCOLL_ONLY("exscan: " what, want, want, papcoll_exscan(__VA_ARGS__));                          \
    } while (0)

static void argument_errors(MPI_Comm comm)
{
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8];
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    BOTH_VS_MPI("MPI_OP_NULL", MPI_ERR_OP, "auto", a, b, 4, MPI_INT, MPI_OP_NULL, comm);
#ifndef MPICH_VERSION
    BOTH_VS_MPI("count -1", MPI_ERR_COUNT, "auto", a, b, -1, MPI_INT, MPI_SUM, comm);
#else /* MPICH 4.0.2 asserts in its datatype engine */
    BOTH_PAPCOLL_ONLY("count -1", MPI_ERR_COUNT, a, b, -1, MPI_INT, MPI_SUM, comm);
#endif
    BOTH_VS_MPI("MPI_DATATYPE_NULL", 0, "auto", a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, comm);
    BOTH_VS_MPI("uncommitted datatype", 0, "auto", a, b, 1, uncommitted, MPI_SUM, comm);
    BOTH_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL);
    /* Open MPI 4.1 checks neither for aliased buffers, nor MPI_Exscan for MPI_IN_PLACE as recvbuf (it
     * crashes): papcoll gives MPICH's class there; its MPI_Scan says MPI_ERR_ARG for the latter */
    HARNESS_STRICT(scan, PMPI_Scan, "sendbuf == recvbuf", MPI_ERR_BUFFER, "auto", a, a, 4, MPI_INT, MPI_SUM, comm);
    HARNESS_STRICT(exscan, PMPI_Exscan, "sendbuf == recvbuf", MPI_ERR_BUFFER, "auto", a, a, 4, MPI_INT, MPI_SUM,
                   comm);
    HARNESS_VS_MPI(scan, PMPI_Scan, "recvbuf MPI_IN_PLACE", 0, "auto", a, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM, comm);
    HARNESS_VS_MPI(scan, PMPI_Scan, "both MPI_IN_PLACE", 0, "auto", MPI_IN_PLACE, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM,
                   comm);
    HARNESS_STRICT(exscan, PMPI_Exscan, "recvbuf MPI_IN_PLACE", MPI_ERR_BUFFER, "auto", a, MPI_IN_PLACE, 4, MPI_INT,
                   MPI_SUM, comm);
    HARNESS_STRICT(exscan, PMPI_Exscan, "both MPI_IN_PLACE", MPI_ERR_BUFFER, "auto", MPI_IN_PLACE, MPI_IN_PLACE, 4,
                   MPI_INT, MPI_SUM, comm);
#ifdef OPEN_MPI /* Open MPI 4.1 does not check the buffers (it crashes); MPICH returns MPI_ERR_BUFFER */
    BOTH_PAPCOLL_ONLY("NULL sendbuf, count 4", MPI_ERR_BUFFER, NULL, b, 4, MPI_INT, MPI_SUM, comm);
    BOTH_PAPCOLL_ONLY("NULL recvbuf, count 4", MPI_ERR_BUFFER, a, NULL, 4, MPI_INT, MPI_SUM, comm);
#else
    BOTH_VS_MPI("NULL sendbuf, count 4", MPI_ERR_BUFFER, "auto", NULL, b, 4, MPI_INT, MPI_SUM, comm);
    BOTH_VS_MPI("NULL recvbuf, count 4", MPI_ERR_BUFFER, "auto", a, NULL, 4, MPI_INT, MPI_SUM, comm);
#endif
    CHECK(harness_error_class(papcoll_scan_by_name("no_such_algorithm", a, b, 1, MPI_INT, MPI_SUM, comm)) ==
              MPI_ERR_ARG, "scan: unknown algorithm");
    CHECK(harness_error_class(papcoll_exscan_by_name(NULL, a, b, 1, MPI_INT, MPI_SUM, comm)) == MPI_ERR_ARG,
          "exscan: NULL algorithm name");
    MPI_Type_free(&uncommitted);

    MPI_Comm freed;
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    papcoll_scan(a, b, 1, MPI_INT, MPI_SUM, freed); /* context cached, then freed with the communicator */
    MPI_Comm_free(&freed);
    BOTH_VS_MPI("freed communicator", MPI_ERR_COMM, "auto", a, b, 1, MPI_INT, MPI_SUM, freed);
    if (size >= 2) { /* an intercommunicator between the even and the odd ranks */
        MPI_Comm half, inter;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 78, &inter);
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        HARNESS_VS_MPI(scan, PMPI_Scan, "intercommunicator", MPI_ERR_COMM, "auto", a, b, 1, MPI_INT, MPI_SUM, inter);
        /* Open MPI 4.1.4's MPI_Exscan crashes on one (no intercommunicator exscan); MPICH: MPI_ERR_COMM */
        HARNESS_STRICT(exscan, PMPI_Exscan, "intercommunicator", MPI_ERR_COMM, "auto", a, b, 1, MPI_INT, MPI_SUM,
                       inter);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
}

/* Faults in the operation or the datatype: every algorithm, as the library. */
static void operation_errors(MPI_Comm comm)
{
    int a[64] = {0}, b[64];
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int n = papcoll_algorithm_count("scan");
    for (int i = 0; i <= n; i++) {
        const char *algo = i < n ? papcoll_algorithm_name("scan", i) : "auto";
        BOTH_VS_MPI("MPI_SUM on contiguous(2,int)", MPI_ERR_OP, algo, a, b, 8, pair, MPI_SUM, comm);
        BOTH_VS_MPI("MPI_BAND on MPI_FLOAT", MPI_ERR_OP, algo, a, b, 8, MPI_FLOAT, MPI_BAND, comm);
        BOTH_VS_MPI("MPI_MINLOC on MPI_INT", MPI_ERR_OP, algo, a, b, 8, MPI_INT, MPI_MINLOC, comm);
        BOTH_VS_MPI("MPI_SUM on MPI_CHAR", -1, algo, a, b, 8, MPI_CHAR, MPI_SUM, comm);
        BOTH_VS_MPI("MPI_SUM on MPI_WCHAR", MPI_ERR_OP, algo, a, b, 8, MPI_WCHAR, MPI_SUM, comm);
        BOTH_VS_MPI("MPI_REPLACE on MPI_INT", MPI_ERR_OP, algo, a, b, 8, MPI_INT, MPI_REPLACE, comm);
    }
    MPI_Type_free(&pair);
}

/* x o y = the 2x2 matrix product x y (non-commutative), on 4 ints */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++) {
        const int *x = (const int *)in + 4 * i;
        int *y = (int *)inout + 4 * i, r[4] = {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3],
                                                x[2] * y[0] + x[3] * y[2], x[2] * y[1] + x[3] * y[3]};
        memcpy(y, r, sizeof r);
    }
}

/* rank r's matrix is [[1, r + 1], [0, 1]]: the product over ranks 0..n-1 is [[1, n (n + 1) / 2], [0, 1]] */
static int prefix_ok(const int *m, int ranks)
{
    return m[0] == 1 && m[1] == ranks * (ranks + 1) / 2 && m[2] == 0 && m[3] == 1;
}

static void valid_calls(MPI_Comm comm)
{
    int a[4], b[4];
    for (int i = 0; i < 4; i++) a[i] = 10 * rank + i;
    harness_watchdog_label("valid edge cases");
    harness_watchdog_arm();
    CHECK(papcoll_scan(NULL, NULL, 0, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS, "scan: count 0, NULL buffers");
    CHECK(papcoll_exscan(NULL, NULL, 0, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS, "exscan: count 0, NULL buffers");
    memset(b, 0, sizeof b);
    CHECK(papcoll_scan(a, b, 4, MPI_INT, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS && !memcmp(a, b, sizeof a),
          "scan on MPI_COMM_SELF");
    memset(b, 0x5a, sizeof b);
    int untouched[4];
    memcpy(untouched, b, sizeof b);
    CHECK(papcoll_exscan(a, b, 4, MPI_INT, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS && !memcmp(b, untouched, sizeof b),
          "exscan on MPI_COMM_SELF leaves the receive buffer alone");
    memcpy(b, a, sizeof b);
    CHECK(papcoll_scan(MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS && !memcmp(a, b, sizeof a),
          "scan in place on MPI_COMM_SELF");
    harness_watchdog_call_done();

    MPI_Op op;
    MPI_Op_create(matmul, 0, &op);
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    int n = papcoll_algorithm_count("scan");
    for (int i = 0; i <= n; i++) {
        const char *algo = i < n ? papcoll_algorithm_name("scan", i) : "auto";
        for (int ex = 0; ex < 2; ex++) {
            int m[4] = {1, rank + 1, 0, 1}, r[4] = {-1, -1, -1, -1}, want_calls = harness_handler_calls() + 1;
            char what[120];
            snprintf(what, sizeof what, "%s (%s) after the errors, non-commutative op", ex ? "exscan" : "scan", algo);
            harness_watchdog_label("%s", what);
            harness_watchdog_arm();
            int rc = ex ? papcoll_exscan_by_name(algo, m, r, 1, mat, op, comm)
                        : papcoll_scan_by_name(algo, m, r, 1, mat, op, comm);
            harness_watchdog_call_done();
            int ok = ex && rank == 0 ? r[0] == -1 && r[3] == -1 : prefix_ok(r, ex ? rank : rank + 1);
            failures += harness_errors_valid(what, i < n ? algo : NULL, rc, ok);
            rc = ex ? papcoll_exscan_by_name(algo, m, r, 1, mat, MPI_OP_NULL, comm)
                    : papcoll_scan_by_name(algo, m, r, 1, mat, MPI_OP_NULL, comm);
            failures += harness_errors_handled(what, rc, MPI_ERR_OP, want_calls);
        }
    }
    MPI_Type_free(&mat);
    MPI_Op_free(&op);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    harness_errors_init("test_errors_scan", argc, argv, 0);
    argument_errors(MPI_COMM_WORLD);
    operation_errors(MPI_COMM_WORLD);
    MPI_Errhandler eh;
    MPI_Comm comm = harness_errors_counting_comm(&eh);
    valid_calls(comm);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    harness_watchdog_off();
    return harness_errors_finish("test_errors_scan", failures);
}
