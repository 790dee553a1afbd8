/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sched.h - the schedule of one nonblocking collective (libNBC's design,
 * Hoefler et al. 2007): a list of rounds, each a list of operations on
 * this process.  A round's local operations (copies, reductions by the
 * op) run in order when the round starts, then its receives and sends are
 * posted; the next round starts once every one of them has completed.
 * Algorithms (src/nbc/<coll>_<algo>.c) only build schedules; request.c
 * runs them.
 *
 * A PC_NBC_TEST op is a local step done by a function (pc_nbc_test): it
 * runs in the round's order with the copies and reductions and is polled
 * by every progress call until it stops answering PC_NBC_NOT_YET (a round
 * waiting on a shared-memory condition resumes at that op); PC_NBC_STOP
 * ends the schedule after the rest of its round, PC_NBC_SKIP skips the rest
 * of its round ("if I am the last" branches).
 *
 * Messages are `count` elements of the user's datatype (derived types
 * included: nothing is packed), on papcoll's private communicator, all with
 * the request's tag (core/tags.h, PC_TAG_NBC_FIRST).  Temporary buffers
 * come from pc_nbc_alloc and live as long as the schedule.
 */
#ifndef PC_NBC_SCHED_H
#define PC_NBC_SCHED_H

#include "nbc/held.h"

#include <mpi.h>
#include <stddef.h>

typedef enum { PC_NBC_SEND, PC_NBC_RECV, PC_NBC_COPY, PC_NBC_REDUCE, PC_NBC_TEST } pc_nbc_kind_t;

/* A PC_NBC_TEST step: MPI_SUCCESS (go on), PC_NBC_NOT_YET (poll me again at
 * the next progress), PC_NBC_STOP (the rest of this round runs, no later
 * round), PC_NBC_SKIP (the rest of this round, its messages included, is
 * skipped; the next round follows), or an MPI error class. */
typedef int (*pc_nbc_test_fn)(void *arg);
#define PC_NBC_NOT_YET (-1)
#define PC_NBC_STOP (-2)
#define PC_NBC_SKIP (-3)

typedef struct pc_nbc_op {
    pc_nbc_kind_t kind;
    const void *src;       /* send: data; copy, reduce: the input (reduce: the lower ranks) */
    void *dst;             /* recv: buffer; copy: destination; reduce: inout */
    int count;
    MPI_Datatype type;
    MPI_Op op;             /* reduce */
    int peer;              /* send, recv: rank in the communicator (MPI_ANY_SOURCE: a receive) */
    int convert;           /* copy between two datatypes: dst holds dst_count elements of dst_type */
    int dst_count;
    MPI_Datatype dst_type;
    pc_nbc_test_fn test;   /* test */
    void *arg;             /* test */
} pc_nbc_op_t;

typedef struct pc_nbc_sched {
    pc_nbc_op_t *ops;
    int nops, ops_cap;
    int *round_end;        /* round r: ops [round_end[r-1], round_end[r]) */
    int nrounds, rounds_cap;
    int max_comm;          /* most sends + receives in one round */
    int round_comm;        /* sends + receives of the round being built */
    void **bufs;           /* temporaries, freed with the schedule */
    int nbufs, bufs_cap;
    int rc;                /* first error while building (MPI_ERR_NO_MEM) */
    void (*release)(void *); /* pc_nbc_release: run when the schedule is freed */
    void *release_arg;
    pc_nbc_held_t *held;   /* the datatypes and ops its ops refer to (held.h) */
    int nheld, held_cap;
} pc_nbc_sched_t;

/* Appending: errors are sticky in s->rc (checked once by the caller). */
void pc_nbc_send(pc_nbc_sched_t *s, const void *buf, int count, MPI_Datatype type, int peer);
void pc_nbc_recv(pc_nbc_sched_t *s, void *buf, int count, MPI_Datatype type, int peer);
void pc_nbc_copy(pc_nbc_sched_t *s, const void *src, void *dst, int count, MPI_Datatype type);
/* scount elements of stype at src -> dcount elements of dtype at dst (the
 * same type signature; a plain copy when the types are the same). */
void pc_nbc_convert(pc_nbc_sched_t *s, const void *src, int scount, MPI_Datatype stype, void *dst, int dcount,
                    MPI_Datatype dtype);
/* inout = in op inout (in holds the lower ranks). */
void pc_nbc_reduce(pc_nbc_sched_t *s, const void *in, void *inout, int count, MPI_Datatype type, MPI_Op op);
/* A step by fn(arg) (see pc_nbc_test_fn). */
void pc_nbc_test(pc_nbc_sched_t *s, pc_nbc_test_fn fn, void *arg);
/* fn(arg) runs when the schedule is freed (the state of its test steps). */
void pc_nbc_release(pc_nbc_sched_t *s, void (*fn)(void *), void *arg);
/* Closes the current round (an empty round is dropped). */
void pc_nbc_round(pc_nbc_sched_t *s);
/* A buffer for n elements of type, addressed like a user buffer (shifted
 * by the true lower bound); NULL (and s->rc set) on failure. */
void *pc_nbc_alloc(pc_nbc_sched_t *s, long n, MPI_Datatype type);
/* Frees what the schedule holds (its temporaries included). */
void pc_nbc_sched_free(pc_nbc_sched_t *s);
/* *p (*cap elements of size bytes) holds at least need elements, doubled
 * as it grows; 0 when out of memory (*p unchanged). */
int pc_nbc_grow(void **p, int *cap, int need, size_t size);

/* Runs round r's local operations (a schedule without test steps, or
 * PC_NBC_NOT_YET): MPI_SUCCESS or an error class. */
int pc_nbc_run_local(const pc_nbc_sched_t *s, int r);
/* The same from op *next of round r (the round's first op when it starts):
 * MPI_SUCCESS once every local op ran, PC_NBC_NOT_YET (*next: the test to
 * poll again), PC_NBC_STOP (the round's local ops all ran, the schedule
 * ends with this round), PC_NBC_SKIP (*next: the round's end; post nothing
 * of it), or an error class. */
int pc_nbc_run_from(const pc_nbc_sched_t *s, int r, int *next);
/* Posts round r's receives, then its sends, into req (s->max_comm room);
 * *n = how many. */
int pc_nbc_post(const pc_nbc_sched_t *s, int r, MPI_Comm comm, int tag, MPI_Request *req, int *n);

#endif
