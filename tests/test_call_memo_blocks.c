/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_call_memo_blocks - a repeat of a communicator's last allgather,
 * alltoall, gather, scatter, reduce_scatter_block, scan, exscan or barrier
 * (src/coll/call_memo.h) runs what the whole entry path would have run:
 *
 *   - gather and scatter with the root moving every call and the root
 *     passing MPI_IN_PLACE every other time it is root (its key changes
 *     while the other processes repeat theirs), allgather, alltoall and
 *     reduce_scatter_block switching to MPI_IN_PLACE and back every few
 *     calls, scan and exscan taking turns, a barrier between: ROUNDS rounds
 *     through adaptive selection's agreements and explorations (short
 *     periods: tests/CMakeLists.txt), every result checked;
 *   - then, papcoll's own algorithms under static rules, each collective
 *     repeated and then called from the same call site with a bad argument
 *     the key does not cover (a NULL or aliased buffer, a root out of range,
 *     MPI_IN_PLACE where it is not allowed, a count that changes): each
 *     refused with the class of the whole check (papcoll_<coll>_by_name
 *     with the rule's algorithm: a named call never repeats an automatic
 *     one), then a good call again, checked.
 *
 * Bad calls are bad on every process (a process whose arguments are good
 * would enter the collective and wait for the others).
 */
#include <mpi.h>
#include <papcoll.h>

#include <stdio.h>
#include <string.h>

#include "check.h"

enum { COUNT = 3, ROUNDS = 400, MAX_PROCS = 16, SLOTS = COUNT * MAX_PROCS };

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

/* The value process r contributes as element i of block b in round t. */
static int value(int r, int b, int i, int t) { return 10000 * r + 100 * b + 10 * i + t % 10; }

static void gathers(MPI_Comm comm, int rank, int size, int round)
{
    int root = round % size, in_place = rank == root && (round / size) % 2;
    int send[COUNT], recv[SLOTS];
    for (int i = 0; i < COUNT; i++) send[i] = value(rank, 0, i, round);
    for (int i = 0; i < SLOTS; i++) recv[i] = -1;
    if (in_place) memcpy(&recv[root * COUNT], send, sizeof send);
    int rc = papcoll_gather(in_place ? MPI_IN_PLACE : send, COUNT, MPI_INT, rank == root ? recv : NULL, COUNT, MPI_INT,
                            root, comm);
    CHECK(rc == MPI_SUCCESS, "gather round %d: %d", round, rc);
    for (int r = 0; rank == root && r < size; r++)
        for (int i = 0; i < COUNT; i++)
            CHECK(recv[r * COUNT + i] == value(r, 0, i, round), "gather round %d, block %d[%d]: %d", round, r, i,
                  recv[r * COUNT + i]);
}

static void scatters(MPI_Comm comm, int rank, int size, int round)
{
    int root = round % size, in_place = rank == root && (round / size) % 2;
    int send[SLOTS], recv[COUNT];
    for (int r = 0; r < size; r++)
        for (int i = 0; i < COUNT; i++) send[r * COUNT + i] = value(root, r, i, round);
    for (int i = 0; i < COUNT; i++) recv[i] = -1;
    int rc = papcoll_scatter(rank == root ? send : NULL, COUNT, MPI_INT, in_place ? MPI_IN_PLACE : recv, COUNT, MPI_INT,
                             root, comm);
    CHECK(rc == MPI_SUCCESS, "scatter round %d: %d", round, rc);
    const int *mine = in_place ? &send[root * COUNT] : recv;
    for (int i = 0; i < COUNT; i++)
        CHECK(mine[i] == value(root, rank, i, round), "scatter round %d, [%d]: %d", round, i, mine[i]);
}

static void allgathers(MPI_Comm comm, int rank, int size, int round)
{
    int in_place = (round / 5) % 2, send[COUNT], recv[SLOTS];
    for (int i = 0; i < COUNT; i++) send[i] = value(rank, 0, i, round);
    for (int i = 0; i < SLOTS; i++) recv[i] = -1;
    if (in_place) memcpy(&recv[rank * COUNT], send, sizeof send);
    int rc = papcoll_allgather(in_place ? MPI_IN_PLACE : send, COUNT, MPI_INT, recv, COUNT, MPI_INT, comm);
    CHECK(rc == MPI_SUCCESS, "allgather round %d: %d", round, rc);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < COUNT; i++)
            CHECK(recv[r * COUNT + i] == value(r, 0, i, round), "allgather round %d, block %d[%d]: %d", round, r, i,
                  recv[r * COUNT + i]);
}

static void alltoalls(MPI_Comm comm, int rank, int size, int round)
{
    int in_place = (round / 7) % 2, send[SLOTS], recv[SLOTS];
    for (int r = 0; r < size; r++)
        for (int i = 0; i < COUNT; i++) send[r * COUNT + i] = recv[r * COUNT + i] = value(rank, r, i, round);
    int rc = papcoll_alltoall(in_place ? MPI_IN_PLACE : send, COUNT, MPI_INT, recv, COUNT, MPI_INT, comm);
    CHECK(rc == MPI_SUCCESS, "alltoall round %d: %d", round, rc);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < COUNT; i++)
            CHECK(recv[r * COUNT + i] == value(r, rank, i, round), "alltoall round %d, block %d[%d]: %d", round, r, i,
                  recv[r * COUNT + i]);
}

/* reduce_scatter_block (in place every other 6 calls), then scan or exscan
 * (turns of 4 calls) and a barrier. */
static void scans(MPI_Comm comm, int rank, int size, int round)
{
    int in_place = (round / 6) % 2, send[SLOTS], recv[SLOTS];
    for (int r = 0; r < size; r++)
        for (int i = 0; i < COUNT; i++) send[r * COUNT + i] = recv[r * COUNT + i] = value(rank, r, i, round);
    int rc = papcoll_reduce_scatter_block(in_place ? MPI_IN_PLACE : send, recv, COUNT, MPI_INT, MPI_SUM, comm);
    CHECK(rc == MPI_SUCCESS, "reduce_scatter_block round %d: %d", round, rc);
    for (int i = 0; i < COUNT; i++) {
        int want = 0;
        for (int r = 0; r < size; r++) want += value(r, rank, i, round);
        CHECK(recv[i] == want, "reduce_scatter_block round %d, [%d]: %d, expected %d", round, i, recv[i], want);
    }
    int exclusive = (round / 4) % 2;
    for (int i = 0; i < COUNT; i++) recv[i] = -1;
    rc = exclusive ? papcoll_exscan(send, recv, COUNT, MPI_INT, MPI_SUM, comm)
                   : papcoll_scan(send, recv, COUNT, MPI_INT, MPI_SUM, comm);
    CHECK(rc == MPI_SUCCESS, "scan round %d: %d", round, rc);
    for (int i = 0; i < COUNT && !(exclusive && rank == 0); i++) {
        int want = 0;
        for (int r = 0; r < rank + !exclusive; r++) want += value(r, 0, i, round);
        CHECK(recv[i] == want, "%s round %d, [%d]: %d, expected %d", exclusive ? "exscan" : "scan", round, i, recv[i],
              want);
    }
    CHECK(papcoll_barrier(comm) == MPI_SUCCESS, "barrier round %d", round);
}

/* One call site per collective for the bad-argument checks: the same
 * arguments through papcoll_<coll> (repeats) or, by_name, through
 * papcoll_<coll>_by_name (after papcoll_<coll>'s calls: the whole check). */
static int allgather_site(int by_name, const void *s, void *r, int n, MPI_Comm c)
{
    return error_class(by_name ? papcoll_allgather_by_name("ring", s, n, MPI_INT, r, n, MPI_INT, c)
                               : papcoll_allgather(s, n, MPI_INT, r, n, MPI_INT, c));
}
static int alltoall_site(int by_name, const void *s, void *r, int n, MPI_Comm c)
{
    return error_class(by_name ? papcoll_alltoall_by_name("pairwise", s, n, MPI_INT, r, n, MPI_INT, c)
                               : papcoll_alltoall(s, n, MPI_INT, r, n, MPI_INT, c));
}
static int gather_site(int by_name, const void *s, void *r, int root, MPI_Comm c)
{
    return error_class(by_name ? papcoll_gather_by_name("binomial", s, COUNT, MPI_INT, r, COUNT, MPI_INT, root, c)
                               : papcoll_gather(s, COUNT, MPI_INT, r, COUNT, MPI_INT, root, c));
}
static int scatter_site(int by_name, const void *s, void *r, int root, MPI_Comm c)
{
    return error_class(by_name ? papcoll_scatter_by_name("binomial", s, COUNT, MPI_INT, r, COUNT, MPI_INT, root, c)
                               : papcoll_scatter(s, COUNT, MPI_INT, r, COUNT, MPI_INT, root, c));
}
static int rsb_site(int by_name, const void *s, void *r, MPI_Comm c)
{
    return error_class(by_name ? papcoll_reduce_scatter_block_by_name("pairwise", s, r, COUNT, MPI_INT, MPI_SUM, c)
                               : papcoll_reduce_scatter_block(s, r, COUNT, MPI_INT, MPI_SUM, c));
}
static int scan_site(int by_name, const void *s, void *r, MPI_Comm c)
{
    return error_class(by_name ? papcoll_scan_by_name("recursive_doubling", s, r, COUNT, MPI_INT, MPI_SUM, c)
                               : papcoll_scan(s, r, COUNT, MPI_INT, MPI_SUM, c));
}

/* got (a call after repeats) must be an error, the class of the whole check (want). */
static void expect_refused(const char *what, int got, int want)
{
    CHECK(want != MPI_SUCCESS, "%s: the whole check accepts it", what);
    CHECK(got == want, "%s after repeats: class %d, the whole check's %d", what, got, want);
}

static void bad_after_repeats(MPI_Comm comm, int rank, int size)
{
    int s[SLOTS], r[SLOTS];
    for (int i = 0; i < SLOTS; i++) s[i] = i;
    for (int k = 0; k < 3; k++) { /* each: good calls from the site, then each bad one, then good again */
        for (int i = 0; i < 3; i++) CHECK(allgather_site(0, s, r, COUNT, comm) == MPI_SUCCESS, "allgather");
        if (k == 0) expect_refused("allgather, NULL sendbuf", allgather_site(0, NULL, r, COUNT, comm),
                                   allgather_site(1, NULL, r, COUNT, comm));
        if (k == 1) expect_refused("allgather, NULL recvbuf", allgather_site(0, s, NULL, COUNT, comm),
                                   allgather_site(1, s, NULL, COUNT, comm));
        if (k == 2) expect_refused("allgather, aliased buffers", allgather_site(0, r, r, COUNT, comm),
                                   allgather_site(1, r, r, COUNT, comm));
        for (int i = 0; i < 3; i++) CHECK(alltoall_site(0, s, r, COUNT, comm) == MPI_SUCCESS, "alltoall");
        if (k == 0) expect_refused("alltoall, recvbuf MPI_IN_PLACE", alltoall_site(0, s, MPI_IN_PLACE, COUNT, comm),
                                   alltoall_site(1, s, MPI_IN_PLACE, COUNT, comm));
        if (k == 1) expect_refused("alltoall, aliased buffers", alltoall_site(0, r, r, COUNT, comm),
                                   alltoall_site(1, r, r, COUNT, comm));
        if (k == 2) expect_refused("alltoall, count -1", alltoall_site(0, s, r, -1, comm),
                                   alltoall_site(1, s, r, -1, comm));
        for (int i = 0; i < 3; i++) CHECK(gather_site(0, s, r, i % size, comm) == MPI_SUCCESS, "gather");
        if (k == 0) expect_refused("gather, root out of range", gather_site(0, s, r, size, comm),
                                   gather_site(1, s, r, size, comm));
        if (k == 1) expect_refused("gather, NULL sendbuf", gather_site(0, NULL, r, 0, comm),
                                   gather_site(1, NULL, r, 0, comm));
        if (k == 2) expect_refused("gather, root -1", gather_site(0, s, r, -1, comm), gather_site(1, s, r, -1, comm));
        for (int i = 0; i < 3; i++) CHECK(scatter_site(0, s, r, i % size, comm) == MPI_SUCCESS, "scatter");
        if (k == 0) expect_refused("scatter, root out of range", scatter_site(0, s, r, size, comm),
                                   scatter_site(1, s, r, size, comm));
        if (k == 1 && size > 1) /* the root receives into NULL, the others into MPI_IN_PLACE */
            expect_refused("scatter, NULL and misplaced buffers",
                           scatter_site(0, s, rank == 0 ? NULL : MPI_IN_PLACE, 0, comm),
                           scatter_site(1, s, rank == 0 ? NULL : MPI_IN_PLACE, 0, comm));
        for (int i = 0; i < 3; i++) CHECK(rsb_site(0, s, r, comm) == MPI_SUCCESS, "reduce_scatter_block");
        if (k == 0) expect_refused("reduce_scatter_block, recvbuf MPI_IN_PLACE", rsb_site(0, s, MPI_IN_PLACE, comm),
                                   rsb_site(1, s, MPI_IN_PLACE, comm));
        if (k == 1) expect_refused("reduce_scatter_block, aliased buffers", rsb_site(0, r, r, comm),
                                   rsb_site(1, r, r, comm));
        if (k == 2) expect_refused("reduce_scatter_block, NULL recvbuf", rsb_site(0, s, NULL, comm),
                                   rsb_site(1, s, NULL, comm));
        for (int i = 0; i < 3; i++) CHECK(scan_site(0, s, r, comm) == MPI_SUCCESS, "scan");
        if (k == 0) expect_refused("scan, NULL sendbuf", scan_site(0, NULL, r, comm), scan_site(1, NULL, r, comm));
        if (k == 1) expect_refused("scan, recvbuf MPI_IN_PLACE", scan_site(0, s, MPI_IN_PLACE, comm),
                                   scan_site(1, s, MPI_IN_PLACE, comm));
        if (k == 2) expect_refused("scan, aliased buffers", scan_site(0, r, r, comm), scan_site(1, r, r, comm));
    }
    /* and good calls still give good results after the refusals */
    for (int round = 0; round < 2 * size; round++) {
        gathers(comm, rank, size, round);
        scatters(comm, rank, size, round);
        allgathers(comm, rank, size, round);
        alltoalls(comm, rank, size, round);
        scans(comm, rank, size, round);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > MAX_PROCS) {
        if (rank == 0) fprintf(stderr, "at most %d processes\n", MAX_PROCS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    for (int round = 0; round < ROUNDS; round++) {
        gathers(comm, rank, size, round);
        scatters(comm, rank, size, round);
        allgathers(comm, rank, size, round);
        alltoalls(comm, rank, size, round);
        scans(comm, rank, size, round);
    }
    /* papcoll's algorithms, which would trip over a bad buffer the checks let through */
    papcoll_set_param("PAPCOLL_ADAPT", "0");
    papcoll_set_param("PAPCOLL_TUNE", "allgather=ring; alltoall=pairwise; gather=binomial; scatter=binomial; "
                                      "reduce_scatter=pairwise; scan=recursive_doubling; barrier=dissemination");
    bad_after_repeats(comm, rank, size);
    MPI_Comm_free(&comm);
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return all != 0;
}
