/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * choice_cache.c - a communicator's memo of automatic selection (see
 * choice_cache.h).
 */
#include "coll/choice_cache.h"
#include "core/params.h"

#include <stdint.h>
#include <stdlib.h>

enum { SLOTS = 16 }; /* a power of two */

typedef struct slot {
    int used;
    unsigned long generation;
    int coll_id;
    size_t bytes;
    pc_op_kind_t op;
    int commutative, inplace;
    pc_choice_t choice;
} slot_t;

struct pc_choice_cache {
    slot_t slot[SLOTS];
};

static slot_t *slot_of(pc_comm_t *ctx, int coll_id, const pc_select_input_t *in)
{
    uint64_t kind = (uint64_t)coll_id << 4 | (uint64_t)in->op << 2 | (uint64_t)!!in->commutative << 1 | !!in->inplace;
    uint64_t h = (uint64_t)in->bytes * 0x9E3779B97F4A7C15u ^ kind * 0xC2B2AE3D27D4EB4Fu;
    return &ctx->choices->slot[(h >> 32) & (SLOTS - 1)];
}

const pc_choice_t *pc_choice_lookup(pc_comm_t *ctx, int coll_id, const pc_select_input_t *in)
{
    if (!ctx->choices) return NULL;
    const slot_t *s = slot_of(ctx, coll_id, in);
    if (!s->used || s->generation != pc_params_generation() || s->coll_id != coll_id || s->bytes != in->bytes ||
        s->op != in->op || s->commutative != in->commutative || s->inplace != in->inplace)
        return NULL;
    return &s->choice;
}

void pc_choice_store(pc_comm_t *ctx, int coll_id, const pc_select_input_t *in, const pc_choice_t *choice)
{
    if (!ctx->choices && !(ctx->choices = calloc(1, sizeof *ctx->choices))) return;
    *slot_of(ctx, coll_id, in) = (slot_t){1,           pc_params_generation(), coll_id, in->bytes, in->op,
                                                 in->commutative, in->inplace,         *choice};
}
