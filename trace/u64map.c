/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * u64map.c - see u64map.h (linear probing, grows at half full).
 */
#include "u64map.h"

#include <stdlib.h>

static size_t home(uint64_t key, size_t capacity)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL; /* MurmurHash3's finalizer */
    key ^= key >> 33;
    return (size_t)key & (capacity - 1);
}

static size_t find(const pt_u64map_t *map, uint64_t key)
{
    size_t i = home(key, map->capacity);
    while (map->keys[i] && map->keys[i] != key) i = (i + 1) & (map->capacity - 1);
    return i;
}

static int grow(pt_u64map_t *map)
{
    pt_u64map_t bigger = {0};
    bigger.capacity = map->capacity ? 2 * map->capacity : 64;
    bigger.keys = calloc(bigger.capacity, sizeof(uint64_t));
    bigger.values = calloc(bigger.capacity, sizeof(uint64_t));
    if (!bigger.keys || !bigger.values) {
        pt_u64map_free(&bigger);
        return -1;
    }
    for (size_t i = 0; i < map->capacity; i++) {
        if (!map->keys[i]) continue;
        size_t j = find(&bigger, map->keys[i]);
        bigger.keys[j] = map->keys[i];
        bigger.values[j] = map->values[i];
    }
    bigger.count = map->count;
    pt_u64map_free(map);
    *map = bigger;
    return 0;
}

uint64_t *pt_u64map_slot(pt_u64map_t *map, uint64_t key)
{
    if (2 * (map->count + 1) > map->capacity && grow(map)) return NULL;
    size_t i = find(map, key);
    if (!map->keys[i]) {
        map->keys[i] = key;
        map->values[i] = 0;
        map->count++;
    }
    return &map->values[i];
}

void pt_u64map_free(pt_u64map_t *map)
{
    free(map->keys);
    free(map->values);
    *map = (pt_u64map_t){0};
}
