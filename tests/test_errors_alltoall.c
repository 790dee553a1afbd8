/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_errors_alltoall - bad arguments of papcoll_alltoall and
 * papcoll_alltoallv get the error class the MPI library itself returns
 * (compared call by call with PMPI_Alltoall / PMPI_Alltoallv), through the
 * communicator's error handler, without crash or hang (every call runs under
 * the watchdog), for "auto" and, where the fault is in a count or a
 * datatype, for every algorithm forced by name; an unknown algorithm name is
 * MPI_ERR_ARG; valid edge cases (count 0 with NULL buffers, all-zero counts
 * of the v form, MPI_IN_PLACE with the ignored send arguments,
 * MPI_COMM_SELF, one-process communicators) work, and every algorithm still
 * exchanges right after the errors.
 *
 * What MPI forbids but a library lets through is checked against the class
 * the other library (and the MPI standard) gives (probed with Open MPI 4.1.4
 * and MPICH 4.0.2 on 3 processes):
 *
 *   fault                            Open MPI 4.1.4     MPICH 4.0.2    papcoll
 *   sendbuf == recvbuf, count > 0    accepts            MPI_ERR_BUFFER MPI_ERR_BUFFER
 *   NULL sendbuf/recvbuf, count > 0  crashes            MPI_ERR_BUFFER MPI_ERR_BUFFER
 *   NULL sendcounts/sdispls/         MPI_ERR_ARG        crashes        MPI_ERR_ARG
 *     recvcounts/rdispls
 *   recvbuf MPI_IN_PLACE             MPI_ERR_ARG        MPI_ERR_BUFFER the library's
 *   sendcount > recvcount            MPI_ERR_TRUNCATE   MPI_ERR_TRUNCATE MPI_ERR_TRUNCATE
 *   alltoallv, all counts 0,         MPI_SUCCESS        MPI_ERR_BUFFER MPI_SUCCESS
 *     sendbuf == recvbuf (NULL)
 *
 *   test_errors_alltoall [--call-timeout=S]   (watchdog, default 30 s)
 */
#include <papcoll.h>

#include "check.h"
#include "harness/errors.h"
#include "harness/watchdog.h"

#include <stdio.h>
#include <string.h>

static int rank, size;

/* papcoll_alltoall(v)_by_name(algo, ...) against PMPI_Alltoall(v)(...)
 * (harness/errors.h); STRICT: papcoll alone, with MPICH's class, where Open
 * MPI 4.1 lets the fault through or crashes; ARRAYS: papcoll alone where
 * MPICH 4.0.2 dereferences NULL count and displacement arrays. */
#define A2A_VS_MPI(...) HARNESS_VS_MPI(alltoall, PMPI_Alltoall, __VA_ARGS__)
#define A2AV_VS_MPI(...) HARNESS_VS_MPI(alltoallv, PMPI_Alltoallv, __VA_ARGS__)
#define A2A_STRICT(...) HARNESS_STRICT(alltoall, PMPI_Alltoall, __VA_ARGS__)
#define A2AV_STRICT(...) HARNESS_STRICT(alltoallv, PMPI_Alltoallv, __VA_ARGS__)
#ifdef OPEN_MPI
#define A2AV_ARRAYS A2AV_VS_MPI
#else
#define A2AV_ARRAYS(...) HARNESS_PAPCOLL_BY_NAME(alltoallv, __VA_ARGS__)
#endif
#define PAPCOLL_ONLY HARNESS_PAPCOLL_ONLY

/* a: rank r's block for j is ints [2j, 2j + 2) = 1000 r + 10 j + i; b: receive */
static int a[128], b[512], counts[64], displs[64], negative[64], zeros[64];
/* rank order: blocks of 2 ints at 2r */
static int rank_order[64], two[64];

/* counts 2 each, blocks in reverse rank order; negative: the last rank's count -1 */
static void init_arrays(void)
{
    for (int j = 0; j < 64; j++)
        for (int i = 0; i < 2; i++) a[2 * j + i] = 1000 * rank + 10 * j + i;
    harness_errors_blocks(size, size, counts, displs, negative);
    for (int r = 0; r < size; r++) rank_order[r] = 2 * r, two[r] = 2;
}

/* Faults every process sees, with "auto". */
static void argument_errors(MPI_Comm comm)
{
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    int rev[64]; /* my send blocks in reverse order too */
    for (int r = 0; r < size; r++) rev[r] = 2 * (size - 1 - r);

    A2A_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_NULL);
    A2AV_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, counts, rev, MPI_INT, b, counts, displs, MPI_INT,
                MPI_COMM_NULL);
    A2A_VS_MPI("sendcount -1", MPI_ERR_COUNT, "auto", a, -1, MPI_INT, b, 2, MPI_INT, comm);
    A2A_VS_MPI("recvcount -1", MPI_ERR_COUNT, "auto", a, 2, MPI_INT, b, -1, MPI_INT, comm);
    A2AV_VS_MPI("sendcounts[p-1] = -1", MPI_ERR_COUNT, "auto", a, negative, rev, MPI_INT, b, counts, displs, MPI_INT,
                comm);
    A2AV_VS_MPI("recvcounts[p-1] = -1", MPI_ERR_COUNT, "auto", a, counts, rev, MPI_INT, b, negative, displs, MPI_INT,
                comm);
    A2A_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_DATATYPE_NULL, b, 2, MPI_INT, comm);
    A2A_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, comm);
    A2AV_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, counts, rev, MPI_DATATYPE_NULL, b, counts,
                displs, MPI_INT, comm);
    A2AV_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, counts, rev, MPI_INT, b, counts, displs,
                MPI_DATATYPE_NULL, comm);
    A2A_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, "auto", a, 1, uncommitted, b, 2, MPI_INT, comm);
    A2A_VS_MPI("uncommitted recvtype", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 1, uncommitted, comm);
    A2AV_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, "auto", a, counts, rev, uncommitted, b, counts, displs, MPI_INT,
                comm);
    A2AV_VS_MPI("uncommitted recvtype", MPI_ERR_TYPE, "auto", a, counts, rev, MPI_INT, b, counts, displs, uncommitted,
                comm);
    /* MPI_IN_PLACE is for the send buffer only; the class differs between the libraries */
    A2A_VS_MPI("recvbuf MPI_IN_PLACE", 0, "auto", a, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm);
    A2A_VS_MPI("both MPI_IN_PLACE", 0, "auto", MPI_IN_PLACE, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm);
    A2AV_VS_MPI("recvbuf MPI_IN_PLACE", 0, "auto", a, counts, rev, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT, comm);
    /* my block for myself does not fit where I receive it: every process */
    A2A_VS_MPI("sendcount 3 > recvcount 2", MPI_ERR_TRUNCATE, "auto", a, 3, MPI_INT, b, 2, MPI_INT, comm);
    A2A_STRICT("sendbuf == recvbuf", MPI_ERR_BUFFER, "auto", b, 2, MPI_INT, b, 2, MPI_INT, comm);
    A2AV_STRICT("sendbuf == recvbuf", MPI_ERR_BUFFER, "auto", b, counts, rev, MPI_INT, b, counts, displs, MPI_INT, comm);
    A2A_STRICT("NULL sendbuf, count 2", MPI_ERR_BUFFER, "auto", NULL, 2, MPI_INT, b, 2, MPI_INT, comm);
    A2A_STRICT("NULL recvbuf, count 2", MPI_ERR_BUFFER, "auto", a, 2, MPI_INT, NULL, 2, MPI_INT, comm);
    A2AV_STRICT("NULL recvbuf, counts 2", MPI_ERR_BUFFER, "auto", a, counts, rev, MPI_INT, NULL, counts, displs,
                MPI_INT, comm);
    A2AV_ARRAYS("NULL sendcounts", MPI_ERR_ARG, "auto", a, NULL, rev, MPI_INT, b, counts, displs, MPI_INT, comm);
    A2AV_ARRAYS("NULL sdispls", MPI_ERR_ARG, "auto", a, counts, NULL, MPI_INT, b, counts, displs, MPI_INT, comm);
    A2AV_ARRAYS("NULL recvcounts", MPI_ERR_ARG, "auto", a, counts, rev, MPI_INT, b, NULL, displs, MPI_INT, comm);
    A2AV_ARRAYS("NULL rdispls", MPI_ERR_ARG, "auto", a, counts, rev, MPI_INT, b, counts, NULL, MPI_INT, comm);
    PAPCOLL_ONLY("alltoall: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_alltoall_by_name("no_such_algorithm", a, 2, MPI_INT, b, 2, MPI_INT, comm));
    PAPCOLL_ONLY("alltoallv: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_alltoallv_by_name("no_such_algorithm", a, counts, rev, MPI_INT, b, counts, displs, MPI_INT,
                                           comm));
    PAPCOLL_ONLY("alltoall: NULL algorithm name", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_alltoall_by_name(NULL, a, 2, MPI_INT, b, 2, MPI_INT, comm));
    PAPCOLL_ONLY("alltoall: the name of an allgather algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_alltoall_by_name("ring", a, 2, MPI_INT, b, 2, MPI_INT, comm));
    MPI_Type_free(&uncommitted);

    MPI_Comm freed;
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    papcoll_alltoall(a, 2, MPI_INT, b, 2, MPI_INT, freed); /* context cached, then freed with the communicator */
    MPI_Comm_free(&freed);
    A2AV_VS_MPI("freed communicator", MPI_ERR_COMM, "auto", a, counts, rev, MPI_INT, b, counts, displs, MPI_INT, freed);
}

/* Faults in counts and datatypes: every algorithm must report them as the
 * MPI library does, on every process, without hanging. */
static void per_algorithm_errors(MPI_Comm comm)
{
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    int n = papcoll_algorithm_count("alltoall");
    for (int i = 0; i <= n; i++) {
        const char *algo = i < n ? papcoll_algorithm_name("alltoall", i) : "auto";
        A2A_VS_MPI("recvcount -1", MPI_ERR_COUNT, algo, a, 2, MPI_INT, b, -1, MPI_INT, comm);
        A2AV_VS_MPI("sendcounts[p-1] = -1", MPI_ERR_COUNT, algo, a, negative, displs, MPI_INT, b, counts, displs,
                    MPI_INT, comm);
        A2A_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, 2, MPI_DATATYPE_NULL, b, 2, MPI_INT, comm);
        A2AV_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, counts, displs, MPI_INT, b, counts, displs,
                    MPI_DATATYPE_NULL, comm);
        A2A_VS_MPI("uncommitted recvtype", MPI_ERR_TYPE, algo, a, 2, MPI_INT, b, 1, uncommitted, comm);
        A2A_VS_MPI("sendcount 3 > recvcount 2", MPI_ERR_TRUNCATE, algo, a, 3, MPI_INT, b, 2, MPI_INT, comm);
    }
    MPI_Type_free(&uncommitted);
}

/* b after an exchange of n ints per block: the block from r at ints at[r]
 * holds rank r's ints for me; every other int up to span untouched (-1). */
static int exchanged_ok(const int *at, int n, int span)
{
    int expected[512];
    for (int i = 0; i < span; i++) expected[i] = -1;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < n; i++) expected[at[r] + i] = 1000 * r + 10 * rank + i;
    return !memcmp(b, expected, (size_t)span * sizeof(int));
}

static void clear(void)
{
    for (int i = 0; i < 512; i++) b[i] = -1;
}

/* After the errors: algo exchanges 2 ints per block right (v: my send
 * blocks in rank order, the receive blocks in reverse rank order). */
static int exchange_after(const char *algo, int v, MPI_Comm comm, int *data_ok)
{
    clear();
    int rc = v ? papcoll_alltoallv_by_name(algo, a, two, rank_order, MPI_INT, b, counts, displs, MPI_INT, comm)
               : papcoll_alltoall_by_name(algo, a, 2, MPI_INT, b, 2, MPI_INT, comm);
    *data_ok = rc == MPI_SUCCESS && exchanged_ok(v ? displs : rank_order, 2, 2 * size + 8);
    return rc;
}

/* ... and still reports a bad argument: recvcount -1 (plain), MPI_DATATYPE_NULL (v). */
static int exchange_bad(const char *algo, int v, MPI_Comm comm)
{
    return v ? papcoll_alltoallv_by_name(algo, a, two, rank_order, MPI_INT, b, counts, displs, MPI_DATATYPE_NULL, comm)
             : papcoll_alltoall_by_name(algo, a, 2, MPI_INT, b, -1, MPI_INT, comm);
}

/* Valid edge cases, then every algorithm on real data after the errors. */
static void valid_calls(MPI_Comm comm)
{
    harness_watchdog_label("valid edge cases");
    harness_watchdog_arm();
    CHECK(papcoll_alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm) == MPI_SUCCESS, "alltoall: count 0, NULL buffers");
    CHECK(papcoll_alltoallv(NULL, zeros, zeros, MPI_INT, NULL, zeros, zeros, MPI_INT, comm) == MPI_SUCCESS,
          "alltoallv: all counts 0, NULL buffers");
    CHECK(papcoll_alltoall(b, 0, MPI_INT, b, 0, MPI_INT, comm) == MPI_SUCCESS, "alltoall: sendbuf == recvbuf, count 0");
    CHECK(papcoll_alltoallv(b, zeros, zeros, MPI_INT, b, zeros, zeros, MPI_INT, comm) == MPI_SUCCESS,
          "alltoallv: sendbuf == recvbuf, all counts 0");
    /* MPI_IN_PLACE: the send arguments are ignored; my data for r starts in receive block r */
    clear();
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 2; i++) b[2 * r + i] = 1000 * rank + 10 * r + i;
    CHECK(papcoll_alltoall(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, b, 2, MPI_INT, comm) == MPI_SUCCESS &&
              exchanged_ok(rank_order, 2, 2 * size + 8),
          "alltoall: MPI_IN_PLACE with sendcount -1 and MPI_DATATYPE_NULL (ignored)");
    clear();
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 2; i++) b[displs[r] + i] = 1000 * rank + 10 * r + i;
    CHECK(papcoll_alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, b, counts, displs, MPI_INT, comm) ==
                  MPI_SUCCESS &&
              exchanged_ok(displs, 2, 2 * size + 8),
          "alltoallv: MPI_IN_PLACE with NULL sendcounts, sdispls and MPI_DATATYPE_NULL (ignored)");
    /* one process */
    int self_at[1] = {3}, four[1] = {4}, zero_at[1] = {0};
    clear();
    CHECK(papcoll_alltoall(a, 4, MPI_INT, b, 4, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS && !memcmp(a, b, 4 * sizeof(int)) &&
              b[4] == -1,
          "alltoall on MPI_COMM_SELF");
    clear();
    CHECK(papcoll_alltoallv(a, four, zero_at, MPI_INT, b, four, self_at, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS &&
              b[2] == -1 && !memcmp(a, b + 3, 4 * sizeof(int)) && b[7] == -1,
          "alltoallv on MPI_COMM_SELF, receive displacement 3");
    MPI_Comm single;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single);
    memcpy(b, a, 4 * sizeof(int));
    CHECK(papcoll_alltoall(MPI_IN_PLACE, 0, MPI_INT, b, 4, MPI_INT, single) == MPI_SUCCESS &&
              !memcmp(a, b, 4 * sizeof(int)),
          "alltoall in place on a one-process communicator");
    MPI_Comm_free(&single);
    harness_watchdog_call_done();

    static const int want[2] = {MPI_ERR_COUNT, MPI_ERR_TYPE};
    failures += harness_errors_after("alltoall", "alltoallv", comm, exchange_after, exchange_bad, want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    harness_errors_init("test_errors_alltoall", argc, argv, 64);
    init_arrays();
    argument_errors(MPI_COMM_WORLD);
    per_algorithm_errors(MPI_COMM_WORLD);

    /* the communicator's own error handler is the one invoked */
    MPI_Errhandler eh;
    MPI_Comm comm = harness_errors_counting_comm(&eh);
    int rc = papcoll_alltoall(a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, comm);
    failures += harness_errors_handled("alltoall, custom handler", rc, MPI_ERR_TYPE, 1);
    rc = papcoll_alltoallv_by_name("no_such_algorithm", a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, comm);
    failures += harness_errors_handled("alltoallv, unknown algorithm, custom handler", rc, MPI_ERR_ARG, 2);
    valid_calls(comm);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    harness_watchdog_off();
    return harness_errors_finish("test_errors_alltoall", failures);
}
