/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allreduce.c - papcoll_allreduce: MPI_Allreduce's argument checks, then the one entry
 * path (coll/entry.c).  Algorithms: algorithms.list (the build generates their
 * table); built-in rules: allreduce_default_rules.inc.
 */
#include "allreduce/allreduce.h"
#include "coll/entry.h"
#include "select/site.h"
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

int papcoll_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    PC_SITE_RETURN(pc_red_enter(&pc_allreduce_coll, pc_params()->allreduce.algorithm, "PAPCOLL_ALLREDUCE", sendbuf, recvbuf, count,
                        datatype, op, 0, comm));
}

int papcoll_allreduce_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    if (!algorithm || (strcmp(algorithm, "auto") && !pc_coll_find(&pc_allreduce_coll, algorithm)))
        return pc_coll_unknown_name(&pc_allreduce_coll, algorithm, comm);
    PC_SITE_RETURN(pc_red_enter(&pc_allreduce_coll, algorithm, "papcoll_allreduce_by_name", sendbuf, recvbuf, count, datatype,
                        op, 0, comm));
}
