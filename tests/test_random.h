/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_random.h - deterministic randomness for the MPI tests: the same on
 * every rank when seeded alike (SplitMix64, src/core/mix64.h), a small generator
 * object (one per thread where threads draw), and the seeded sampling rule of
 * the test matrices.
 */
#ifndef PC_TEST_RANDOM_H
#define PC_TEST_RANDOM_H

#include <stdint.h>
#include "../src/core/mix64.h"

/* The tests' name for SplitMix64. */
static inline uint64_t mix(uint64_t x) { return pc_splitmix64(x); }

/* A counter-based generator: test_rng_next() returns mix(state++ * odd). */
typedef struct {
    uint64_t state;
} test_rng_t;

static inline void test_rng_seed(test_rng_t *g, uint64_t seed) { g->state = seed; }
static inline uint64_t test_rng_next(test_rng_t *g) { return mix(g->state++ * 0x2545F4914F6CDD1DULL); }
/* Uniform in [0, n) (0 when n <= 0). */
static inline int test_rng_below(test_rng_t *g, int n)
{
    return n > 0 ? (int)(test_rng_next(g) % (uint64_t)n) : 0;
}
/* Uniform in [0, 1). */
static inline double test_rng_unit(test_rng_t *g) { return (double)(test_rng_next(g) >> 11) / 9007199254740992.0; }

/* The matrices' sampling rule: combination number `combo` of a run seeded
 * `seed` is kept with probability `fraction` (the same on every process). */
static inline int test_sampled(uint64_t seed, uint64_t combo, double fraction)
{
    if (fraction >= 1.0) return 1;
    return (double)(mix(seed ^ (combo * 2654435761ULL)) >> 11) / 9007199254740992.0 < fraction;
}

#endif
