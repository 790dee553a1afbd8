/*
 * op_types.c - which predefined op applies to which datatype (MPI-3.1
 * section 5.9.2), so every process rejects a bad (op, datatype) pair with
 * MPI_ERR_OP before any algorithm moves data, as the MPI library does.
 *
 *   MPI_MAX, MPI_MIN            C integer, Fortran integer, floating point
 *   MPI_SUM, MPI_PROD           C integer, Fortran integer, floating point, complex
 *   MPI_LAND, MPI_LOR, MPI_LXOR C integer, logical
 *   MPI_BAND, MPI_BOR, MPI_BXOR C integer, Fortran integer, byte
 *   MPI_MAXLOC, MPI_MINLOC      the pair types
 *
 * Derived datatypes with a predefined op: Open MPI 4.1 and MPICH 4.0.2 both
 * refuse them with MPI_ERR_OP (checked by tests/test_errors_reduce.c), so
 * papcoll does too.
 */
#include "core/args.h"

#include <stddef.h>

enum { C_INT = 1, F_INT = 2, FLOAT = 4, COMPLEX = 8, LOGICAL = 16, BYTE = 32, PAIR = 64 };

static unsigned class_of(MPI_Datatype t)
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

/* Open MPI 4.1 also accepts MPI_BYTE for the arithmetic ops (as an 8-bit
 * integer). */
#ifdef OPEN_MPI
#define ARITH_BYTE BYTE
#else
#define ARITH_BYTE 0
#endif

static unsigned classes_of(MPI_Op op)
{
    if (op == MPI_MAX || op == MPI_MIN) return C_INT | F_INT | FLOAT | ARITH_BYTE;
    if (op == MPI_SUM || op == MPI_PROD) return C_INT | F_INT | FLOAT | COMPLEX | ARITH_BYTE;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return C_INT | LOGICAL;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return C_INT | F_INT | BYTE;
    if (op == MPI_MAXLOC || op == MPI_MINLOC) return PAIR;
    return ~0u; /* MPI_REPLACE, MPI_NO_OP: any */
}

int pc_check_op_type(MPI_Op op, MPI_Datatype type)
{
    if (!pc_op_is_predefined(op)) return MPI_SUCCESS; /* user ops take any datatype */
    int ni, na, nd, combiner;
    PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    if (combiner != MPI_COMBINER_NAMED) return MPI_ERR_OP;
    return class_of(type) & classes_of(op) ? MPI_SUCCESS : MPI_ERR_OP;
}
