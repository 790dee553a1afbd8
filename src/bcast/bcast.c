/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bcast.c - papcoll_bcast: broadcast's argument checks, then the one entry
 * path (coll/entry.c).  The algorithms are listed in algorithms.list (the
 * build generates their table); the built-in rules are in
 * bcast_default_rules.inc.
 */
#include "bcast/bcast.h"
#include "coll/entry.h"
#include "coll/front.h"
#include "core/args.h"
#include "core/log.h"
#include "core/state.h"

#include <stddef.h>

/* Built-in selection rules (tune grammar, select/tune.h); measurements behind
 * them: docs/tuning.md. */
const char pc_bcast_default_rules[] =
#include "bcast_default_rules.inc"
    ;

const pc_coll_t pc_bcast_coll = {
    .name = "bcast",
    .id = 0,
    .algorithms = pc_bcast_algorithms,
    .nalgorithms = PC_BCAST_ALGORITHM_COUNT,
    .default_rules = pc_bcast_default_rules,
    .inner_fallback = "binomial",
    .rooted = 1,
    .moves_bytes = 1,
};

int pc_bcast_bytes_on(const char *name, void *buf, size_t bytes, int root, MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_bcast_coll, .buf = buf, .bytes = bytes, .root = root, .datatype = MPI_BYTE,
                   .op = MPI_OP_NULL, .commutative = 1};
    return pc_coll_call_on(&a, name, comm);
}

/* forced: algorithm name or "auto"; source names where it came from. */
static int bcast(const char *forced, const char *source, void *buf, int count, MPI_Datatype datatype, int root,
                 MPI_Comm comm)
{
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_refuse(MPI_COMM_WORLD, "bcast", rc);
    pc_call_t a = {.coll = &pc_bcast_coll, .root = root, .user_buf = buf, .count = count, .datatype = datatype,
                   .op = MPI_OP_NULL};
    /* a repeat of the last call (coll/call_memo.h), whose arguments pc_check_args certainly accepts */
    pc_comm_t *ctx = pc_comm_known(comm);
    if (ctx && root >= 0 && root < ctx->size && buf != NULL && buf != MPI_IN_PLACE &&
        pc_coll_run_repeat(ctx, &a, forced, comm, &rc))
        return rc;
    if (!ctx && pc_is_intercomm(comm)) {
        pc_log(PC_LOG_DEBUG, "bcast on an intercommunicator: fallback to PMPI_Bcast");
        pc_set_last_algorithm("native");
        return PMPI_Bcast(buf, count, datatype, root, comm);
    }
    rc = pc_check_args(buf, count, datatype, root, comm);
    if (rc != MPI_SUCCESS) return pc_refuse(comm, "bcast", rc);
    return pc_coll_run(&a, comm, forced, source);
}

PC_DEFINE_FRONT(bcast, pc_bcast_coll, bcast, "PAPCOLL_BCAST", bcast,
                (void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm),
                (buf, count, datatype, root, comm))
