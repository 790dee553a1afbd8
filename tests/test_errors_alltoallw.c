/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_errors_alltoallw - bad arguments of papcoll_alltoallw get the error
 * class the MPI library itself returns (compared call by call with
 * PMPI_Alltoallw), through the communicator's error handler, without crash
 * or hang (every call under the watchdog), for "auto" and, where the fault
 * is in a count or a datatype, for every algorithm forced by name; an
 * unknown algorithm name is MPI_ERR_ARG; valid edge cases work (all counts 0
 * with NULL buffers, MPI_IN_PLACE with NULL send arrays, MPI_BOTTOM with
 * datatypes of absolute addresses, MPI_COMM_SELF) and every algorithm still
 * exchanges right after the errors, with one datatype for every peer and
 * with datatypes that differ per peer.
 *
 * What MPI forbids but a library lets through is checked against the class
 * the other library gives (as tests/test_errors_alltoall.c does for
 * alltoallv):
 *
 *   fault                            Open MPI 4.1.4     MPICH 4.0.2    papcoll
 *   sendbuf == recvbuf, counts > 0   accepts            MPI_ERR_BUFFER MPI_ERR_BUFFER
 *   NULL count, displacement or      MPI_ERR_ARG        crashes        MPI_ERR_ARG
 *     datatype array
 *   recvbuf MPI_IN_PLACE             MPI_ERR_ARG        MPI_ERR_BUFFER the library's
 *
 * A NULL buffer is not a fault of alltoallw: its displacements are in bytes
 * and its datatypes may hold absolute addresses (MPI_BOTTOM).
 *
 *   test_errors_alltoallw [--call-timeout=S]   (watchdog, default 30 s)
 */
#include <papcoll.h>

#include "check.h"
#include "harness/errors.h"
#include "harness/watchdog.h"

#include <stdio.h>
#include <string.h>

static int rank, size;

#define A2AW_VS_MPI(...) HARNESS_VS_MPI(alltoallw, PMPI_Alltoallw, __VA_ARGS__)
#define A2AW_STRICT(...) HARNESS_STRICT(alltoallw, PMPI_Alltoallw, __VA_ARGS__)
#ifdef OPEN_MPI
#define A2AW_ARRAYS A2AW_VS_MPI
#else
#define A2AW_ARRAYS(...) HARNESS_PAPCOLL_BY_NAME(alltoallw, __VA_ARGS__)
#endif
#define PAPCOLL_ONLY HARNESS_PAPCOLL_ONLY

enum { MAXP = 64 };
/* a: my block for j is ints [2j, 2j + 2) = 1000 rank + 10 j + i; b: receive */
static int a[2 * MAXP], b[4 * MAXP];
/* two: 2 each; three: 3 each; one: 1 each; negative: two, the last -1; zeros */
static int two[MAXP], three[MAXP], one[MAXP], negative[MAXP], zeros[MAXP];
/* byte displacements: sd my blocks in rank order, rd the receive blocks in reverse rank order */
static int sd[MAXP], rd[MAXP];
static MPI_Datatype ints[MAXP], pairs[MAXP], doubles[MAXP], null_last[MAXP], uncommitted_last[MAXP];
static MPI_Datatype pair, uncommitted;

static void init_arrays(void)
{
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    for (int j = 0; j < MAXP; j++) {
        for (int i = 0; i < 2; i++) a[2 * j + i] = 1000 * rank + 10 * j + i;
        two[j] = 2, three[j] = 3, one[j] = 1, negative[j] = 2, zeros[j] = 0;
        ints[j] = null_last[j] = uncommitted_last[j] = MPI_INT;
        pairs[j] = pair;
        doubles[j] = MPI_DOUBLE;
    }
    for (int r = 0; r < size; r++) sd[r] = 8 * r, rd[r] = 8 * (size - 1 - r);
    negative[size - 1] = -1;
    null_last[size - 1] = MPI_DATATYPE_NULL;
    uncommitted_last[size - 1] = uncommitted;
}

/* Faults every process sees, with "auto". */
static void argument_errors(MPI_Comm comm)
{
    A2AW_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, two, sd, ints, b, two, rd, ints, MPI_COMM_NULL);
    A2AW_VS_MPI("sendcounts[p-1] = -1", MPI_ERR_COUNT, "auto", a, negative, sd, ints, b, two, rd, ints, comm);
    A2AW_VS_MPI("recvcounts[p-1] = -1", MPI_ERR_COUNT, "auto", a, two, sd, ints, b, negative, rd, ints, comm);
    A2AW_VS_MPI("sendtypes[p-1] MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, two, sd, null_last, b, two, rd, ints,
                comm);
    A2AW_VS_MPI("recvtypes[p-1] MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, two, sd, ints, b, two, rd, null_last,
                comm);
    A2AW_VS_MPI("uncommitted sendtypes[p-1]", MPI_ERR_TYPE, "auto", a, two, sd, uncommitted_last, b, two, rd, ints,
                comm);
    A2AW_VS_MPI("uncommitted recvtypes[p-1]", MPI_ERR_TYPE, "auto", a, two, sd, ints, b, two, rd, uncommitted_last,
                comm);
    /* MPI_IN_PLACE is for the send buffer only; the class differs between the libraries */
    A2AW_VS_MPI("recvbuf MPI_IN_PLACE", 0, "auto", a, two, sd, ints, MPI_IN_PLACE, two, rd, ints, comm);
    A2AW_VS_MPI("both MPI_IN_PLACE", 0, "auto", MPI_IN_PLACE, two, sd, ints, MPI_IN_PLACE, two, rd, ints, comm);
    /* my block for myself does not fit where I receive it: in counts, in datatypes */
    A2AW_VS_MPI("sendcounts 3 > recvcounts 2", MPI_ERR_TRUNCATE, "auto", a, three, sd, ints, b, two, rd, ints, comm);
    A2AW_VS_MPI("1 MPI_DOUBLE into 1 MPI_INT", MPI_ERR_TRUNCATE, "auto", a, one, sd, doubles, b, one, rd, ints, comm);
    A2AW_STRICT("sendbuf == recvbuf", MPI_ERR_BUFFER, "auto", b, two, sd, ints, b, two, rd, ints, comm);
    A2AW_ARRAYS("NULL sendcounts", MPI_ERR_ARG, "auto", a, NULL, sd, ints, b, two, rd, ints, comm);
    A2AW_ARRAYS("NULL sdispls", MPI_ERR_ARG, "auto", a, two, NULL, ints, b, two, rd, ints, comm);
    A2AW_ARRAYS("NULL sendtypes", MPI_ERR_ARG, "auto", a, two, sd, NULL, b, two, rd, ints, comm);
    A2AW_ARRAYS("NULL recvcounts", MPI_ERR_ARG, "auto", a, two, sd, ints, b, NULL, rd, ints, comm);
    A2AW_ARRAYS("NULL rdispls", MPI_ERR_ARG, "auto", a, two, sd, ints, b, two, NULL, ints, comm);
    A2AW_ARRAYS("NULL recvtypes", MPI_ERR_ARG, "auto", a, two, sd, ints, b, two, rd, NULL, comm);
    PAPCOLL_ONLY("alltoallw: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_alltoallw_by_name("no_such_algorithm", a, two, sd, ints, b, two, rd, ints, comm));
    PAPCOLL_ONLY("alltoallw: NULL algorithm name", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_alltoallw_by_name(NULL, a, two, sd, ints, b, two, rd, ints, comm));

    MPI_Comm freed;
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    papcoll_alltoallw(a, two, sd, ints, b, two, rd, ints, freed); /* context cached, then freed */
    MPI_Comm_free(&freed);
    A2AW_VS_MPI("freed communicator", MPI_ERR_COMM, "auto", a, two, sd, ints, b, two, rd, ints, freed);
}

/* Faults in counts and datatypes: every algorithm reports them as the MPI
 * library does, on every process, without hanging. */
static void per_algorithm_errors(MPI_Comm comm)
{
    int n = papcoll_algorithm_count("alltoall");
    for (int i = 0; i <= n; i++) {
        const char *algo = i < n ? papcoll_algorithm_name("alltoall", i) : "auto";
        A2AW_VS_MPI("recvcounts[p-1] = -1", MPI_ERR_COUNT, algo, a, two, sd, ints, b, negative, rd, ints, comm);
        A2AW_VS_MPI("sendtypes[p-1] MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, two, sd, null_last, b, two, rd, ints,
                    comm);
        A2AW_VS_MPI("uncommitted recvtypes[p-1]", MPI_ERR_TYPE, algo, a, two, sd, ints, b, two, rd, uncommitted_last,
                    comm);
        A2AW_VS_MPI("sendcounts 3 > recvcounts 2", MPI_ERR_TRUNCATE, algo, a, three, sd, ints, b, two, rd, ints, comm);
    }
}

static void clear(void)
{
    for (int i = 0; i < 4 * MAXP; i++) b[i] = -1;
}

/* b after an exchange of 2 ints per block, the block from r at byte rd[r]:
 * rank r's ints for me, every other int up to span untouched (-1). */
static int exchanged_ok(int span)
{
    int expected[4 * MAXP];
    for (int i = 0; i < span; i++) expected[i] = -1;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 2; i++) expected[rd[r] / 4 + i] = 1000 * r + 10 * rank + i;
    return !memcmp(b, expected, (size_t)span * sizeof(int));
}

/* After the errors: algo exchanges 2 ints per block right; v 1: the send
 * datatype per peer alternates between 1 pair and 2 MPI_INT, received as
 * 2 MPI_INT or 1 pair the other way round. */
static int exchange_after(const char *algo, int v, MPI_Comm comm, int *data_ok)
{
    MPI_Datatype st[MAXP], rt[MAXP];
    int sc[MAXP], rc_[MAXP];
    for (int r = 0; r < size; r++) {
        int s_pair = v && (rank + r) % 2, r_pair = v && !((rank + r) % 2) && r != rank;
        if (r == rank) r_pair = s_pair; /* either way for myself */
        st[r] = s_pair ? pair : MPI_INT, sc[r] = s_pair ? 1 : 2;
        rt[r] = r_pair ? pair : MPI_INT, rc_[r] = r_pair ? 1 : 2;
    }
    clear();
    int rc = papcoll_alltoallw_by_name(algo, a, sc, sd, st, b, rc_, rd, rt, comm);
    *data_ok = rc == MPI_SUCCESS && exchanged_ok(2 * size + 8);
    return rc;
}

/* ... and still reports a bad argument: recvcounts -1 (v 0), a null datatype (v 1). */
static int exchange_bad(const char *algo, int v, MPI_Comm comm)
{
    return v ? papcoll_alltoallw_by_name(algo, a, two, sd, ints, b, two, rd, null_last, comm)
             : papcoll_alltoallw_by_name(algo, a, two, sd, ints, b, negative, rd, ints, comm);
}

/* Valid edge cases, then every algorithm on real data after the errors. */
static void valid_calls(MPI_Comm comm)
{
    harness_watchdog_label("valid edge cases");
    harness_watchdog_arm();
    CHECK(papcoll_alltoallw(NULL, zeros, zeros, ints, NULL, zeros, zeros, ints, comm) == MPI_SUCCESS,
          "alltoallw: all counts 0, NULL buffers");
    CHECK(papcoll_alltoallw(b, zeros, zeros, ints, b, zeros, zeros, ints, comm) == MPI_SUCCESS,
          "alltoallw: sendbuf == recvbuf, all counts 0");
    /* MPI_IN_PLACE: the send arguments are ignored; my data for r starts in receive block r */
    clear();
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 2; i++) b[rd[r] / 4 + i] = 1000 * rank + 10 * r + i;
    CHECK(papcoll_alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, b, two, rd, ints, comm) == MPI_SUCCESS &&
              exchanged_ok(2 * size + 8),
          "alltoallw: MPI_IN_PLACE with NULL send arrays (ignored)");
    /* MPI_BOTTOM: each block's datatype holds its absolute address */
    MPI_Datatype sabs[MAXP], rabs[MAXP];
    for (int r = 0; r < size; r++) {
        MPI_Aint s_at, r_at;
        int len = 2;
        MPI_Get_address(a + 2 * r, &s_at);
        MPI_Get_address(b + rd[r] / 4, &r_at);
        MPI_Type_create_hindexed(1, &len, &s_at, MPI_INT, &sabs[r]);
        MPI_Type_create_hindexed(1, &len, &r_at, MPI_INT, &rabs[r]);
        MPI_Type_commit(&sabs[r]);
        MPI_Type_commit(&rabs[r]);
    }
    int n = papcoll_algorithm_count("alltoall");
    for (int i = 0; i <= n; i++) { /* the receive blocks in reverse rank order: packed, unpacked at MPI_BOTTOM */
        const char *algo = i < n ? papcoll_algorithm_name("alltoall", i) : "auto";
        char what[120];
        snprintf(what, sizeof what, "alltoallw (%s): MPI_BOTTOM with datatypes of absolute addresses", algo);
        clear();
        CHECK(papcoll_alltoallw_by_name(algo, MPI_BOTTOM, one, zeros, sabs, MPI_BOTTOM, one, zeros, rabs, comm) ==
                      MPI_SUCCESS &&
                  exchanged_ok(2 * size + 8),
              what);
    }
    for (int r = 0; r < size; r++) MPI_Type_free(&sabs[r]), MPI_Type_free(&rabs[r]);
    /* one process, receive displacement 12 bytes */
    int self_at[1] = {12}, four[1] = {4}, zero_at[1] = {0};
    clear();
    CHECK(papcoll_alltoallw(a, four, zero_at, ints, b, four, self_at, ints, MPI_COMM_SELF) == MPI_SUCCESS &&
              b[2] == -1 && !memcmp(a, b + 3, 4 * sizeof(int)) && b[7] == -1,
          "alltoallw on MPI_COMM_SELF, receive displacement 12 bytes");
    harness_watchdog_call_done();

    static const int want[2] = {MPI_ERR_COUNT, MPI_ERR_TYPE};
    failures += harness_errors_after("alltoall", "alltoallw", comm, exchange_after, exchange_bad, want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    harness_errors_init("test_errors_alltoallw", argc, argv, MAXP);
    init_arrays();
    argument_errors(MPI_COMM_WORLD);
    per_algorithm_errors(MPI_COMM_WORLD);

    /* the communicator's own error handler is the one invoked */
    MPI_Errhandler eh;
    MPI_Comm comm = harness_errors_counting_comm(&eh);
    int rc = papcoll_alltoallw(a, two, sd, ints, b, two, rd, null_last, comm);
    failures += harness_errors_handled("alltoallw, custom handler", rc, MPI_ERR_TYPE, 1);
    rc = papcoll_alltoallw_by_name("no_such_algorithm", a, two, sd, ints, b, two, rd, ints, comm);
    failures += harness_errors_handled("alltoallw, unknown algorithm, custom handler", rc, MPI_ERR_ARG, 2);
    valid_calls(comm);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    MPI_Type_free(&pair);
    MPI_Type_free(&uncommitted);
    harness_watchdog_off();
    return harness_errors_finish("test_errors_alltoallw", failures);
}
