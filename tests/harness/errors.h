/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errors.h - what the error tests share (test_errors, test_errors_reduce,
 * test_errors_allgather, test_errors_alltoall, test_errors_gather_scatter):
 * their option, start and summary; error classes and their names, a
 * counting error handler, and the comparisons of a papcoll return code with
 * the MPI library's own (PMPI_*) or, where that library crashes or accepts
 * an erroneous call, with the class MPI prescribes, one call at a time under
 * the watchdog (the HARNESS_* macros).
 *
 * The comparisons and checks print one "FAIL" line per failed check and
 * return the number of failed checks, which the test adds to its own count
 * (the macros add it to `failures`, tests/check.h).
 */
#ifndef PC_HARNESS_ERRORS_H
#define PC_HARNESS_ERRORS_H

#include "watchdog.h"

#include <mpi.h>
#include <stdio.h>

/* The error class of a return code (MPI_SUCCESS stays MPI_SUCCESS). */
int harness_error_class(int rc);
/* "MPI_ERR_COUNT: invalid count argument": the library's text for the class
 * of rc (four rotating buffers per thread: up to four in one printf). */
const char *harness_class_name(int rc);

/* An error handler that counts its calls and remembers the last code. */
MPI_Errhandler harness_counting_errhandler(void);
int harness_handler_calls(void);
int harness_last_handler_code(void);

/* papcoll's class (ours) must be the MPI library's (theirs); want: what the
 * MPI library must return (checked too: the test's expectation of MPI), 0
 * for "an error, library-specific", -1 for "the library may accept it". */
int harness_errors_compare(const char *what, int want, int ours, int theirs);
/* Where the MPI library cannot be asked (it crashes, or accepts what MPI
 * forbids): papcoll's class must be want or want2. */
int harness_errors_expect(const char *what, int want, int want2, int ours);

/* The start of an error test (after MPI_Init): its one option,
 * --call-timeout=S (watchdog, default 30 s; --help prints the usage and
 * exits 0, anything else prints it and exits 2), at most max_size processes
 * (0: any; more exits 2), the watchdog, MPI_ERRORS_RETURN on
 * MPI_COMM_WORLD. */
void harness_errors_init(const char *test, int argc, char **argv, int max_size);
/* The end: sums the failures over MPI_COMM_WORLD, prints "TEST: np=P, N
 * failures" on rank 0, finalizes MPI; returns the exit code (0: none). */
int harness_errors_finish(const char *test, int failures);

/* The argument arrays of the v forms for `size` processes, n entries:
 * counts 2 each, blocks in reverse rank order (displs), and `negative`, the
 * last rank's count -1. */
void harness_errors_blocks(int n, int size, int *counts, int *displs, int *negative);
/* A duplicate of MPI_COMM_WORLD whose error handler is the counting one
 * (*eh, to free with MPI_Errhandler_free after the communicator). */
MPI_Comm harness_errors_counting_comm(MPI_Errhandler *eh);

/* A faulty call through the counting handler: class `want`, and the
 * handler called want_calls times so far, the last time with class want. */
int harness_errors_handled(const char *what, int rc, int want, int want_calls);
/* A valid call after the errors: MPI_SUCCESS, data_ok, and (unless algo is
 * NULL) papcoll_last_algorithm() is algo. */
int harness_errors_valid(const char *what, const char *algo, int rc, int data_ok);

/* After the errors: every algorithm of `collective` (none: a failure) in
 * both forms (v 0: `collective`, v 1: `vname`), under the watchdog:
 * run(algo, v, comm, &data_ok) must return MPI_SUCCESS with data_ok and
 * papcoll_last_algorithm() algo (harness_errors_valid), then bad(algo, v,
 * comm) class want[v] through comm's counting handler
 * (harness_errors_handled).  Returns the failed checks. */
int harness_errors_after(const char *collective, const char *vname, MPI_Comm comm,
                         int (*run)(const char *algo, int v, MPI_Comm comm, int *data_ok),
                         int (*bad)(const char *algo, int v, MPI_Comm comm), const int want[2]);

/* papcoll_<coll>_by_name(algo, ...) against pmpi(...) (e.g. PMPI_Gather),
 * labelled "COLL (ALGO): WHAT": harness_errors_compare. */
#define HARNESS_VS_MPI(coll, pmpi, what, want, algo, ...)                                                        \
    do {                                                                                                         \
        char label_[200];                                                                                        \
        snprintf(label_, sizeof label_, "%s (%s): %s", #coll, algo, what);                                       \
        harness_watchdog_label("%s", label_);                                                                    \
        harness_watchdog_arm();                                                                                  \
        int ours_ = papcoll_##coll##_by_name(algo, __VA_ARGS__), theirs_ = pmpi(__VA_ARGS__);                    \
        harness_watchdog_call_done();                                                                            \
        failures += harness_errors_compare(label_, want, ours_, theirs_);                                        \
    } while (0)

/* Where the MPI library cannot be asked: papcoll's call must return want
 * or want2 (harness_errors_expect). */
#define HARNESS_PAPCOLL_ONLY(what, want, want2, call)                                                            \
    do {                                                                                                         \
        harness_watchdog_label("%s", what);                                                                      \
        harness_watchdog_arm();                                                                                  \
        int ours_ = call;                                                                                        \
        harness_watchdog_call_done();                                                                            \
        failures += harness_errors_expect(what, want, want2, ours_);                                             \
    } while (0)

/* HARNESS_PAPCOLL_ONLY of papcoll_<coll>_by_name(algo, ...), labelled as
 * HARNESS_VS_MPI labels it: papcoll must return want. */
#define HARNESS_PAPCOLL_BY_NAME(coll, what, want, algo, ...)                                                     \
    do {                                                                                                         \
        char what_[200];                                                                                         \
        snprintf(what_, sizeof what_, "%s (%s): %s", #coll, algo, what);                                         \
        HARNESS_PAPCOLL_ONLY(what_, want, want, papcoll_##coll##_by_name(algo, __VA_ARGS__));                    \
    } while (0)

/* The faults Open MPI 4.1 lets through or crashes on: there papcoll must
 * give MPICH's class; elsewhere HARNESS_VS_MPI. */
#ifdef OPEN_MPI
#define HARNESS_STRICT(coll, pmpi, what, want, algo, ...) HARNESS_PAPCOLL_BY_NAME(coll, what, want, algo, __VA_ARGS__)
#else
#define HARNESS_STRICT HARNESS_VS_MPI
#endif

#endif
