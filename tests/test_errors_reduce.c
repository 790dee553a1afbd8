/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_errors_reduce - bad arguments of papcoll_reduce and papcoll_allreduce
 * get the error class the MPI library itself returns (compared call by call
 * with PMPI_Reduce / PMPI_Allreduce), through the communicator's error
 * handler, without crash or hang (every call runs under the watchdog), for
 * "auto" and, where the fault is in the datatype or the operation, for every
 * algorithm forced by name (pairs of predefined op and datatype outside
 * MPI's list get the library's answer, taken or refused); forced
 * algorithms that do not take an operation
 * return MPI_ERR_OP (named by PAPCOLL_REDUCE / PAPCOLL_ALLREDUCE: auto
 * runs the call, unless PAPCOLL_FALLBACK=error); valid edge cases (count 0 with NULL buffers,
 * MPI_COMM_SELF, one-process communicators, MPI_IN_PLACE) work, and every
 * algorithm still computes right after the errors.
 *
 * Faults only some processes can see (aliased buffers or MPI_IN_PLACE at the
 * root, MPI_IN_PLACE at a non-root) are made by those processes alone: they
 * must return at once, without waiting for the others.  Where the MPI
 * library crashes instead of returning an error (Open MPI 4.1 on NULL
 * buffers; MPICH 4.0.2 on a negative count and on MPI_IN_PLACE at a
 * non-root), papcoll's class is checked against the other library's.
 *
 *   test_errors_reduce [--call-timeout=S]   (watchdog, default 30 s)
 */
#include <papcoll.h>

#include "check.h"
#include "harness/errors.h"
#include "harness/reduce_call.h"
#include "harness/reduce_cases.h"
#include "harness/watchdog.h"

#include <stdio.h>
#include <string.h>

static int rank, size;
/* Which processes make a call: all, the root (rank 0) alone, the others. */
enum { ALL, ROOT_ONLY, NONROOTS_ONLY };
static int in_scope(int scope) { return scope == ALL || (scope == ROOT_ONLY) == (rank == 0); }

/* papcoll_(all)reduce_by_name(algo, ...) against PMPI_(All)reduce(...)
 * (harness/errors.h), made by the processes of `scope` alone; PAPCOLL_ONLY:
 * where the MPI library crashes, papcoll must return want or want2. */
#define REDUCE_VS_MPI(what, want, scope, algo, ...)                                                              \
    do {                                                                                                         \
        if (in_scope(scope)) HARNESS_VS_MPI(reduce, PMPI_Reduce, what, want, algo, __VA_ARGS__);                 \
    } while (0)
#define ALLREDUCE_VS_MPI(what, want, scope, algo, ...)                                                           \
    do {                                                                                                         \
        if (in_scope(scope)) HARNESS_VS_MPI(allreduce, PMPI_Allreduce, what, want, algo, __VA_ARGS__);           \
    } while (0)
#define PAPCOLL_ONLY(coll, what, want, want2, scope, call)                                                       \
    do {                                                                                                         \
        if (in_scope(scope)) HARNESS_PAPCOLL_ONLY(coll ": " what, want, want2, call);                            \
    } while (0)

/* Faults every process sees, with "auto". */
static void argument_errors(MPI_Comm comm)
{
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8];
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);

    REDUCE_VS_MPI("MPI_OP_NULL", MPI_ERR_OP, ALL, "auto", a, b, 4, MPI_INT, MPI_OP_NULL, 0, comm);
    ALLREDUCE_VS_MPI("MPI_OP_NULL", MPI_ERR_OP, ALL, "auto", a, b, 4, MPI_INT, MPI_OP_NULL, comm);
    ALLREDUCE_VS_MPI("MPI_OP_NULL, count 0", MPI_ERR_OP, ALL, "auto", a, b, 0, MPI_INT, MPI_OP_NULL, comm);
    REDUCE_VS_MPI("root -1", MPI_ERR_ROOT, ALL, "auto", a, b, 1, MPI_INT, MPI_SUM, -1, comm);
    REDUCE_VS_MPI("root = size", MPI_ERR_ROOT, ALL, "auto", a, b, 1, MPI_INT, MPI_SUM, size, comm);
#ifndef MPICH_VERSION
    REDUCE_VS_MPI("count -1", MPI_ERR_COUNT, ALL, "auto", a, b, -1, MPI_INT, MPI_SUM, 0, comm);
    ALLREDUCE_VS_MPI("count -1", MPI_ERR_COUNT, ALL, "auto", a, b, -1, MPI_INT, MPI_SUM, comm);
#else /* MPICH 4.0.2 asserts in its datatype engine */
    PAPCOLL_ONLY("reduce", "count -1", MPI_ERR_COUNT, MPI_ERR_COUNT, ALL,
                 papcoll_reduce(a, b, -1, MPI_INT, MPI_SUM, 0, comm));
    PAPCOLL_ONLY("allreduce", "count -1", MPI_ERR_COUNT, MPI_ERR_COUNT, ALL,
                 papcoll_allreduce(a, b, -1, MPI_INT, MPI_SUM, comm));
#endif
    REDUCE_VS_MPI("MPI_DATATYPE_NULL", 0, ALL, "auto", a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, 0, comm);
    ALLREDUCE_VS_MPI("MPI_DATATYPE_NULL", 0, ALL, "auto", a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, comm);
    REDUCE_VS_MPI("uncommitted datatype", 0, ALL, "auto", a, b, 1, uncommitted, MPI_SUM, 0, comm);
    ALLREDUCE_VS_MPI("uncommitted datatype", 0, ALL, "auto", a, b, 1, uncommitted, MPI_SUM, comm);
    REDUCE_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, ALL, "auto", a, b, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_NULL);
    ALLREDUCE_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, ALL, "auto", a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL);
    ALLREDUCE_VS_MPI("sendbuf == recvbuf", 0, ALL, "auto", a, a, 4, MPI_INT, MPI_SUM, comm);
    ALLREDUCE_VS_MPI("sendbuf == recvbuf, count 0", -1, ALL, "auto", a, a, 0, MPI_INT, MPI_SUM, comm);
    ALLREDUCE_VS_MPI("recvbuf MPI_IN_PLACE", MPI_ERR_BUFFER, ALL, "auto", a, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM, comm);
    ALLREDUCE_VS_MPI("both MPI_IN_PLACE", MPI_ERR_BUFFER, ALL, "auto", MPI_IN_PLACE, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM,
                     comm);
#ifdef OPEN_MPI /* Open MPI 4.1 does not check the buffers (it crashes); MPICH returns MPI_ERR_BUFFER */
    PAPCOLL_ONLY("reduce", "NULL sendbuf, count 4", MPI_ERR_BUFFER, MPI_ERR_BUFFER, ALL,
                 papcoll_reduce(NULL, b, 4, MPI_INT, MPI_SUM, 0, comm));
    PAPCOLL_ONLY("allreduce", "NULL sendbuf, count 4", MPI_ERR_BUFFER, MPI_ERR_BUFFER, ALL,
                 papcoll_allreduce(NULL, b, 4, MPI_INT, MPI_SUM, comm));
    PAPCOLL_ONLY("allreduce", "NULL recvbuf, count 4", MPI_ERR_BUFFER, MPI_ERR_BUFFER, ALL,
                 papcoll_allreduce(a, NULL, 4, MPI_INT, MPI_SUM, comm));
    PAPCOLL_ONLY("reduce", "NULL recvbuf at the root, count 4", MPI_ERR_BUFFER, MPI_ERR_BUFFER, ROOT_ONLY,
                 papcoll_reduce(a, NULL, 4, MPI_INT, MPI_SUM, 0, comm));
#else
    REDUCE_VS_MPI("NULL sendbuf, count 4", MPI_ERR_BUFFER, ALL, "auto", NULL, b, 4, MPI_INT, MPI_SUM, 0, comm);
    ALLREDUCE_VS_MPI("NULL sendbuf, count 4", MPI_ERR_BUFFER, ALL, "auto", NULL, b, 4, MPI_INT, MPI_SUM, comm);
    ALLREDUCE_VS_MPI("NULL recvbuf, count 4", MPI_ERR_BUFFER, ALL, "auto", a, NULL, 4, MPI_INT, MPI_SUM, comm);
    REDUCE_VS_MPI("NULL recvbuf at the root, count 4", MPI_ERR_BUFFER, ROOT_ONLY, "auto", a, NULL, 4, MPI_INT,
                  MPI_SUM, 0, comm);
#endif
    /* seen by the root alone: it must return without waiting for the others */
    REDUCE_VS_MPI("sendbuf == recvbuf at the root", 0, ROOT_ONLY, "auto", a, a, 4, MPI_INT, MPI_SUM, 0, comm);
    REDUCE_VS_MPI("recvbuf MPI_IN_PLACE at the root", 0, ROOT_ONLY, "auto", a, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM, 0,
                  comm);
    /* seen by the non-roots alone */
#ifndef MPICH_VERSION
    REDUCE_VS_MPI("sendbuf MPI_IN_PLACE at a non-root", 0, NONROOTS_ONLY, "auto", MPI_IN_PLACE, b, 4, MPI_INT,
                  MPI_SUM, 0, comm);
#else /* MPICH 4.0.2 dereferences MPI_IN_PLACE; an argument or buffer error is expected */
    PAPCOLL_ONLY("reduce", "sendbuf MPI_IN_PLACE at a non-root", MPI_ERR_BUFFER, MPI_ERR_ARG, NONROOTS_ONLY,
                 papcoll_reduce(MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM, 0, comm));
#endif
    PAPCOLL_ONLY("reduce", "unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG, ALL,
                 papcoll_reduce_by_name("no_such_algorithm", a, b, 1, MPI_INT, MPI_SUM, 0, comm));
    PAPCOLL_ONLY("allreduce", "unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG, ALL,
                 papcoll_allreduce_by_name("no_such_algorithm", a, b, 1, MPI_INT, MPI_SUM, comm));
    PAPCOLL_ONLY("allreduce", "NULL algorithm name", MPI_ERR_ARG, MPI_ERR_ARG, ALL,
                 papcoll_allreduce_by_name(NULL, a, b, 1, MPI_INT, MPI_SUM, comm));
    MPI_Type_free(&uncommitted);

    MPI_Comm freed;
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    papcoll_allreduce(a, b, 1, MPI_INT, MPI_SUM, freed); /* context cached, then freed with the communicator */
    MPI_Comm_free(&freed);
    REDUCE_VS_MPI("freed communicator", MPI_ERR_COMM, ALL, "auto", a, b, 1, MPI_INT, MPI_SUM, 0, freed);
    ALLREDUCE_VS_MPI("freed communicator", MPI_ERR_COMM, ALL, "auto", a, b, 1, MPI_INT, MPI_SUM, freed);
}

/* Faults in the operation or the datatype, which an algorithm might only
 * meet when it combines data: every algorithm must report them as the MPI
 * library does, on every process, without hanging. */
static void operation_errors(MPI_Comm comm)
{
    int a[64] = {0}, b[64];
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    static const char *const colls[2] = {"reduce", "allreduce"};
    for (int k = 0; k < 2; k++) {
        int n = papcoll_algorithm_count(colls[k]);
        for (int i = 0; i <= n; i++) {
            const char *algo = i < n ? papcoll_algorithm_name(colls[k], i) : "auto";
            if (k == 0) {
                REDUCE_VS_MPI("MPI_SUM on contiguous(2,int)", MPI_ERR_OP, ALL, algo, a, b, 8, pair, MPI_SUM, 0, comm);
                REDUCE_VS_MPI("MPI_BAND on MPI_FLOAT", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_FLOAT, MPI_BAND, 0, comm);
                REDUCE_VS_MPI("MPI_MINLOC on MPI_INT", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_INT, MPI_MINLOC, 0, comm);
                REDUCE_VS_MPI("MPI_SUM on MPI_BYTE", -1, ALL, algo, a, b, 8, MPI_BYTE, MPI_SUM, 0, comm);
                REDUCE_VS_MPI("MPI_SUM on MPI_CHAR", -1, ALL, algo, a, b, 8, MPI_CHAR, MPI_SUM, 0, comm);
                REDUCE_VS_MPI("MPI_LAND on MPI_INTEGER", -1, ALL, algo, a, b, 8, MPI_INTEGER, MPI_LAND, 0, comm);
                REDUCE_VS_MPI("MPI_SUM on MPI_WCHAR", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_WCHAR, MPI_SUM, 0, comm);
                REDUCE_VS_MPI("MPI_REPLACE on MPI_INT", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_INT, MPI_REPLACE, 0, comm);
                REDUCE_VS_MPI("MPI_NO_OP on MPI_INT", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_INT, MPI_NO_OP, 0, comm);
            } else {
                ALLREDUCE_VS_MPI("MPI_SUM on contiguous(2,int)", MPI_ERR_OP, ALL, algo, a, b, 8, pair, MPI_SUM, comm);
                ALLREDUCE_VS_MPI("MPI_BAND on MPI_FLOAT", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_FLOAT, MPI_BAND, comm);
                ALLREDUCE_VS_MPI("MPI_MINLOC on MPI_INT", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_INT, MPI_MINLOC, comm);
                ALLREDUCE_VS_MPI("MPI_SUM on MPI_BYTE", -1, ALL, algo, a, b, 8, MPI_BYTE, MPI_SUM, comm);
                ALLREDUCE_VS_MPI("MPI_SUM on MPI_CHAR", -1, ALL, algo, a, b, 8, MPI_CHAR, MPI_SUM, comm);
                ALLREDUCE_VS_MPI("MPI_LAND on MPI_INTEGER", -1, ALL, algo, a, b, 8, MPI_INTEGER, MPI_LAND, comm);
                ALLREDUCE_VS_MPI("MPI_SUM on MPI_WCHAR", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_WCHAR, MPI_SUM, comm);
                ALLREDUCE_VS_MPI("MPI_REPLACE on MPI_INT", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_INT, MPI_REPLACE, comm);
                ALLREDUCE_VS_MPI("MPI_NO_OP on MPI_INT", MPI_ERR_OP, ALL, algo, a, b, 8, MPI_INT, MPI_NO_OP, comm);
            }
        }
    }
    MPI_Type_free(&pair);
}

/* Forced algorithms that do not take a non-commutative operation return
 * MPI_ERR_OP through the error handler; "auto" runs it. */
static void refused_operations(MPI_Comm comm)
{
    const rc_case_t *c = rc_case_find("mat2x2/user_noncommutative");
    CHECK(c != NULL, "the non-commutative case exists");
    if (!c) return;
    unsigned in[4] = {1, 2, 3, 4}, out[4];
    static const char *const colls[2] = {"reduce", "allreduce"};
    for (int k = 0; k < 2; k++) {
        int n = papcoll_algorithm_count(colls[k]);
        for (int i = 0; i <= n; i++) {
            const char *algo = i < n ? papcoll_algorithm_name(colls[k], i) : "auto";
            int calls_before = harness_handler_calls();
            harness_watchdog_label("%s (%s): non-commutative user operation", colls[k], algo);
            harness_watchdog_arm();
            int rc = k == 0 ? papcoll_reduce_by_name(algo, in, out, 1, c->type, c->op, 0, comm)
                            : papcoll_allreduce_by_name(algo, in, out, 1, c->type, c->op, comm);
            harness_watchdog_call_done();
            if (rc_accepts(colls[k], algo, c)) {
                CHECK(rc == MPI_SUCCESS, "%s (%s): non-commutative user operation: %s", colls[k], algo,
                      harness_class_name(rc));
            } else {
                char what[120];
                snprintf(what, sizeof what, "%s (%s), which does not take a non-commutative operation", colls[k],
                         algo);
                failures += harness_errors_handled(what, rc, MPI_ERR_OP, calls_before + 1);
            }
        }
    }
}

/* The same algorithms named by PAPCOLL_REDUCE / PAPCOLL_ALLREDUCE, which
 * apply to every call of a program: by default (PAPCOLL_FALLBACK=warn) auto
 * runs the call they cannot, with the MPI library's result; with
 * PAPCOLL_FALLBACK=error the call fails with MPI_ERR_OP as by name. */
static void parameter_fallback(MPI_Comm comm)
{
    const rc_case_t *c = rc_case_find("mat2x2/user_noncommutative");
    if (!c) return;
    unsigned in[4] = {1u + rank, 2, 3, 4u + 2u * rank}, out[4], want[4];
    MPI_Allreduce(in, want, 1, c->type, c->op, comm); /* the MPI library's own: papcoll's API is not interposed */
    static const char *const colls[2] = {"reduce", "allreduce"};
    static const char *const params[2] = {"PAPCOLL_REDUCE", "PAPCOLL_ALLREDUCE"};
    for (int k = 0; k < 2; k++) {
        int n = papcoll_algorithm_count(colls[k]);
        for (int i = 0; i < n; i++) {
            const char *algo = papcoll_algorithm_name(colls[k], i);
            if (rc_accepts(colls[k], algo, c)) continue;
            papcoll_set_param(params[k], algo);
            for (int policy = 0; policy < 2; policy++) {
                papcoll_set_param("PAPCOLL_FALLBACK", policy ? "error" : "warn");
                int calls_before = harness_handler_calls();
                memset(out, 0, sizeof out);
                harness_watchdog_label("%s=%s, PAPCOLL_FALLBACK=%s", params[k], algo, policy ? "error" : "warn");
                harness_watchdog_arm();
                int rc = k == 0 ? papcoll_reduce(in, out, 1, c->type, c->op, 0, comm)
                                : papcoll_allreduce(in, out, 1, c->type, c->op, comm);
                harness_watchdog_call_done();
                char what[120];
                snprintf(what, sizeof what, "%s=%s, PAPCOLL_FALLBACK=%s", params[k], algo, policy ? "error" : "warn");
                if (policy) {
                    failures += harness_errors_handled(what, rc, MPI_ERR_OP, calls_before + 1);
                    continue;
                }
                CHECK(rc == MPI_SUCCESS, "%s: %s", what, harness_class_name(rc));
                CHECK(strcmp(papcoll_last_algorithm(), algo), "%s: ran %s itself", what, algo);
                if (rc == MPI_SUCCESS && (k == 1 || rank == 0))
                    CHECK(!memcmp(out, want, sizeof out), "%s: %u %u %u %u, the MPI library gives %u %u %u %u", what,
                          out[0], out[1], out[2], out[3], want[0], want[1], want[2], want[3]);
            }
        }
        papcoll_set_param(params[k], "auto");
    }
    papcoll_set_param("PAPCOLL_FALLBACK", "warn");
}

/* Valid edge cases, then every algorithm on real data after the errors. */
static void valid_calls(MPI_Comm comm)
{
    int a[4], b[4];
    for (int i = 0; i < 4; i++) a[i] = 10 * rank + i;
    harness_watchdog_label("valid edge cases");
    harness_watchdog_arm();
    CHECK(papcoll_reduce(NULL, NULL, 0, MPI_INT, MPI_SUM, 0, comm) == MPI_SUCCESS, "reduce: count 0, NULL buffers");
    CHECK(papcoll_allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS, "allreduce: count 0, NULL buffers");
    CHECK(papcoll_reduce(a, rank == size - 1 ? b : NULL, 4, MPI_INT, MPI_SUM, size - 1, comm) == MPI_SUCCESS,
          "reduce: NULL recvbuf at the non-roots");
    if (rank == size - 1)
        for (int i = 0; i < 4; i++)
            CHECK(b[i] == 10 * size * (size - 1) / 2 + size * i, "reduce: element %d = %d", i, b[i]);
    memset(b, 0, sizeof b);
    CHECK(papcoll_reduce(a, b, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF) == MPI_SUCCESS && !memcmp(a, b, sizeof a),
          "reduce on MPI_COMM_SELF");
    memset(b, 0, sizeof b);
    CHECK(papcoll_allreduce(a, b, 4, MPI_INT, MPI_MAX, MPI_COMM_SELF) == MPI_SUCCESS && !memcmp(a, b, sizeof a),
          "allreduce on MPI_COMM_SELF");
    memcpy(b, a, sizeof b);
    CHECK(papcoll_allreduce(MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS &&
              !memcmp(a, b, sizeof a),
          "allreduce in place on MPI_COMM_SELF");
    MPI_Comm single;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single);
    memcpy(b, a, sizeof b);
    CHECK(papcoll_reduce(MPI_IN_PLACE, b, 4, MPI_INT, MPI_PROD, 0, single) == MPI_SUCCESS && !memcmp(a, b, sizeof a),
          "reduce in place on a one-process communicator");
    MPI_Comm_free(&single);
    harness_watchdog_call_done();

    static const char *const colls[2] = {"reduce", "allreduce"};
    for (int k = 0; k < 2; k++) {
        int n = papcoll_algorithm_count(colls[k]);
        for (int i = 0; i < n; i++) {
            const char *algo = papcoll_algorithm_name(colls[k], i);
            int root = i % size, want_calls = harness_handler_calls() + 1;
            harness_watchdog_label("%s (%s) after the errors", colls[k], algo);
            harness_watchdog_arm();
            int rc = k == 0 ? papcoll_reduce_by_name(algo, a, b, 4, MPI_INT, MPI_SUM, root, comm)
                            : papcoll_allreduce_by_name(algo, a, b, 4, MPI_INT, MPI_SUM, comm);
            harness_watchdog_call_done();
            char what[120];
            snprintf(what, sizeof what, "%s (%s) after the errors", colls[k], algo);
            failures += harness_errors_valid(what, NULL, rc, 1);
            if (rc == MPI_SUCCESS && (k == 1 || rank == root))
                for (int e = 0; e < 4; e++)
                    CHECK(b[e] == 10 * size * (size - 1) / 2 + size * e, "%s (%s) after the errors: element %d = %d",
                          colls[k], algo, e, b[e]);
            rc = k == 0 ? papcoll_reduce_by_name(algo, a, b, 4, MPI_INT, MPI_SUM, -2, comm)
                        : papcoll_allreduce_by_name(algo, a, b, 4, MPI_INT, MPI_OP_NULL, comm);
            failures += harness_errors_handled(what, rc, k == 0 ? MPI_ERR_ROOT : MPI_ERR_OP, want_calls);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    harness_errors_init("test_errors_reduce", argc, argv, 0);
    rc_cases_init();
    argument_errors(MPI_COMM_WORLD);
    operation_errors(MPI_COMM_WORLD);

    /* the communicator's own error handler is the one invoked */
    MPI_Errhandler eh;
    MPI_Comm comm = harness_errors_counting_comm(&eh);
    int a = 1, b;
    int rc = papcoll_reduce(&a, &b, 1, MPI_INT, MPI_SUM, size + 3, comm);
    failures += harness_errors_handled("reduce, custom handler", rc, MPI_ERR_ROOT, 1);
    rc = papcoll_allreduce(&a, &b, 1, MPI_INT, MPI_OP_NULL, comm);
    failures += harness_errors_handled("allreduce, custom handler", rc, MPI_ERR_OP, 2);
    refused_operations(comm);
    parameter_fallback(comm);
    valid_calls(comm);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    harness_watchdog_off();
    rc_cases_free();
    return harness_errors_finish("test_errors_reduce", failures);
}
