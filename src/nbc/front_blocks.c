/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * front_blocks.c - papcoll_iallgather(v), papcoll_ialltoall(v,w),
 * papcoll_igather(v) and papcoll_iscatter(v): the MPI argument checks of
 * the blocking forms (coll/block_front.h; what they refuse goes to the MPI
 * library's own call, which reports it with its own class), the MPI library
 * on an intercommunicator, selection (PAPCOLL_I<COLL>, or the _by_name
 * argument), the schedule built and started (front.h).  Both forms of a
 * collective share its variable and algorithms; the binomial trees serve
 * the regular forms only (the v forms take linear, logged).  auto decides
 * from what every process knows alike: the block size of the regular
 * forms, all blocks of allgatherv.  MPI_Ialltoallw is ialltoall's third
 * form: one datatype per block (nbc.h), displacements in bytes.
 */
#include <papcoll.h>

#include "nbc/front.h"
#include "nbc/nbc.h"
#include "nbc/persistent.h" /* papcoll_<coll>_init runs these fronts */
#include "coll/block_front.h"
#include "coll/entry.h"
#include "coll/front.h" /* PC_UNPAREN */
#include "core/args.h"
#include "core/log.h"
#include "core/params.h"

#include <limits.h>

static const pc_nbc_algo_t iallgather_algos[] = {
    {"native", NULL}, {"ring", pc_iallgather_ring}, {"bruck", pc_iallgather_bruck}, {0}};
static const pc_nbc_algo_t ialltoall_algos[] = {
    {"native", NULL}, {"linear", pc_ialltoall_linear}, {"pairwise", pc_ialltoall_pairwise}, {0}};
static const pc_nbc_algo_t igather_algos[] = {
    {"native", NULL}, {"linear", pc_igather_linear}, {"binomial", pc_igather_binomial}, {0}};
static const pc_nbc_algo_t iscatter_algos[] = {
    {"native", NULL}, {"linear", pc_iscatter_linear}, {"binomial", pc_iscatter_binomial}, {0}};

/* count x type size, summed over n blocks when counts is given. */
static size_t side_bytes(const int *counts, int count, int n, MPI_Datatype type)
{
    int size = 0;
    PMPI_Type_size(type, &size);
    long long elements = 0;
    for (int i = 0; i < n; i++) elements += counts ? counts[i] : count;
    return (size_t)elements * (size_t)size;
}

/* auto's choice for a checked call on p processes (rank: mine); fills
 * c->bytes (the debug line's: allgather all blocks, alltoall what this
 * process receives, gather and scatter the root's blocks or my one) and
 * *all, the bytes of all blocks where every process knows them alike (0
 * otherwise). */
typedef const char *(*pc_nbc_auto_t)(pc_call_t *c, int p, int rank, size_t *all);

/* Algorithms that move several blocks in one message of int elements:
 * only while all blocks together fit in INT_MAX bytes (so in INT_MAX
 * elements of any datatype); binomial: the regular forms only. */
static const pc_nbc_algo_t *applicable(const char *coll, const pc_nbc_algo_t *table, const pc_nbc_algo_t *algo,
                                       const pc_call_t *c, size_t all, const char **why)
{
    int binomial = algo->build == pc_igather_binomial || algo->build == pc_iscatter_binomial;
    if (!binomial && algo->build != pc_iallgather_bruck) return algo;
    if (binomial && c->vform) *why = "binomial serves the regular form only";
    else if (all > INT_MAX) *why = "all blocks exceed INT_MAX bytes";
    else return algo;
    const char *instead = binomial ? "linear" : "ring";
    pc_log(PC_LOG_DEBUG, "%s %s: %s: fallback to %s", coll, algo->name, *why, instead);
    return pc_nbc_find(table, instead);
}

/* Serves call c (c->coll: the blocking collective, for the checks) with
 * table's algorithm, forced or env's: MPI_SUCCESS and a request, an error
 * through comm's handler (an unknown name), or *native = 1 when the MPI
 * library's own call is to run (refused arguments, intercommunicator,
 * chosen; logged). */
static int serve(const char *coll, const pc_nbc_algo_t *table, const char *forced, const char *env,
                 pc_nbc_auto_t auto_fn, pc_call_t *c, MPI_Comm comm, MPI_Request *request, int *native)
{
    int rc = pc_check_comm(comm), p, rank;
    *native = 1;
    if (rc == MPI_SUCCESS && pc_is_intercomm(comm)) {
        pc_nbc_native_log(coll, "intercommunicator");
        return MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS) rc = pc_blocks_check(c, comm);
    if (rc != MPI_SUCCESS) {
        pc_nbc_refused_log(coll, rc);
        return MPI_SUCCESS;
    }
    PMPI_Comm_size(comm, &p);
    PMPI_Comm_rank(comm, &rank);
    size_t all = 0;
    const char *why, *auto_name = auto_fn(c, p, rank, &all);
    const pc_nbc_algo_t *algo = pc_nbc_choose(coll, table, forced, env, auto_name, &why);
    if (!algo) {
        *native = 0;
        return pc_error(comm, MPI_ERR_ARG);
    }
    algo = applicable(coll, table, algo, c, all, &why);
    if (!algo->build) {
        pc_nbc_native_log(coll, why);
        return MPI_SUCCESS;
    }
    *native = 0;
    pc_nbc_args_t a = {.root = c->root, .sendbuf = c->sendbuf, .recvbuf = c->recvbuf, .type = MPI_BYTE,
                       .sendcount = c->sendcount, .recvcount = c->recvcount, .sendtype = c->sendtype,
                       .recvtype = c->recvtype, .sendcounts = c->sendcounts, .sdispls = c->sdispls,
                       .recvcounts = c->recvcounts, .rdispls = c->displs, .sendtypes = c->sendtypes,
                       .recvtypes = c->recvtypes, .blocks = 1, .bytes = c->bytes};
    return pc_nbc_run(coll, algo, why, &a, comm, request);
}

/* ---- auto ---- */

static const char *allgather_auto(pc_call_t *c, int p, int rank, size_t *all)
{
    (void)rank;
    *all = c->bytes = side_bytes(c->recvcounts, c->recvcount, p, c->recvtype); /* every process knows every block */
    return c->bytes < pc_params()->nbc.iallgather_large ? "bruck" : "ring";
}

static const char *alltoall_auto(pc_call_t *c, int p, int rank, size_t *all)
{
    (void)rank, (void)all;
    if (c->wform) { /* one datatype per block */
        c->bytes = 0;
        for (int i = 0; i < p; i++) c->bytes += side_bytes(NULL, c->recvcounts[i], 1, c->recvtypes[i]);
        return "linear";
    }
    c->bytes = side_bytes(c->recvcounts, c->recvcount, p, c->recvtype);
    /* ialltoallv(w): block sizes differ between processes: linear, which needs no agreement */
    if (c->vform || side_bytes(NULL, c->recvcount, 1, c->recvtype) < pc_params()->nbc.ialltoall_large) return "linear";
    return "pairwise";
}

/* igather, iscatter: counts/count/type the root's side with every block,
 * own_count/own_type the others' one block. */
static const char *rooted_auto(pc_call_t *c, int p, int at_root, const int *counts, int count, MPI_Datatype type,
                               int own_count, MPI_Datatype own_type, size_t large, size_t *all)
{
    c->bytes = at_root ? side_bytes(counts, count, p, type) : side_bytes(NULL, own_count, 1, own_type);
    size_t block = at_root ? side_bytes(NULL, count, 1, type) : c->bytes;
    if (!c->vform) *all = block * (size_t)p; /* the regular forms' blocks match */
    return !c->vform && block < large ? "binomial" : "linear";
}

static const char *gather_auto(pc_call_t *c, int p, int rank, size_t *all)
{
    return rooted_auto(c, p, rank == c->root, c->recvcounts, c->recvcount, c->recvtype, c->sendcount, c->sendtype,
                       pc_params()->nbc.igather_large, all);
}

static const char *scatter_auto(pc_call_t *c, int p, int rank, size_t *all)
{
    return rooted_auto(c, p, rank == c->root, c->sendcounts, c->sendcount, c->sendtype, c->recvcount, c->recvtype,
                       pc_params()->nbc.iscatter_large, all);
}

/* ---- the API ---- */

/* papcoll_i<NAME>_by_name: the call (INIT: the fields of its pc_call_t)
 * served by table TABLE, PAPCOLL_I<COLL> (FIELD) and auto AUTO, else
 * PMPI_I<NAME>(ARGS) (PC_NBC_NATIVE: the library's persistent init when
 * making one); papcoll_i<NAME>: the same with the variable's
 * choice.  PARAMS and ARGS are parenthesized lists. */
#define PC_NBC_BLOCK_FRONT(NAME, TABLE, FIELD, AUTO, PARAMS, INIT, ARGS)                                  \
    int papcoll_i##NAME##_by_name(const char *algorithm, PC_UNPAREN PARAMS)                               \
    {                                                                                                     \
        pc_call_t c = {PC_UNPAREN INIT};                                                                  \
        int native, rc = serve("i" #NAME, TABLE, algorithm, pc_params()->nbc.FIELD, AUTO, &c, comm, request, \
                               &native);                                                                  \
        return native ? PC_NBC_NATIVE(request, PMPI_I##NAME ARGS) : rc;                                   \
    }                                                                                                     \
    int papcoll_i##NAME(PC_UNPAREN PARAMS) { return papcoll_i##NAME##_by_name(NULL, PC_UNPAREN ARGS); }

PC_NBC_BLOCK_FRONT(allgather, iallgather_algos, iallgather, allgather_auto,
                   (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
                   (.coll = &pc_allgather_coll, .sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                    .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))

PC_NBC_BLOCK_FRONT(allgatherv, iallgather_algos, iallgather, allgather_auto,
                   (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
                   (.coll = &pc_allgather_coll, .sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                    .recvbuf = recvbuf, .recvcounts = recvcounts, .displs = displs, .recvtype = recvtype, .vform = 1),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))

PC_NBC_BLOCK_FRONT(alltoall, ialltoall_algos, ialltoall, alltoall_auto,
                   (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
                   (.coll = &pc_alltoall_coll, .sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                    .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))

PC_NBC_BLOCK_FRONT(alltoallv, ialltoall_algos, ialltoall, alltoall_auto,
                   (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request),
                   (.coll = &pc_alltoall_coll, .sendbuf = sendbuf, .sendcounts = sendcounts, .sdispls = sdispls,
                    .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = recvcounts, .displs = rdispls,
                    .recvtype = recvtype, .vform = 1),
                   (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request))

PC_NBC_BLOCK_FRONT(alltoallw, ialltoall_algos, ialltoall, alltoall_auto,
                   (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                    void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm, MPI_Request *request),
                   (.coll = &pc_alltoall_coll, .sendbuf = sendbuf, .sendcounts = sendcounts, .sdispls = sdispls,
                    .sendtypes = sendtypes, .sendtype = MPI_DATATYPE_NULL, .recvbuf = recvbuf,
                    .recvcounts = recvcounts, .displs = rdispls, .recvtypes = recvtypes,
                    .recvtype = MPI_DATATYPE_NULL, .vform = 1, .wform = 1),
                   (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request))

PC_NBC_BLOCK_FRONT(gather, igather_algos, igather, gather_auto,
                   (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
                   (.coll = &pc_gather_coll, .root = root, .sendbuf = sendbuf, .sendcount = sendcount,
                    .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))

PC_NBC_BLOCK_FRONT(gatherv, igather_algos, igather, gather_auto,
                   (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
                   (.coll = &pc_gather_coll, .root = root, .sendbuf = sendbuf, .sendcount = sendcount,
                    .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = recvcounts, .displs = displs,
                    .recvtype = recvtype, .vform = 1),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request))

PC_NBC_BLOCK_FRONT(scatter, iscatter_algos, iscatter, scatter_auto,
                   (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
                   (.coll = &pc_scatter_coll, .root = root, .sendbuf = sendbuf, .sendcount = sendcount,
                    .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype),
                   (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))

PC_NBC_BLOCK_FRONT(scatterv, iscatter_algos, iscatter, scatter_auto,
                   (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request),
                   (.coll = &pc_scatter_coll, .root = root, .sendbuf = sendbuf, .sendcounts = sendcounts,
                    .sdispls = displs, .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,
                    .recvtype = recvtype, .vform = 1),
                   (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
