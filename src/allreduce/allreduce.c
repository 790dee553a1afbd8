/*
 * allreduce.c - papcoll_allreduce: MPI_Allreduce's argument checks, then the one entry
 * path (coll/entry.c).  Algorithms: algorithms.list (the build generates their
 * table); built-in rules: allreduce_default_rules.inc.
 */
#include "allreduce/allreduce.h"
#include "coll/entry.h"
#include "core/args.h"
#include "core/log.h"
#include "core/state.h"

#include <string.h>

static const char default_rules[] =
#include "allreduce_default_rules.inc"
    ;

const pc_coll_t pc_allreduce_coll = {
    .name = "allreduce",
    .id = 2,
    .algorithms = pc_allreduce_algorithms,
    .nalgorithms = PC_ALLREDUCE_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "native",
    .rooted = 0,
    .moves_bytes = 0,
    .single = pc_red_single,
};

static int allreduce(const char *forced, const char *source, const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_error(MPI_COMM_WORLD, rc);
    if (pc_is_intercomm(comm)) {
        pc_log(PC_LOG_DEBUG, "allreduce on an intercommunicator: fallback to PMPI_Allreduce");
        pc_set_last_algorithm("native");
        return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    }
    rc = pc_check_reduction_args(sendbuf, recvbuf, count, datatype, op, 0, 0, comm);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    int inplace = sendbuf == MPI_IN_PLACE;
    pc_call_t a = {.coll = &pc_allreduce_coll, .root = 0, .sendbuf = inplace ? recvbuf : sendbuf,
                   .recvbuf = recvbuf, .count = count, .datatype = datatype, .op = op, .inplace = inplace};
    return pc_coll_run(&a, comm, forced, source);
}

int papcoll_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce(pc_params()->allreduce.algorithm, "PAPCOLL_ALLREDUCE", sendbuf, recvbuf, count, datatype, op, comm);
}

int papcoll_allreduce_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    if (!algorithm || (strcmp(algorithm, "auto") && !pc_coll_find(&pc_allreduce_coll, algorithm)))
        return pc_coll_unknown_name(&pc_allreduce_coll, algorithm, comm);
    return allreduce(algorithm, "papcoll_allreduce_by_name", sendbuf, recvbuf, count, datatype, op, comm);
}

int pc_allreduce_on(const pc_call_t *a, const char *name, const void *sendbuf, void *recvbuf, MPI_Comm comm)
{
    pc_call_t inner = *a;
    inner.sendbuf = sendbuf;
    inner.recvbuf = recvbuf;
    inner.inplace = sendbuf == recvbuf;
    inner.root = 0;
    return pc_coll_call_on(&inner, name, comm);
}
