/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_tune_candidates - rules naming several candidates (`a|b|c`, tune.h)
 * and what selection makes of them (select.h: pc_select_rule), without MPI
 * communication: the grammar, the candidates a call can use, the static
 * choice (the first candidate, and the rule skipped when the first cannot
 * run the call, exactly as with one candidate per rule), and `native`
 * counted among a built-in rule's candidates.
 */
#include "select/select.h"
#include "select/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A pretend collective: names starting with "c_" need a commutative op,
 * "x_" are unknown, the rest always run. */
static int check_name(const char *name, const void *arg)
{
    const pc_select_input_t *in = arg;
    if (!strncmp(name, "x_", 2)) return PC_NAME_UNKNOWN;
    if (!strncmp(name, "c_", 2) && !in->commutative) return PC_NAME_UNUSABLE;
    return PC_NAME_OK;
}

static int candidates_are(const pc_selection_t *sel, const char *expected)
{
    char got[256] = "";
    for (int i = 0; i < sel->ncandidates; i++) {
        strcat(got, i ? "|" : "");
        strcat(got, sel->candidate[i]);
    }
    if (strcmp(got, expected)) fprintf(stderr, "candidates \"%s\", expected \"%s\"\n", got, expected);
    return !strcmp(got, expected);
}

int main(void)
{
    char err[256];
    /* grammar */
    pc_tune_rules_t *r = pc_tune_compile("bcast[bytes<=32K]=hier|dynleader | cp_binomial; bcast=native", err, sizeof err);
    CHECK(r != NULL, "candidate list rejected: %s", err);
    if (r) {
        CHECK(pc_tune_count(r) == 2, "two rules");
        CHECK(pc_tune_rule_ncandidates(r, 0) == 3 && pc_tune_rule_ncandidates(r, 1) == 1, "candidate counts");
        CHECK(!strcmp(pc_tune_rule_candidate(r, 0, 1), "dynleader") && !strcmp(pc_tune_rule_candidate(r, 0, 2), "cp_binomial"),
              "candidate names");
        CHECK(!strcmp(pc_tune_rule_algo(r, 0), "hier"), "the first candidate is the rule's algorithm");
        pc_select_input_t in = {"bcast", 1024, 8, 2, 4, PC_OP_NONE, 0, 0};
        int no = 0;
        const char *a = pc_tune_match(r, &in, &no);
        CHECK(a && !strcmp(a, "hier") && no == 1, "match returns the first candidate");
        pc_tune_free(r);
    }
    static const char *bad[] = {"bcast=a|", "bcast=|a", "bcast=a||b", "bcast=a|b c", "bcast=a|b|c|d|e|f|g|h|i"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        pc_tune_rules_t *b = pc_tune_compile(bad[i], err, sizeof err);
        CHECK(b == NULL && err[0], "syntax error not reported for \"%s\"", bad[i]);
        pc_tune_free(b);
    }
    r = pc_tune_compile("bcast=a|b|c|d|e|f|g|h", err, sizeof err);
    CHECK(r && pc_tune_rule_ncandidates(r, 0) == PC_TUNE_MAX_CANDIDATES, "eight candidates are allowed");
    pc_tune_free(r);

    /* selection: built-in rules in the grammar (PAPCOLL_TUNE is empty here) */
    const char *rules = "reduce[bytes<=4K]=c_dyn|bin|x_gone|c_hier; reduce=c_first|bin; reduce=bin|c_other";
    pc_selection_t sel;
    char why[128];
    pc_select_input_t comm = {"reduce", 100, 8, 2, 4, PC_OP_BUILTIN, 1, 0};
    const char *name = pc_select_rule("auto", "test", 0, rules, &comm, check_name, &comm, &sel, why, sizeof why);
    CHECK(name && !strcmp(name, "c_dyn") && candidates_are(&sel, "c_dyn|bin|c_hier|native") && (sel.rule_id & 0xffff) == 1 &&
              sel.rule_id >> 16 == PC_RULES_BUILTIN,
          "commutative op: rule 1, unknown candidate skipped (%s, %s)", name ? name : "NULL", why);
    name = pc_select("auto", "test", 0, rules, &comm, check_name, &comm, why, sizeof why);
    CHECK(name && !strcmp(name, "c_dyn"), "pc_select returns the static choice");
    pc_select_input_t noncomm = comm;
    noncomm.commutative = 0;
    name = pc_select_rule("auto", "test", 0, rules, &noncomm, check_name, &noncomm, &sel, why, sizeof why);
    CHECK(name && !strcmp(name, "bin") && candidates_are(&sel, "bin|native") && (sel.rule_id & 0xffff) == 3,
          "non-commutative op: rules whose first candidate cannot run are skipped, unusable candidates dropped (%s)",
          name ? name : "NULL");
    pc_select_input_t large = comm;
    large.bytes = 1 << 20;
    name = pc_select_rule("auto", "test", 0, rules, &large, check_name, &large, &sel, why, sizeof why);
    CHECK(name && !strcmp(name, "c_first") && candidates_are(&sel, "c_first|bin|native") && (sel.rule_id & 0xffff) == 2,
          "large: rule 2");
    /* the MPI library's own collective ends every built-in rule's candidates, once */
    name = pc_select_rule("auto", "test", 1, "reduce=bin|native|c_hier", &comm, check_name, &comm, &sel, why, sizeof why);
    CHECK(name && !strcmp(name, "bin") && candidates_are(&sel, "bin|native|c_hier"), "native named by the rule: not added again");
    name = pc_select_rule("bin", "PAPCOLL_REDUCE", 0, rules, &comm, check_name, &comm, &sel, why, sizeof why);
    CHECK(name && !strcmp(name, "bin") && candidates_are(&sel, "bin") && sel.rule_id == 0, "forced: one candidate");
    if (failures) fprintf(stderr, "%d failures\n", failures);
    else printf("test_tune_candidates: ok\n");
    return failures != 0;
}
