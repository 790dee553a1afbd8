/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tracer.h - what every wrapper of libpapcoll_trace.so shares: the state of
 * one traced call, the recording path, the lookup of the next definition of
 * a wrapped name, and the message size of each collective.
 *
 * One traced call, in order (PT_TRACE_CALL below):
 *   pt_begin()   tracing on, not nested inside another traced call (depth),
 *                the communicator's entry (registered at its first use);
 *   bytes        the message size;
 *   t_arrive     the clock, then the next definition of the name (papcoll's
 *                interposer when it is preloaded after the tracer, else the
 *                MPI library), then t_exit at once;
 *   pt_end()     the record into the buffer, then (PAPCOLL_TRACE_RESYNC)
 *                the periodic clock re-synchronization point (run.h); the
 *                tracer's own time falls outside [t_arrive, t_exit].
 * The depth counter makes a call that reaches another wrapped name (a
 * Fortran binding calling the C MPI_Bcast, papcoll's Fortran names calling
 * MPI_Bcast) pass straight through, so every call is recorded once, with
 * the application's call site.
 *
 * Under SimGrid SMPI (PAPCOLL_SMPI: the same sources built as the object
 * library papcoll_trace_smpi, linked into the program, docs/trace.md
 * "Under SimGrid SMPI") the next definition is papcoll's interposer
 * pc_MPI_<coll> when the program also links papcoll_mpi_smpi (after the
 * tracer), else the simulator's PMPI_<name>, called directly; the depth counter is a plain global, which SMPI privatizes per
 * rank (every rank of a simulation runs on one OS thread, so a thread-local
 * would be shared by all of them: the convention of src/core/lock.h).
 */
#ifndef PAPCOLL_TRACE_TRACER_H
#define PAPCOLL_TRACE_TRACER_H

#include "clock.h"
#include "comms.h"
#include "format.h"

#include <mpi.h>

#include <stdint.h>

#if defined(PAPCOLL_SMPI) && defined(TRACE_CALL_LOCATION)
#error "smpicc -trace-call-location turns MPI_<name> into macros: the tracer cannot define them"
#endif

extern int pt_active; /* recording (between the tracer's MPI_Init and MPI_Finalize work) */
#ifdef PAPCOLL_SMPI
extern int pt_depth; /* per rank: SMPI privatizes the program's globals */
#else
extern __thread int pt_depth __attribute__((tls_model("initial-exec")));
#endif

typedef struct {
    pt_comm_t *comm;
    int64_t t_arrive, t_exit;
    uint64_t bytes;
    int32_t root;
    uint16_t coll, flags;
} pt_call_t;

static inline int32_t pt_root_code(int root)
{
    if (root == MPI_ROOT) return PT_ROOT_IS_MPI_ROOT;
    if (root == MPI_PROC_NULL) return PT_ROOT_IS_MPI_PROC_NULL;
    return root;
}

/* 1 when this call is to be recorded (c filled but for bytes and times). */
static inline int pt_begin(pt_call_t *c, pt_coll_t coll, unsigned flags, MPI_Comm comm, int root)
{
    if (pt_depth || !__atomic_load_n(&pt_active, __ATOMIC_ACQUIRE)) return 0;
    c->comm = pt_comms_lookup(comm);
    if (!c->comm) return 0;
    c->coll = (uint16_t)coll;
    c->flags = (uint16_t)flags;
    c->root = root == PT_ROOT_NONE ? PT_ROOT_NONE : pt_root_code(root);
    c->bytes = 0;
    return 1;
}

/* Records the call (site: the caller's return address). */
void pt_end(const pt_call_t *c, int failed, void *site);

#ifndef PAPCOLL_SMPI
/* The next definition of name after this library (RTLD_NEXT), cached in *cache; aborts if none. */
void *pt_next(void **cache, const char *name);
#endif

/* Called after the MPI library's initialization / before its finalization. */
void pt_initialize(void);
#ifdef PAPCOLL_SMPI
/* Under SMPI, before pt_initialize: the program's argv[0].  Each rank runs a temporary copy of the program
 * (SMPI's dlopen privatization), which is gone when the report runs addr2line: rank-R.sites and the header
 * name the program instead. */
void pt_run_program(const char *argv0);
#endif
void pt_finalize(void);

/* ---- message sizes (docs/trace.md "bytes") ---- */
static inline uint64_t pt_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0) return 0;
    return (uint64_t)count * (uint64_t)size;
}

static inline uint64_t pt_bytes_at(const int *counts, int i, int n, MPI_Datatype type)
{
    return counts && i >= 0 && i < n ? pt_bytes(counts[i], type) : 0;
}

static inline uint64_t pt_bytes_sum(const int *counts, int n, MPI_Datatype type)
{
    uint64_t sum = 0;
    for (int i = 0; counts && i < n; i++) sum += counts[i] > 0 ? (uint64_t)counts[i] : 0;
    return sum <= INT32_MAX ? pt_bytes((int)sum, type) : sum * pt_bytes(1, type);
}

/* One block: the send block, or the receive block when the send side is absent (in place, intercommunicator root). */
static inline uint64_t pt_bytes_block(int send_absent, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype)
{
    return send_absent ? pt_bytes(rcount, rtype) : pt_bytes(scount, stype);
}

/*
 * The message size of each collective, written once for every wrapper (C
 * blocking and nonblocking: wrap_c.c; Fortran, its handles converted to C
 * first: wrap_fortran.c; papcoll's API under SMPI: wrap_papcoll.c): pt_bytes
 * (count x type) for bcast, reduce, allreduce, scan and exscan, pt_bytes_block
 * for allgather and alltoall, a pt_size_<coll> function for the others:
 *
 *   the whole vector   bcast, reduce, allreduce, scan, exscan (count x type),
 *                      reduce_scatter (sum of the counts), reduce_scatter_block
 *                      (p x the block);
 *   one block          allgather, alltoall, gather, scatter: the send block, or
 *                      the receive block where there is none (in place; the
 *                      root of an intercommunicator, MPI_ROOT); 0 for
 *                      MPI_PROC_NULL (the root's group, not the root);
 *   this rank's block  allgatherv, gatherv, scatterv (0 at an
 *                      intercommunicator's MPI_ROOT and MPI_PROC_NULL);
 *   this rank's total  alltoallv, alltoallw: what it sends (what it receives,
 *                      in place).
 *
 * me: this rank in the communicator; peers: the length of its count arrays
 * (the size, or the remote size of an intercommunicator): pt_comm_t's rank and
 * peers, PT_ME and PT_PEERS inside a wrapper.  in_place: the send buffer is
 * MPI_IN_PLACE (the receive buffer for scatter and scatterv).  root: as the
 * caller gave it (a rank, MPI_ROOT or MPI_PROC_NULL).
 */
static inline uint64_t pt_size_reduce_scatter(int peers, const int rcounts[], MPI_Datatype type)
{
    return pt_bytes_sum(rcounts, peers, type);
}

static inline uint64_t pt_size_reduce_scatter_block(int peers, int rcount, MPI_Datatype type)
{
    return (uint64_t)peers * pt_bytes(rcount, type);
}

static inline uint64_t pt_size_gather(int root, int in_place, int scount, MPI_Datatype stype, int rcount,
                                      MPI_Datatype rtype)
{
    if (root == MPI_PROC_NULL) return 0;
    return pt_bytes_block(in_place || root == MPI_ROOT, scount, stype, rcount, rtype);
}

static inline uint64_t pt_size_scatter(int root, int in_place, int scount, MPI_Datatype stype, int rcount,
                                       MPI_Datatype rtype)
{
    if (root == MPI_PROC_NULL) return 0;
    return pt_bytes_block(in_place || root == MPI_ROOT, rcount, rtype, scount, stype);
}

static inline uint64_t pt_size_allgatherv(int me, int peers, int in_place, int scount, MPI_Datatype stype,
                                          const int rcounts[], MPI_Datatype rtype)
{
    return in_place ? pt_bytes_at(rcounts, me, peers, rtype) : pt_bytes(scount, stype);
}

static inline uint64_t pt_size_gatherv(int root, int me, int peers, int in_place, int scount, MPI_Datatype stype,
                                       const int rcounts[], MPI_Datatype rtype)
{
    if (root == MPI_PROC_NULL || root == MPI_ROOT) return 0;
    return pt_size_allgatherv(me, peers, in_place, scount, stype, rcounts, rtype);
}

static inline uint64_t pt_size_scatterv(int root, int me, int peers, int in_place, const int scounts[],
                                        MPI_Datatype stype, int rcount, MPI_Datatype rtype)
{
    if (root == MPI_PROC_NULL || root == MPI_ROOT) return 0;
    return in_place ? pt_bytes_at(scounts, me, peers, stype) : pt_bytes(rcount, rtype);
}

static inline uint64_t pt_size_alltoallv(int peers, int in_place, const int scounts[], MPI_Datatype stype,
                                         const int rcounts[], MPI_Datatype rtype)
{
    return in_place ? pt_bytes_sum(rcounts, peers, rtype) : pt_bytes_sum(scounts, peers, stype);
}

/* alltoallw's datatype arrays: C handles (pt_type_at_c) or Fortran ones (wrap_fortran.c), read by type_at. */
typedef MPI_Datatype pt_type_at_fn(const void *types, int i);

static inline MPI_Datatype pt_type_at_c(const void *types, int i)
{
    return ((const MPI_Datatype *)types)[i];
}

static inline uint64_t pt_bytes_w(const int counts[], const void *types, pt_type_at_fn *type_at, int n)
{
    uint64_t sum = 0;
    for (int i = 0; counts && types && i < n; i++) sum += pt_bytes(counts[i], type_at(types, i));
    return sum;
}

static inline uint64_t pt_size_alltoallw(int peers, int in_place, const int scounts[], const void *stypes,
                                         const int rcounts[], const void *rtypes, pt_type_at_fn *type_at)
{
    return in_place ? pt_bytes_w(rcounts, rtypes, type_at, peers) : pt_bytes_w(scounts, stypes, type_at, peers);
}

/* ---- the wrapper body ---- */
#define PT_STRIP(...) __VA_ARGS__

/* Inside a wrapper: the communicator's size (of the remote group for an intercommunicator) and this rank in it. */
#define PT_PEERS (call_.comm->peers)
#define PT_ME (call_.comm->rank)

/* The body of a wrapper that records one call of COLL and forwards it, arguments ARGS (parenthesized), to FN. */
#define PT_TRACE_FORWARD(FN, ARGS, COLL, FLAGS, COMM, ROOT, BYTES)                    \
    pt_call_t call_;                                                                   \
    if (!pt_begin(&call_, COLL, FLAGS, COMM, ROOT)) return FN ARGS;                    \
    call_.bytes = (BYTES);                                                             \
    pt_depth++;                                                                        \
    call_.t_arrive = pt_clock_now();                                                   \
    int rc_ = FN ARGS;                                                                 \
    call_.t_exit = pt_clock_now();                                                     \
    pt_depth--;                                                                        \
    pt_end(&call_, rc_ != MPI_SUCCESS, __builtin_return_address(0));                   \
    return rc_

/* The next definition of the C name NAME: natively the one after the tracer (RTLD_NEXT); under SMPI papcoll's
 * interposer pc_<NAME> when it is linked in (pmpi/interpose.c: a weak reference, null without it), else
 * PMPI_<NAME>. */
#ifdef PAPCOLL_SMPI
#define PT_NEXT_C(NAME)                                                                \
    extern __typeof__(NAME) pc_##NAME __attribute__((weak));                           \
    __typeof__(&NAME) fn_ = pc_##NAME ? &pc_##NAME : &P##NAME
#else
#define PT_NEXT_C(NAME)                                                                \
    static void *next_;                                                                \
    __typeof__(&NAME) fn_ = (__typeof__(&NAME))pt_next(&next_, #NAME)
#endif

/* The body of the C wrapper NAME with arguments ARGS (parenthesized). */
#define PT_TRACE_C(NAME, ARGS, COLL, FLAGS, COMM, ROOT, BYTES)                        \
    PT_NEXT_C(NAME);                                                                   \
    PT_TRACE_FORWARD(fn_, ARGS, COLL, FLAGS, COMM, ROOT, BYTES)

#endif
