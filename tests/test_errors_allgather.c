/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_errors_allgather - bad arguments of papcoll_allgather and
 * papcoll_allgatherv get the error class the MPI library itself returns
 * (compared call by call with PMPI_Allgather / PMPI_Allgatherv), through the
 * communicator's error handler, without crash or hang (every call runs under
 * the watchdog), for "auto" and, where the fault is in a count or a
 * datatype, for every algorithm forced by name; an unknown algorithm name is
 * MPI_ERR_ARG; valid edge cases (count 0 with NULL buffers, all-zero counts
 * of the v form, MPI_IN_PLACE with the ignored sendcount and sendtype,
 * MPI_COMM_SELF, one-process communicators) work, and every algorithm still
 * gathers right after the errors.
 *
 * What MPI forbids but a library lets through is checked against the class
 * the other library (and the MPI standard) gives:
 *
 *   fault                          Open MPI 4.1.4     MPICH 4.0.2    papcoll
 *   MPI_COMM_NULL (plain form)     crashes            MPI_ERR_COMM   MPI_ERR_COMM
 *   uncommitted receive datatype   accepts            MPI_ERR_TYPE   MPI_ERR_TYPE
 *   a negative recvcounts[i]       accepts            MPI_ERR_COUNT  MPI_ERR_COUNT
 *   sendbuf == recvbuf, count > 0  accepts            (*)            MPI_ERR_BUFFER
 *   NULL sendbuf/recvbuf, count>0  crashes            MPI_ERR_BUFFER MPI_ERR_BUFFER
 *   NULL displs                    MPI_ERR_BUFFER     crashes        MPI_ERR_BUFFER (MPICH build: or MPI_ERR_ARG)
 *   NULL recvcounts                crashes            crashes        MPI_ERR_COUNT or MPI_ERR_ARG
 *   recvbuf MPI_IN_PLACE           MPI_ERR_ARG        MPI_ERR_BUFFER the library's
 *
 * (*) MPICH 4.0.2 checks the send buffer against the process's own block
 * only: rank 0 returns MPI_ERR_BUFFER, the others enter the collective and
 * wait for it forever.  papcoll rejects it on every process (the buffers
 * overlap everywhere), so every process returns.
 *
 *   test_errors_allgather [--call-timeout=S]   (watchdog, default 30 s)
 */
#include <papcoll.h>

#include "check.h"
#include "harness/errors.h"
#include "harness/watchdog.h"

#include <stdio.h>
#include <string.h>

static int rank, size;

/* papcoll_allgather(v)_by_name(algo, ...) against PMPI_Allgather(v)(...)
 * (harness/errors.h); STRICT: papcoll alone, with MPICH's class, where Open
 * MPI 4.1 lets the fault through or crashes. */
#define GATHER_VS_MPI(...) HARNESS_VS_MPI(allgather, PMPI_Allgather, __VA_ARGS__)
#define GATHERV_VS_MPI(...) HARNESS_VS_MPI(allgatherv, PMPI_Allgatherv, __VA_ARGS__)
#define GATHER_STRICT(...) HARNESS_STRICT(allgather, PMPI_Allgather, __VA_ARGS__)
#define GATHERV_STRICT(...) HARNESS_STRICT(allgatherv, PMPI_Allgatherv, __VA_ARGS__)
#define PAPCOLL_ONLY HARNESS_PAPCOLL_ONLY

static int a[64], b[512], counts[64], displs[64], negative[64];

/* counts 2 each, blocks in reverse rank order; negative: the last rank's count -1 */
static void init_arrays(void)
{
    for (int i = 0; i < 64; i++) a[i] = 100 * rank + i;
    harness_errors_blocks(size, size, counts, displs, negative);
}

/* Faults every process sees, with "auto". */
static void argument_errors(MPI_Comm comm)
{
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);

#ifdef OPEN_MPI /* Open MPI 4.1.4's MPI_Allgather dereferences MPI_COMM_NULL */
    PAPCOLL_ONLY("allgather: MPI_COMM_NULL", MPI_ERR_COMM, MPI_ERR_COMM,
                 papcoll_allgather(a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_NULL));
#else
    GATHER_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_NULL);
#endif
    GATHERV_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, 2, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_NULL);
    GATHER_VS_MPI("sendcount -1", MPI_ERR_COUNT, "auto", a, -1, MPI_INT, b, 2, MPI_INT, comm);
    GATHER_VS_MPI("recvcount -1", MPI_ERR_COUNT, "auto", a, 2, MPI_INT, b, -1, MPI_INT, comm);
    GATHERV_VS_MPI("sendcount -1", MPI_ERR_COUNT, "auto", a, -1, MPI_INT, b, counts, displs, MPI_INT, comm);
    GATHERV_STRICT("recvcounts[p-1] = -1", MPI_ERR_COUNT, "auto", a, 2, MPI_INT, b, negative, displs, MPI_INT, comm);
    GATHER_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_DATATYPE_NULL, b, 2, MPI_INT, comm);
    GATHER_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, comm);
    GATHERV_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_DATATYPE_NULL, b, counts, displs,
                   MPI_INT, comm);
    GATHERV_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, counts, displs,
                   MPI_DATATYPE_NULL, comm);
    GATHER_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, "auto", a, 1, uncommitted, b, 2, MPI_INT, comm);
    GATHERV_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, "auto", a, 1, uncommitted, b, counts, displs, MPI_INT, comm);
    GATHER_STRICT("uncommitted recvtype", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 1, uncommitted, comm);
    GATHERV_STRICT("uncommitted recvtype", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, counts, displs, uncommitted, comm);
    /* MPI_IN_PLACE is for the send buffer only; the class differs between the libraries */
    GATHER_VS_MPI("recvbuf MPI_IN_PLACE", 0, "auto", a, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm);
    GATHER_VS_MPI("both MPI_IN_PLACE", 0, "auto", MPI_IN_PLACE, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm);
    GATHERV_VS_MPI("recvbuf MPI_IN_PLACE", 0, "auto", a, 2, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT, comm);
    PAPCOLL_ONLY("allgather: sendbuf == recvbuf", MPI_ERR_BUFFER, MPI_ERR_BUFFER,
                 papcoll_allgather(b, 2, MPI_INT, b, 2, MPI_INT, comm));
    PAPCOLL_ONLY("allgatherv: sendbuf == recvbuf", MPI_ERR_BUFFER, MPI_ERR_BUFFER,
                 papcoll_allgatherv(b, 2, MPI_INT, b, counts, displs, MPI_INT, comm));
    GATHER_STRICT("NULL sendbuf, count 2", MPI_ERR_BUFFER, "auto", NULL, 2, MPI_INT, b, 2, MPI_INT, comm);
    GATHER_STRICT("NULL recvbuf, count 2", MPI_ERR_BUFFER, "auto", a, 2, MPI_INT, NULL, 2, MPI_INT, comm);
    GATHERV_STRICT("NULL recvbuf, counts 2", MPI_ERR_BUFFER, "auto", a, 2, MPI_INT, NULL, counts, displs, MPI_INT,
                   comm);
#ifdef OPEN_MPI
    GATHERV_VS_MPI("NULL displs", MPI_ERR_BUFFER, "auto", a, 2, MPI_INT, b, counts, NULL, MPI_INT, comm);
#else /* MPICH 4.0.2 dereferences NULL displs */
    PAPCOLL_ONLY("allgatherv: NULL displs", MPI_ERR_BUFFER, MPI_ERR_ARG,
                 papcoll_allgatherv(a, 2, MPI_INT, b, counts, NULL, MPI_INT, comm));
#endif
    /* both libraries dereference NULL recvcounts */
    PAPCOLL_ONLY("allgatherv: NULL recvcounts", MPI_ERR_COUNT, MPI_ERR_ARG,
                 papcoll_allgatherv(a, 2, MPI_INT, b, NULL, displs, MPI_INT, comm));
    PAPCOLL_ONLY("allgather: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_allgather_by_name("no_such_algorithm", a, 2, MPI_INT, b, 2, MPI_INT, comm));
    PAPCOLL_ONLY("allgatherv: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_allgatherv_by_name("no_such_algorithm", a, 2, MPI_INT, b, counts, displs, MPI_INT, comm));
    PAPCOLL_ONLY("allgather: NULL algorithm name", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_allgather_by_name(NULL, a, 2, MPI_INT, b, 2, MPI_INT, comm));
    PAPCOLL_ONLY("allgather: the name of a broadcast algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_allgather_by_name("binomial", a, 2, MPI_INT, b, 2, MPI_INT, comm));
    MPI_Type_free(&uncommitted);

    MPI_Comm freed;
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    papcoll_allgather(a, 2, MPI_INT, b, 2, MPI_INT, freed); /* context cached, then freed with the communicator */
    MPI_Comm_free(&freed);
    GATHERV_VS_MPI("freed communicator", MPI_ERR_COMM, "auto", a, 2, MPI_INT, b, counts, displs, MPI_INT, freed);
}

/* Faults in counts and datatypes: every algorithm must report them as the
 * MPI library does, on every process, without hanging. */
static void per_algorithm_errors(MPI_Comm comm)
{
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    int n = papcoll_algorithm_count("allgather");
    for (int i = 0; i <= n; i++) {
        const char *algo = i < n ? papcoll_algorithm_name("allgather", i) : "auto";
        GATHER_VS_MPI("recvcount -1", MPI_ERR_COUNT, algo, a, 2, MPI_INT, b, -1, MPI_INT, comm);
        GATHERV_VS_MPI("sendcount -1", MPI_ERR_COUNT, algo, a, -1, MPI_INT, b, counts, displs, MPI_INT, comm);
        GATHER_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, 2, MPI_DATATYPE_NULL, b, 2, MPI_INT, comm);
        GATHERV_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, 2, MPI_INT, b, counts, displs,
                       MPI_DATATYPE_NULL, comm);
        GATHER_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, algo, a, 1, uncommitted, b, 2, MPI_INT, comm);
        GATHERV_STRICT("uncommitted recvtype", MPI_ERR_TYPE, algo, a, 2, MPI_INT, b, counts, displs, uncommitted,
                       comm);
        GATHERV_STRICT("recvcounts[p-1] = -1", MPI_ERR_COUNT, algo, a, 2, MPI_INT, b, negative, displs, MPI_INT,
                       comm);
    }
    MPI_Type_free(&uncommitted);
}

/* The gathered blocks of `a` (n ints from each rank) in b: rank r's block at
 * ints at[r]; the ints before `first` and the others up to `span` untouched
 * (-1). */
static int gathered_ok(const int *at, int n, int span)
{
    int expected[512];
    for (int i = 0; i < span; i++) expected[i] = -1;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < n; i++) expected[at[r] + i] = 100 * r + i;
    return !memcmp(b, expected, (size_t)span * sizeof(int));
}

/* After the errors: algo gathers 2 ints of every rank right (v: the blocks
 * in reverse rank order). */
static int gather_after(const char *algo, int v, MPI_Comm comm, int *data_ok)
{
    int at[64];
    for (int k = 0; k < 512; k++) b[k] = -1;
    for (int r = 0; r < size; r++) at[r] = 2 * r;
    int rc = v ? papcoll_allgatherv_by_name(algo, a, 2, MPI_INT, b, counts, displs, MPI_INT, comm)
               : papcoll_allgather_by_name(algo, a, 2, MPI_INT, b, 2, MPI_INT, comm);
    *data_ok = rc == MPI_SUCCESS && gathered_ok(v ? displs : at, 2, 2 * size + 8);
    return rc;
}

/* ... and still reports a bad argument: recvcount -1 (plain), MPI_DATATYPE_NULL (v). */
static int gather_bad(const char *algo, int v, MPI_Comm comm)
{
    return v ? papcoll_allgatherv_by_name(algo, a, 2, MPI_INT, b, counts, displs, MPI_DATATYPE_NULL, comm)
             : papcoll_allgather_by_name(algo, a, 2, MPI_INT, b, -1, MPI_INT, comm);
}

/* Valid edge cases, then every algorithm on real data after the errors. */
static void valid_calls(MPI_Comm comm)
{
    int zeros[64] = {0}, at[64];
    harness_watchdog_label("valid edge cases");
    harness_watchdog_arm();
    CHECK(papcoll_allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm) == MPI_SUCCESS,
          "allgather: count 0, NULL buffers");
    CHECK(papcoll_allgatherv(NULL, 0, MPI_INT, NULL, zeros, zeros, MPI_INT, comm) == MPI_SUCCESS,
          "allgatherv: all counts 0, NULL buffers");
    CHECK(papcoll_allgather(b, 0, MPI_INT, b, 0, MPI_INT, comm) == MPI_SUCCESS, "allgather: sendbuf == recvbuf, count 0");
    /* MPI_IN_PLACE: sendcount and sendtype are ignored */
    for (int i = 0; i < 512; i++) b[i] = -1;
    for (int i = 0; i < 3; i++) b[3 * rank + i] = 100 * rank + i;
    for (int r = 0; r < size; r++) at[r] = 3 * r;
    CHECK(papcoll_allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, b, 3, MPI_INT, comm) == MPI_SUCCESS &&
              gathered_ok(at, 3, 3 * size + 8),
          "allgather: MPI_IN_PLACE with sendcount -1 and MPI_DATATYPE_NULL (ignored)");
    for (int i = 0; i < 512; i++) b[i] = -1;
    for (int i = 0; i < 2; i++) b[displs[rank] + i] = 100 * rank + i;
    CHECK(papcoll_allgatherv(MPI_IN_PLACE, 7, MPI_DATATYPE_NULL, b, counts, displs, MPI_INT, comm) == MPI_SUCCESS &&
              gathered_ok(displs, 2, 2 * size + 8),
          "allgatherv: MPI_IN_PLACE with sendcount 7 and MPI_DATATYPE_NULL (ignored)");
    /* one process */
    int self_at[1] = {3}, four[1] = {4};
    for (int i = 0; i < 512; i++) b[i] = -1;
    CHECK(papcoll_allgather(a, 4, MPI_INT, b, 4, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS && !memcmp(a, b, 4 * sizeof(int)) &&
              b[4] == -1,
          "allgather on MPI_COMM_SELF");
    for (int i = 0; i < 512; i++) b[i] = -1;
    CHECK(papcoll_allgatherv(a, 4, MPI_INT, b, four, self_at, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS &&
              b[2] == -1 && !memcmp(a, b + 3, 4 * sizeof(int)) && b[7] == -1,
          "allgatherv on MPI_COMM_SELF, displacement 3");
    MPI_Comm single;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single);
    memcpy(b, a, 4 * sizeof(int));
    CHECK(papcoll_allgather(MPI_IN_PLACE, 0, MPI_INT, b, 4, MPI_INT, single) == MPI_SUCCESS &&
              !memcmp(a, b, 4 * sizeof(int)),
          "allgather in place on a one-process communicator");
    MPI_Comm_free(&single);
    harness_watchdog_call_done();

    static const int want[2] = {MPI_ERR_COUNT, MPI_ERR_TYPE};
    failures += harness_errors_after("allgather", "allgatherv", comm, gather_after, gather_bad, want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    harness_errors_init("test_errors_allgather", argc, argv, 64);
    init_arrays();
    argument_errors(MPI_COMM_WORLD);
    per_algorithm_errors(MPI_COMM_WORLD);

    /* the communicator's own error handler is the one invoked */
    MPI_Errhandler eh;
    MPI_Comm comm = harness_errors_counting_comm(&eh);
    int rc = papcoll_allgather(a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, comm);
    failures += harness_errors_handled("allgather, custom handler", rc, MPI_ERR_TYPE, 1);
    rc = papcoll_allgatherv_by_name("no_such_algorithm", a, 2, MPI_INT, b, counts, displs, MPI_INT, comm);
    failures += harness_errors_handled("allgatherv, unknown algorithm, custom handler", rc, MPI_ERR_ARG, 2);
    valid_calls(comm);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    harness_watchdog_off();
    return harness_errors_finish("test_errors_allgather", failures);
}
