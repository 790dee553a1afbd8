/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mix64.h - SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): a well-mixed hash
 * of one 64-bit word, for the deterministic "random" data and patterns of the
 * benchmark, the applications and the tests (the same on every process when
 * seeded alike, no state).  Header-only, no dependency: the applications link
 * only MPI, and the tests and bench include it by its relative path.
 */
#ifndef PC_MIX64_H
#define PC_MIX64_H

#include <stdint.h>

/* SplitMix64's finalizer: every input bit reaches every output bit. */
static inline uint64_t pc_mix64_finalize(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* One SplitMix64 step: the finalizer of x plus the golden-ratio increment. */
static inline uint64_t pc_splitmix64(uint64_t x) { return pc_mix64_finalize(x + 0x9e3779b97f4a7c15ULL); }

#endif
