/*
 * test_random.h - deterministic randomness for the MPI tests: the same on
 * every rank when seeded alike (SplitMix64's finalizer).
 */
#ifndef PC_TEST_RANDOM_H
#define PC_TEST_RANDOM_H

#include <stdint.h>

static inline uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

#endif
