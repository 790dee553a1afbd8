/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce.c - papcoll_reduce: MPI_Reduce's argument checks, then the one entry
 * path (coll/entry.c).  Algorithms: algorithms.list (the build generates their
 * table); built-in rules: reduce_default_rules.inc.
 */
#include "reduce/reduce.h"
#include "coll/entry.h"
#include "select/site.h"
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
    .root_collects = 1,
    .moves_bytes = 0,
    .single = pc_red_single,
};

int papcoll_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    PC_SITE_RETURN(pc_red_enter(&pc_reduce_coll, pc_params()->reduce.algorithm, "PAPCOLL_REDUCE", sendbuf, recvbuf, count,
                        datatype, op, root, comm));
}

int papcoll_reduce_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, int root, MPI_Comm comm)
{
    if (!algorithm || (strcmp(algorithm, "auto") && !pc_coll_find(&pc_reduce_coll, algorithm)))
        return pc_coll_unknown_name(&pc_reduce_coll, algorithm, comm);
    PC_SITE_RETURN(pc_red_enter(&pc_reduce_coll, algorithm, "papcoll_reduce_by_name", sendbuf, recvbuf, count, datatype,
                        op, root, comm));
}
