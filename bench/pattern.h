/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pattern.h - controlled process arrival patterns (no MPI dependency).
 *
 * A pattern gives each process a planned delay before it enters the
 * collective, in units of T (the time to send the message between two
 * processes) or, for traces, in seconds.  Random patterns are a pure function
 * of (seed, repetition, rank), so every process computes the same pattern.
 *
 *   balanced               no delay
 *   uniform:MAX_IF         each process U(0, MAX_IF) x T            (Patarasuk & Yuan 2008 Fig. 6)
 *   late:FRACTION:IF       each non-root IF x T late w.p. FRACTION  (Patarasuk & Yuan 2008 Fig. 9)
 *   persistent:FRACTION:IF the same, but the late ranks are drawn once from the seed and
 *                          are late in every repetition (a persistent load imbalance)
 *   root-late:IF           the root IF x T late
 *   straggler:RANK:IF      exactly one process, RANK, IF x T late (StragglAR's setting,
 *                          Devraj et al. 2025); RANK >= n: rank n - 1
 *   first-child-late:IF    ranks root+1, root+2, root+4, ... (mod n) IF x T late
 *                          (the root's binomial children: Patarasuk & Yuan 2008 Theorem 2)
 *   microbench:XTIME       no planned delay: every process runs XTIME iterations of
 *                          Parsons 2015 Listing 3.2's balanced loop and arrives when it arrives
 *   trace:FILE[:SITE]      offsets in seconds replayed from a file, one row per call,
 *                          cycled over repetitions (docs/benchmark.md); SITE picks the
 *                          rows labelled SITE (papcoll trace report's replay/all.csv)
 */
#ifndef PB_PATTERN_H
#define PB_PATTERN_H

#include <stddef.h>
#include <stdint.h>

typedef enum { PAT_BALANCED, PAT_UNIFORM, PAT_LATE, PAT_PERSISTENT, PAT_ROOT_LATE, PAT_FIRST_CHILD_LATE, PAT_STRAGGLER, PAT_MICROBENCH, PAT_TRACE } pattern_kind_t;

typedef struct pattern {
    pattern_kind_t kind;
    char spec[256];
    double max_if;     /* uniform */
    double fraction;   /* late, persistent */
    double late_if;    /* late, persistent, root-late, first-child-late, straggler */
    long late_rank;    /* straggler */
    long xtime;        /* microbench */
    double *trace;     /* trace: rows x cols offsets in seconds */
    int trace_rows, trace_cols, trace_cap;
} pattern_t;

/* Parses a --pattern spec; 0, or -1 with a message in err. */
int pattern_parse(const char *spec, pattern_t *p, char *err, size_t errlen);
void pattern_free(pattern_t *p);
/* Planned delay of `rank` among n (root given) in repetition rep: in units of
 * T, or in seconds when *seconds is set (traces). */
double pattern_delay(const pattern_t *p, int rank, int n, int root, long rep, uint64_t seed, int *seconds);
/* Uniform [0,1) from (seed, rep, rank). */
double pattern_uniform(uint64_t seed, long rep, int rank);

#endif
