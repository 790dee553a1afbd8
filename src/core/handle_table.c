/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * handle_table.c - see handle_table.h.
 */
#include "core/handle_table.h"

#include <string.h>

/* key's slot, or -1; *vacant: the first empty or forgotten slot on the way
 * (-1 if none). */
static int slot_of(const pc_handle_table_t *t, uint64_t key, int *vacant)
{
    *vacant = -1;
    for (unsigned i = 0, at = pc_handle_home(t, key); i < PC_HANDLE_PROBES; i++, at = (at + 1) & (t->nslots - 1)) {
        uint64_t k = atomic_load_explicit(&t->keys[at], memory_order_acquire);
        if (k == key) return (int)at;
        if ((k == 0 || k == PC_HANDLE_TOMBSTONE) && *vacant < 0) *vacant = (int)at;
        if (k == 0) break;
    }
    return -1;
}

void pc_handle_keep(pc_handle_table_t *t, uint64_t key, const void *record)
{
    int vacant;
    if (!key || slot_of(t, key, &vacant) >= 0 || vacant < 0) return;
    memcpy((char *)t->records + (size_t)vacant * t->record_size, record, t->record_size);
    atomic_store_explicit(&t->keys[vacant], key, memory_order_release);
}

void pc_handle_forget(pc_handle_table_t *t, uint64_t key)
{
    int vacant, at = key ? slot_of(t, key, &vacant) : -1;
    if (at >= 0) atomic_store_explicit(&t->keys[at], PC_HANDLE_TOMBSTONE, memory_order_release);
}
