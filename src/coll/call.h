/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * call.h - the collective-neutral description of one call, of an algorithm
 * and of a collective.
 *
 * Every algorithm of every collective is `int pc_<coll>_<algo>(const pc_call_t *a)`.
 * The entry path (entry.h) fills the call once: checked arguments, the
 * communicator's context, parameters, the call's sequence number.  Two views
 * of the data:
 *   - bytes: broadcast-like collectives move data unchanged, so their
 *     algorithms see `buf`/`bytes`, a contiguous byte range (the user's
 *     buffer, or a packed copy when the datatype is not contiguous);
 *   - elements: reductions combine data, so their algorithms see
 *     `sendbuf`/`recvbuf`/`count`/`datatype`/`op` in the user's layout and
 *     use the helpers of coll/reduction.h (temporary buffers with the same
 *     layout, local reduction in rank order, element blocks).
 *   - blocks: gathers, scatters and all-to-alls move one block of bytes per
 *     process; their algorithms see `rblocks` (and `sblocks`): block i is
 *     bytes [offset[i], offset[i + 1]) of base, in rank order without gaps
 *     (the user's buffer when its layout is that, else a packed copy), my
 *     own data already where it belongs (coll/block_view.h).
 * Algorithms flagged PC_WANTS_DATATYPE get the caller's arguments instead
 * (`user_buf`, `count`, `datatype`; blocks: the send/receive fields below)
 * and no packing is done for them.
 */
#ifndef PC_COLL_CALL_H
#define PC_COLL_CALL_H

#include <mpi.h>
#include <stddef.h>

#include "core/params.h"
#include "ctx/comm.h"

struct pc_coll;

/* Blocks of bytes, one per process (or one block: offset[2]). */
typedef struct pc_blocks {
    char *base;             /* block i: bytes [offset[i], offset[i + 1]) of base */
    const size_t *offset;   /* NULL: no blocks on this process */
} pc_blocks_t;

/* a->bytes when the data volume differs between processes (the v forms of
 * the rooted and all-to-all collectives): selection must not depend on it. */
#define PC_BYTES_VARY ((size_t)-1)

typedef struct pc_call {
    const struct pc_coll *coll;  /* the collective */
    pc_comm_t *ctx;              /* the communicator's context (private duplicate, nodes) */
    const pc_params_t *params;
    unsigned long seq;           /* this call's number on ctx (control messages carry it) */
    int root;                    /* rooted collectives; 0 otherwise */
    /* byte view (bcast) */
    void *buf;                   /* contiguous bytes */
    size_t bytes;                /* packed size: count x type size */
    /* element view (reductions; PC_WANTS_DATATYPE algorithms of byte collectives) */
    const void *sendbuf;         /* my contribution; == recvbuf when the caller passed MPI_IN_PLACE */
    void *recvbuf;               /* the result (reduce: significant at the root only, may be NULL elsewhere) */
    void *user_buf;              /* bcast: the caller's buffer */
    int count;
    MPI_Datatype datatype;
    MPI_Op op;                   /* MPI_OP_NULL for collectives without one */
    int commutative;             /* op is commutative */
    int op_builtin;              /* op is predefined (MPI_SUM ...) */
    int inplace;                 /* the caller passed MPI_IN_PLACE */
    MPI_Aint extent, true_lb, true_extent; /* of datatype */
    int contiguous;              /* count elements are bytes [user buffer + true_lb, + bytes) */
    /* block collectives: the caller's arguments (the arrays NULL in the non-v forms) */
    int sendcount, recvcount;
    MPI_Datatype sendtype, recvtype;
    const int *sendcounts, *sdispls, *recvcounts, *displs;
    int vform;                   /* the v form (MPI_Allgatherv ...): the arrays apply where MPI reads them;
                                    the collective's second form (coll->forms[1]: MPI_Exscan for scan) */
    /* the w form (MPI_Alltoallw; vform is 1 too, coll->forms[2]): one datatype per block, sdispls/displs
       in bytes; sendtype/recvtype unused */
    const MPI_Datatype *sendtypes, *recvtypes;
    int wform;
    /* block view */
    pc_blocks_t sblocks, rblocks;
} pc_call_t;

typedef int (*pc_algorithm_fn)(const pc_call_t *a);

/* Requirements of an algorithm (the algorithms.list column). */
enum {
    PC_WANTS_DATATYPE = 1,   /* byte collective: gets the user's buffer, count and datatype */
    PC_HIERARCHICAL = 2,     /* uses node leaders itself: not usable among node leaders */
    PC_COMMUTATIVE_ONLY = 4, /* combines in an order that is not the rank order */
    PC_BUILTIN_OP_ONLY = 8   /* predefined ops only (MPI one-sided accumulate) */
};

typedef struct pc_algorithm {
    const char *name;
    pc_algorithm_fn fn;
    unsigned requirements;
    const char *description;
} pc_algorithm_t;

/* A collective: its algorithms (generated from src/<coll>/algorithms.list),
 * built-in rules, parameter and behaviour of the entry path. */
typedef struct pc_coll {
    const char *name;                 /* "bcast": rule grammar, logs, catalogue */
    const char *forms[3];             /* the MPI function as called, by a->vform ("allgather", "allgatherv")
                                         and a->wform ("alltoallw"); NULL: name (the debug line, coll/entry.h) */
    int id;                           /* index in the catalogue (rule caches) */
    const pc_algorithm_t *algorithms;
    int nalgorithms;
    const char *default_rules;        /* tune grammar, ends with a catch-all rule */
    const char *inner_fallback;       /* algorithm run among node leaders when auto picks a hierarchical one */
    int rooted;                       /* has a root (logged) */
    int root_collects;                /* the root receives everyone's data (reduce, gather): adapt.h weighs its time */
    int waits_for_all;                /* every process's result needs every process's data (allreduce, allgather,
                                         alltoall, reduce_scatter, barrier): nobody leaves before the last arrival */
    int moves_bytes;                  /* byte view: pack/unpack non-contiguous data around the algorithm */
    int synchronizes;                 /* no data (barrier): bytes is 0 and every call runs its algorithm */
    /* What a call on a communicator of one process does (NULL: nothing). */
    int (*single)(const pc_call_t *a);
    /* Block collectives: which sides have one block per process
     * (coll/block_view.h); NULL for the others. */
    const struct pc_block_shape *blocks;
    /* Block collectives: the MPI library's own collective with the caller's
     * arguments on comm (native, intercommunicators). */
    int (*library)(const pc_call_t *a, MPI_Comm comm);
} pc_coll_t;

/* The algorithm called `name` of coll, or NULL. */
const pc_algorithm_t *pc_coll_find(const pc_coll_t *coll, const char *name);

/* Whether a caller's algorithm name asks for automatic selection: none, or
 * "auto" (compared inline: every repeated call asks, call_memo.c). */
static inline int pc_name_is_auto(const char *forced)
{
    return !forced || (forced[0] == 'a' && forced[1] == 'u' && forced[2] == 't' && forced[3] == 'o' && !forced[4]);
}

#endif
