/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * front_scan.c - papcoll_iscan and papcoll_iexscan: the MPI argument checks
 * of the blocking forms (core/args.h; what they refuse goes to the MPI
 * library's own call, which reports it with its own class), the MPI library
 * on an intercommunicator (MPI defines neither there: its call says so),
 * selection (PAPCOLL_ISCAN for both, or the _by_name argument; auto:
 * recursive_doubling), the schedule built and started (front.h).  Every
 * algorithm combines in rank order: any op.
 */
#include <papcoll.h>

#include "nbc/front.h"
#include "nbc/nbc.h"
#include "core/args.h"
#include "core/params.h"

static const pc_nbc_algo_t iscan_algos[] = {
    {"native", NULL}, {"recursive_doubling", pc_iscan_recursive_doubling}, {"linear", pc_iscan_linear}, {0}};

/* As front_blocks.c's serve: *native = 1 when the MPI library's call is to run. */
static int serve(const char *coll, const char *forced, int exclusive, const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request, int *native)
{
    int rc = pc_check_comm(comm);
    *native = 1;
    if (rc == MPI_SUCCESS && pc_is_intercomm(comm)) {
        pc_nbc_native_log(coll, "intercommunicator");
        return MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS) rc = pc_check_scan_args(sendbuf, recvbuf, count, datatype, op, exclusive, comm);
    if (rc != MPI_SUCCESS) {
        pc_nbc_refused_log(coll, rc);
        return MPI_SUCCESS;
    }
    const char *why;
    const pc_nbc_algo_t *algo = pc_nbc_choose(coll, iscan_algos, forced, pc_params()->nbc.iscan, "recursive_doubling", &why);
    if (!algo) {
        *native = 0;
        return pc_error(comm, MPI_ERR_ARG);
    }
    if (!algo->build) {
        pc_nbc_native_log(coll, why);
        return MPI_SUCCESS;
    }
    *native = 0;
    pc_nbc_args_t a = {.sendbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, .recvbuf = recvbuf, .count = count,
                       .type = datatype, .op = op, .exclusive = exclusive};
    return pc_nbc_run(coll, algo, why, &a, comm, request);
}

int papcoll_iscan_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int native, rc = serve("iscan", algorithm, 0, sendbuf, recvbuf, count, datatype, op, comm, request, &native);
    return native ? PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request) : rc;
}

int papcoll_iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Request *request)
{
    return papcoll_iscan_by_name(NULL, sendbuf, recvbuf, count, datatype, op, comm, request);
}

int papcoll_iexscan_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int native, rc = serve("iexscan", algorithm, 1, sendbuf, recvbuf, count, datatype, op, comm, request, &native);
    return native ? PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request) : rc;
}

int papcoll_iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    return papcoll_iexscan_by_name(NULL, sendbuf, recvbuf, count, datatype, op, comm, request);
}
