/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * front.c - papcoll_ibarrier, papcoll_ibcast, papcoll_ireduce and
 * papcoll_iallreduce: the MPI argument checks (core/args.h; what they refuse
 * goes to the MPI library's own call, which reports it with its own class),
 * the MPI library on an intercommunicator, selection
 * (PAPCOLL_I<COLL>, or the _by_name argument: native or one of the table's
 * algorithms), the schedule built and started (request.h).  One debug log
 * line per call, papcoll_last_algorithm() set.  Every process must select
 * the same algorithm (auto decides from what every process knows alike:
 * count x type size, p, the op).  papcoll_<coll>_init (persistent_front.c)
 * runs the same fronts to make persistent requests: run() builds the request
 * instead of starting it, PC_NBC_NATIVE makes the library's own persistent
 * request instead of calling PMPI_I<coll> (nbc/persistent.h).
 */
#include <papcoll.h>

#include "nbc/front.h"
#include "nbc/nbc.h"
#include "nbc/request.h"
#include "nbc/persistent.h" /* papcoll_<coll>_init runs these fronts to make persistent requests */
#include "coll/reduction.h" /* pc_red_pof2 */
#include "core/args.h"
#include "core/log.h"
#include "core/params.h"
#include "core/state.h"

#include <string.h>

static const pc_nbc_algo_t ibarrier_algos[] = {{"native", NULL}, {"dissemination", pc_ibarrier_dissemination}, {0}};
static const pc_nbc_algo_t ibcast_algos[] = {{"native", NULL}, {"binomial", pc_ibcast_binomial}, {0}};
static const pc_nbc_algo_t ireduce_algos[] = {
    {"native", NULL}, {"binomial", pc_ireduce_binomial}, {"dynleader", pc_ireduce_dynleader}, {0}};
static const pc_nbc_algo_t iallreduce_algos[] = {{"native", NULL},
                                                 {"recursive_doubling", pc_iallreduce_recursive_doubling},
                                                 {"rabenseifner", pc_iallreduce_rabenseifner},
                                                 {"dynleader", pc_iallreduce_dynleader},
                                                 {0}};

/* The catalogue (papcoll_algorithm_count / _name of "ibarrier" ...): one
 * row per nonblocking collective. */
static const struct {
    const char *coll;
    const pc_nbc_algo_t *algos;
} catalogue[] = {{"ibarrier", ibarrier_algos}, {"ibcast", ibcast_algos}, {"ireduce", ireduce_algos},
                 {"iallreduce", iallreduce_algos}};

const char *pc_nbc_algorithm_name(const char *coll, int i, int *count)
{
    for (size_t c = 0; c < sizeof catalogue / sizeof catalogue[0]; c++) {
        if (strcmp(catalogue[c].coll, coll)) continue;
        int n = 0;
        while (catalogue[c].algos[n].name) n++;
        *count = n;
        return i >= 0 && i < n ? catalogue[c].algos[i].name : NULL;
    }
    *count = -1;
    return NULL;
}

static const pc_nbc_algo_t *find(const pc_nbc_algo_t *table, const char *name)
{
    for (; table->name; table++)
        if (strcmp(table->name, name) == 0) return table;
    return NULL;
}

/* The algorithm of `coll`: forced (a _by_name argument) or PAPCOLL_I<COLL>
 * (env); "auto" gives auto_name.  NULL for an unknown name (logged). */
static const pc_nbc_algo_t *choose(const char *coll, const pc_nbc_algo_t *table, const char *forced, const char *env,
                                   const char *auto_name, const char **why)
{
    const char *name = forced ? forced : env;
    *why = forced ? "forced by name" : strcmp(env, "auto") ? "forced by the environment" : "auto";
    if (!name || strcmp(name, "auto") == 0) name = auto_name;
    const pc_nbc_algo_t *algo = find(table, name);
    if (!algo) pc_log(PC_LOG_WARN, "%s: unknown algorithm '%s'", coll, name);
    return algo;
}

static size_t bytes_of(int count, MPI_Datatype type)
{
    int size = 0;
    if (type != MPI_DATATYPE_NULL) PMPI_Type_size(type, &size);
    return (size_t)count * (size_t)size;
}

/* Builds and starts algo's schedule for a on comm; errors through comm's handler. */
static int run(const char *coll, const pc_nbc_algo_t *algo, const char *why, pc_nbc_args_t *a, MPI_Comm comm,
               MPI_Request *request)
{
    MPI_Comm priv;
    int tag;
    unsigned long seq;
    int rc = pc_persist_making() ? pc_persist_next(comm, &priv, &tag, &seq) : pc_nbc_next(comm, &priv, &tag, &seq);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    PMPI_Comm_rank(comm, &a->rank);
    PMPI_Comm_size(comm, &a->size);
    a->comm = comm;
    size_t bytes = a->blocks ? a->bytes : bytes_of(a->count, a->type);
    pc_log(PC_LOG_DEBUG, "%s seq=%lu bytes=%zu p=%d root=%d algorithm=%s (%s)", coll, seq, bytes, a->size, a->root,
           algo->name, why);
    pc_set_last_algorithm(algo->name);
    pc_nbc_sched_t s = {0};
    if (a->blocks || bytes > 0 || a->type == MPI_DATATYPE_NULL) rc = algo->build(&s, a);
    rc = rc != MPI_SUCCESS  ? rc
         : pc_persist_making() ? pc_persist_create(&s, priv, tag, request)
                               : pc_nbc_start(&s, priv, tag, request);
    return pc_error(comm, rc);
}

static void native_log(const char *coll, const char *why)
{
    pc_log(PC_LOG_DEBUG, "%s algorithm=native (%s)", coll, why);
    pc_set_last_algorithm("native");
}

/* Arguments papcoll's checks refuse go to the MPI library's own call, which
 * reports them with its own error class through its own handler (the
 * classes differ between libraries and between blocking and nonblocking
 * forms: MPICH 4.0's MPI_Iallreduce gives MPI_ERR_OTHER for a negative
 * count, its MPI_Allreduce MPI_ERR_COUNT). */
static void refused_log(const char *coll, int rc)
{
    int cls = rc;
    PMPI_Error_class(rc, &cls);
    pc_log(PC_LOG_DEBUG, "%s: arguments refused (%s): the MPI library's own call reports them", coll,
           pc_class_name(cls));
    pc_set_last_algorithm("native");
}

int papcoll_ibarrier_by_name(const char *algorithm, MPI_Comm comm, MPI_Request *request)
{
    int rc = pc_check_comm(comm);
    if (rc != MPI_SUCCESS) {
        refused_log("ibarrier", rc);
        return PC_NBC_NATIVE(request, PMPI_Ibarrier(comm, request));
    }
    if (pc_is_intercomm(comm)) {
        native_log("ibarrier", "intercommunicator");
        return PC_NBC_NATIVE(request, PMPI_Ibarrier(comm, request));
    }
    const char *why;
    const pc_nbc_algo_t *algo = choose("ibarrier", ibarrier_algos, algorithm, pc_params()->nbc.ibarrier, "dissemination", &why);
    if (!algo) return pc_error(comm, MPI_ERR_ARG);
    if (!algo->build) {
        native_log("ibarrier", why);
        return PC_NBC_NATIVE(request, PMPI_Ibarrier(comm, request));
    }
    pc_nbc_args_t a = {.count = 0, .type = MPI_DATATYPE_NULL};
    return run("ibarrier", algo, why, &a, comm, request);
}

int papcoll_ibarrier(MPI_Comm comm, MPI_Request *request) { return papcoll_ibarrier_by_name(NULL, comm, request); }

int papcoll_ibcast_by_name(const char *algorithm, void *buf, int count, MPI_Datatype datatype, int root,
                           MPI_Comm comm, MPI_Request *request)
{
    int rc = pc_check_comm(comm);
    if (rc == MPI_SUCCESS && pc_is_intercomm(comm)) {
        native_log("ibcast", "intercommunicator");
        return PC_NBC_NATIVE(request, PMPI_Ibcast(buf, count, datatype, root, comm, request));
    }
    if (rc == MPI_SUCCESS) rc = pc_check_args(buf, count, datatype, root, comm);
    if (rc != MPI_SUCCESS) {
        refused_log("ibcast", rc);
        return PC_NBC_NATIVE(request, PMPI_Ibcast(buf, count, datatype, root, comm, request));
    }
    const char *why;
    const pc_nbc_algo_t *algo = choose("ibcast", ibcast_algos, algorithm, pc_params()->nbc.ibcast, "binomial", &why);
    if (!algo) return pc_error(comm, MPI_ERR_ARG);
    if (!algo->build) {
        native_log("ibcast", why);
        return PC_NBC_NATIVE(request, PMPI_Ibcast(buf, count, datatype, root, comm, request));
    }
    pc_nbc_args_t a = {.root = root, .sendbuf = buf, .recvbuf = buf, .count = count, .type = datatype};
    return run("ibcast", algo, why, &a, comm, request);
}

int papcoll_ibcast(void *buf, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return papcoll_ibcast_by_name(NULL, buf, count, datatype, root, comm, request);
}

/* Whether a dynleader schedule can serve a: the message fits a bank of the
 * node reduction area (pc_nbc_node_fits), and the request runs once (a
 * persistent request's schedule runs again at each start, where dynleader's
 * node steps hold one call's bank and sequence number). */
static int dynleader_fits(const pc_nbc_args_t *a) { return pc_nbc_node_fits(a) && !pc_persist_making(); }

/* ireduce's auto: binomial.  dynleader gives every process but the root its
 * result sooner (simulated at 64 and 256 ranks, docs/nonblocking.md), but
 * its first call on a communicator without a node segment creates one,
 * collectively over the node, inside MPI_Ireduce: a program whose node peer
 * waits for this process first then hangs (MPICH's coll/nonblocking3).  It
 * is for programs that opt in (PAPCOLL_IREDUCE=dynleader). */
static const char *const ireduce_auto = "binomial";

int papcoll_ireduce_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    int rc = pc_check_comm(comm);
    if (rc == MPI_SUCCESS && pc_is_intercomm(comm)) {
        native_log("ireduce", "intercommunicator");
        return PC_NBC_NATIVE(request, PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request));
    }
    if (rc == MPI_SUCCESS) rc = pc_check_reduction_args(sendbuf, recvbuf, count, datatype, op, 1, root, comm);
    if (rc != MPI_SUCCESS) {
        refused_log("ireduce", rc);
        return PC_NBC_NATIVE(request, PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request));
    }
    int rank, commutative = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Op_commutative(op, &commutative);
    int inplace = rank == root && sendbuf == MPI_IN_PLACE;
    pc_nbc_args_t a = {.root = root, .sendbuf = inplace ? recvbuf : sendbuf, .recvbuf = rank == root ? recvbuf : NULL,
                       .count = count, .type = datatype, .op = op};
    const char *why;
    const pc_nbc_algo_t *algo =
        choose("ireduce", ireduce_algos, algorithm, pc_params()->nbc.ireduce, ireduce_auto, &why);
    if (!algo) return pc_error(comm, MPI_ERR_ARG);
    if (algo->build && !commutative) {
        pc_log(PC_LOG_DEBUG, "ireduce %s: a non-commutative op: fallback to native", algo->name);
        algo = &ireduce_algos[0];
        why = "non-commutative op";
    }
    if (algo->build == pc_ireduce_dynleader && !dynleader_fits(&a)) {
        pc_log(PC_LOG_DEBUG, "ireduce dynleader: larger than a bank of the node reduction area, "
                             "PAPCOLL_REPRODUCIBLE=1 or a persistent request: fallback to binomial");
        algo = find(ireduce_algos, "binomial");
        why = "dynleader does not apply";
    }
    if (!algo->build) {
        native_log("ireduce", why);
        return PC_NBC_NATIVE(request, PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request));
    }
    return run("ireduce", algo, why, &a, comm, request);
}

int papcoll_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    return papcoll_ireduce_by_name(NULL, sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

int papcoll_iallreduce_by_name(const char *algorithm, const void *sendbuf, void *recvbuf, int count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int rc = pc_check_comm(comm);
    if (rc == MPI_SUCCESS && pc_is_intercomm(comm)) {
        native_log("iallreduce", "intercommunicator");
        return PC_NBC_NATIVE(request, PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request));
    }
    if (rc == MPI_SUCCESS) rc = pc_check_reduction_args(sendbuf, recvbuf, count, datatype, op, 0, 0, comm);
    if (rc != MPI_SUCCESS) {
        refused_log("iallreduce", rc);
        return PC_NBC_NATIVE(request, PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request));
    }
    int commutative = 0, size;
    PMPI_Op_commutative(op, &commutative);
    PMPI_Comm_size(comm, &size);
    /* rabenseifner: commutative ops, at least one element per process of the power-of-two group */
    int raben_fits = commutative && count >= pc_red_pof2(size);
    const char *auto_name =
        raben_fits && bytes_of(count, datatype) >= pc_params()->nbc.iallreduce_large ? "rabenseifner" : "recursive_doubling";
    const char *why;
    const pc_nbc_algo_t *algo = choose("iallreduce", iallreduce_algos, algorithm, pc_params()->nbc.iallreduce, auto_name, &why);
    if (!algo) return pc_error(comm, MPI_ERR_ARG);
    if (algo->build == pc_iallreduce_rabenseifner && !raben_fits) {
        pc_log(PC_LOG_DEBUG, "iallreduce rabenseifner: %s: fallback to recursive_doubling",
               commutative ? "fewer elements than processes" : "a non-commutative op");
        algo = find(iallreduce_algos, "recursive_doubling");
        why = "rabenseifner does not apply";
    }
    pc_nbc_args_t a = {.sendbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, .recvbuf = recvbuf, .count = count,
                       .type = datatype, .op = op};
    if (algo->build == pc_iallreduce_dynleader && (!commutative || !dynleader_fits(&a))) {
        pc_log(PC_LOG_DEBUG, "iallreduce dynleader: %s: fallback to recursive_doubling",
               commutative ? "larger than a bank of the node reduction area, PAPCOLL_REPRODUCIBLE=1 or a persistent request"
                           : "a non-commutative op");
        algo = find(iallreduce_algos, "recursive_doubling");
        why = "dynleader does not apply";
    }
    if (!algo->build) {
        native_log("iallreduce", why);
        return PC_NBC_NATIVE(request, PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request));
    }
    return run("iallreduce", algo, why, &a, comm, request);
}

int papcoll_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Request *request)
{
    return papcoll_iallreduce_by_name(NULL, sendbuf, recvbuf, count, datatype, op, comm, request);
}

/* ---- for the other fronts (nbc/front.h) ---- */

const pc_nbc_algo_t *pc_nbc_find(const pc_nbc_algo_t *table, const char *name) { return find(table, name); }

const pc_nbc_algo_t *pc_nbc_choose(const char *coll, const pc_nbc_algo_t *table, const char *forced, const char *env,
                                   const char *auto_name, const char **why)
{
    return choose(coll, table, forced, env, auto_name, why);
}

int pc_nbc_run(const char *coll, const pc_nbc_algo_t *algo, const char *why, pc_nbc_args_t *a, MPI_Comm comm,
               MPI_Request *request)
{
    return run(coll, algo, why, a, comm, request);
}

void pc_nbc_native_log(const char *coll, const char *why) { native_log(coll, why); }

void pc_nbc_refused_log(const char *coll, int rc) { refused_log(coll, rc); }
