/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.h - --NAME=VALUE command-line options by table: each entry names
 * an option, the type of its value and the variable that holds it (its
 * default until the option is given).
 */
#ifndef PC_HARNESS_OPTIONS_H
#define PC_HARNESS_OPTIONS_H

typedef enum {
    HARNESS_OPT_STRING, /* const char * (points into argv) */
    HARNESS_OPT_INT,    /* int (atoi) */
    HARNESS_OPT_DOUBLE, /* double (atof) */
    HARNESS_OPT_ULL,    /* unsigned long long (strtoull, base 10) */
} harness_opt_type_t;

typedef struct {
    const char *name; /* without the dashes; NULL ends a table */
    harness_opt_type_t type;
    void *value;
} harness_opt_t;

/* The value of arg when it is --NAME=VALUE, else NULL. */
const char *harness_option_value(const char *arg, const char *name);
/* Sets the option of table that arg (--NAME=VALUE) names; 0 when none
 * does. */
int harness_option_set(const harness_opt_t *table, const char *arg);

#endif
