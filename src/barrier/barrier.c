/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier.c - papcoll_barrier: MPI_Barrier's argument check, the MPI library
 * on an intercommunicator, then the one entry path (coll/entry.c) with no
 * data (the collective `synchronizes`: every call runs its algorithm).
 * Algorithms: algorithms.list (the build generates their table); built-in
 * rules: barrier_default_rules.inc.
 */
#include "barrier/barrier.h"
#include "coll/entry.h"
#include "core/args.h"
#include "core/log.h"
#include "core/state.h"
#include "coll/front.h"

static const char default_rules[] =
#include "barrier_default_rules.inc"
    ;

const pc_coll_t pc_barrier_coll = {
    .name = "barrier",
    .forms = {"barrier", "barrier"},
    .id = 8,
    .algorithms = pc_barrier_algorithms,
    .nalgorithms = PC_BARRIER_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "dissemination",
    .rooted = 0,
    .waits_for_all = 1,
    .moves_bytes = 0,
    .synchronizes = 1,
    .single = NULL, /* one process: nothing to wait for */
};

int pc_barrier_disseminate(MPI_Comm comm, int rank, int size, int tag, long radix)
{
    enum { MAX_PEERS = 64 }; /* messages in flight per round: larger radices send in several batches */
    if (radix < 2) return MPI_ERR_ARG;
    int rc = MPI_SUCCESS;
    /* offsets j * dist < size are distinct over the whole call, so no pair of
     * processes exchanges twice in a call and MPI's order keeps calls apart */
    for (long dist = 1; dist < size && rc == MPI_SUCCESS; dist *= radix) {
        for (long j = 1; j < radix && j * dist < size && rc == MPI_SUCCESS;) {
            MPI_Request req[2 * MAX_PEERS];
            int n = 0;
            for (; j < radix && j * dist < size && n < 2 * MAX_PEERS; j++) {
                int off = (int)(j * dist);
                if ((rc = PMPI_Irecv(NULL, 0, MPI_BYTE, (rank - off + size) % size, tag, comm, &req[n])) != MPI_SUCCESS) break;
                n++;
                if ((rc = PMPI_Isend(NULL, 0, MPI_BYTE, (rank + off) % size, tag, comm, &req[n])) != MPI_SUCCESS) break;
                n++;
            }
            int wrc = pc_waitall(n, req, MPI_STATUSES_IGNORE);
            if (rc == MPI_SUCCESS) rc = wrc;
        }
    }
    return rc;
}

static int barrier(const char *forced, const char *source, MPI_Comm comm)
{
    pc_call_t a = {.coll = &pc_barrier_coll, .datatype = MPI_DATATYPE_NULL, .op = MPI_OP_NULL};
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_refuse(MPI_COMM_WORLD, "barrier", rc);
    /* a repeat of the last call (coll/call_memo.h): nothing to check */
    pc_comm_t *ctx = pc_comm_known(comm);
    if (ctx && pc_coll_run_repeat(ctx, &a, forced, comm, &rc)) return rc;
    if (!ctx && pc_is_intercomm(comm)) {
        pc_log(PC_LOG_DEBUG, "barrier on an intercommunicator: fallback to the MPI library");
        pc_set_last_algorithm("native");
        return PMPI_Barrier(comm); /* errors through comm's handler already */
    }
    return pc_coll_run(&a, comm, forced, source);
}

PC_DEFINE_FRONT(barrier, pc_barrier_coll, barrier, "PAPCOLL_BARRIER", barrier, (MPI_Comm comm), (comm))
