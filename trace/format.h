/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * format.h - the on-disk format of a papcoll trace (libpapcoll_trace.so),
 * read by `papcoll trace report` (tools/papcoll_tools/trace/reader.py).
 *
 * One run directory per job: $PAPCOLL_TRACE_DIR/papcoll-trace-YYYYmmdd-HHMMSS-PID/
 * (PID: rank 0's process id), holding
 *
 *   header.json       written by rank 0 at MPI_Init (clock sync at init only,
 *                     "complete": false), rewritten after every periodic
 *                     clock synchronization and at MPI_Finalize: world
 *                     size, nodes (hostname of each node, node of each rank),
 *                     every clock synchronization (init, periodic, finalize:
 *                     "when", t_local, offset, error and, from the third on,
 *                     "residual": per rank |offset - the offset the previous
 *                     segment predicts|, ns), the collectives' names,
 *                     per-rank record counts.
 *   rank-R.bin        rank R's records: one pt_file_header_t, then
 *                     pt_record_t after pt_record_t (native byte order, which
 *                     the header's magic and sizes let a reader check).
 *   rank-R.comms      text, one line per communicator rank R traced, in
 *                     order of first use:
 *                       INDEX KEY INSTANCE INTER LOCAL_SIZE REMOTE_SIZE : W0 W1 ... [| V0 V1 ...]
 *                     KEY (16 hex digits) hashes the members (the world ranks
 *                     W of the local group in rank order, and V of the remote
 *                     group of an intercommunicator, symmetrically), INSTANCE
 *                     counts earlier communicators of the same members on this
 *                     rank: (KEY, INSTANCE) names one communicator on every
 *                     rank that is a member, and (KEY, INSTANCE, seq) one call.
 *   rank-R.sites      text, one line per distinct call site (return address)
 *                     of rank R, resolved at MPI_Finalize:
 *                       ADDRESS BIAS SYMBOL OBJECT
 *                     ADDRESS the caller's return address (hex), BIAS the
 *                     load bias of the object holding it (dl_iterate_phdr's
 *                     dlpi_addr: ADDRESS - BIAS - 1 is what `addr2line -e
 *                     OBJECT` wants), SYMBOL the nearest dynamic symbol
 *                     (dladdr; "-" if none), OBJECT its path (rest of line).
 *   rank-R.objects    text, one line per object of rank-R.sites (but "?"),
 *                     its build identity when the run ended:
 *                       IDENTITY OBJECT
 *                     IDENTITY "build-id:HEX" (the object's GNU build-id,
 *                     NT_GNU_BUILD_ID), else "stat:SIZE:MTIME_NS" (the file's
 *                     size in bytes and modification time, ns since the
 *                     epoch), else "-" (unknown); OBJECT as in rank-R.sites.
 *                     The report does not resolve file:line in an object
 *                     whose identity changed since (rebuilt).  Traces
 *                     written before this file existed have none.
 *
 * Times in records are the rank's own clock (CLOCK_MONOTONIC, ns; under
 * SimGrid SMPI the simulated clock, offsets 0: clock.h).  With
 * (t_k, o_k) rank r's local time and offset at its k-th synchronization
 * (header.json "clock" "sync", in order), the synchronized (rank 0) time of
 * a local time t of rank r with t_k <= t <= t_k+1 is
 *     g = t + o_k + (o_k+1 - o_k) (t - t_k) / (t_k+1 - t_k)
 * (piecewise linear; before the first synchronization and after the last,
 * the first and the last segment extended; o0 alone when there is only
 * one, a run that did not finalize).
 */
#ifndef PAPCOLL_TRACE_FORMAT_H
#define PAPCOLL_TRACE_FORMAT_H

#include <stdint.h>

#define PT_FORMAT_VERSION 1
#define PT_FILE_MAGIC "PCTRACE" /* 8 bytes with its NUL */

/* Every collective the tracer records, in the order of their ids (the
 * header's "collectives" list); a nonblocking call has the id of its
 * blocking twin and PT_FLAG_NONBLOCKING. */
#define PT_COLLECTIVES(X)                                                                                     \
    X(barrier) X(bcast) X(reduce) X(allreduce) X(allgather) X(allgatherv) X(alltoall) X(alltoallv) X(alltoallw) \
        X(gather) X(gatherv) X(scatter) X(scatterv) X(reduce_scatter) X(reduce_scatter_block) X(scan) X(exscan)

typedef enum {
#define PT_ENUM(name) PT_##name,
    PT_COLLECTIVES(PT_ENUM)
#undef PT_ENUM
        PT_NCOLLECTIVES
} pt_coll_t;

enum {
    PT_FLAG_NONBLOCKING = 1, /* MPI_I<coll>: t_arrive..t_exit is the post, not the completion */
    PT_FLAG_FORTRAN = 2,     /* called through a Fortran binding */
    PT_FLAG_ERROR = 4,       /* the call returned an error */
    PT_FLAG_AFTER_SPILL = 8, /* this rank wrote its buffer to disk just before: its arrival may be late */
    PT_FLAG_AFTER_RESYNC = 16, /* the tracer's re-synchronization step (run.h) ran after this rank's previous
                                  call: the ranks left it together, so this arrival may be less imbalanced */
};

/* root field: the root's rank in the communicator, or one of these. */
enum {
    PT_ROOT_NONE = INT32_MIN,      /* a collective without root */
    PT_ROOT_IS_MPI_ROOT = -1,      /* intercommunicator: MPI_ROOT (this process is the root) */
    PT_ROOT_IS_MPI_PROC_NULL = -2, /* intercommunicator: MPI_PROC_NULL (the root's group, not the root) */
};

typedef struct {
    char magic[8];          /* PT_FILE_MAGIC */
    uint32_t version;       /* PT_FORMAT_VERSION */
    uint32_t header_size;   /* sizeof(pt_file_header_t) */
    uint32_t record_size;   /* sizeof(pt_record_t) */
    int32_t world_rank;
    int32_t world_size;
    uint32_t reserved;
} pt_file_header_t;

/* One collective call of one rank. */
typedef struct {
    int64_t t_arrive; /* local clock, ns: just before the MPI library (or papcoll) is called */
    int64_t t_exit;   /* local clock, ns: as soon as it returned */
    uint64_t site;    /* the caller's return address */
    uint64_t bytes;   /* message size (docs/trace.md: the whole vector, or one block) */
    uint32_t comm;    /* INDEX of the communicator in rank-R.comms */
    uint32_t seq;     /* the call's number among this communicator's traced calls, from 0 */
    int32_t root;     /* the root's rank in comm, or PT_ROOT_* */
    uint16_t coll;    /* pt_coll_t */
    uint16_t flags;   /* PT_FLAG_* */
} pt_record_t;

_Static_assert(sizeof(pt_file_header_t) == 32, "trace file header layout");
_Static_assert(sizeof(pt_record_t) == 48, "trace record layout");

#endif
