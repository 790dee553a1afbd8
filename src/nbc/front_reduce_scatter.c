/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * front_reduce_scatter.c - papcoll_ireduce_scatter and
 * papcoll_ireduce_scatter_block: the MPI argument checks of the blocking
 * forms (reduce_scatter/reduce_scatter.h; what they refuse goes to the MPI
 * library's own call, which reports it with its own class), the MPI library
 * on an intercommunicator, selection (PAPCOLL_IREDUCE_SCATTER, or the
 * _by_name argument; auto: pairwise for commutative ops, linear, which
 * combines in rank order, for the others, and for them pairwise gives way
 * to linear, logged), the schedule built and started (front.h).
 */
#include <papcoll.h>

#include "nbc/front.h"
#include "nbc/nbc.h"
#include "nbc/persistent.h" /* papcoll_<coll>_init runs these fronts */
#include "reduce_scatter/reduce_scatter.h"
#include "core/args.h"
#include "core/log.h"
#include "core/params.h"

static const pc_nbc_algo_t ireduce_scatter_algos[] = {
    {"native", NULL}, {"pairwise", pc_ireduce_scatter_pairwise}, {"linear", pc_ireduce_scatter_linear}, {0}};

/* As front_blocks.c's serve: *native = 1 when the MPI library's call is to run. */
static int serve(const char *coll, const char *forced, const void *sendbuf, void *recvbuf, int vform,
                 const int *recvcounts, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request, int *native)
{
    int rc = pc_check_comm(comm);
    long long total = 0;
    *native = 1;
    if (rc == MPI_SUCCESS && pc_is_intercomm(comm)) {
        pc_nbc_native_log(coll, "intercommunicator");
        return MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS)
        rc = pc_rs_check_args(sendbuf, recvbuf, vform, recvcounts, recvcount, datatype, op, comm, &total);
    if (rc != MPI_SUCCESS) {
        pc_nbc_refused_log(coll, rc);
        return MPI_SUCCESS;
    }
    int commutative = 0;
    PMPI_Op_commutative(op, &commutative);
    const char *why;
    const pc_nbc_algo_t *algo = pc_nbc_choose(coll, ireduce_scatter_algos, forced, pc_params()->nbc.ireduce_scatter,
                                              commutative ? "pairwise" : "linear", &why);
    if (!algo) {
        *native = 0;
        return pc_error(comm, MPI_ERR_ARG);
    }
    if (algo->build == pc_ireduce_scatter_pairwise && !commutative) {
        pc_log(PC_LOG_DEBUG, "%s pairwise: a non-commutative op: fallback to linear", coll);
        algo = pc_nbc_find(ireduce_scatter_algos, "linear");
        why = "non-commutative op";
    }
    if (!algo->build) {
        pc_nbc_native_log(coll, why);
        return MPI_SUCCESS;
    }
    *native = 0;
    int size = 0;
    PMPI_Type_size(datatype, &size);
    pc_nbc_args_t a = {.sendbuf = sendbuf, .recvbuf = recvbuf, .type = datatype, .op = op, .recvcount = recvcount,
                       .recvcounts = recvcounts, .blocks = 1, .bytes = (size_t)total * (size_t)size};
    return pc_nbc_run(coll, algo, why, &a, comm, request);
}

int papcoll_ireduce_scatter_by_name(const char *algorithm, const void *sendbuf, void *recvbuf,
                                    const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                    MPI_Request *request)
{
    int native, rc = serve("ireduce_scatter", algorithm, sendbuf, recvbuf, 1, recvcounts, 0, datatype, op, comm, request, &native);
    if (native)
        return PC_NBC_NATIVE(request, PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request));
    return rc;
}

int papcoll_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return papcoll_ireduce_scatter_by_name(NULL, sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}

int papcoll_ireduce_scatter_block_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int recvcount,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int native, rc = serve("ireduce_scatter_block", algorithm, sendbuf, recvbuf, 0, NULL, recvcount, datatype, op, comm,
                           request, &native);
    if (native)
        return PC_NBC_NATIVE(request, PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request));
    return rc;
}

int papcoll_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Request *request)
{
    return papcoll_ireduce_scatter_block_by_name(NULL, sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}
