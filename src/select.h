/*
 * select.h - picks the algorithm of one collective call.
 *
 * Order: a forced name (API argument or PAPCOLL_<COLL>), then the
 * PAPCOLL_TUNE rules, then the collective's built-in rules (same grammar,
 * tune.h).  Nothing is substituted silently: every decision carries a
 * human-readable reason for PAPCOLL_LOG=debug and fallbacks are warned once.
 */
#ifndef PC_SELECT_H
#define PC_SELECT_H

#include <stddef.h>

#include "tune.h"

/* Returns non-zero when `name` is an algorithm of the collective. */
typedef int (*pc_is_algorithm_fn)(const char *name);

/* forced: algorithm name, or NULL/"auto" for automatic selection.
 * Returns the chosen name (never NULL if builtin_rules end with a catch-all
 * rule) and writes the reason into why. */
const char *pc_select(const char *forced, const char *forced_source, const char *builtin_rules,
                      const pc_select_input_t *in, pc_is_algorithm_fn is_algorithm,
                      char *why, size_t whylen);

#endif
