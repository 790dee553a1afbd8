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
 *
 * PAPCOLL_BENCH_CORRUPT (test hook) damages one result element after the
 * call: at rank root+1 (bcast, allreduce) or at the root (reduce).
 */
#ifndef PB_COLLECTIVE_H
#define PB_COLLECTIVE_H

#include <mpi.h>
#include <stddef.h>

#include "coll.h"

typedef enum { ELEM_BYTE, ELEM_INT, ELEM_DOUBLE } elem_kind_t;

typedef struct collective {
    bench_coll_t coll;
    elem_kind_t elem;
    MPI_Datatype type;   /* MPI_BYTE (bcast), MPI_INT or MPI_DOUBLE */
    size_t elem_size;
    void *sendbuf;       /* reductions only */
    void *recvbuf;       /* the broadcast buffer, or the result */
    int shared;          /* SMPI_SHARED_MALLOC buffers (papcoll-bench-smpi --shared-buffer) */
    int rank, nprocs;
} collective_t;

/* dtype: "int" or "double" for reductions, NULL for the default (int; bytes
 * for bcast).  0; -1 for arguments that fail on every rank alike, -2 when
 * this rank cannot allocate its buffers; a message in err. */
int collective_init(collective_t *c, bench_coll_t coll, const char *dtype, size_t max_size, int shared, MPI_Comm comm,
                    char *err, size_t errlen);
void collective_free(collective_t *c);
/* Elements moved for a message of `size` bytes. */
int collective_count(const collective_t *c, size_t size);
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
