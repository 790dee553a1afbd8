/*
 * papcoll.c - the public catalogue, parameter and status API (papcoll.h).
 */
#include "papcoll.h"
#include "bcast/bcast.h"
#include "params.h"
#include "state.h"

#include <stdio.h>
#include <string.h>

#ifdef PAPCOLL_SMPI
#define PC_FLAVOUR "smpi"
#else
#define PC_FLAVOUR "native"
#endif

static const char *last_algorithm = "";

void pc_set_last_algorithm(const char *name) { last_algorithm = name; }
const char *papcoll_last_algorithm(void) { return last_algorithm; }
const char *papcoll_version(void) { return PAPCOLL_VERSION_STRING " (" PC_FLAVOUR ")"; }

/* The collectives and their tables. */
static const pc_bcast_algorithm_t *table_of(const char *collective, int *n)
{
    if (collective && !strcmp(collective, "bcast")) {
        *n = pc_bcast_algorithm_count;
        return pc_bcast_algorithms;
    }
    *n = -1;
    return NULL;
}

int papcoll_algorithm_count(const char *collective)
{
    int n;
    table_of(collective, &n);
    return n;
}

const char *papcoll_algorithm_name(const char *collective, int i)
{
    int n;
    const pc_bcast_algorithm_t *t = table_of(collective, &n);
    return t && i >= 0 && i < n ? t[i].name : NULL;
}

const char *papcoll_algorithm_description(const char *collective, int i)
{
    int n;
    const pc_bcast_algorithm_t *t = table_of(collective, &n);
    return t && i >= 0 && i < n ? t[i].description : NULL;
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

int papcoll_param_value(const char *name, char *buf, int buflen)
{
    if (!buf || buflen <= 0) return MPI_ERR_ARG;
    return pc_params_format(name, buf, (size_t)buflen) ? MPI_ERR_ARG : MPI_SUCCESS;
}
