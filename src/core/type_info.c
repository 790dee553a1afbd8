/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * type_info.c - see type_info.h.  Two tables keyed by the handle
 * (core/handle_table.h), written under pc_lock, read without it.
 */
#include "core/type_info.h"
#include "core/args.h"
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

/* The record of handle (size bytes) in t, else *scratch filled by ask(),
 * kept in t when ask() says the handle is predefined. */
static const void *answers(pc_handle_table_t *t, const void *handle, size_t size, void *scratch,
                           int (*ask)(const void *handle, void *record))
{
    uint64_t key = pc_handle_key(handle, size);
    const void *known = pc_handle_find(t, key);
    if (known) return known;
    memset(scratch, 0, t->record_size);
    if (ask(handle, scratch)) {
        pc_lock();
        pc_handle_keep(t, key, scratch);
        pc_unlock();
    }
    return scratch;
}

static int ask_type(const void *handle, void *record)
{
    MPI_Datatype type = *(const MPI_Datatype *)handle;
    pc_type_info_t *t = record;
    if (type == MPI_DATATYPE_NULL) return 0;
    int ni, na, nd, combiner;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    t->named = combiner == MPI_COMBINER_NAMED;
    t->classes = t->named ? pc_type_class(type) : 0;
    PMPI_Type_size_x(type, &t->size);
    PMPI_Type_get_extent(type, &t->lb, &t->extent);
    PMPI_Type_get_true_extent(type, &t->true_lb, &t->true_extent);
    return t->named;
}

static int ask_op(const void *handle, void *record)
{
    MPI_Op op = *(const MPI_Op *)handle;
    pc_op_info_t *o = record;
    if (op == MPI_OP_NULL) return 0;
    o->predefined = pc_op_is_predefined(op);
    o->takes = o->predefined ? pc_op_classes(op) : 0;
    PMPI_Op_commutative(op, &o->commutative);
    return o->predefined;
}

const pc_type_info_t *pc_type_info(MPI_Datatype type, pc_type_info_t *scratch)
{
    return answers(&types, &type, sizeof type, scratch, ask_type);
}

const pc_op_info_t *pc_op_info(MPI_Op op, pc_op_info_t *scratch)
{
    return answers(&ops, &op, sizeof op, scratch, ask_op);
}
