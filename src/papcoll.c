/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * papcoll.c - the public catalogue, parameter and status API (papcoll.h).
 * The record of the last algorithm is per thread (MPI_THREAD_MULTIPLE).
 */
#include "papcoll.h"
#include "coll/entry.h"
#include "core/lock.h"
#include "core/params.h"
#include "core/state.h"
#include "select/tune_file.h"
#include "nbc/nbc.h" /* the nonblocking collectives' catalogue */

#include <stdio.h>
#include <string.h>

#ifdef PAPCOLL_SMPI
#define PC_FLAVOUR "smpi"
#else
#define PC_FLAVOUR "native"
#endif

static PC_THREAD_LOCAL const char *last_algorithm = "";

void pc_set_last_algorithm(const char *name) { last_algorithm = name; }
const char *papcoll_last_algorithm(void) { return last_algorithm; }
const char *papcoll_version(void) { return PAPCOLL_VERSION_STRING " (" PC_FLAVOUR ")"; }

/* A nonblocking collective's algorithm i (names only: their descriptions
 * are src/nbc/algorithms.list's); *count -1 for none. */
static const char *nbc_name(const char *collective, int i, int *count)
{
    return pc_nbc_algorithm_name(collective, i, count);
}

int papcoll_algorithm_count(const char *collective)
{
    const pc_coll_t *coll = pc_coll_by_name(collective);
    int n;
    nbc_name(collective, 0, &n);
    return coll ? coll->nalgorithms : n;
}

const char *papcoll_algorithm_name(const char *collective, int i)
{
    const pc_coll_t *coll = pc_coll_by_name(collective);
    int n;
    if (!coll) return nbc_name(collective, i, &n);
    return i >= 0 && i < coll->nalgorithms ? coll->algorithms[i].name : NULL;
}

const char *papcoll_algorithm_description(const char *collective, int i)
{
    const pc_coll_t *coll = pc_coll_by_name(collective);
    return coll && i >= 0 && i < coll->nalgorithms ? coll->algorithms[i].description : NULL;
}

int papcoll_algorithm_needs(const char *collective, int i)
{
    const pc_coll_t *coll = pc_coll_by_name(collective);
    if (!coll || i < 0 || i >= coll->nalgorithms) return -1;
    unsigned r = coll->algorithms[i].requirements;
    return ((r & PC_COMMUTATIVE_ONLY) ? PAPCOLL_NEEDS_COMMUTATIVE_OP : 0) |
           ((r & PC_BUILTIN_OP_ONLY) ? PAPCOLL_NEEDS_PREDEFINED_OP : 0);
}

int papcoll_check_tune_file(const char *path, char *report, int len)
{
    return pc_tune_file_check(path, report, report && len > 0 ? (size_t)len : 0);
}

int papcoll_set_param(const char *name, const char *value)
{
    return pc_params_set(name, value) ? MPI_ERR_ARG : MPI_SUCCESS;
}

int papcoll_param_count(void) { return pc_param_table_size; }

int papcoll_param_info(int i, const char **name, const char **type, const char **default_value, const char **help)
{
    if (i < 0 || i >= pc_param_table_size) return MPI_ERR_ARG;
    const pc_param_def_t *d = &pc_param_table[i];
    if (name) *name = d->name;
    if (type) *type = pc_param_type_name(d->type);
    if (default_value) *default_value = d->default_value;
    if (help) *help = d->help;
    return MPI_SUCCESS;
}

const char *papcoll_param_alias(int i)
{
    return i >= 0 && i < pc_param_table_size ? pc_param_table[i].alias : NULL;
}

int papcoll_param_value(const char *name, char *buf, int buflen)
{
    if (!buf || buflen <= 0) return MPI_ERR_ARG;
    return pc_params_format(name, buf, (size_t)buflen) ? MPI_ERR_ARG : MPI_SUCCESS;
}
