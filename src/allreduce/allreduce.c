/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allreduce.c - papcoll_allreduce: MPI_Allreduce's argument checks, then the one entry
 * path (coll/entry.c).  Algorithms: algorithms.list (the build generates their
 * table); built-in rules: allreduce_default_rules.inc.
 */
#include "allreduce/allreduce.h"
#include "coll/entry.h"
#include "coll/front.h"
#include "core/state.h"

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
    .waits_for_all = 1,
    .moves_bytes = 0,
    .single = pc_red_single,
};

PC_DEFINE_FRONT(allreduce, pc_allreduce_coll, allreduce, "PAPCOLL_ALLREDUCE", pc_red_enter,
                (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                (&pc_allreduce_coll, sendbuf, recvbuf, count, datatype, op, 0, comm))
