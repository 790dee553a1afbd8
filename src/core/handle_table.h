/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * handle_table.h - small open-addressed tables keyed by an MPI handle's
 * bits (a pointer or an int, by library), read without a lock: what a call
 * looks up on every call (core/type_info.c: predefined datatypes and ops;
 * ctx/comm.c: a communicator's context).
 *
 * Writers hold pc_lock: a record is written before its key is released, and
 * a forgotten key becomes a tombstone (its slot reused by a later key).
 * Readers acquire the key, then read the record.  A handle whose bits are 0
 * or all ones, or a full neighbourhood, is simply not kept: the caller asks
 * the MPI library, as without a table.
 */
#ifndef PC_HANDLE_TABLE_H
#define PC_HANDLE_TABLE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct pc_handle_table {
    _Atomic uint64_t *keys; /* [nslots]: 0 empty */
    void *records;          /* [nslots] records of record_size bytes */
    size_t record_size;
    unsigned nslots;        /* a power of two */
} pc_handle_table_t;

enum { PC_HANDLE_PROBES = 8 };        /* slots tried from a key's home */
#define PC_HANDLE_TOMBSTONE UINT64_MAX /* a forgotten key */

/* A handle as a key (0 when it cannot be kept).  Inline, as pc_handle_find:
 * every call of a collective looks up its communicator's context. */
static inline uint64_t pc_handle_key(const void *handle, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k == PC_HANDLE_TOMBSTONE ? 0 : k;
}

/* key's first slot. */
static inline unsigned pc_handle_home(const pc_handle_table_t *t, uint64_t key)
{
    return (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> 40) & (t->nslots - 1);
}

/* key's slot, or -1; with vacant, *vacant: the first empty or forgotten
 * slot on the way (-1 if none). */
static inline int pc_handle_slot(const pc_handle_table_t *t, uint64_t key, int *vacant)
{
    if (vacant) *vacant = -1;
    if (!key) return -1;
    for (unsigned i = 0, at = pc_handle_home(t, key); i < PC_HANDLE_PROBES; i++, at = (at + 1) & (t->nslots - 1)) {
        uint64_t k = atomic_load_explicit(&t->keys[at], memory_order_acquire);
        if (k == key) return (int)at;
        if (vacant && (k == 0 || k == PC_HANDLE_TOMBSTONE) && *vacant < 0) *vacant = (int)at;
        if (k == 0) break;
    }
    return -1;
}

/* key's record, or NULL. */
static inline void *pc_handle_find(const pc_handle_table_t *t, uint64_t key)
{
    int at = pc_handle_slot(t, key, NULL);
    return at < 0 ? NULL : (char *)t->records + (size_t)at * t->record_size;
}
/* Keeps record (record_size bytes) under key, unless the key is there or
 * its neighbourhood full.  Caller holds pc_lock. */
void pc_handle_keep(pc_handle_table_t *t, uint64_t key, const void *record);
/* Forgets key.  Caller holds pc_lock. */
void pc_handle_forget(pc_handle_table_t *t, uint64_t key);

#endif
