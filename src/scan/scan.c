/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scan.c - papcoll_scan and papcoll_exscan: MPI's argument checks (an
 * intercommunicator is MPI_ERR_COMM: MPI defines neither on one), then the
 * one entry path (coll/entry.c) with the element view of the reductions.
 * Both are one collective "scan" (a->vform: MPI_Exscan).  Algorithms:
 * algorithms.list (the build generates their table); built-in rules:
 * scan_default_rules.inc.
 */
#include "scan/scan.h"
#include "coll/entry.h"
#include "coll/reduction.h"
#include "core/args.h"
#include "core/state.h"
#include "coll/front.h"

static const char default_rules[] =
#include "scan_default_rules.inc"
    ;

/* One process: scan copies x_0 to the result, exscan leaves it undefined
 * (untouched). */
static int single(const pc_call_t *a) { return pc_scan_exclusive(a) ? MPI_SUCCESS : pc_red_single(a); }

const pc_coll_t pc_scan_coll = {
    .name = "scan",
    .forms = {"scan", "exscan"},
    .id = 9,
    .algorithms = pc_scan_algorithms,
    .nalgorithms = PC_SCAN_ALGORITHM_COUNT,
    .default_rules = default_rules,
    .inner_fallback = "recursive_doubling",
    .rooted = 0,
    .moves_bytes = 0,
    .single = single,
};

static int scan(const char *forced, const char *source, int exclusive, const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int inplace = sendbuf == MPI_IN_PLACE;
    pc_call_t a = {.coll = &pc_scan_coll, .sendbuf = inplace ? recvbuf : sendbuf, .recvbuf = recvbuf,
                   .count = count, .datatype = datatype, .op = op, .inplace = inplace, .vform = exclusive};
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) return pc_refuse(MPI_COMM_WORLD, pc_call_name(&a), rc);
    /* a repeat of the last call (coll/call_memo.h) */
    pc_comm_t *ctx = pc_comm_known(comm);
    if (ctx && pc_red_buffers_accepted(sendbuf, recvbuf, 0, 0, ctx) && pc_coll_run_repeat(ctx, &a, forced, comm, &rc))
        return rc;
    if (!ctx && pc_is_intercomm(comm)) return pc_refuse(comm, pc_call_name(&a), MPI_ERR_COMM);
    rc = pc_check_scan_args(sendbuf, recvbuf, count, datatype, op, exclusive, comm);
    if (rc != MPI_SUCCESS) return pc_refuse(comm, pc_call_name(&a), rc);
    return pc_coll_run(&a, comm, forced, source);
}

PC_DEFINE_FRONT(scan, pc_scan_coll, scan, "PAPCOLL_SCAN", scan,
                (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                (0, sendbuf, recvbuf, count, datatype, op, comm))

PC_DEFINE_FRONT(exscan, pc_scan_coll, scan, "PAPCOLL_SCAN", scan,
                (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                (1, sendbuf, recvbuf, count, datatype, op, comm))
