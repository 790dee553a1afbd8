/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * select.h - picks the algorithm of one collective call.
 *
 * Order: a forced name (API argument or PAPCOLL_<COLL>), then the
 * PAPCOLL_TUNE rules, then those of the PAPCOLL_TUNE_FILE file
 * (tune_file.h), then the collective's built-in rules (same grammar,
 * tune.h).  Rules naming an algorithm that cannot run the call (e.g. a
 * commutative-only one for a non-commutative op) are skipped.  Nothing is
 * substituted silently: every decision carries a human-readable reason for
 * PAPCOLL_LOG=debug and fallbacks are warned once.  Compiled rules are cached
 * per collective; safe from several threads.
 *
 * A rule may name several candidates (tune.h): pc_select_rule() returns
 * them all (those the call can use, the static choice first) for adaptive
 * selection (adapt.h); pc_select() returns the static choice.
 */
#ifndef PC_SELECT_H
#define PC_SELECT_H

#include <stddef.h>

#include "select/tune.h"

enum { PC_NAME_UNKNOWN, PC_NAME_UNUSABLE, PC_NAME_OK };
/* Whether `name` is an algorithm of the collective that can run this call
 * (arg: the call). */
typedef int (*pc_check_name_fn)(const char *name, const void *arg);

enum { PC_MAX_COLLS = 16 };

/* The outcome of selection: the static choice and its rule's candidates. */
typedef struct pc_selection {
    const char *name;        /* the static choice (NULL: no rule matched) */
    int ncandidates;         /* usable candidates of the rule, name first; 1 when forced */
    const char *candidate[PC_TUNE_MAX_CANDIDATES];
    unsigned rule_id;        /* PC_RULES_* << 16 | 1-based rule number; 0 when forced */
} pc_selection_t;

enum { PC_RULES_TUNE = 1, PC_RULES_BUILTIN = 2, PC_RULES_FILE = 3 };

/* As pc_select(), filling sel; returns sel->name. */
const char *pc_select_rule(const char *forced, const char *forced_source, int coll_id, const char *builtin_rules,
                           const pc_select_input_t *in, pc_check_name_fn check, const void *arg, pc_selection_t *sel,
                           char *why, size_t whylen);

/* forced: algorithm name, or NULL/"auto" for automatic selection; coll_id
 * indexes the rule caches.  Returns the chosen name (never NULL if
 * builtin_rules end with a catch-all rule usable for the call) and writes
 * the reason into why. */
const char *pc_select(const char *forced, const char *forced_source, int coll_id, const char *builtin_rules,
                      const pc_select_input_t *in, pc_check_name_fn check, const void *arg, char *why,
                      size_t whylen);

#endif
