/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * handle_table.c - see handle_table.h.
 */
#include "core/handle_table.h"

#include <string.h>

void pc_handle_keep(pc_handle_table_t *t, uint64_t key, const void *record)
{
    int vacant;
    if (pc_handle_slot(t, key, &vacant) >= 0 || vacant < 0) return;
    memcpy((char *)t->records + (size_t)vacant * t->record_size, record, t->record_size);
    atomic_store_explicit(&t->keys[vacant], key, memory_order_release);
}

void pc_handle_forget(pc_handle_table_t *t, uint64_t key)
{
    int at = pc_handle_slot(t, key, NULL);
    if (at >= 0) atomic_store_explicit(&t->keys[at], PC_HANDLE_TOMBSTONE, memory_order_release);
}
