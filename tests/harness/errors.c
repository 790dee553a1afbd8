/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * errors.c - see errors.h.
 */
#include "errors.h"

#include <papcoll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int handler_calls, last_handler_code;

int harness_error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

const char *harness_class_name(int rc)
{
    static _Thread_local char s[4][MPI_MAX_ERROR_STRING];
    static _Thread_local int next;
    char *out = s[next++ % 4];
    int len;
    MPI_Error_string(harness_error_class(rc), out, &len);
    return out;
}

static void counting_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    last_handler_code = *code;
}

MPI_Errhandler harness_counting_errhandler(void)
{
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(counting_handler, &eh);
    return eh;
}

int harness_handler_calls(void) { return handler_calls; }
int harness_last_handler_code(void) { return last_handler_code; }

int harness_errors_compare(const char *what, int want, int ours, int theirs)
{
    int failed = 0;
    if (harness_error_class(ours) != harness_error_class(theirs)) {
        fprintf(stderr, "FAIL %s: papcoll returned %s, the MPI library %s\n", what, harness_class_name(ours),
                harness_class_name(theirs));
        failed++;
    }
    if (want == 0 && theirs == MPI_SUCCESS) {
        fprintf(stderr, "FAIL %s: the MPI library accepted the call (test expectation: an error)\n", what);
        failed++;
    }
    if (want > 0 && harness_error_class(theirs) != want) {
        fprintf(stderr, "FAIL %s: the MPI library returned %s (test expectation %s)\n", what,
                harness_class_name(theirs), harness_class_name(want));
        failed++;
    }
    return failed;
}

int harness_errors_expect(const char *what, int want, int want2, int ours)
{
    int cls = harness_error_class(ours);
    if (cls == want || cls == want2) return 0;
    if (want2 != want)
        fprintf(stderr, "FAIL %s: papcoll returned %s, expected %s or %s\n", what, harness_class_name(ours),
                harness_class_name(want), harness_class_name(want2));
    else
        fprintf(stderr, "FAIL %s: papcoll returned %s, expected %s\n", what, harness_class_name(ours),
                harness_class_name(want));
    return 1;
}

void harness_errors_init(const char *test, int argc, char **argv, int max_size)
{
    int rank, size, timeout = 30;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--call-timeout=", 15)) timeout = atoi(argv[i] + 15);
        else {
            int help = !strcmp(argv[i], "--help");
            if (rank == 0)
                fprintf(help ? stdout : stderr,
                        "usage: %s [--call-timeout=S]\n"
                        "  --call-timeout=S  watchdog: abort naming the call after S s (default 30)\n",
                        argv[0]);
            MPI_Finalize();
            exit(help ? 0 : 2);
        }
    }
    if (max_size > 0 && size > max_size) {
        if (rank == 0) fprintf(stderr, "%s: at most %d processes\n", test, max_size);
        MPI_Finalize();
        exit(2);
    }
    harness_watchdog_init(timeout, 0, rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

int harness_errors_finish(const char *test, int failures)
{
    int rank, size, total;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s: np=%d, %d failures\n", test, size, total);
    MPI_Finalize();
    return total != 0;
}

void harness_errors_blocks(int n, int size, int *counts, int *displs, int *negative)
{
    for (int r = 0; r < n; r++) {
        counts[r] = 2;
        displs[r] = 2 * (size - 1 - r);
        negative[r] = r == size - 1 ? -1 : 2;
    }
}

MPI_Comm harness_errors_counting_comm(MPI_Errhandler *eh)
{
    MPI_Comm comm;
    *eh = harness_counting_errhandler();
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, *eh);
    return comm;
}

int harness_errors_handled(const char *what, int rc, int want, int want_calls)
{
    if (harness_error_class(rc) == want && handler_calls == want_calls &&
        harness_error_class(last_handler_code) == want)
        return 0;
    fprintf(stderr, "FAIL %s: returned %s, %d error handler calls (the last with %s); expected %s, %d calls\n", what,
            harness_class_name(rc), handler_calls, harness_class_name(last_handler_code), harness_class_name(want),
            want_calls);
    return 1;
}

int harness_errors_valid(const char *what, const char *algo, int rc, int data_ok)
{
    if (rc != MPI_SUCCESS || !data_ok) {
        fprintf(stderr, "FAIL %s: %s%s\n", what, harness_class_name(rc), rc == MPI_SUCCESS ? ", wrong data" : "");
        return 1;
    }
    if (algo && strcmp(papcoll_last_algorithm(), algo)) {
        fprintf(stderr, "FAIL %s: papcoll_last_algorithm()=%s\n", what, papcoll_last_algorithm());
        return 1;
    }
    return 0;
}

int harness_errors_after(const char *collective, const char *vname, MPI_Comm comm,
                         int (*run)(const char *algo, int v, MPI_Comm comm, int *data_ok),
                         int (*bad)(const char *algo, int v, MPI_Comm comm), const int want[2])
{
    int failed = 0, n = papcoll_algorithm_count(collective);
    if (n <= 0) {
        fprintf(stderr, "FAIL papcoll_algorithm_count(\"%s\") = %d\n", collective, n);
        failed++;
    }
    for (int i = 0; i < n; i++) {
        const char *algo = papcoll_algorithm_name(collective, i);
        for (int v = 0; v < 2; v++) {
            int want_calls = handler_calls + 1, data_ok;
            char what[120];
            snprintf(what, sizeof what, "%s (%s) after the errors", v ? vname : collective, algo);
            harness_watchdog_label("%s", what);
            harness_watchdog_arm();
            int rc = run(algo, v, comm, &data_ok);
            failed += harness_errors_valid(what, algo, rc, data_ok);
            rc = bad(algo, v, comm);
            harness_watchdog_call_done();
            failed += harness_errors_handled(what, rc, want[v], want_calls);
        }
    }
    return failed;
}
