/* SPDX-License-Identifier: BSD-3-Clause */
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

#ifdef PAPCOLL_SMPI
/* Links papcoll's MPI_Finalize (finalize_smpi.c) into every program that selects an algorithm: nothing calls it
 * by name, and a program linked with the arrival tracer has the tracer's MPI_Finalize already. */
int pc_MPI_Finalize(void);
__attribute__((used)) static int (*const link_finalize)(void) = pc_MPI_Finalize;
#endif

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

/* The MPI library's own collective is a candidate of every built-in and
 * PAPCOLL_TUNE_FILE rule, last: adaptive selection (adapt.h) keeps it where no
 * algorithm of the rule measures faster, so that `auto` does no harm.  Not
 * added to PAPCOLL_TUNE rules: those are the user's explicit choice. */
static void add_native(pc_selection_t *sel, pc_check_name_fn check, const void *arg)
{
    for (int i = 0; i < sel->ncandidates; i++)
        if (!strcmp(sel->candidate[i], "native")) return;
    if (sel->ncandidates < PC_TUNE_MAX_CANDIDATES && check("native", arg) == PC_NAME_OK)
        sel->candidate[sel->ncandidates++] = "native";
}

/* First rule whose first candidate can run the call (as with one candidate
 * per rule, so PAPCOLL_ADAPT=0 chooses what the first candidates alone
 * would): fills sel with that rule's candidates the call can use, the static
 * choice first.  Unknown names are warned and skipped.  Call with the lock
 * held. */
static const char *match_known(const pc_tune_rules_t *rules, int source, const pc_select_input_t *in,
                               pc_check_name_fn check, const void *arg, const char *what, pc_selection_t *sel,
                               char *why, size_t whylen)
{
    int rule_no = 0;
    while (pc_tune_match(rules, in, &rule_no)) {
        int n = pc_tune_rule_ncandidates(rules, rule_no - 1);
        sel->ncandidates = 0;
        for (int j = 0; j < n; j++) {
            const char *algo = pc_tune_rule_candidate(rules, rule_no - 1, j);
            int usable = check(algo, arg);
            if (usable == PC_NAME_OK) sel->candidate[sel->ncandidates++] = algo;
            else if (usable == PC_NAME_UNKNOWN)
                pc_log(PC_LOG_WARN, "%s rule %d names unknown %s algorithm \"%s\"; %s skipped", what, rule_no,
                       in->coll, algo, j ? "candidate" : "rule");
            if (j == 0 && usable != PC_NAME_OK) break;
        }
        if (sel->ncandidates) {
            if (source != PC_RULES_TUNE) add_native(sel, check, arg);
            sel->name = sel->candidate[0];
            sel->rule_id = (unsigned)source << 16 | (unsigned)rule_no;
            snprintf(why, whylen, "%s rule %d", what, rule_no);
            return sel->name;
        }
    }
    return NULL;
}

const char *pc_select_rule(const char *forced, const char *forced_source, int coll_id, const char *builtin_rules,
                           const pc_select_input_t *in, pc_check_name_fn check, const void *arg, pc_selection_t *sel,
                           char *why, size_t whylen)
{
    const char *fallback_note = "";
    memset(sel, 0, sizeof *sel);
    if (forced && *forced && strcmp(forced, "auto")) {
        if (check(forced, arg) == PC_NAME_OK) {
            snprintf(why, whylen, "forced by %s", forced_source);
            sel->name = sel->candidate[0] = forced;
            sel->ncandidates = 1;
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
    const char *algo = match_known(compiled(&tune_cache[coll_id], pc_params()->tune, "PAPCOLL_TUNE"), PC_RULES_TUNE, in,
                                   check, arg, "PAPCOLL_TUNE", sel, reason, sizeof reason);
    const char *file_rules = algo ? NULL : pc_tune_file_rules(pc_params()->tune_file);
    if (file_rules)
        algo = match_known(compiled(&file_cache[coll_id], file_rules, "PAPCOLL_TUNE_FILE"), PC_RULES_FILE, in, check,
                           arg, "PAPCOLL_TUNE_FILE", sel, reason, sizeof reason);
    if (!algo)
        algo = match_known(compiled(&builtin_cache[coll_id], builtin_rules, "built-in rules"), PC_RULES_BUILTIN, in,
                           check, arg, "built-in", sel, reason, sizeof reason);
    pc_unlock();
    if (algo) snprintf(why, whylen, "%s%s", fallback_note, reason);
    return algo;
}

const char *pc_select(const char *forced, const char *forced_source, int coll_id, const char *builtin_rules,
                      const pc_select_input_t *in, pc_check_name_fn check, const void *arg, char *why,
                      size_t whylen)
{
    pc_selection_t sel;
    return pc_select_rule(forced, forced_source, coll_id, builtin_rules, in, check, arg, &sel, why, whylen);
}
