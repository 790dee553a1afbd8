/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * op_types.c - which (predefined op, datatype) pairs a reduction takes, so
 * every process refuses a pair before any algorithm moves data, with the
 * error class the MPI library itself gives, and takes every pair the
 * library takes.
 *
 * The standard's list (MPI-3.1 section 5.9.2), which every MPI takes:
 *
 *   MPI_MAX, MPI_MIN            C integer, Fortran integer, floating point
 *   MPI_SUM, MPI_PROD           C integer, Fortran integer, floating point, complex
 *   MPI_LAND, MPI_LOR, MPI_LXOR C integer, logical
 *   MPI_BAND, MPI_BOR, MPI_BXOR C integer, Fortran integer, byte
 *   MPI_MAXLOC, MPI_MINLOC      the pair types
 *
 * Every other pair is the MPI library's to decide, and libraries take more
 * (measured): Open MPI 4.1 and MPICH 4.0.2 take MPI_CHAR, MPI_CHARACTER and
 * MPI_INTEGER1..8 with all ten arithmetic, logical and bitwise ops (MPICH's
 * test/mpi/coll/op*.c reduce MPI_CHAR); Open MPI MPI_BYTE with all ten,
 * MPICH the floating-point types with MPI_LAND, MPI_LOR, MPI_LXOR; both
 * refuse MPI_REPLACE and MPI_NO_OP in a reduction, MPI_WCHAR, and derived
 * datatypes with a predefined op (tests/test_errors_reduce.c).  A hand table
 * of each library's extensions would be wrong on the next version, so
 * papcoll asks the library: one PMPI_Reduce on pc_self_comm(), a private
 * one-process communicator whose error handler returns, and takes its error
 * class (MPI_SUCCESS or MPI_ERR_OP).  Checked pair by pair (54 predefined
 * datatypes x 14 ops, both libraries): MPI_Reduce takes exactly the pairs
 * MPI_Allreduce, MPI_Reduce_scatter and MPI_Reduce_scatter_block take, with
 * one element and with none alike.  Not PMPI_Reduce_local: MPICH 4.0.2's
 * does not check the pair (MPI_LAND on MPI_FLOAT aborts in its kernel), and
 * both libraries raise its errors on MPI_COMM_WORLD or MPI_COMM_SELF, whose
 * handlers are the application's.
 *
 * A pair the library takes runs papcoll's algorithms like any other: they
 * combine with PMPI_Reduce_local (src/coll/reduction.c), the kernels of the
 * library's own collectives, so they handle whatever the library handles,
 * and no fallback to native is needed.  (Where a library's check takes a
 * pair its kernel cannot do, MPICH 4.0.2's MPI_LAND on floating point,
 * papcoll aborts in PMPI_Reduce_local where MPI_Reduce would abort in the
 * same kernel.)  The answer is cached per (op, predefined datatype); a
 * derived datatype is asked every call (its handle may be reused after
 * MPI_Type_free), with no elements, so no buffer of its extent is needed.
 * Both decisions are logged at PAPCOLL_LOG=debug.
 */
#include "core/args.h"
#include "core/lock.h"
#include "core/log.h"
#include "core/type_info.h"

#include <stdlib.h>

enum { C_INT = 1, F_INT = 2, FLOAT = 4, COMPLEX = 8, LOGICAL = 16, BYTE = 32, PAIR = 64 };

unsigned pc_type_class(MPI_Datatype t)
{
    const MPI_Datatype c_int[] = {MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG,
                                  MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR,
                                  MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
                                  MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT};
    const MPI_Datatype f_int[] = {MPI_INTEGER};
    const MPI_Datatype flt[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION};
    const MPI_Datatype cplx[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_COMPLEX,
                                 MPI_DOUBLE_COMPLEX};
    const MPI_Datatype logical[] = {MPI_C_BOOL, MPI_LOGICAL};
    const MPI_Datatype pair[] = {MPI_2INT, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT,
                                 MPI_LONG_DOUBLE_INT, MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER};
    const struct { const MPI_Datatype *types; size_t n; unsigned cls; } classes[] = {
        {c_int, sizeof c_int / sizeof *c_int, C_INT},     {f_int, 1, F_INT},
        {flt, sizeof flt / sizeof *flt, FLOAT},           {cplx, sizeof cplx / sizeof *cplx, COMPLEX},
        {logical, 2, LOGICAL},                            {&(MPI_Datatype){MPI_BYTE}, 1, BYTE},
        {pair, sizeof pair / sizeof *pair, PAIR}};
    for (size_t c = 0; c < sizeof classes / sizeof *classes; c++)
        for (size_t i = 0; i < classes[c].n; i++)
            if (t == classes[c].types[i]) return classes[c].cls;
    return 0;
}

unsigned pc_op_classes(MPI_Op op)
{
    if (op == MPI_MAX || op == MPI_MIN) return C_INT | F_INT | FLOAT;
    if (op == MPI_SUM || op == MPI_PROD) return C_INT | F_INT | FLOAT | COMPLEX;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return C_INT | LOGICAL;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return C_INT | F_INT | BYTE;
    if (op == MPI_MAXLOC || op == MPI_MINLOC) return PAIR;
    return 0; /* MPI_REPLACE, MPI_NO_OP: the library's to decide */
}

static const char *op_name(MPI_Op op)
{
    const struct { MPI_Op op; const char *name; } names[] = {
        {MPI_MAX, "MPI_MAX"},   {MPI_MIN, "MPI_MIN"},       {MPI_SUM, "MPI_SUM"},       {MPI_PROD, "MPI_PROD"},
        {MPI_LAND, "MPI_LAND"}, {MPI_LOR, "MPI_LOR"},       {MPI_LXOR, "MPI_LXOR"},     {MPI_BAND, "MPI_BAND"},
        {MPI_BOR, "MPI_BOR"},   {MPI_BXOR, "MPI_BXOR"},     {MPI_MAXLOC, "MPI_MAXLOC"}, {MPI_MINLOC, "MPI_MINLOC"},
        {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (op == names[i].op) return names[i].name;
    return "a predefined op";
}

/* The library's answer for a pair outside the standard's list (caller
 * holds the lock: one question at a time on the shared communicator; a
 * one-process collective waits for nobody). */
static int ask_library(MPI_Op op, MPI_Datatype type, int named, MPI_Comm self)
{
    long double in[8] = {0}, out[8] = {0}; /* one element of any predefined datatype (at most 32 bytes) */
    int rc = PMPI_Reduce(in, out, named ? 1 : 0, type, op, 0, self), cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) PMPI_Error_class(rc, &cls);
    return cls;
}

/* Answers for (op, predefined datatype) pairs outside the list, as asked. */
static struct answer { MPI_Op op; MPI_Datatype type; int rc; } *answers;
static size_t nanswers, answers_cap;

int pc_check_op_type(MPI_Op op, MPI_Datatype type)
{
    pc_op_info_t op_scratch;
    const pc_op_info_t *o = pc_op_info(op, &op_scratch);
    if (!o->predefined) return MPI_SUCCESS; /* user ops take any datatype */
    pc_type_info_t type_scratch;
    const pc_type_info_t *t = pc_type_info(type, &type_scratch);
    if (t->classes & o->takes) return MPI_SUCCESS; /* a pair of the standard's list (named types) */
    int named = t->named;
    MPI_Comm self = pc_self_comm();
    int rc = -1;
    pc_lock();
    for (size_t i = 0; named && i < nanswers; i++)
        if (answers[i].op == op && answers[i].type == type) rc = answers[i].rc;
    if (rc == -1) {
        rc = ask_library(op, type, named, self);
        if (named && nanswers == answers_cap) {
            size_t cap = answers_cap ? 2 * answers_cap : 16;
            struct answer *grown = realloc(answers, cap * sizeof *grown);
            if (grown) answers = grown, answers_cap = cap;
        }
        if (named && nanswers < answers_cap) answers[nanswers++] = (struct answer){op, type, rc};
    }
    pc_unlock();
    if (pc_log_enabled(PC_LOG_DEBUG)) {
        char name[MPI_MAX_OBJECT_NAME] = "a derived datatype";
        int len;
        if (named) PMPI_Type_get_name(type, name, &len);
        if (rc == MPI_SUCCESS)
            pc_log(PC_LOG_DEBUG, "%s on %s: outside MPI's list, taken by the MPI library: papcoll's algorithms "
                   "combine it with the library's MPI_Reduce_local", op_name(op), name);
        else
            pc_log(PC_LOG_DEBUG, "%s on %s: refused by the MPI library: %s", op_name(op), name, pc_class_name(rc));
    }
    return rc;
}
