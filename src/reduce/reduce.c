/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce.c - papcoll_reduce: MPI_Reduce's argument checks, then the one entry
 * path (coll/entry.c).  Algorithms: algorithms.list (the build generates their
 * table); built-in rules: reduce_default_rules.inc.
 */
#include "reduce/reduce.h"
#include "coll/entry.h"
#include "coll/front.h"
#include "core/state.h"

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

PC_DEFINE_FRONT(reduce, pc_reduce_coll, reduce, "PAPCOLL_REDUCE", pc_red_enter,
                (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm),
                (&pc_reduce_coll, sendbuf, recvbuf, count, datatype, op, root, comm))
