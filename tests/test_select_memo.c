/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_select_memo - automatic selection is memoized per communicator
 * (src/coll/choice_cache.h); the memo must never return a stale choice.
 *
 * With PAPCOLL_TUNE rules that tell the keys apart, allreduce calls of one
 * byte count on one communicator must select: by the op's commutativity,
 * by MPI_IN_PLACE, by the byte count, anew after papcoll_set_param changes
 * the rules, and on a second communicator independently.  Every result is
 * checked.  Run with PAPCOLL_ADAPT=0 (the static choice is what is checked).
 */
#include <mpi.h>
#include <papcoll.h>

#include <string.h>

#include "check.h"

enum { COUNT = 64 };

/* A non-commutative op: keeps the left operand (the lower rank's value). */
static void keep_first(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    memcpy(inout, in, (size_t)*len * sizeof(int));
}

/* Allreduce of `count` ints on comm, result checked; returns the algorithm. */
static const char *allreduce(MPI_Comm comm, int count, MPI_Op op, int inplace)
{
    int rank, size, send[COUNT], recv[COUNT];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int i = 0; i < count; i++) send[i] = recv[i] = rank + i;
    CHECK(papcoll_allreduce(inplace ? MPI_IN_PLACE : send, recv, count, MPI_INT, op, comm) == MPI_SUCCESS,
          "allreduce returned an error");
    for (int i = 0; i < count; i++) {
        int want = op == MPI_SUM ? size * (size - 1) / 2 + size * i : i; /* keep_first: rank 0's */
        CHECK(recv[i] == want, "element %d: %d, expected %d", i, recv[i], want);
    }
    return papcoll_last_algorithm();
}

static void expect(const char *got, const char *want, const char *what)
{
    CHECK(got && !strcmp(got, want), "%s: %s, expected %s", what, got ? got : "(none)", want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Op first;
    MPI_Op_create(keep_first, 0, &first);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    papcoll_set_param("PAPCOLL_TUNE", "allreduce[op=user]=recursive_doubling; allreduce[inplace]=reduce_bcast; "
                                      "allreduce[bytes<128]=rabenseifner; allreduce=ring");
    for (int round = 0; round < 3; round++) { /* the second and third rounds come from the memo */
        expect(allreduce(MPI_COMM_WORLD, COUNT, MPI_SUM, 0), "ring", "256 B, commutative");
        expect(allreduce(MPI_COMM_WORLD, COUNT, first, 0), "recursive_doubling", "256 B, user op");
        expect(allreduce(MPI_COMM_WORLD, COUNT, MPI_SUM, 1), "reduce_bcast", "256 B, in place");
        expect(allreduce(MPI_COMM_WORLD, 8, MPI_SUM, 0), "rabenseifner", "32 B");
    }
    papcoll_set_param("PAPCOLL_TUNE", "allreduce=recursive_doubling");
    expect(allreduce(MPI_COMM_WORLD, COUNT, MPI_SUM, 0), "recursive_doubling", "after new rules");
    expect(allreduce(dup, COUNT, MPI_SUM, 0), "recursive_doubling", "a second communicator");
    papcoll_set_param("PAPCOLL_TUNE", "allreduce=ring");
    expect(allreduce(dup, COUNT, MPI_SUM, 0), "ring", "a second communicator, rules changed again");
    expect(allreduce(MPI_COMM_WORLD, COUNT, MPI_SUM, 0), "ring", "the first communicator, rules changed again");
    MPI_Comm_free(&dup);
    MPI_Op_free(&first);
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return all != 0;
}
