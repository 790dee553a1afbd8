/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_handle_table - the lock-free handle tables (src/core/handle_table.h),
 * without MPI: keys kept are found with their records, keys never kept and
 * forgotten ones are not; a forgotten key's slot is reused (tombstones do
 * not end a search: a key kept after a colliding one is still found once
 * that one is forgotten); a neighbourhood of PC_HANDLE_PROBES full slots
 * keeps nothing more; the keys 0 and all ones are never kept.
 */
#include "core/handle_table.h"

#include <stdio.h>

#include "check.h"

enum { SLOTS = 16 };

static _Atomic uint64_t keys[SLOTS];
static long records[SLOTS];
static pc_handle_table_t table = {keys, records, sizeof records[0], SLOTS};

static long *find(uint64_t key) { return pc_handle_find(&table, key); }
static void keep(uint64_t key, long value) { pc_handle_keep(&table, key, &value); }

/* n distinct keys whose home slot is `home`. */
static int colliding(unsigned home, uint64_t *out, int n)
{
    int found = 0;
    for (uint64_t k = 1; found < n && k < 1000000; k++)
        if (pc_handle_home(&table, k) == home) out[found++] = k;
    return found;
}

int main(void)
{
    uint64_t handle = 0x7f0012345678ULL;
    uint64_t key = pc_handle_key(&handle, sizeof handle);
    CHECK(key == handle, "a pointer handle is its own key");
    int small = 42;
    CHECK(pc_handle_key(&small, sizeof small) == 42, "an int handle is its own key");
    uint64_t ones = UINT64_MAX;
    CHECK(pc_handle_key(&ones, sizeof ones) == 0, "all ones: no key");
    CHECK(find(0) == NULL && find(key) == NULL, "an empty table finds nothing");
    keep(0, 1);
    CHECK(find(0) == NULL, "key 0 is never kept");
    keep(key, 7);
    CHECK(find(key) && *find(key) == 7, "a kept key's record");
    keep(key, 8);
    CHECK(*find(key) == 7, "keeping a key twice keeps the first record");
    pc_handle_forget(&table, key);
    CHECK(find(key) == NULL, "a forgotten key");

    /* collisions: PC_HANDLE_PROBES + 1 keys with one home */
    uint64_t c[PC_HANDLE_PROBES + 1];
    CHECK(colliding(3, c, PC_HANDLE_PROBES + 1) == PC_HANDLE_PROBES + 1, "colliding keys");
    for (int i = 0; i <= PC_HANDLE_PROBES; i++) keep(c[i], 100 + i);
    for (int i = 0; i < PC_HANDLE_PROBES; i++)
        CHECK(find(c[i]) && *find(c[i]) == 100 + i, "colliding key %d: its record", i);
    CHECK(find(c[PC_HANDLE_PROBES]) == NULL, "a full neighbourhood keeps nothing more");
    pc_handle_forget(&table, c[0]);
    CHECK(find(c[0]) == NULL, "the first colliding key forgotten");
    for (int i = 1; i < PC_HANDLE_PROBES; i++)
        CHECK(find(c[i]) && *find(c[i]) == 100 + i, "colliding key %d past a forgotten one", i);
    keep(c[PC_HANDLE_PROBES], 200);
    CHECK(find(c[PC_HANDLE_PROBES]) && *find(c[PC_HANDLE_PROBES]) == 200, "a forgotten slot is reused");
    for (int i = 1; i <= PC_HANDLE_PROBES; i++) pc_handle_forget(&table, c[i]);
    for (int i = 0; i <= PC_HANDLE_PROBES; i++) CHECK(find(c[i]) == NULL, "colliding key %d forgotten", i);
    keep(c[0], 300);
    CHECK(find(c[0]) && *find(c[0]) == 300, "kept again after its neighbourhood was emptied");
    if (failures == 0) printf("handle tables: ok\n");
    return failures != 0;
}
