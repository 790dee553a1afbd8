/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_reduce_clairvoyant - reduce clairvoyant (src/reduce/reduce_clairvoyant.c)
 * under a persistent arrival order: one rank sleeps --delay-us before every
 * call for --calls calls, then another rank for as many; every result is
 * checked at the root after every call (MPI_INT, MPI_SUM, counts 1, 1000 and
 * 5000, MPI_IN_PLACE every third call), and the prediction must follow:
 * after each phase every process holds the same prediction (gathered and
 * compared), which names the late rank, and at least one prediction
 * naming a rank was adopted (the tree changed).  Then a second root on the
 * same communicator (per-root state), a user-defined commutative op on a
 * strided vector type, count 0, and a duplicate communicator freed right
 * after an observation call (the prediction's messages still in flight are
 * completed when it is freed).
 * Run with PAPCOLL_REDUCE_CLAIRVOYANT_PERIOD small (ctest: 4) so that a few
 * tens of calls see several observations.  The delay (40 ms) is far above
 * an oversubscribed node's time slice, so the late rank is late in every
 * observation; on a loaded node other processes may look late too (a
 * descheduled process is), so the late rank need not be the first named.
 */
#include <mpi.h>
#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* src/reduce/reduce.h (libpapcoll's internal query, for tests) */
int pc_reduce_clairvoyant_plan(MPI_Comm comm, int root, int *late, int max, unsigned long *plans);

enum { MAXC = 5000, MAXLATE = 32 };
static int rank, size, calls = 24, delay_us = 40000;
static int sbuf[3 * MAXC], rbuf[3 * MAXC];

static int value(int r, int call, int i) { return (r + 1) * 1000 + call * 7 + i % 101; }

/* One checked reduce of count ints to root; `late` sleeps first. */
static void one_call(MPI_Comm comm, int root, int late, int call, int count)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    if (me == late) usleep((useconds_t)delay_us);
    int inplace = me == root && call % 3 == 0;
    for (int i = 0; i < count; i++) (inplace ? rbuf : sbuf)[i] = value(me, call, i);
    int rc = papcoll_reduce_by_name("clairvoyant", inplace ? MPI_IN_PLACE : sbuf, rbuf, count, MPI_INT, MPI_SUM,
                                    root, comm);
    CHECK(rc == MPI_SUCCESS, "call %d: rc %d", call, rc);
    if (me != root) return;
    for (int i = 0; i < count; i++) {
        long want = 0;
        for (int r = 0; r < p; r++) want += value(r, call, i);
        if (rbuf[i] != (int)want) {
            CHECK(0, "call %d root %d late %d count %d: element %d is %d, want %ld", call, root, late, count, i,
                  rbuf[i], want);
            break;
        }
    }
}

/* Every process holds the same prediction for root; it names `late` (when
 * late >= 0) and predictions naming a rank were adopted. */
static void check_prediction(MPI_Comm comm, int root, int late, const char *phase)
{
    int mine[1 + MAXLATE] = {0}, *all = malloc((size_t)size * sizeof mine);
    unsigned long plans = 0;
    int n = pc_reduce_clairvoyant_plan(comm, root, mine + 1, MAXLATE, &plans);
    mine[0] = n;
    MPI_Allgather(mine, 1 + MAXLATE, MPI_INT, all, 1 + MAXLATE, MPI_INT, comm);
    for (int r = 0; r < size; r++)
        CHECK(!memcmp(all + r * (1 + MAXLATE), mine, sizeof mine), "%s: rank %d's prediction differs from rank %d's",
              phase, r, rank);
    if (late >= 0) {
        int named = 0;
        for (int i = 0; i < n; i++) named |= mine[1 + i] == late;
        CHECK(named, "%s: prediction names %d rank(s), first %d; %d is not among them", phase, n, n ? mine[1] : -1,
              late);
        CHECK(plans >= 1, "%s: no prediction was ever adopted", phase);
    }
    if (rank == 0) {
        printf("%s: root %d predicted late:", phase, root);
        for (int i = 0; i < n; i++) printf(" %d", mine[1 + i]);
        printf(" (%lu predictions adopted)\n", plans);
    }
    free(all);
}

/* sum of (a, b) pairs of a strided vector type, commutative */
static void pair_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++) {
        b[3 * i] += a[3 * i];
        b[3 * i + 1] += a[3 * i + 1]; /* element: ints 0 and 1 of every 3 (int 2 is a gap) */
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--calls=", 8)) calls = atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "--delay-us=", 11)) delay_us = atoi(argv[i] + 11);
    }
    if (size < 3) {
        if (rank == 0) printf("test_reduce_clairvoyant: needs 3 processes or more\n");
        MPI_Finalize();
        return 77;
    }
    static const int counts[] = {1, 1000, 5000};
    int late1 = size - 1, late2 = 1, root2 = size / 2;

    /* phase 1 and 2: root 0, one rank late, then another */
    for (int c = 0; c < calls; c++) one_call(MPI_COMM_WORLD, 0, late1, c, counts[c % 3]);
    check_prediction(MPI_COMM_WORLD, 0, late1, "late rank 1");
    for (int c = 0; c < calls; c++) one_call(MPI_COMM_WORLD, 0, late2, calls + c, counts[c % 3]);
    check_prediction(MPI_COMM_WORLD, 0, late2, "late rank 2");

    /* another root on the same communicator: its own state */
    for (int c = 0; c < calls; c++) one_call(MPI_COMM_WORLD, root2, late1, 2 * calls + c, counts[c % 3]);
    check_prediction(MPI_COMM_WORLD, root2, late1, "second root");

    /* count 0, then a user op on a strided type (2 ints of every 3) */
    CHECK(papcoll_reduce_by_name("clairvoyant", sbuf, rbuf, 0, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD) == MPI_SUCCESS,
          "count 0");
    MPI_Datatype pair;
    MPI_Op op;
    MPI_Type_vector(1, 2, 3, MPI_INT, &pair);
    MPI_Type_create_resized(pair, 0, 3 * sizeof(int), &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(pair_sum, 1, &op);
    for (int c = 0; c < 6; c++) {
        int n = 400;
        for (int i = 0; i < 3 * n; i++) {
            sbuf[i] = value(rank, c, i);
            rbuf[i] = -7;
        }
        if (rank == late1) usleep((useconds_t)delay_us);
        CHECK(papcoll_reduce_by_name("clairvoyant", sbuf, rbuf, n, pair, op, 0, MPI_COMM_WORLD) == MPI_SUCCESS,
              "user op");
        for (int i = 0; rank == 0 && i < 3 * n; i++) {
            long want = 0;
            for (int r = 0; r < size; r++) want += value(r, c, i);
            if (i % 3 == 2 ? rbuf[i] != -7 : rbuf[i] != (int)want) {
                CHECK(0, "user op call %d: int %d is %d", c, i, rbuf[i]);
                break;
            }
        }
    }
    MPI_Op_free(&op);
    MPI_Type_free(&pair);

    /* a communicator freed right after an observation call (its second) */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    one_call(dup, 0, late1, 0, 10);
    one_call(dup, 0, late1, 1, 10);
    MPI_Comm_free(&dup);

    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_reduce_clairvoyant: np=%d calls=%d delay=%d us: %d failures\n", size, 3 * calls + 8,
                          delay_us, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
