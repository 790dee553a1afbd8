/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_errors - bad arguments get the error class the MPI library itself
 * returns for MPI_Bcast (compared call by call with PMPI_Bcast), through the
 * communicator's error handler, without crash or hang; count 0, NULL buffer
 * with count 0, MPI_COMM_SELF and a communicator of one process work; a
 * valid broadcast still works afterwards.  MPI_Barrier's only argument
 * likewise (papcoll_barrier against PMPI_Barrier), and a barrier on an
 * intercommunicator runs the MPI library's.
 */
#include <papcoll.h>

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "harness/errors.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, data[4] = {0, 0, 0, 0};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

/* papcoll and the MPI library must agree on the class, and it must be `want`. */
#define BOTH(what, want, buf, count, type, root, comm)                                              \
    failures += harness_errors_compare(what, want, papcoll_bcast(buf, count, type, root, comm), \
                                       PMPI_Bcast(buf, count, type, root, comm))

    BOTH("root -1", MPI_ERR_ROOT, data, 1, MPI_INT, -1, MPI_COMM_WORLD);
    BOTH("root = size", MPI_ERR_ROOT, data, 1, MPI_INT, size, MPI_COMM_WORLD);
    BOTH("count -1", MPI_ERR_COUNT, data, -1, MPI_INT, 0, MPI_COMM_WORLD);
    BOTH("MPI_COMM_NULL", MPI_ERR_COMM, data, 1, MPI_INT, 0, MPI_COMM_NULL);
    BOTH("MPI_DATATYPE_NULL", MPI_ERR_TYPE, data, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
    /* Open MPI 4.1's MPI_Bcast does not check the buffer (it crashes); MPICH
     * returns MPI_ERR_BUFFER, as papcoll does. */
    failures += harness_errors_expect("NULL buffer, count 1", MPI_ERR_BUFFER, MPI_ERR_BUFFER,
                                      papcoll_bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD));
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    BOTH("uncommitted datatype", MPI_ERR_TYPE, data, 1, uncommitted, 0, MPI_COMM_WORLD);
    MPI_Type_free(&uncommitted);
    MPI_Comm freed;
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    papcoll_bcast(data, 1, MPI_INT, 0, freed); /* context cached, then freed with the communicator */
    MPI_Comm_free(&freed);
    BOTH("freed communicator", MPI_ERR_COMM, data, 1, MPI_INT, 0, freed);
    CHECK(harness_error_class(papcoll_bcast_by_name("no_such_algorithm", data, 1, MPI_INT, 0, MPI_COMM_WORLD)) ==
              MPI_ERR_ARG,
          "unknown algorithm name");
    failures += harness_errors_compare("barrier MPI_COMM_NULL", MPI_ERR_COMM, papcoll_barrier(MPI_COMM_NULL),
                                       PMPI_Barrier(MPI_COMM_NULL));
    failures += harness_errors_compare("barrier freed communicator", MPI_ERR_COMM, papcoll_barrier(freed),
                                       PMPI_Barrier(freed));
    CHECK(harness_error_class(papcoll_barrier_by_name("no_such_algorithm", MPI_COMM_WORLD)) == MPI_ERR_ARG,
          "unknown barrier name");
    if (size >= 2) { /* an intercommunicator between the even and the odd ranks: the library's barrier */
        MPI_Comm half, inter;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 77, &inter);
        CHECK(papcoll_barrier(inter) == MPI_SUCCESS && !strcmp(papcoll_last_algorithm(), "native"),
              "barrier on an intercommunicator");
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }

    /* the error handler of the communicator is the one invoked */
    MPI_Errhandler eh;
    MPI_Comm comm = harness_errors_counting_comm(&eh);
    int rc = papcoll_bcast(data, 1, MPI_INT, size + 3, comm);
    failures += harness_errors_handled("custom handler", rc, MPI_ERR_ROOT, 1);

    /* valid edge cases */
    CHECK(papcoll_bcast(NULL, 0, MPI_INT, 0, comm) == MPI_SUCCESS, "count 0 with NULL buffer");
    CHECK(papcoll_bcast(data, 0, MPI_INT, size - 1, comm) == MPI_SUCCESS, "count 0");
    data[0] = 42 + rank;
    CHECK(papcoll_bcast(data, 1, MPI_INT, 0, MPI_COMM_SELF) == MPI_SUCCESS && data[0] == 42 + rank, "MPI_COMM_SELF");
    MPI_Comm single;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single);
    CHECK(papcoll_bcast(data, 4, MPI_INT, 0, single) == MPI_SUCCESS && data[0] == 42 + rank, "one-process communicator");
    MPI_Comm_free(&single);
    for (int algo = 0; algo < papcoll_algorithm_count("bcast"); algo++) {
        const char *name = papcoll_algorithm_name("bcast", algo);
        for (int i = 0; i < 4; i++) data[i] = rank == size - 1 ? 1000 * algo + i : -1;
        rc = papcoll_bcast_by_name(name, data, 4, MPI_INT, size - 1, comm);
        CHECK(rc == MPI_SUCCESS && data[0] == 1000 * algo && data[3] == 1000 * algo + 3, "%s after errors", name);
        CHECK(papcoll_bcast_by_name(name, data, 4, MPI_INT, -2, comm) != MPI_SUCCESS, "%s bad root", name);
    }
    CHECK(harness_handler_calls() == 1 + papcoll_algorithm_count("bcast"), "handler count %d", harness_handler_calls());
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);

    return harness_errors_finish("test_errors", failures);
}
