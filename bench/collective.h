/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collective.h - the collective under test: its buffers, the timed call, and
 * the data that lets -c check every result.
 *
 *   bcast      `size` bytes (MPI_BYTE) from the root; byte i of repetition
 *              rep is a function of (i, rep, root), the others start with
 *              its complement.
 *   reduce     MPI_SUM of count = floor(size / element size) MPI_INT or
 *   allreduce  MPI_DOUBLE elements (a size below one element reduces count
 *              0).  Rank r contributes x_r[k] = c(k, rep, root) + r + 1 with
 *              c in [1, 997], so the exact sum is p c + p (p+1) / 2 (an
 *              integer, exact in double too): a missing, doubled or stale
 *              contribution, or one from the wrong element, changes it.
 *              The result buffer starts at -1 (no sum is negative).  Checked
 *              at the root (reduce) or everywhere (allreduce), and every
 *              rank's send buffer must be left unchanged.
 *   reduce_scatter, reduce_scatter_block: MPI_SUM of the same values: rank
 *              r contributes x_r[g] = c(g, rep, root) + r + 1 for every
 *              element g of the whole vector (p blocks in rank order:
 *              blocks.h, -m = the bytes of one result block), and rank i's
 *              result block must hold the exact sums of its elements g.
 *   allgather  blocks of MPI_INT, MPI_DOUBLE or MPI_CHAR elements, `size`
 *   allgatherv = the bytes of one process block (OSU's convention: each
 *   gather(v)  process's contribution to an allgather or gather, each one's
 *   scatter(v) share of a scatter, each block to one destination of an
 *   alltoall(v) alltoall; v forms: unequal counts, blocks.h).  Element k of
 *              rank r's block holds blocks_value(r, k, rep) >= 1 (alltoall:
 *              of the pair (sender, receiver)); receive buffers start at -1
 *              (int, double) or 0 (char), a value no block holds, and so do
 *              the send buffers of a scatter's non-roots (not significant in
 *              MPI: a library that sends from them is caught).  Checked:
 *              every element of every block on every rank (allgather,
 *              alltoall), at the root (gather; the non-roots' receive buffers
 *              must stay untouched), every rank's own block (scatter), and
 *              every send buffer unchanged.
 *
 * PAPCOLL_BENCH_CORRUPT (test hook) damages one result element after the
 * call: the middle element of the result on rank root+1 (bcast, allreduce,
 * reduce_scatter, allgather, alltoall, scatter) or at the root (reduce,
 * gather).
 */
#ifndef PB_COLLECTIVE_H
#define PB_COLLECTIVE_H

#include <mpi.h>
#include <stddef.h>

#include "coll.h"

typedef enum { ELEM_BYTE, ELEM_INT, ELEM_DOUBLE, ELEM_CHAR } elem_kind_t;

/* A buffer of many blocks (blocks.h) at the size set by collective_set_size:
 * counts[j] elements at displs[j], total elements in all. */
typedef struct block_layout {
    int *counts, *displs;
    long total;
    int *byte_displs;      /* alltoallw: displs in bytes */
    MPI_Datatype *types;   /* alltoallw: the datatype of each block (all the collective's type) */
} block_layout_t;

typedef struct collective {
    bench_coll_t coll;
    elem_kind_t elem;
    MPI_Datatype type;   /* MPI_BYTE (bcast), MPI_INT, MPI_DOUBLE or MPI_CHAR (block collectives) */
    size_t elem_size;
    void *sendbuf;       /* all but bcast */
    void *recvbuf;       /* the broadcast buffer, or the result */
    int shared;          /* SMPI_SHARED_MALLOC buffers (papcoll-bench-smpi --shared-buffer) */
    int rank, nprocs;
    int count;           /* this rank's own block (elements) at that size: its contribution, share or result */
    block_layout_t send; /* the send buffer's blocks: scatter(v) (the root's), alltoall(v), reduce_scatter(_block) */
    block_layout_t recv; /* the receive buffer's blocks: allgather(v), gather(v) (the root's), alltoall(v) */
    char description[512];
} collective_t;

/* dtype: "int" or "double" (all but bcast), "char" (block collectives), NULL
 * for the default (int; bytes for bcast).  0; -1 for arguments that fail on
 * every rank alike, -2 when this rank cannot allocate its buffers; a message
 * in err. */
int collective_init(collective_t *c, bench_coll_t coll, const char *dtype, size_t max_size, int shared, MPI_Comm comm,
                    char *err, size_t errlen);
void collective_free(collective_t *c);
/* Prepares the calls of message size `size` (the blocks' counts and
 * displacements), outside the timed region; before the other calls below. */
void collective_set_size(collective_t *c, size_t size);
/* Elements of this rank's own block for a message of `size` bytes (blocks.h). */
int collective_count(const collective_t *c, size_t size);
/* Bytes of the message whose transfer time is T: `size`, or the v forms' smallest block. */
size_t collective_unit_bytes(const collective_t *c, size_t size);
/* "MPI_INT (4 bytes), MPI_SUM, count = floor(size / 4)" and the like. */
const char *collective_describe(const collective_t *c);
/* Buffer of at least max_size bytes that the benchmark may overwrite between calls (T's ping-pong). */
void *collective_scratch(const collective_t *c);
/* Writes this rank's input of repetition rep (and the result buffer's start value). */
void collective_fill(collective_t *c, size_t size, long rep, int root);
/* One call of papcoll's `algo` on comm; an MPI error code. */
int collective_run(const collective_t *c, const char *algo, size_t size, int root, MPI_Comm comm);
/* Wrong elements on this rank after the call of repetition rep. */
long collective_errors(const collective_t *c, size_t size, long rep, int root);
/* The PAPCOLL_BENCH_CORRUPT hook: damages one result element on the rank that checks it. */
void collective_corrupt(collective_t *c, size_t size, int root);

#endif
