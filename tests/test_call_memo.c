/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_call_memo - a repeat of a communicator's last reduction or broadcast
 * (src/coll/call_memo.h) runs what the whole entry path would have run:
 *
 *   - MPI_Reduce with the root moving every call, the root alternating
 *     between MPI_IN_PLACE and a send buffer (its memo's key changes each
 *     call while the other processes repeat theirs): every result checked,
 *     through adaptive selection's agreements and explorations (a short
 *     period and start), where a process counting a call differently from
 *     the others would hang or disagree;
 *   - MPI_Bcast likewise, with adaptation and with a static rule;
 *   - MPI_Allreduce and MPI_Reduce repeated (papcoll's algorithms, static
 *     rules), then from the same call site with each kind of bad argument
 *     the memo's key does not cover (a NULL, aliased or MPI_IN_PLACE
 *     buffer, a root out of range): refused with the class papcoll's checks
 *     give it, then a good call again;
 *   - a new datatype of the same count, a freed and re-created
 *     communicator, papcoll_set_param() between repeats (PAPCOLL_TUNE rules
 *     that tell them apart, PAPCOLL_ALLREDUCE) and a name buffer rewritten
 *     between papcoll_allreduce_by_name calls: the algorithm follows.
 *
 * Run on 3 and 4 processes with the default parameters and short
 * adaptation periods (see tests/CMakeLists.txt).
 */
#include <mpi.h>
#include <papcoll.h>

#include <string.h>

#include "check.h"

enum { COUNT = 16, ROUNDS = 600 };

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

/* Reduces ROUNDS times with the root moving; the root passes MPI_IN_PLACE
 * every other time it is root. */
static void moving_roots(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int round = 0; round < ROUNDS; round++) {
        int root = round % size, in_place = rank == root && (round / size) % 2;
        long send[COUNT], recv[COUNT];
        for (int i = 0; i < COUNT; i++) send[i] = recv[i] = (long)rank * round + i;
        int rc = papcoll_reduce(in_place ? MPI_IN_PLACE : send, rank == root ? recv : NULL, COUNT, MPI_LONG, MPI_SUM,
                                root, comm);
        CHECK(rc == MPI_SUCCESS, "round %d: reduce returned %d", round, rc);
        if (rank != root) continue;
        for (int i = 0; i < COUNT; i++) {
            long want = (long)round * size * (size - 1) / 2 + (long)size * i;
            CHECK(recv[i] == want, "round %d, element %d: %ld, expected %ld", round, i, recv[i], want);
        }
    }
}

/* Every allreduce of this test, good or bad, from this one call site (a
 * memo repeats calls of one site), the error class returned. */
static int allreduce_here(const void *send, void *recv, MPI_Datatype type, MPI_Comm comm)
{
    return error_class(papcoll_allreduce(send, recv, COUNT, type, MPI_SUM, comm));
}

/* Broadcasts ROUNDS times with the root moving, every result checked; then,
 * from the same call site, a NULL buffer and a root out of range. */
static void bcasts(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int round = 0; round < ROUNDS + 2; round++) {
        int root = round < ROUNDS ? round % size : round == ROUNDS ? 0 : size, buf[COUNT];
        for (int i = 0; i < COUNT; i++) buf[i] = rank == root ? round + i : -1;
        int rc = error_class(papcoll_bcast(round == ROUNDS ? NULL : buf, COUNT, MPI_INT, root, comm));
        int want = round < ROUNDS ? MPI_SUCCESS : round == ROUNDS ? MPI_ERR_BUFFER : MPI_ERR_ROOT;
        CHECK(rc == want, "bcast round %d: class %d, expected %d", round, rc, want);
        for (int i = 0; round < ROUNDS && i < COUNT; i++)
            CHECK(buf[i] == round + i, "bcast round %d, element %d: %d", round, i, buf[i]);
    }
}

/* One allreduce of COUNT ints with bad buffers: refused with class want
 * (both libraries' class for these: tests/test_errors_reduce.c). */
static void allreduce_expect(MPI_Comm comm, const void *send, void *recv, int want, const char *what)
{
    int rc = allreduce_here(send, recv, MPI_INT, comm);
    CHECK(rc == want, "%s: class %d, expected %d", what, rc, want);
}

static void allreduce_checked(MPI_Comm comm, const char *what)
{
    int rank, size, send[COUNT], recv[COUNT];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int i = 0; i < COUNT; i++) send[i] = rank + i;
    CHECK(allreduce_here(send, recv, MPI_INT, comm) == MPI_SUCCESS, "%s: an error", what);
    for (int i = 0; i < COUNT; i++)
        CHECK(recv[i] == size * (size - 1) / 2 + size * i, "%s, element %d: %d", what, i, recv[i]);
}

/* Bad arguments after repeats: each refused as the library refuses it. */
static void bad_after_repeats(MPI_Comm comm)
{
    int send[COUNT] = {0}, recv[COUNT];
    for (int i = 0; i < 5; i++) allreduce_checked(comm, "a repeat");
    allreduce_expect(comm, send, NULL, MPI_ERR_BUFFER, "NULL recvbuf");
    allreduce_checked(comm, "after NULL recvbuf");
    allreduce_expect(comm, NULL, recv, MPI_ERR_BUFFER, "NULL sendbuf");
    allreduce_checked(comm, "after NULL sendbuf");
    allreduce_expect(comm, recv, recv, MPI_ERR_BUFFER, "aliased buffers");
    allreduce_checked(comm, "after aliased buffers");
    allreduce_expect(comm, send, MPI_IN_PLACE, MPI_ERR_BUFFER, "MPI_IN_PLACE as recvbuf");
    allreduce_checked(comm, "after MPI_IN_PLACE as recvbuf");
    int size;
    MPI_Comm_size(comm, &size);
    long lsend = 1, lrecv = 0;
    for (int i = 0; i <= 3; i++) { /* one site: three good calls, then a root out of range */
        int rc = error_class(papcoll_reduce(&lsend, &lrecv, 1, MPI_LONG, MPI_SUM, i < 3 ? 0 : size, comm));
        CHECK(rc == (i < 3 ? MPI_SUCCESS : MPI_ERR_ROOT), "reduce %d: class %d", i, rc);
    }
}

static void expect_algorithm(const char *want, const char *what)
{
    const char *got = papcoll_last_algorithm();
    CHECK(got && !strcmp(got, want), "%s: %s, expected %s", what, got ? got : "(none)", want);
}

/* The choice follows the datatype, the communicator and the parameters
 * between repeats (static rules: PAPCOLL_ADAPT=0 by now). */
static void choice_follows(void)
{
    papcoll_set_param("PAPCOLL_TUNE", "allreduce[bytes<=32]=ring; allreduce=recursive_doubling");
    for (int i = 0; i < 3; i++) {
        allreduce_checked(MPI_COMM_WORLD, "16 ints");
        expect_algorithm("recursive_doubling", "16 ints");
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    short ssend[COUNT], srecv[COUNT];
    for (int i = 0; i < COUNT; i++) ssend[i] = (short)(rank + i);
    CHECK(allreduce_here(ssend, srecv, MPI_SHORT, MPI_COMM_WORLD) == MPI_SUCCESS, "16 shorts");
    expect_algorithm("ring", "16 shorts, after 16 ints");
    for (int i = 0; i < COUNT; i++) CHECK(srecv[i] == size * (size - 1) / 2 + size * i, "16 shorts, element %d", i);
    for (int i = 0; i < 3; i++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        papcoll_set_param("PAPCOLL_TUNE", i % 2 ? "allreduce=ring" : "allreduce=recursive_doubling");
        allreduce_checked(c, "a new communicator");
        allreduce_checked(c, "a new communicator, repeated");
        expect_algorithm(i % 2 ? "ring" : "recursive_doubling", "a new communicator");
        papcoll_set_param("PAPCOLL_TUNE", i % 2 ? "allreduce=recursive_doubling" : "allreduce=ring");
        allreduce_checked(c, "new rules");
        expect_algorithm(i % 2 ? "recursive_doubling" : "ring", "new rules between repeats");
        MPI_Comm_free(&c);
    }
    /* a name from PAPCOLL_ALLREDUCE, then from papcoll_allreduce_by_name's buffer, rewritten before each call */
    char name[32];
    for (int i = 0; i < 4; i++) {
        const char *want = i % 2 ? "ring" : "recursive_doubling";
        papcoll_set_param("PAPCOLL_ALLREDUCE", want);
        allreduce_checked(MPI_COMM_WORLD, "PAPCOLL_ALLREDUCE");
        expect_algorithm(want, "PAPCOLL_ALLREDUCE changed between repeats");
    }
    int send[COUNT], recv[COUNT];
    for (int i = 0; i < COUNT; i++) send[i] = rank + i;
    for (int i = 0; i < 9; i++) { /* three calls per name: the second and third repeat the first */
        snprintf(name, sizeof name, "%s", (i / 3) % 2 ? "ring" : "recursive_doubling");
        CHECK(papcoll_allreduce_by_name(name, send, recv, COUNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
              "by name");
        expect_algorithm(name, "papcoll_allreduce_by_name, its name rewritten between calls");
        for (int j = 0; j < COUNT; j++) CHECK(recv[j] == size * (size - 1) / 2 + size * j, "by name, element %d", j);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    moving_roots(comm);
    bcasts(comm);
    /* a papcoll algorithm, which would trip over a bad buffer the checks let through */
    papcoll_set_param("PAPCOLL_ADAPT", "0");
    papcoll_set_param("PAPCOLL_TUNE", "allreduce=recursive_doubling; reduce=binomial; bcast=binomial");
    bad_after_repeats(comm);
    bcasts(comm);
    MPI_Comm_free(&comm);
    choice_follows();
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return all != 0;
}
