/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gather_call.h - one checked papcoll_allgather_by_name /
 * papcoll_allgatherv_by_name call, and the datatype cases it runs on.
 *
 * A case is a pair (send datatype x sfactor, receive datatype x rfactor) with
 * the same type signature: one "element" of the case is sfactor send
 * datatypes on the sending side and rfactor receive datatypes on the
 * receiving side (e.g. 4 x MPI_INT sent, 1 x contiguous(4, MPI_INT)
 * received).  Cases (ag_cases_init; --list of the tests prints them):
 * MPI_INT, MPI_DOUBLE, MPI_CHAR, a gappy vector (gaps inside and after each
 * element) on both sides, MPI_INT sent into that vector, a struct
 * {char, double, int[2]} with alignment gaps on both sides, the struct sent
 * into a packed struct (no gaps, unaligned members), MPI_INT x 4 into
 * contiguous(4, MPI_INT) and back.
 *
 * Data: process r's contribution is a byte stream (ag_data_byte: distinct
 * per rank, per offset and per call) laid out in the datatype with
 * MPI_Unpack, so the expected receive buffer is built by the MPI library's
 * datatype engine, independently of papcoll; gap bytes keep a sentinel.
 *
 * Layout of the v form (ag_layout): per-rank counts drawn from the call's
 * salt (0 to 2 x count, at least one zero and one non-zero among 2+
 * processes), blocks placed in a shuffled, never increasing-by-rank order
 * with random gaps between them; zero-count blocks get arbitrary
 * displacements (possibly inside another block: nothing may be written
 * there).  The plain form: count elements per process, blocks in rank order.
 *
 * Checked after each call: the return code; papcoll_last_algorithm() (the
 * forced name, or for "auto" a real algorithm of "allgather"); every byte
 * of the receive buffer (every block, the gaps of the datatype, the space
 * between blocks, guard bytes before and after); the send buffer, counts
 * and displacements unchanged.  MPI_IN_PLACE: each process's contribution
 * starts in its own block of the receive buffer; half of those calls pass
 * sendcount 0 and MPI_DATATYPE_NULL, which MPI says are ignored.
 * Thread-safe (all state in the caller's buffers and result).
 */
#ifndef PC_HARNESS_GATHER_CALL_H
#define PC_HARNESS_GATHER_CALL_H

#include "../test_random.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* ---- datatype cases --------------------------------------------------- */

typedef struct {
    char name[48];
    MPI_Datatype stype, rtype;    /* committed (freed by ag_cases_free when derived) */
    int sfactor, rfactor;         /* an element = sfactor stypes = rfactor rtypes (same signature) */
    MPI_Aint sext, rext;          /* extents of stype and rtype */
    size_t bytes;                 /* data bytes of one element */
    int gaps;                     /* a datatype of the case has gaps, which must stay untouched */
    int weight;                   /* sampling weight: 2 for derived datatypes, else 1 */
} ag_case_t;

/* Builds the cases (after MPI_Init, before threads); returns their number. */
int ag_cases_init(void);
int ag_case_count(void);
const ag_case_t *ag_case_at(int i);
const ag_case_t *ag_case_find(const char *name);
void ag_cases_free(void);
/* Prints the cases, one a line, with their datatypes' layout (on one rank:
 * the tests' --list). */
void ag_cases_print(void);

/* ---- one call ------------------------------------------------------------ */

/* Scratch buffers of one thread, grown as needed. */
typedef struct {
    unsigned char *send, *send_copy, *recv, *ref, *stream;
    size_t send_cap, recv_cap, stream_cap;
    int *counts, *displs, *counts_copy, *displs_copy;
    int ranks_cap;
} ag_buffers_t;
void ag_buffers_free(ag_buffers_t *b);

typedef struct {
    int vform;                    /* papcoll_allgatherv_by_name, else papcoll_allgather_by_name */
    const char *algo;             /* an algorithm name or "auto" */
    const ag_case_t *c;
    int count;                    /* elements per process (plain), the scale of the per-rank counts (v) */
    int inplace;                  /* MPI_IN_PLACE on every process */
    MPI_Comm comm;
    int rank, size;
    uint64_t salt;                /* the same on every process of the call */
} ag_call_t;

typedef struct {
    int rc;                       /* the call's return code */
    const char *ran;              /* papcoll_last_algorithm() */
    int problems;                 /* 0 when every check passed */
    char first[480];              /* the first problem */
} ag_result_t;

/* Byte k of process r's contribution to a call salted `salt`. */
static inline unsigned char ag_data_byte(size_t k, int r, uint64_t salt)
{
    return (unsigned char)(k + (k >> 8) * 7 + (k >> 16) * 13 + salt + (uint64_t)r * 101u);
}

/* Lays out rank r's contribution (n elements of case c, the bytes
 * ag_data_byte(k, r, salt)) in buf as n x factor `type`, through the
 * scratch stream (*stream, capacity *stream_cap). */
void ag_lay_out(unsigned char **stream, size_t *stream_cap, const ag_case_t *c, int r, int n, MPI_Datatype type,
                int factor, uint64_t salt, void *buf);

/* The v form's counts (elements of the case) and displacements (receive
 * datatypes) of every rank, the same on every process; returns the bytes
 * the blocks span.  The plain form: counts all `count`, rank order. */
size_t ag_layout(const ag_call_t *call, int *counts, int *displs);
/* Places p blocks of elems[r] elements (factor datatypes each) in a
 * shuffled order drawn from g (never increasing by rank when p > 1), with
 * random gaps between them; empty blocks get arbitrary displacements
 * within the span.  Returns the datatypes spanned. */
long ag_place_blocks(test_rng_t *g, int p, const int *elems, int factor, int *displs);

/* Bytes of a receive area (HARNESS_GUARD bytes, `span` bytes of blocks,
 * HARNESS_GUARD bytes) that differ from the expected one; when some do,
 * *first is the first of them and where[len] says where it lies: a guard,
 * a data byte or a gap of rank r's block (rcounts[r] receive datatypes of
 * case c at displs[r] receive extents), or outside every block. */
long ag_receive_differences(const ag_case_t *c, int p, const int *rcounts, const int *displs, size_t span,
                            const unsigned char *got, const unsigned char *want, size_t *first, char *where,
                            size_t len);

/* Runs the call under the watchdog (the caller labels it and applies any
 * arrival delay first) and checks it. */
void ag_call_checked(const ag_call_t *call, ag_buffers_t *b, ag_result_t *res);

#endif
