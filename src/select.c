/*
 * select.c - algorithm selection (see select.h).
 */
#include "select.h"
#include "log.h"
#include "params.h"

#include <stdio.h>
#include <string.h>

/* Compiled rules, cached by the address of their text: parameter strings are
 * replaced (new address) when they change, built-in rules are constants. */
typedef struct { const char *text; pc_tune_rules_t *rules; int bad; } rules_cache_t;

static const pc_tune_rules_t *compiled(rules_cache_t *cache, const char *text, const char *what)
{
    if (cache->text != text) {
        char err[256] = "";
        pc_tune_free(cache->rules);
        cache->rules = pc_tune_compile(text, err, sizeof err);
        cache->text = text;
        cache->bad = cache->rules == NULL;
        if (cache->bad) pc_log(PC_LOG_WARN, "ignoring %s: %s", what, err);
    }
    return cache->rules;
}

/* First rule naming a known algorithm; unknown names are warned and skipped. */
static const char *match_known(const pc_tune_rules_t *rules, const pc_select_input_t *in,
                               pc_is_algorithm_fn is_algorithm, const char *what,
                               char *why, size_t whylen)
{
    int rule_no = 0;
    const char *algo;
    while ((algo = pc_tune_match(rules, in, &rule_no))) {
        if (is_algorithm(algo)) {
            snprintf(why, whylen, "%s rule %d", what, rule_no);
            return algo;
        }
        pc_log(PC_LOG_WARN, "%s rule %d names unknown %s algorithm \"%s\"; rule skipped",
               what, rule_no, in->coll, algo);
    }
    return NULL;
}

const char *pc_select(const char *forced, const char *forced_source, const char *builtin_rules,
                      const pc_select_input_t *in, pc_is_algorithm_fn is_algorithm,
                      char *why, size_t whylen)
{
    static rules_cache_t tune_cache, builtin_cache;
    const char *fallback_note = "";
    if (forced && *forced && strcmp(forced, "auto")) {
        if (is_algorithm(forced)) {
            snprintf(why, whylen, "forced by %s", forced_source);
            return forced;
        }
        static const char *warned;
        if (warned != forced) {
            pc_log(PC_LOG_WARN, "%s=\"%s\" is not a %s algorithm; selecting automatically",
                   forced_source, forced, in->coll);
            warned = forced;
        }
        fallback_note = "fallback from unknown forced name; ";
    }
    char reason[128];
    const char *algo = match_known(compiled(&tune_cache, pc_params()->tune, "PAPCOLL_TUNE"), in,
                                   is_algorithm, "PAPCOLL_TUNE", reason, sizeof reason);
    if (!algo)
        algo = match_known(compiled(&builtin_cache, builtin_rules, "built-in rules"), in,
                           is_algorithm, "built-in", reason, sizeof reason);
    if (algo) snprintf(why, whylen, "%s%s", fallback_note, reason);
    return algo;
}
