/*
 * reduce.c - papcoll_reduce: MPI_Reduce's argument checks, then the one entry
 * path (coll/entry.c).  Algorithms: algorithms.list (the build generates their
 * table); built-in rules: reduce_default_rules.inc.
 */
#include "reduce/reduce.h"
#include "coll/entry.h"
#include "core/args.h"
#include "core/log.h"
#include "core/state.h"

#include <string.h>

static const char default_rules[] =
#include "reduce_default_rules.inc"
    ;

const pc_coll_t pc_reduce_coll = {
    .name = "reduce",
    .id = 1,
    .algorithms = pc_reduce_algorithms,
    .nalgorithms = PC_REDUCE_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "native",
    .rooted = 1,
    .moves_bytes = 0,
    .single = pc_red_single,
};

static int reduce(const char *forced, const char *source, const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_error(MPI_COMM_WORLD, rc);
    if (pc_is_intercomm(comm)) {
        pc_log(PC_LOG_DEBUG, "reduce on an intercommunicator: fallback to PMPI_Reduce");
        pc_set_last_algorithm("native");
        return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    }
    rc = pc_check_reduction_args(sendbuf, recvbuf, count, datatype, op, 1, root, comm);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    int inplace = sendbuf == MPI_IN_PLACE;
    pc_call_t a = {.coll = &pc_reduce_coll, .root = root, .sendbuf = inplace ? recvbuf : sendbuf,
                   .recvbuf = recvbuf, .count = count, .datatype = datatype, .op = op, .inplace = inplace};
    return pc_coll_run(&a, comm, forced, source);
}

int papcoll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    return reduce(pc_params()->reduce.algorithm, "PAPCOLL_REDUCE", sendbuf, recvbuf, count, datatype, op, root, comm);
}

int papcoll_reduce_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, int root, MPI_Comm comm)
{
    if (!algorithm || (strcmp(algorithm, "auto") && !pc_coll_find(&pc_reduce_coll, algorithm)))
        return pc_coll_unknown_name(&pc_reduce_coll, algorithm, comm);
    return reduce(algorithm, "papcoll_reduce_by_name", sendbuf, recvbuf, count, datatype, op, root, comm);
}

int pc_reduce_on(const pc_call_t *a, const char *name, const void *sendbuf, void *recvbuf, int root, MPI_Comm comm)
{
    pc_call_t inner = *a;
    inner.sendbuf = sendbuf;
    inner.recvbuf = recvbuf;
    inner.inplace = sendbuf == recvbuf;
    inner.root = root;
    return pc_coll_call_on(&inner, name, comm);
}
