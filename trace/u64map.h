/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * u64map.h - a small open-addressing hash map from nonzero 64-bit keys to
 * 64-bit values (the tracer's set of call sites, and its count of
 * communicators per member set).  Not thread-safe: callers hold the
 * tracer's lock.
 */
#ifndef PAPCOLL_TRACE_U64MAP_H
#define PAPCOLL_TRACE_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *keys; /* 0 = empty slot */
    uint64_t *values;
    size_t capacity; /* a power of two */
    size_t count;
} pt_u64map_t;

/* The value slot of key (inserted with value 0 if absent), or NULL when out of memory. */
uint64_t *pt_u64map_slot(pt_u64map_t *map, uint64_t key);
void pt_u64map_free(pt_u64map_t *map);

#endif
