/*
 * errors.h - what the error tests share (test_errors, test_errors_reduce,
 * test_errors_allgather): error classes and their names, a counting error
 * handler, and the two comparisons of a papcoll return code with the MPI
 * library's own (PMPI_*) or, where that library crashes or accepts an
 * erroneous call, with the class MPI prescribes.
 *
 * The comparisons print one "FAIL" line per failed check and return the
 * number of failed checks, which the test adds to its own count.
 */
#ifndef PC_HARNESS_ERRORS_H
#define PC_HARNESS_ERRORS_H

#include <mpi.h>

/* The error class of a return code (MPI_SUCCESS stays MPI_SUCCESS). */
int harness_error_class(int rc);
/* "MPI_ERR_COUNT: invalid count argument": the library's text for the class
 * of rc (four rotating buffers: up to four in one printf). */
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

#endif
