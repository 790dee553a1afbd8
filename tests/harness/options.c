/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.c - see options.h.
 */
#include "options.h"

#include <stdlib.h>
#include <string.h>

const char *harness_option_value(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(arg, "--", 2) && !strncmp(arg + 2, name, n) && arg[2 + n] == '=' ? arg + 3 + n : NULL;
}

int harness_option_set(const harness_opt_t *table, const char *arg)
{
    for (const harness_opt_t *o = table; o->name; o++) {
        const char *v = harness_option_value(arg, o->name);
        if (!v) continue;
        switch (o->type) {
        case HARNESS_OPT_STRING: *(const char **)o->value = v; break;
        case HARNESS_OPT_INT: *(int *)o->value = atoi(v); break;
        case HARNESS_OPT_DOUBLE: *(double *)o->value = atof(v); break;
        case HARNESS_OPT_ULL: *(unsigned long long *)o->value = strtoull(v, NULL, 10); break;
        }
        return 1;
    }
    return 0;
}
