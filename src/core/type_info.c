/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * type_info.c - see type_info.h.  Two tables keyed by the handle
 * (core/handle_table.h), written under pc_lock, read without it.
 */
#include "core/type_info.h"
#include "core/handle_table.h"
#include "core/lock.h"

#include <string.h>

enum { TYPE_SLOTS = 256, OP_SLOTS = 32 }; /* powers of two; MPI has about 70 predefined datatypes */

static _Atomic uint64_t type_keys[TYPE_SLOTS];
static pc_type_info_t type_records[TYPE_SLOTS];
static pc_handle_table_t types = {type_keys, type_records, sizeof type_records[0], TYPE_SLOTS};
static _Atomic uint64_t op_keys[OP_SLOTS];
static pc_op_info_t op_records[OP_SLOTS];
static pc_handle_table_t ops = {op_keys, op_records, sizeof op_records[0], OP_SLOTS};

static void keep(pc_handle_table_t *t, uint64_t key, const void *record)
{
    pc_lock();
    pc_handle_keep(t, key, record);
    pc_unlock();
}

const pc_type_info_t *pc_type_info(MPI_Datatype type, pc_type_info_t *scratch)
{
    uint64_t key = pc_handle_key(&type, sizeof type);
    const pc_type_info_t *known = pc_handle_find(&types, key);
    if (known) return known;
    memset(scratch, 0, sizeof *scratch);
    if (type == MPI_DATATYPE_NULL) return scratch;
    int ni, na, nd, combiner;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    scratch->named = combiner == MPI_COMBINER_NAMED;
    scratch->classes = scratch->named ? pc_type_class(type) : 0;
    PMPI_Type_size_x(type, &scratch->size);
    PMPI_Type_get_extent(type, &scratch->lb, &scratch->extent);
    PMPI_Type_get_true_extent(type, &scratch->true_lb, &scratch->true_extent);
    if (scratch->named) keep(&types, key, scratch);
    return scratch;
}

const pc_op_info_t *pc_op_info(MPI_Op op, pc_op_info_t *scratch)
{
    uint64_t key = pc_handle_key(&op, sizeof op);
    const pc_op_info_t *known = pc_handle_find(&ops, key);
    if (known) return known;
    memset(scratch, 0, sizeof *scratch);
    if (op == MPI_OP_NULL) return scratch;
    scratch->predefined = pc_op_in_list(op);
    scratch->takes = scratch->predefined ? pc_op_classes(op) : 0;
    PMPI_Op_commutative(op, &scratch->commutative);
    if (scratch->predefined) keep(&ops, key, scratch);
    return scratch;
}
