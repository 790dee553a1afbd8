/*
 * test_errors_allgather - bad arguments of papcoll_allgather and
 * papcoll_allgatherv get the error class the MPI library itself returns
 * (compared call by call with PMPI_Allgather / PMPI_Allgatherv), through the
 * communicator's error handler, without crash or hang (every call runs under
 * the watchdog), for "auto" and, where the fault is in a count or a
 * datatype, for every algorithm forced by name; an unknown algorithm name is
 * MPI_ERR_ARG; valid edge cases (count 0 with NULL buffers, all-zero counts
 * of the v form, MPI_IN_PLACE with the ignored sendcount and sendtype,
 * MPI_COMM_SELF, one-process communicators) work, and every algorithm still
 * gathers right after the errors.
 *
 * What MPI forbids but a library lets through is checked against the class
 * the other library (and the MPI standard) gives:
 *
 *   fault                          Open MPI 4.1.4     MPICH 4.0.2    papcoll
 *   MPI_COMM_NULL (plain form)     crashes            MPI_ERR_COMM   MPI_ERR_COMM
 *   uncommitted receive datatype   accepts            MPI_ERR_TYPE   MPI_ERR_TYPE
 *   a negative recvcounts[i]       accepts            MPI_ERR_COUNT  MPI_ERR_COUNT
 *   sendbuf == recvbuf, count > 0  accepts            (*)            MPI_ERR_BUFFER
 *   NULL sendbuf/recvbuf, count>0  crashes            MPI_ERR_BUFFER MPI_ERR_BUFFER
 *   NULL displs                    MPI_ERR_BUFFER     crashes        MPI_ERR_BUFFER (MPICH build: or MPI_ERR_ARG)
 *   NULL recvcounts                crashes            crashes        MPI_ERR_COUNT or MPI_ERR_ARG
 *   recvbuf MPI_IN_PLACE           MPI_ERR_ARG        MPI_ERR_BUFFER the library's
 *
 * (*) MPICH 4.0.2 checks the send buffer against the process's own block
 * only: rank 0 returns MPI_ERR_BUFFER, the others enter the collective and
 * wait for it forever.  papcoll rejects it on every process (the buffers
 * overlap everywhere), so every process returns.
 *
 *   test_errors_allgather [--call-timeout=S]   (watchdog, default 30 s)
 */
#include <papcoll.h>

#include "check.h"
#include "harness/errors.h"
#include "harness/watchdog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* papcoll_allgather(v)_by_name(algo, ...) against PMPI_Allgather(v)(...):
 * the same class, and the MPI library's class `want` (harness/errors.h). */
#define GATHER_VS_MPI(what, want, algo, ...)                                                                     \
    do {                                                                                                         \
        char label_[200];                                                                                        \
        snprintf(label_, sizeof label_, "allgather (%s): %s", algo, what);                                       \
        harness_watchdog_label("%s", label_);                                                                    \
        harness_watchdog_arm();                                                                                  \
        int ours_ = papcoll_allgather_by_name(algo, __VA_ARGS__), theirs_ = PMPI_Allgather(__VA_ARGS__);         \
        harness_watchdog_call_done();                                                                            \
        failures += harness_errors_compare(label_, want, ours_, theirs_);                                        \
    } while (0)

#define GATHERV_VS_MPI(what, want, algo, ...)                                                                    \
    do {                                                                                                         \
        char label_[200];                                                                                        \
        snprintf(label_, sizeof label_, "allgatherv (%s): %s", algo, what);                                      \
        harness_watchdog_label("%s", label_);                                                                    \
        harness_watchdog_arm();                                                                                  \
        int ours_ = papcoll_allgatherv_by_name(algo, __VA_ARGS__), theirs_ = PMPI_Allgatherv(__VA_ARGS__);       \
        harness_watchdog_call_done();                                                                            \
        failures += harness_errors_compare(label_, want, ours_, theirs_);                                        \
    } while (0)

/* Where the MPI library cannot be asked: papcoll must return want or want2. */
#define PAPCOLL_ONLY(what, want, want2, call)                                                                    \
    do {                                                                                                         \
        harness_watchdog_label("%s", what);                                                                      \
        harness_watchdog_arm();                                                                                  \
        int ours_ = call;                                                                                        \
        harness_watchdog_call_done();                                                                            \
        failures += harness_errors_expect(what, want, want2, ours_);                                             \
    } while (0)

#ifdef OPEN_MPI /* the faults Open MPI 4.1 lets through or crashes on: papcoll gives MPICH's class */
#define GATHER_STRICT(what, want, algo, ...)                                                                     \
    PAPCOLL_ONLY("allgather (" algo "): " what, want, want, papcoll_allgather_by_name(algo, __VA_ARGS__))
#define GATHERV_STRICT(what, want, algo, ...)                                                                    \
    PAPCOLL_ONLY("allgatherv (" algo "): " what, want, want, papcoll_allgatherv_by_name(algo, __VA_ARGS__))
#else
#define GATHER_STRICT GATHER_VS_MPI
#define GATHERV_STRICT GATHERV_VS_MPI
#endif

static int a[64], b[512], counts[64], displs[64], negative[64];

/* counts 2 each, blocks in reverse rank order; negative: the last rank's count -1 */
static void init_arrays(void)
{
    for (int i = 0; i < 64; i++) a[i] = 100 * rank + i;
    for (int r = 0; r < size; r++) {
        counts[r] = 2;
        displs[r] = 2 * (size - 1 - r);
        negative[r] = r == size - 1 ? -1 : 2;
    }
}

/* Faults every process sees, with "auto". */
static void argument_errors(MPI_Comm comm)
{
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);

#ifdef OPEN_MPI /* Open MPI 4.1.4's MPI_Allgather dereferences MPI_COMM_NULL */
    PAPCOLL_ONLY("allgather: MPI_COMM_NULL", MPI_ERR_COMM, MPI_ERR_COMM,
                 papcoll_allgather(a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_NULL));
#else
    GATHER_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_NULL);
#endif
    GATHERV_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, 2, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_NULL);
    GATHER_VS_MPI("sendcount -1", MPI_ERR_COUNT, "auto", a, -1, MPI_INT, b, 2, MPI_INT, comm);
    GATHER_VS_MPI("recvcount -1", MPI_ERR_COUNT, "auto", a, 2, MPI_INT, b, -1, MPI_INT, comm);
    GATHERV_VS_MPI("sendcount -1", MPI_ERR_COUNT, "auto", a, -1, MPI_INT, b, counts, displs, MPI_INT, comm);
    GATHERV_STRICT("recvcounts[p-1] = -1", MPI_ERR_COUNT, "auto", a, 2, MPI_INT, b, negative, displs, MPI_INT, comm);
    GATHER_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_DATATYPE_NULL, b, 2, MPI_INT, comm);
    GATHER_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, comm);
    GATHERV_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_DATATYPE_NULL, b, counts, displs,
                   MPI_INT, comm);
    GATHERV_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, counts, displs,
                   MPI_DATATYPE_NULL, comm);
    GATHER_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, "auto", a, 1, uncommitted, b, 2, MPI_INT, comm);
    GATHERV_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, "auto", a, 1, uncommitted, b, counts, displs, MPI_INT, comm);
    GATHER_STRICT("uncommitted recvtype", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 1, uncommitted, comm);
    GATHERV_STRICT("uncommitted recvtype", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, counts, displs, uncommitted, comm);
    /* MPI_IN_PLACE is for the send buffer only; the class differs between the libraries */
    GATHER_VS_MPI("recvbuf MPI_IN_PLACE", 0, "auto", a, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm);
    GATHER_VS_MPI("both MPI_IN_PLACE", 0, "auto", MPI_IN_PLACE, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm);
    GATHERV_VS_MPI("recvbuf MPI_IN_PLACE", 0, "auto", a, 2, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT, comm);
    PAPCOLL_ONLY("allgather: sendbuf == recvbuf", MPI_ERR_BUFFER, MPI_ERR_BUFFER,
                 papcoll_allgather(b, 2, MPI_INT, b, 2, MPI_INT, comm));
    PAPCOLL_ONLY("allgatherv: sendbuf == recvbuf", MPI_ERR_BUFFER, MPI_ERR_BUFFER,
                 papcoll_allgatherv(b, 2, MPI_INT, b, counts, displs, MPI_INT, comm));
    GATHER_STRICT("NULL sendbuf, count 2", MPI_ERR_BUFFER, "auto", NULL, 2, MPI_INT, b, 2, MPI_INT, comm);
    GATHER_STRICT("NULL recvbuf, count 2", MPI_ERR_BUFFER, "auto", a, 2, MPI_INT, NULL, 2, MPI_INT, comm);
    GATHERV_STRICT("NULL recvbuf, counts 2", MPI_ERR_BUFFER, "auto", a, 2, MPI_INT, NULL, counts, displs, MPI_INT,
                   comm);
#ifdef OPEN_MPI
    GATHERV_VS_MPI("NULL displs", MPI_ERR_BUFFER, "auto", a, 2, MPI_INT, b, counts, NULL, MPI_INT, comm);
#else /* MPICH 4.0.2 dereferences NULL displs */
    PAPCOLL_ONLY("allgatherv: NULL displs", MPI_ERR_BUFFER, MPI_ERR_ARG,
                 papcoll_allgatherv(a, 2, MPI_INT, b, counts, NULL, MPI_INT, comm));
#endif
    /* both libraries dereference NULL recvcounts */
    PAPCOLL_ONLY("allgatherv: NULL recvcounts", MPI_ERR_COUNT, MPI_ERR_ARG,
                 papcoll_allgatherv(a, 2, MPI_INT, b, NULL, displs, MPI_INT, comm));
    PAPCOLL_ONLY("allgather: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_allgather_by_name("no_such_algorithm", a, 2, MPI_INT, b, 2, MPI_INT, comm));
    PAPCOLL_ONLY("allgatherv: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_allgatherv_by_name("no_such_algorithm", a, 2, MPI_INT, b, counts, displs, MPI_INT, comm));
    PAPCOLL_ONLY("allgather: NULL algorithm name", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_allgather_by_name(NULL, a, 2, MPI_INT, b, 2, MPI_INT, comm));
    PAPCOLL_ONLY("allgather: the name of a broadcast algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_allgather_by_name("binomial", a, 2, MPI_INT, b, 2, MPI_INT, comm));
    MPI_Type_free(&uncommitted);

    MPI_Comm freed;
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    papcoll_allgather(a, 2, MPI_INT, b, 2, MPI_INT, freed); /* context cached, then freed with the communicator */
    MPI_Comm_free(&freed);
    GATHERV_VS_MPI("freed communicator", MPI_ERR_COMM, "auto", a, 2, MPI_INT, b, counts, displs, MPI_INT, freed);
}

/* Faults in counts and datatypes: every algorithm must report them as the
 * MPI library does, on every process, without hanging. */
static void per_algorithm_errors(MPI_Comm comm)
{
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    int n = papcoll_algorithm_count("allgather");
    for (int i = 0; i <= n; i++) {
        const char *algo = i < n ? papcoll_algorithm_name("allgather", i) : "auto";
        GATHER_VS_MPI("recvcount -1", MPI_ERR_COUNT, algo, a, 2, MPI_INT, b, -1, MPI_INT, comm);
        GATHERV_VS_MPI("sendcount -1", MPI_ERR_COUNT, algo, a, -1, MPI_INT, b, counts, displs, MPI_INT, comm);
        GATHER_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, 2, MPI_DATATYPE_NULL, b, 2, MPI_INT, comm);
        GATHERV_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, 2, MPI_INT, b, counts, displs,
                       MPI_DATATYPE_NULL, comm);
        GATHER_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, algo, a, 1, uncommitted, b, 2, MPI_INT, comm);
#ifdef OPEN_MPI
        char what[120];
        snprintf(what, sizeof what, "allgatherv (%s): uncommitted recvtype", algo);
        PAPCOLL_ONLY(what, MPI_ERR_TYPE, MPI_ERR_TYPE,
                     papcoll_allgatherv_by_name(algo, a, 2, MPI_INT, b, counts, displs, uncommitted, comm));
        snprintf(what, sizeof what, "allgatherv (%s): recvcounts[p-1] = -1", algo);
        PAPCOLL_ONLY(what, MPI_ERR_COUNT, MPI_ERR_COUNT,
                     papcoll_allgatherv_by_name(algo, a, 2, MPI_INT, b, negative, displs, MPI_INT, comm));
#else
        GATHERV_VS_MPI("uncommitted recvtype", MPI_ERR_TYPE, algo, a, 2, MPI_INT, b, counts, displs, uncommitted,
                       comm);
        GATHERV_VS_MPI("recvcounts[p-1] = -1", MPI_ERR_COUNT, algo, a, 2, MPI_INT, b, negative, displs, MPI_INT,
                       comm);
#endif
    }
    MPI_Type_free(&uncommitted);
}

/* The gathered blocks of `a` (n ints from each rank) in b: rank r's block at
 * ints at[r]; the ints before `first` and the others up to `span` untouched
 * (-1). */
static int gathered_ok(const int *at, int n, int span)
{
    int expected[512];
    for (int i = 0; i < span; i++) expected[i] = -1;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < n; i++) expected[at[r] + i] = 100 * r + i;
    return !memcmp(b, expected, (size_t)span * sizeof(int));
}

/* Valid edge cases, then every algorithm on real data after the errors. */
static void valid_calls(MPI_Comm comm)
{
    int zeros[64] = {0}, at[64];
    harness_watchdog_label("valid edge cases");
    harness_watchdog_arm();
    CHECK(papcoll_allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm) == MPI_SUCCESS,
          "allgather: count 0, NULL buffers");
    CHECK(papcoll_allgatherv(NULL, 0, MPI_INT, NULL, zeros, zeros, MPI_INT, comm) == MPI_SUCCESS,
          "allgatherv: all counts 0, NULL buffers");
    CHECK(papcoll_allgather(b, 0, MPI_INT, b, 0, MPI_INT, comm) == MPI_SUCCESS, "allgather: sendbuf == recvbuf, count 0");
    /* MPI_IN_PLACE: sendcount and sendtype are ignored */
    for (int i = 0; i < 512; i++) b[i] = -1;
    for (int i = 0; i < 3; i++) b[3 * rank + i] = 100 * rank + i;
    for (int r = 0; r < size; r++) at[r] = 3 * r;
    CHECK(papcoll_allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, b, 3, MPI_INT, comm) == MPI_SUCCESS &&
              gathered_ok(at, 3, 3 * size + 8),
          "allgather: MPI_IN_PLACE with sendcount -1 and MPI_DATATYPE_NULL (ignored)");
    for (int i = 0; i < 512; i++) b[i] = -1;
    for (int i = 0; i < 2; i++) b[displs[rank] + i] = 100 * rank + i;
    CHECK(papcoll_allgatherv(MPI_IN_PLACE, 7, MPI_DATATYPE_NULL, b, counts, displs, MPI_INT, comm) == MPI_SUCCESS &&
              gathered_ok(displs, 2, 2 * size + 8),
          "allgatherv: MPI_IN_PLACE with sendcount 7 and MPI_DATATYPE_NULL (ignored)");
    /* one process */
    int self_at[1] = {3}, four[1] = {4};
    for (int i = 0; i < 512; i++) b[i] = -1;
    CHECK(papcoll_allgather(a, 4, MPI_INT, b, 4, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS && !memcmp(a, b, 4 * sizeof(int)) &&
              b[4] == -1,
          "allgather on MPI_COMM_SELF");
    for (int i = 0; i < 512; i++) b[i] = -1;
    CHECK(papcoll_allgatherv(a, 4, MPI_INT, b, four, self_at, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS &&
              b[2] == -1 && !memcmp(a, b + 3, 4 * sizeof(int)) && b[7] == -1,
          "allgatherv on MPI_COMM_SELF, displacement 3");
    MPI_Comm single;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single);
    memcpy(b, a, 4 * sizeof(int));
    CHECK(papcoll_allgather(MPI_IN_PLACE, 0, MPI_INT, b, 4, MPI_INT, single) == MPI_SUCCESS &&
              !memcmp(a, b, 4 * sizeof(int)),
          "allgather in place on a one-process communicator");
    MPI_Comm_free(&single);
    harness_watchdog_call_done();

    int n = papcoll_algorithm_count("allgather");
    CHECK(n > 0, "papcoll_algorithm_count(\"allgather\") = %d", n);
    for (int i = 0; i < n; i++) {
        const char *algo = papcoll_algorithm_name("allgather", i);
        for (int v = 0; v < 2; v++) {
            int want_calls = harness_handler_calls() + 1;
            harness_watchdog_label("%s (%s) after the errors", v ? "allgatherv" : "allgather", algo);
            harness_watchdog_arm();
            for (int k = 0; k < 512; k++) b[k] = -1;
            for (int r = 0; r < size; r++) at[r] = 2 * r;
            int rc = v ? papcoll_allgatherv_by_name(algo, a, 2, MPI_INT, b, counts, displs, MPI_INT, comm)
                       : papcoll_allgather_by_name(algo, a, 2, MPI_INT, b, 2, MPI_INT, comm);
            CHECK(rc == MPI_SUCCESS && gathered_ok(v ? displs : at, 2, 2 * size + 8),
                  "%s (%s) after the errors: %s%s", v ? "allgatherv" : "allgather", algo, harness_class_name(rc),
                  rc == MPI_SUCCESS ? ", wrong data" : "");
            CHECK(rc != MPI_SUCCESS || !strcmp(papcoll_last_algorithm(), algo), "%s (%s): papcoll_last_algorithm()=%s",
                  v ? "allgatherv" : "allgather", algo, papcoll_last_algorithm());
            rc = v ? papcoll_allgatherv_by_name(algo, a, 2, MPI_INT, b, counts, displs, MPI_DATATYPE_NULL, comm)
                   : papcoll_allgather_by_name(algo, a, 2, MPI_INT, b, -1, MPI_INT, comm);
            harness_watchdog_call_done();
            int want = v ? MPI_ERR_TYPE : MPI_ERR_COUNT;
            CHECK(harness_error_class(rc) == want && harness_handler_calls() == want_calls &&
                      harness_error_class(harness_last_handler_code()) == want,
                  "%s (%s): bad argument: %s, %d handler calls", v ? "allgatherv" : "allgather", algo,
                  harness_class_name(rc), harness_handler_calls() - want_calls + 1);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int timeout = 30;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--call-timeout=", 15)) timeout = atoi(argv[i] + 15);
        else {
            if (rank == 0)
                fprintf(strcmp(argv[i], "--help") ? stderr : stdout,
                        "usage: %s [--call-timeout=S]\n"
                        "  --call-timeout=S  watchdog: abort naming the call after S s (default 30)\n",
                        argv[0]);
            MPI_Finalize();
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (size > 64) {
        if (rank == 0) fprintf(stderr, "test_errors_allgather: at most 64 processes\n");
        MPI_Finalize();
        return 2;
    }
    harness_watchdog_init(timeout, 0, rank);
    init_arrays();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    argument_errors(MPI_COMM_WORLD);
    per_algorithm_errors(MPI_COMM_WORLD);

    /* the communicator's own error handler is the one invoked */
    MPI_Comm comm;
    MPI_Errhandler eh = harness_counting_errhandler();
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, eh);
    int rc = papcoll_allgather(a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, comm);
    CHECK(harness_handler_calls() == 1 && harness_error_class(harness_last_handler_code()) == MPI_ERR_TYPE &&
              harness_error_class(rc) == MPI_ERR_TYPE,
          "allgather, custom handler: %d calls, code %s", harness_handler_calls(),
          harness_class_name(harness_last_handler_code()));
    rc = papcoll_allgatherv_by_name("no_such_algorithm", a, 2, MPI_INT, b, counts, displs, MPI_INT, comm);
    CHECK(harness_handler_calls() == 2 && harness_error_class(harness_last_handler_code()) == MPI_ERR_ARG &&
              harness_error_class(rc) == MPI_ERR_ARG,
          "allgatherv, unknown algorithm, custom handler: %d calls, code %s", harness_handler_calls(),
          harness_class_name(harness_last_handler_code()));
    valid_calls(comm);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    harness_watchdog_off();

    int total;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_errors_allgather: np=%d, %d failures\n", size, total);
    MPI_Finalize();
    return total != 0;
}
