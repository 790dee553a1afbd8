/*
 * errors.c - see errors.h.
 */
#include "errors.h"

#include <stdio.h>

static int handler_calls, last_handler_code;

int harness_error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

const char *harness_class_name(int rc)
{
    static char s[4][MPI_MAX_ERROR_STRING];
    static int next;
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
