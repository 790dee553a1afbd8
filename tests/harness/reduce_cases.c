/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_cases.c - see reduce_cases.h.
 */
#include "reduce_cases.h"

#include "../test_random.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rc_case_t *cases;
static int ncases, cases_cap;
static MPI_Datatype vector_type = MPI_DATATYPE_NULL, mat2_type = MPI_DATATYPE_NULL,
                    mat2_gappy_type = MPI_DATATYPE_NULL;
static MPI_Op user_commutative_op = MPI_OP_NULL, user_matrix_op = MPI_OP_NULL;
static atomic_long type_errors;
static char signed_compare_note[1024]; /* cases where the MPI library compares unsigned as signed */

/* ---- the user operations (inoutvec = invec o inoutvec) -------------------- */

/* x o y = x + y + xy on MPI_UNSIGNED, or on each unsigned of vector_type */
static void user_commutative_fn(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    static const int one[1] = {0}, vector[6] = {0, 1, 2, 5, 6, 7};
    const int *positions;
    size_t stride, n;
    if (*datatype == MPI_UNSIGNED) positions = one, stride = 1, n = 1;
    else if (*datatype == vector_type) positions = vector, stride = 8, n = 6;
    else {
        type_errors++;
        return;
    }
    for (int i = 0; i < *len; i++)
        for (size_t j = 0; j < n; j++) {
            size_t at = (size_t)i * stride + (size_t)positions[j];
            unsigned x = ((const unsigned *)invec)[at], *y = (unsigned *)inoutvec + at;
            *y = x + *y + x * *y;
        }
}

static void user_matrix_fn(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    const int *positions;
    size_t stride;
    if (*datatype == mat2_type) positions = rc_mat2_positions, stride = 4;
    else if (*datatype == mat2_gappy_type) positions = rc_mat2_gappy_positions, stride = 6;
    else {
        type_errors++;
        return;
    }
    for (int i = 0; i < *len; i++) {
        const unsigned *in = (const unsigned *)invec + (size_t)i * stride;
        unsigned *inout = (unsigned *)inoutvec + (size_t)i * stride;
        rc_matrix_product(in, inout, inout, positions);
    }
}

long rc_user_op_type_errors(void) { return type_errors; }

/* ---- building the table ------------------------------------------------- */

static int world_rank(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

/* Whether MPI_Reduce_local's MIN or MAX compares the case's unsigned type as
 * unsigned: min(2^(bits-1), 1) must be 1. */
static int unsigned_compare_ok(const rc_case_t *c)
{
    unsigned char big[8] = {0}, one[8] = {0};
    size_t size = c->kind->size;
    uint64_t b = 1ULL << (8 * size - 1), o = 1;
    for (size_t i = 0; i < size; i++) { /* little or big endian alike */
        union {
            uint64_t u;
            unsigned char c[8];
        } probe = {.u = 1};
        size_t byte = probe.c[0] ? i : size - 1 - i;
        big[byte] = (unsigned char)(b >> (8 * i));
        one[byte] = (unsigned char)(o >> (8 * i));
    }
    unsigned char inout[8];
    memcpy(inout, one, sizeof inout);
    MPI_Reduce_local(big, inout, 1, c->type, c->op);
    return !memcmp(inout, c->opclass == RC_MIN ? one : big, size);
}

static void add(const char *kind_name, MPI_Datatype type, MPI_Op op, const char *op_name, rc_opclass_t opclass,
                int inexact)
{
    const rc_kind_t *kind = rc_kind(kind_name);
    int size, commutative;
    MPI_Aint lb, extent;
    MPI_Type_size(type, &size);
    MPI_Type_get_extent(type, &lb, &extent);
    if (!kind || lb != 0 || (size_t)extent != kind->size) {
        if (world_rank() == 0)
            fprintf(stderr, "note: case %s/%s left out: the datatype's extent %ld (lb %ld) is not the C size %zu\n",
                    kind_name, op_name, (long)extent, (long)lb, kind ? kind->size : (size_t)0);
        return;
    }
    if (ncases == cases_cap) {
        cases_cap = cases_cap ? 2 * cases_cap : 64;
        cases = realloc(cases, (size_t)cases_cap * sizeof *cases);
    }
    rc_case_t *c = &cases[ncases++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s/%s%s", kind->family == RC_F_USER_UINT ? "MPI_UNSIGNED" : kind_name, op_name,
             inexact ? "(inexact)" : "");
    c->kind = kind;
    c->opclass = opclass;
    c->type = type;
    c->op = op;
    MPI_Op_commutative(op, &commutative);
    c->commutative = commutative;
    c->predefined = opclass < RC_USER_COMMUTATIVE;
    c->inexact = inexact;
    c->extent = extent;
    /* data bytes: unpack one element of 0xff bytes onto zeros */
    unsigned char ones[64];
    int position = 0;
    memset(ones, 0xff, sizeof ones);
    c->mask = calloc((size_t)extent, 1);
    MPI_Unpack(ones, size, &position, c->mask, 1, type, MPI_COMM_SELF);
    c->gaps = size != extent && kind->family != RC_F_PAIR && kind->family != RC_F_FLOAT;
    c->weight = !c->predefined ? 4 : inexact ? 2 : 1;
    c->value_mask = ~0ULL;
    if ((opclass == RC_MIN || opclass == RC_MAX) && kind->family == RC_F_UNSIGNED && !unsigned_compare_ok(c)) {
        /* keep the inputs below the top bit: the result is then right
         * whether the library compares as unsigned or (wrongly) signed */
        c->value_mask = ~(1ULL << (8 * kind->size - 1));
        size_t used = strlen(signed_compare_note);
        snprintf(signed_compare_note + used, sizeof signed_compare_note - used, " %s", c->name);
    }
}

int rc_cases_init(void)
{
    if (cases) return ncases;
    const struct {
        const char *name;
        MPI_Datatype type;
    } integers[] = {{"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR}, {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR},
                    {"MPI_SHORT", MPI_SHORT},             {"MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT},
                    {"MPI_INT", MPI_INT},                 {"MPI_UNSIGNED", MPI_UNSIGNED},
                    {"MPI_LONG", MPI_LONG},               {"MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG},
                    {"MPI_LONG_LONG", MPI_LONG_LONG},     {"MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG},
                    {"MPI_INT8_T", MPI_INT8_T},           {"MPI_UINT16_T", MPI_UINT16_T},
                    {"MPI_INT32_T", MPI_INT32_T},         {"MPI_UINT64_T", MPI_UINT64_T}},
      floats[] = {{"MPI_FLOAT", MPI_FLOAT}, {"MPI_DOUBLE", MPI_DOUBLE}, {"MPI_LONG_DOUBLE", MPI_LONG_DOUBLE}},
      pairs[] = {{"MPI_2INT", MPI_2INT},           {"MPI_FLOAT_INT", MPI_FLOAT_INT},
                 {"MPI_DOUBLE_INT", MPI_DOUBLE_INT}, {"MPI_LONG_INT", MPI_LONG_INT},
                 {"MPI_SHORT_INT", MPI_SHORT_INT},   {"MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT}};
    const struct {
        const char *name;
        MPI_Op op;
        rc_opclass_t opclass;
    } ops[] = {{"MPI_SUM", MPI_SUM, RC_SUM},       {"MPI_PROD", MPI_PROD, RC_PROD},
               {"MPI_MIN", MPI_MIN, RC_MIN},       {"MPI_MAX", MPI_MAX, RC_MAX},
               {"MPI_LAND", MPI_LAND, RC_LAND},    {"MPI_LOR", MPI_LOR, RC_LOR},
               {"MPI_LXOR", MPI_LXOR, RC_LXOR},    {"MPI_BAND", MPI_BAND, RC_BAND},
               {"MPI_BOR", MPI_BOR, RC_BOR},       {"MPI_BXOR", MPI_BXOR, RC_BXOR},
               {"MPI_MINLOC", MPI_MINLOC, RC_MINLOC}, {"MPI_MAXLOC", MPI_MAXLOC, RC_MAXLOC}};
    enum { N_INT = sizeof integers / sizeof integers[0] };

    for (int t = 0; t < N_INT; t++)
        for (int o = RC_SUM; o <= RC_BXOR; o++) add(integers[t].name, integers[t].type, ops[o].op, ops[o].name, o, 0);
    for (int o = RC_LAND; o <= RC_LXOR; o++) add("MPI_C_BOOL", MPI_C_BOOL, ops[o].op, ops[o].name, o, 0);
    for (int o = RC_BAND; o <= RC_BXOR; o++) add("MPI_BYTE", MPI_BYTE, ops[o].op, ops[o].name, o, 0);
    for (int t = 0; t < 3; t++)
        for (int o = RC_SUM; o <= RC_MAX; o++) add(floats[t].name, floats[t].type, ops[o].op, ops[o].name, o, 0);
    add("MPI_FLOAT", MPI_FLOAT, MPI_SUM, "MPI_SUM", RC_SUM, 1);
    add("MPI_DOUBLE", MPI_DOUBLE, MPI_SUM, "MPI_SUM", RC_SUM, 1);
    add("MPI_DOUBLE", MPI_DOUBLE, MPI_PROD, "MPI_PROD", RC_PROD, 1);
    for (int t = 0; t < 6; t++)
        for (int o = RC_MINLOC; o <= RC_MAXLOC; o++) add(pairs[t].name, pairs[t].type, ops[o].op, ops[o].name, o, 0);

    MPI_Datatype tmp;
    MPI_Type_vector(2, 3, 5, MPI_UNSIGNED, &vector_type);
    MPI_Type_commit(&vector_type);
    /* predefined operations do not apply to derived datatypes (MPI-3.1
     * 5.9.2; Open MPI and MPICH return MPI_ERR_OP): the gappy datatypes
     * come with user operations */
    MPI_Op_create(user_commutative_fn, 1, &user_commutative_op);
    MPI_Op_create(user_matrix_fn, 0, &user_matrix_op);
    add("user_uint", MPI_UNSIGNED, user_commutative_op, "user_commutative", RC_USER_COMMUTATIVE, 0);
    add("uint_vector2x3_stride5", vector_type, user_commutative_op, "user_commutative", RC_USER_COMMUTATIVE, 0);
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat2_type);
    MPI_Type_commit(&mat2_type);
    add("mat2x2", mat2_type, user_matrix_op, "user_noncommutative", RC_USER_NONCOMMUTATIVE, 0);
    MPI_Type_vector(2, 2, 3, MPI_UNSIGNED, &tmp);
    MPI_Type_create_resized(tmp, 0, 6 * sizeof(unsigned), &mat2_gappy_type);
    MPI_Type_free(&tmp);
    MPI_Type_commit(&mat2_gappy_type);
    add("mat2x2_gappy", mat2_gappy_type, user_matrix_op, "user_noncommutative", RC_USER_NONCOMMUTATIVE, 0);
    /* MPI_CHAR, outside the standard's list, with each predefined operation
     * the MPI library's own MPI_Reduce takes (both take all ten) */
    MPI_Comm self;
    MPI_Comm_dup(MPI_COMM_SELF, &self);
    MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
    for (int o = RC_SUM; o <= RC_BXOR; o++) {
        char in = 0, out = 0;
        if (PMPI_Reduce(&in, &out, 1, MPI_CHAR, ops[o].op, 0, self) != MPI_SUCCESS) continue;
        add("MPI_CHAR", MPI_CHAR, ops[o].op, ops[o].name, o, 0);
        cases[ncases - 1].library_ref = 1;
        cases[ncases - 1].weight = 0;
    }
    MPI_Comm_free(&self);
    if (signed_compare_note[0] && world_rank() == 0)
        fprintf(stderr,
                "note: the MPI library compares unsigned integers as signed (a known bug of Open MPI 4.1.2-4.1.4 "
                "and MPICH 4.0.2) in these cases, whose inputs therefore stay below the top bit:%s\n",
                signed_compare_note);
    return ncases;
}

int rc_case_count(void) { return ncases; }
const rc_case_t *rc_case_at(int i) { return i >= 0 && i < ncases ? &cases[i] : NULL; }

const rc_case_t *rc_case_find(const char *name)
{
    for (int i = 0; i < ncases; i++)
        if (!strcmp(cases[i].name, name)) return &cases[i];
    return NULL;
}

void rc_cases_free(void)
{
    for (int i = 0; i < ncases; i++) free(cases[i].mask);
    free(cases);
    cases = NULL;
    ncases = cases_cap = 0;
    MPI_Type_free(&vector_type);
    MPI_Type_free(&mat2_type);
    MPI_Type_free(&mat2_gappy_type);
    MPI_Op_free(&user_commutative_op);
    MPI_Op_free(&user_matrix_op);
}

/* ---- inputs, reference, comparison ----------------------------------------- */

static uint64_t element_hash(uint64_t salt, int rank, size_t i)
{
    return mix(salt ^ mix(((uint64_t)(unsigned)rank << 40) ^ (uint64_t)i));
}

void rc_fill_input(const rc_case_t *c, int rank, int p, int count, uint64_t salt, void *buf)
{
    for (int i = 0; i < count; i++)
        c->kind->gen(c->opclass, c->inexact, rank, p, element_hash(salt, rank, (size_t)i) & c->value_mask,
                     (char *)buf + (size_t)i * (size_t)c->extent);
}

void rc_reference(const rc_case_t *c, int p, int count, uint64_t salt, void *ref, double *bound)
{
    rc_reference_prefix(c, p, p, count, salt, ref, bound);
}

void rc_reference_prefix(const rc_case_t *c, int p, int ranks, int count, uint64_t salt, void *ref, double *bound)
{
    unsigned char v[64];
    const rc_kind_t *k = c->kind;
    for (int i = 0; i < count; i++) {
        char *acc = (char *)ref + (size_t)i * (size_t)c->extent;
        k->gen(c->opclass, c->inexact, 0, p, element_hash(salt, 0, (size_t)i) & c->value_mask, acc);
        double sum_abs = c->inexact ? k->magnitude(acc) : 0;
        for (int r = 1; r < ranks; r++) {
            k->gen(c->opclass, c->inexact, r, p, element_hash(salt, r, (size_t)i) & c->value_mask, v);
            k->combine(c->opclass, acc, v);
            if (c->inexact) sum_abs += k->magnitude(v);
        }
        /* reference and result each carry at most ~(p-1) eps of error */
        if (bound)
            bound[i] = !c->inexact              ? 0
                       : c->opclass == RC_PROD ? 4.0 * (p + 1) * k->eps * k->magnitude(acc)
                                               : 2.0 * (p + 1) * k->eps * sum_abs;
    }
}

long rc_compare(const rc_case_t *c, const void *got, const void *ref, const double *bound, int count, long *first)
{
    long bad = 0;
    for (int i = 0; i < count; i++) {
        size_t at = (size_t)i * (size_t)c->extent;
        if (!c->kind->equal((const char *)got + at, (const char *)ref + at, bound ? bound[i] : 0) && !bad++)
            *first = i;
    }
    return bad;
}
