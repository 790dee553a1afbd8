/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * type_info.c - see type_info.h.  Two open-addressed tables keyed by the
 * handle's bits, written under pc_lock (a record first, then its key,
 * released) and read without it (the key acquired, then the record).  A
 * handle whose bits are 0, or a full neighbourhood, is simply not kept.
 */
#include "core/type_info.h"
#include "core/lock.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

enum { TYPE_SLOTS = 256, OP_SLOTS = 32, PROBES = 8 }; /* powers of two; MPI has about 70 predefined datatypes */

static _Atomic uint64_t type_keys[TYPE_SLOTS];
static pc_type_info_t type_records[TYPE_SLOTS];
static _Atomic uint64_t op_keys[OP_SLOTS];
static pc_op_info_t op_records[OP_SLOTS];

/* A handle (a pointer or an int, by library) as a key. */
static uint64_t key_of(const void *handle, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

/* key's slot in keys[nslots], or -1; *vacant gets the first empty slot of
 * its neighbourhood (-1 if none). */
static int find(_Atomic uint64_t *keys, unsigned nslots, uint64_t key, int *vacant)
{
    unsigned home = (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> 40);
    *vacant = -1;
    for (unsigned i = 0; i < PROBES; i++) {
        unsigned at = (home + i) & (nslots - 1);
        uint64_t k = atomic_load_explicit(&keys[at], memory_order_acquire);
        if (k == key) return (int)at;
        if (!k) {
            *vacant = (int)at;
            return -1;
        }
    }
    return -1;
}

/* Keeps record (size bytes) at key's slot unless it is already there. */
static void keep(_Atomic uint64_t *keys, void *records, unsigned nslots, uint64_t key, const void *record, size_t size)
{
    pc_lock();
    int vacant;
    if (find(keys, nslots, key, &vacant) < 0 && vacant >= 0) {
        memcpy((char *)records + (size_t)vacant * size, record, size);
        atomic_store_explicit(&keys[vacant], key, memory_order_release);
    }
    pc_unlock();
}

const pc_type_info_t *pc_type_info(MPI_Datatype type, pc_type_info_t *scratch)
{
    uint64_t key = key_of(&type, sizeof type);
    int vacant, at = key ? find(type_keys, TYPE_SLOTS, key, &vacant) : -1;
    if (at >= 0) return &type_records[at];
    memset(scratch, 0, sizeof *scratch);
    if (type == MPI_DATATYPE_NULL) return scratch;
    int ni, na, nd, combiner;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    scratch->named = combiner == MPI_COMBINER_NAMED;
    scratch->classes = scratch->named ? pc_type_class(type) : 0;
    PMPI_Type_size_x(type, &scratch->size);
    PMPI_Type_get_extent(type, &scratch->lb, &scratch->extent);
    PMPI_Type_get_true_extent(type, &scratch->true_lb, &scratch->true_extent);
    if (scratch->named && key) keep(type_keys, type_records, TYPE_SLOTS, key, scratch, sizeof *scratch);
    return scratch;
}

const pc_op_info_t *pc_op_info(MPI_Op op, pc_op_info_t *scratch)
{
    uint64_t key = key_of(&op, sizeof op);
    int vacant, at = key ? find(op_keys, OP_SLOTS, key, &vacant) : -1;
    if (at >= 0) return &op_records[at];
    memset(scratch, 0, sizeof *scratch);
    if (op == MPI_OP_NULL) return scratch;
    scratch->predefined = pc_op_in_list(op);
    scratch->takes = scratch->predefined ? pc_op_classes(op) : 0;
    PMPI_Op_commutative(op, &scratch->commutative);
    if (scratch->predefined && key) keep(op_keys, op_records, OP_SLOTS, key, scratch, sizeof *scratch);
    return scratch;
}
