/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_errors_gather_scatter - bad arguments of papcoll_gather(v) and
 * papcoll_scatter(v) get the error class the MPI library itself returns
 * (compared call by call with PMPI_Gather(v) / PMPI_Scatter(v)), through the
 * communicator's error handler, without crash or hang (every call runs
 * under the watchdog), for "auto" and, for faults in counts, datatypes and
 * the root, for every algorithm forced by name; an unknown algorithm name
 * is MPI_ERR_ARG; valid edge cases (count 0 with NULL buffers, MPI_IN_PLACE
 * at the root, one-process communicators) work, and every algorithm still
 * gathers and scatters right after the errors.
 *
 * Faults only the root sees (its receive counts in gather, its send counts
 * in scatter, MPI_IN_PLACE where it does not belong at the root) run on
 * MPI_COMM_SELF: on a larger communicator the MPI library's other
 * processes would wait for the failed root forever.  A fault only a
 * non-root sees is not tested, for the same reason.
 *
 * What one library lets through or crashes on is checked against the class
 * the other library (and the MPI standard) gives:
 *
 *   fault (probed on one process)      Open MPI 4.1.4   MPICH 4.0.2     papcoll
 *   uncommitted recvtype               accepts          MPI_ERR_TYPE    MPI_ERR_TYPE
 *   scatter: root's sendcount -1       crashes          MPI_ERR_COUNT   MPI_ERR_COUNT
 *   scatter: root's sendtype NULL      accepts          MPI_ERR_TYPE    MPI_ERR_TYPE
 *   gather: root's sendbuf == recvbuf  accepts          MPI_ERR_BUFFER  MPI_ERR_BUFFER
 *   NULL buffer at the root, count > 0 crashes          MPI_ERR_BUFFER  MPI_ERR_BUFFER
 *   gatherv: NULL displs               MPI_ERR_ARG      crashes         MPI_ERR_ARG
 *   MPI_IN_PLACE misplaced at the root MPI_ERR_ARG      MPI_ERR_BUFFER  the library's
 *   root out of range, counts -1, MPI_DATATYPE_NULL, MPI_COMM_NULL, a negative
 *   counts[i], recvcount below sendcount (MPI_ERR_TRUNCATE): both agree.
 *
 *   test_errors_gather_scatter [--call-timeout=S]   (watchdog, default 30 s)
 */
#include <papcoll.h>

#include "check.h"
#include "harness/errors.h"
#include "harness/watchdog.h"

#include <stdio.h>

static int rank, size;

/* papcoll_<coll>_by_name(algo, ...) against PMPI_<Coll>(...)
 * (harness/errors.h); STRICT: papcoll alone, with MPICH's class, where Open
 * MPI 4.1.4 lets the fault through or crashes. */
#define GATHER_VS_MPI(...) HARNESS_VS_MPI(gather, PMPI_Gather, __VA_ARGS__)
#define GATHERV_VS_MPI(...) HARNESS_VS_MPI(gatherv, PMPI_Gatherv, __VA_ARGS__)
#define SCATTER_VS_MPI(...) HARNESS_VS_MPI(scatter, PMPI_Scatter, __VA_ARGS__)
#define SCATTERV_VS_MPI(...) HARNESS_VS_MPI(scatterv, PMPI_Scatterv, __VA_ARGS__)
#define STRICT HARNESS_STRICT
#define PAPCOLL_ONLY HARNESS_PAPCOLL_ONLY

static int a[64], b[512], counts[64], displs[64], negative[64], minus_one[1] = {-1};

static void init_arrays(void)
{
    for (int i = 0; i < 64; i++) a[i] = 100 * rank + i;
    harness_errors_blocks(64, size, counts, displs, negative);
}

/* Faults every process sees, with "auto", on comm. */
static void shared_errors(MPI_Comm comm)
{
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    int root = size - 1;
    GATHER_VS_MPI("root = size", MPI_ERR_ROOT, "auto", a, 2, MPI_INT, b, 2, MPI_INT, size, comm);
    GATHER_VS_MPI("root = -1", MPI_ERR_ROOT, "auto", a, 2, MPI_INT, b, 2, MPI_INT, -1, comm);
    GATHERV_VS_MPI("root = size", MPI_ERR_ROOT, "auto", a, 2, MPI_INT, b, counts, displs, MPI_INT, size, comm);
    SCATTER_VS_MPI("root = size", MPI_ERR_ROOT, "auto", a, 2, MPI_INT, b, 2, MPI_INT, size, comm);
    SCATTERV_VS_MPI("root = -1", MPI_ERR_ROOT, "auto", a, counts, displs, MPI_INT, b, 2, MPI_INT, -1, comm);
    GATHER_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, 2, MPI_INT, b, 2, MPI_INT, 0, MPI_COMM_NULL);
    SCATTERV_VS_MPI("MPI_COMM_NULL", MPI_ERR_COMM, "auto", a, counts, displs, MPI_INT, b, 2, MPI_INT, 0, MPI_COMM_NULL);
    /* gather: every process sends; scatter: every process receives */
    GATHER_VS_MPI("sendcount -1", MPI_ERR_COUNT, "auto", a, -1, MPI_INT, b, 2, MPI_INT, root, comm);
    GATHERV_VS_MPI("sendcount -1", MPI_ERR_COUNT, "auto", a, -1, MPI_INT, b, counts, displs, MPI_INT, root, comm);
    GATHER_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_DATATYPE_NULL, b, 2, MPI_INT, root,
                  comm);
    GATHER_VS_MPI("uncommitted sendtype", MPI_ERR_TYPE, "auto", a, 1, uncommitted, b, 2, MPI_INT, root, comm);
    SCATTER_VS_MPI("recvcount -1", MPI_ERR_COUNT, "auto", a, 2, MPI_INT, b, -1, MPI_INT, root, comm);
    SCATTERV_VS_MPI("recvcount -1", MPI_ERR_COUNT, "auto", a, counts, displs, MPI_INT, b, -1, MPI_INT, root, comm);
    SCATTER_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, root,
                   comm);
    STRICT(scatterv, PMPI_Scatterv, "uncommitted recvtype", MPI_ERR_TYPE, "auto", a, counts, displs, MPI_INT, b, 1,
           uncommitted, root, comm);
    PAPCOLL_ONLY("gather: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_gather_by_name("no_such_algorithm", a, 2, MPI_INT, b, 2, MPI_INT, 0, comm));
    PAPCOLL_ONLY("scatterv: unknown algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_scatterv_by_name("no_such_algorithm", a, counts, displs, MPI_INT, b, 2, MPI_INT, 0, comm));
    PAPCOLL_ONLY("gatherv: NULL algorithm name", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_gatherv_by_name(NULL, a, 2, MPI_INT, b, counts, displs, MPI_INT, 0, comm));
    PAPCOLL_ONLY("scatter: the name of a broadcast algorithm", MPI_ERR_ARG, MPI_ERR_ARG,
                 papcoll_scatter_by_name("chain", a, 2, MPI_INT, b, 2, MPI_INT, 0, comm));
    MPI_Type_free(&uncommitted);
}

/* Faults only the root sees, on MPI_COMM_SELF (see the file comment). */
static void root_errors(void)
{
    MPI_Comm self = MPI_COMM_SELF;
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    GATHER_VS_MPI("root's recvcount -1", MPI_ERR_COUNT, "auto", a, 2, MPI_INT, b, -1, MPI_INT, 0, self);
    GATHER_VS_MPI("root's recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, 0,
                  self);
    STRICT(gather, PMPI_Gather, "root's uncommitted recvtype", MPI_ERR_TYPE, "auto", a, 2, MPI_INT, b, 1, uncommitted,
           0, self);
    STRICT(gatherv, PMPI_Gatherv, "root's recvcounts[0] = -1", MPI_ERR_COUNT, "auto", a, 2, MPI_INT, b, minus_one,
           displs, MPI_INT, 0, self);
    GATHER_VS_MPI("recvcount below sendcount", MPI_ERR_TRUNCATE, "auto", a, 4, MPI_INT, b, 2, MPI_INT, 0, self);
    STRICT(scatter, PMPI_Scatter, "root's sendcount -1", MPI_ERR_COUNT, "auto", a, -1, MPI_INT, b, 2, MPI_INT, 0, self);
    STRICT(scatter, PMPI_Scatter, "root's sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, "auto", a, 2, MPI_DATATYPE_NULL, b,
           2, MPI_INT, 0, self);
    STRICT(gather, PMPI_Gather, "root's sendbuf == recvbuf", MPI_ERR_BUFFER, "auto", b, 2, MPI_INT, b, 2, MPI_INT, 0,
           self);
#ifdef OPEN_MPI
    GATHERV_VS_MPI("NULL displs at the root", MPI_ERR_ARG, "auto", a, 2, MPI_INT, b, counts, NULL, MPI_INT, 0, self);
#else /* MPICH 4.0.2 dereferences NULL displs */
    PAPCOLL_ONLY("gatherv: NULL displs at the root", MPI_ERR_ARG, MPI_ERR_BUFFER,
                 papcoll_gatherv(a, 2, MPI_INT, b, counts, NULL, MPI_INT, 0, self));
#endif
    SCATTER_VS_MPI("recvcount below sendcount", MPI_ERR_TRUNCATE, "auto", a, 4, MPI_INT, b, 2, MPI_INT, 0, self);
    STRICT(scatterv, PMPI_Scatterv, "root's sendcounts[0] = -1", MPI_ERR_COUNT, "auto", a, minus_one, displs,
           MPI_INT, b, 2, MPI_INT, 0, self);
    /* MPI_IN_PLACE: gather's root sends in place, scatter's root receives in place; not the other way round */
    GATHER_VS_MPI("root's recvbuf MPI_IN_PLACE", 0, "auto", a, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, 0, self);
    SCATTER_VS_MPI("root's sendbuf MPI_IN_PLACE", 0, "auto", MPI_IN_PLACE, 2, MPI_INT, b, 2, MPI_INT, 0, self);
#ifdef OPEN_MPI /* Open MPI 4.1.4 dereferences a NULL buffer with data */
    PAPCOLL_ONLY("gather: NULL recvbuf at the root", MPI_ERR_BUFFER, MPI_ERR_BUFFER,
                 papcoll_gather(a, 2, MPI_INT, NULL, 2, MPI_INT, 0, self));
    PAPCOLL_ONLY("scatter: NULL sendbuf at the root", MPI_ERR_BUFFER, MPI_ERR_BUFFER,
                 papcoll_scatter(NULL, 2, MPI_INT, b, 2, MPI_INT, 0, self));
#else
    GATHER_VS_MPI("NULL recvbuf at the root", MPI_ERR_BUFFER, "auto", a, 2, MPI_INT, NULL, 2, MPI_INT, 0, self);
    SCATTER_VS_MPI("NULL sendbuf at the root", MPI_ERR_BUFFER, "auto", NULL, 2, MPI_INT, b, 2, MPI_INT, 0, self);
#endif
    MPI_Type_free(&uncommitted);
}

/* Faults in counts, datatypes and the root: every algorithm reports them
 * as the MPI library does, on every process, without hanging. */
static void per_algorithm_errors(MPI_Comm comm)
{
    static const char *const colls[2] = {"gather", "scatter"};
    for (int k = 0; k < 2; k++) {
        int n = papcoll_algorithm_count(colls[k]);
        for (int i = 0; i <= n; i++) {
            const char *algo = i < n ? papcoll_algorithm_name(colls[k], i) : "auto";
            if (k == 0) {
                GATHER_VS_MPI("root = size", MPI_ERR_ROOT, algo, a, 2, MPI_INT, b, 2, MPI_INT, size, comm);
                GATHERV_VS_MPI("sendcount -1", MPI_ERR_COUNT, algo, a, -1, MPI_INT, b, counts, displs, MPI_INT, 0,
                               comm);
                GATHER_VS_MPI("sendtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, 2, MPI_DATATYPE_NULL, b, 2,
                              MPI_INT, 0, comm);
                GATHER_VS_MPI("root's recvcount -1", MPI_ERR_COUNT, algo, a, 2, MPI_INT, b, -1, MPI_INT, 0,
                              MPI_COMM_SELF);
            } else {
                SCATTERV_VS_MPI("root = size", MPI_ERR_ROOT, algo, a, counts, displs, MPI_INT, b, 2, MPI_INT, size,
                                comm);
                SCATTER_VS_MPI("recvcount -1", MPI_ERR_COUNT, algo, a, 2, MPI_INT, b, -1, MPI_INT, 0, comm);
                SCATTERV_VS_MPI("recvtype MPI_DATATYPE_NULL", MPI_ERR_TYPE, algo, a, counts, displs, MPI_INT, b, 2,
                                MPI_DATATYPE_NULL, 0, comm);
                STRICT(scatter, PMPI_Scatter, "root's sendcount -1", MPI_ERR_COUNT, algo, a, -1, MPI_INT, b, 2,
                       MPI_INT, 0, MPI_COMM_SELF);
            }
        }
    }
}

/* Valid calls: edge cases, then every algorithm gathers and scatters right. */
static void valid_calls(MPI_Comm comm)
{
    static const char *const colls[2] = {"gather", "scatter"};
    int rc = papcoll_gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, comm);
    CHECK(rc == MPI_SUCCESS, "gather count 0, NULL buffers: %s", harness_class_name(rc));
    rc = papcoll_scatter(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, comm);
    CHECK(rc == MPI_SUCCESS, "scatter count 0, NULL buffers: %s", harness_class_name(rc));
    for (int k = 0; k < 2; k++) {
        int n = papcoll_algorithm_count(colls[k]);
        for (int i = 0; i <= n; i++) {
            const char *algo = i < n ? papcoll_algorithm_name(colls[k], i) : "auto";
            for (int root = 0; root < size; root++) {
                int in[2] = {10 * rank + 1, 10 * rank + 2}, out[128], ok = 1;
                for (int j = 0; j < 128; j++) out[j] = -1;
                harness_watchdog_label("%s (%s): valid call, root %d", colls[k], algo, root);
                harness_watchdog_arm();
                if (k == 0) { /* gatherv, blocks in reverse rank order, in place at the root */
                    if (rank == root) out[displs[rank]] = in[0], out[displs[rank] + 1] = in[1];
                    rc = papcoll_gatherv_by_name(algo, rank == root ? MPI_IN_PLACE : (void *)in, 2, MPI_INT, out,
                                                 counts, displs, MPI_INT, root, comm);
                    for (int r = 0; rank == root && r < size; r++)
                        ok &= out[displs[r]] == 10 * r + 1 && out[displs[r] + 1] == 10 * r + 2;
                } else { /* scatterv, blocks in reverse rank order */
                    int all[128];
                    for (int r = 0; r < size; r++) all[displs[r]] = 10 * r + 1, all[displs[r] + 1] = 10 * r + 2;
                    rc = papcoll_scatterv_by_name(algo, all, counts, displs, MPI_INT, out, 2, MPI_INT, root, comm);
                    ok = out[0] == 10 * rank + 1 && out[1] == 10 * rank + 2 && out[2] == -1;
                }
                harness_watchdog_call_done();
                CHECK(rc == MPI_SUCCESS && ok, "%s (%s) root %d after the errors: %s, data %s", colls[k], algo, root,
                      harness_class_name(rc), ok ? "right" : "WRONG");
            }
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    harness_errors_init("test_errors_gather_scatter", argc, argv, 60);
    init_arrays();
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    shared_errors(MPI_COMM_WORLD);
    root_errors();
    per_algorithm_errors(MPI_COMM_WORLD);

    /* the communicator's own error handler is the one invoked */
    MPI_Errhandler eh;
    MPI_Comm comm = harness_errors_counting_comm(&eh);
    int rc = papcoll_scatter(a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, 0, comm);
    failures += harness_errors_handled("scatter, custom handler", rc, MPI_ERR_TYPE, 1);
    valid_calls(comm);
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    harness_watchdog_off();
    return harness_errors_finish("test_errors_gather_scatter", failures);
}
