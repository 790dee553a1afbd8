/*
 * select.c - algorithm selection (see select.h).
 */
#include "select/select.h"
#include "core/lock.h"
#include "core/log.h"
#include "core/params.h"
#include "select/tune_file.h"

#include <stdio.h>
#include <string.h>

/* Compiled rules, cached by the address of their text: parameter strings are
 * replaced (new address) when they change, built-in rules are constants. */
typedef struct { const char *text; pc_tune_rules_t *rules; } rules_cache_t;

static rules_cache_t tune_cache[PC_MAX_COLLS], file_cache[PC_MAX_COLLS], builtin_cache[PC_MAX_COLLS];

/* Call with the lock held. */
static const pc_tune_rules_t *compiled(rules_cache_t *cache, const char *text, const char *what)
{
    if (cache->text != text) {
        char err[256] = "";
        pc_tune_free(cache->rules);
        cache->rules = pc_tune_compile(text, err, sizeof err);
        cache->text = text;
        if (!cache->rules) pc_log(PC_LOG_WARN, "ignoring %s: %s", what, err);
    }
    return cache->rules;
}

/* First rule naming an algorithm that can run the call; unknown names are
 * warned and skipped, unusable ones skipped.  Call with the lock held. */
static const char *match_known(const pc_tune_rules_t *rules, const pc_select_input_t *in, pc_check_name_fn check,
                               const void *arg, const char *what, char *why, size_t whylen)
{
    int rule_no = 0;
    const char *algo;
    while ((algo = pc_tune_match(rules, in, &rule_no))) {
        int usable = check(algo, arg);
        if (usable == PC_NAME_OK) {
            snprintf(why, whylen, "%s rule %d", what, rule_no);
            return algo;
        }
        if (usable == PC_NAME_UNKNOWN)
            pc_log(PC_LOG_WARN, "%s rule %d names unknown %s algorithm \"%s\"; rule skipped", what, rule_no, in->coll,
                   algo);
    }
    return NULL;
}

const char *pc_select(const char *forced, const char *forced_source, int coll_id, const char *builtin_rules,
                      const pc_select_input_t *in, pc_check_name_fn check, const void *arg, char *why,
                      size_t whylen)
{
    const char *fallback_note = "";
    if (forced && *forced && strcmp(forced, "auto")) {
        if (check(forced, arg) == PC_NAME_OK) {
            snprintf(why, whylen, "forced by %s", forced_source);
            return forced;
        }
        static const char *warned;
        pc_lock();
        if (warned != forced) {
            pc_log(PC_LOG_WARN, "%s=\"%s\" is not a %s algorithm; selecting automatically", forced_source, forced,
                   in->coll);
            warned = forced;
        }
        pc_unlock();
        fallback_note = "fallback from unknown forced name; ";
    }
    char reason[128];
    pc_lock();
    const char *algo = match_known(compiled(&tune_cache[coll_id], pc_params()->tune, "PAPCOLL_TUNE"), in, check, arg,
                                   "PAPCOLL_TUNE", reason, sizeof reason);
    const char *file_rules = algo ? NULL : pc_tune_file_rules(pc_params()->tune_file);
    if (file_rules)
        algo = match_known(compiled(&file_cache[coll_id], file_rules, "PAPCOLL_TUNE_FILE"), in, check, arg,
                           "PAPCOLL_TUNE_FILE", reason, sizeof reason);
    if (!algo)
        algo = match_known(compiled(&builtin_cache[coll_id], builtin_rules, "built-in rules"), in, check, arg,
                           "built-in", reason, sizeof reason);
    pc_unlock();
    if (algo) snprintf(why, whylen, "%s%s", fallback_note, reason);
    return algo;
}
