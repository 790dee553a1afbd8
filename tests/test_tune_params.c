/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_tune_params - the tune grammar and the parameter table, without MPI.
 */
#include "core/params.h"
#include "select/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *pick_in(const char *rules_text, const pc_select_input_t *in, int *rule_no)
{
    char err[256];
    static char out[64];
    pc_tune_rules_t *r = pc_tune_compile(rules_text, err, sizeof err);
    if (!r) return "SYNTAX";
    *rule_no = 0;
    const char *a = pc_tune_match(r, in, rule_no);
    snprintf(out, sizeof out, "%s", a ? a : "NONE");
    pc_tune_free(r);
    return out;
}

static const char *pick(const char *rules_text, size_t bytes, long p, long nodes, long ppn, int *rule_no)
{
    pc_select_input_t in = {"bcast", bytes, p, nodes, ppn, PC_OP_NONE, 0, 0};
    return pick_in(rules_text, &in, rule_no);
}

/* A reduction call: op kind, commutative, in place. */
static const char *pick_op(const char *rules_text, pc_op_kind_t op, int commutative, int inplace, int *rule_no)
{
    pc_select_input_t in = {"reduce", 1024, 8, 2, 4, op, commutative, inplace};
    return pick_in(rules_text, &in, rule_no);
}

int main(void)
{
    const char *rules = "bcast[bytes<=8K]=binomial; bcast[nodes>1,bytes>=1M]=scatter_ring_allgather\n"
                        "# comment line\n"
                        "allgather=ring; bcast[p==3]=chain;bcast[ppn!=4,p<100]=linear; bcast=native";
    int no;
    CHECK(!strcmp(pick(rules, 8192, 64, 8, 8, &no), "binomial") && no == 1, "8K -> binomial");
    CHECK(!strcmp(pick(rules, 8193, 64, 8, 8, &no), "linear") && no == 5, "8K+1, 8 nodes, ppn 8 -> linear (rule 5), got %d", no);
    CHECK(!strcmp(pick(rules, 1 << 20, 64, 2, 32, &no), "scatter_ring_allgather") && no == 2, "1M multi-node");
    CHECK(!strcmp(pick(rules, 1 << 20, 3, 1, 3, &no), "chain") && no == 4, "p==3 chain");
    CHECK(!strcmp(pick(rules, 1 << 20, 100, 1, 4, &no), "native") && no == 6, "catch-all");
    CHECK(!strcmp(pick("bcast[bytes<1K]=linear", 4096, 4, 1, 4, &no), "NONE"), "no match");
    /* reductions: op kind, commutative, inplace */
    const char *red = "reduce[op=user,!commutative]=a; reduce[op==builtin,inplace]=b; reduce[commutative,op!=builtin]=c;"
                      "reduce[!inplace]=d; bcast[commutative]=e; reduce=f";
    CHECK(!strcmp(pick_op(red, PC_OP_USER, 0, 0, &no), "a") && no == 1, "user non-commutative");
    CHECK(!strcmp(pick_op(red, PC_OP_BUILTIN, 1, 1, &no), "b") && no == 2, "builtin in place");
    CHECK(!strcmp(pick_op(red, PC_OP_USER, 1, 1, &no), "c") && no == 3, "user commutative");
    CHECK(!strcmp(pick_op(red, PC_OP_BUILTIN, 1, 0, &no), "d") && no == 4, "not in place");
    CHECK(!strcmp(pick(red, 8, 2, 1, 2, &no), "NONE"), "bcast has no commutative op");
    /* resume after a rule */
    char err[256];
    pc_tune_rules_t *r = pc_tune_compile("bcast=a; bcast=b", err, sizeof err);
    pc_select_input_t in = {"bcast", 1, 2, 1, 2, PC_OP_NONE, 0, 0};
    no = 0;
    CHECK(!strcmp(pc_tune_match(r, &in, &no), "a") && no == 1, "first");
    CHECK(!strcmp(pc_tune_match(r, &in, &no), "b") && no == 2, "resume");
    CHECK(pc_tune_match(r, &in, &no) == NULL, "end");
    pc_tune_free(r);
    static const char *bad[] = {"bcast[bytes<=8X]=a", "bcast[foo<3]=a", "bcast[bytes=3]=a", "bcast[bytes<3=a",
                                "reduce[op=sum]=a", "reduce[op<builtin]=a", "reduce[!bytes]=a", "reduce[!op]=a",
                                "bcast binomial", "bcast=", "=a", "bcast=a bcast=b"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        pc_tune_rules_t *b = pc_tune_compile(bad[i], err, sizeof err);
        CHECK(b == NULL && err[0], "syntax error not reported for \"%s\"", bad[i]);
        pc_tune_free(b);
    }
    CHECK(pc_tune_compile("", err, sizeof err) != NULL, "empty rules are valid");

    /* sizes */
    size_t v;
    CHECK(pc_parse_size("64K", &v) == 0 && v == 65536, "64K");
    CHECK(pc_parse_size("1M", &v) == 0 && v == 1048576, "1M");
    CHECK(pc_parse_size("2GiB", &v) == 0 && v == 2147483648UL, "2GiB");
    CHECK(pc_parse_size("123", &v) == 0 && v == 123, "123");
    CHECK(pc_parse_size("12Q", &v) == -1 && pc_parse_size("", &v) == -1 && pc_parse_size("-1", &v) == -1, "bad sizes");
    char buf[32];
    pc_format_size(65536, buf, sizeof buf);
    CHECK(!strcmp(buf, "64K"), "format 64K: %s", buf);
    pc_format_size(1000, buf, sizeof buf);
    CHECK(!strcmp(buf, "1000"), "format 1000");

    /* parameter table: defaults parse, environment read, set/format round trip, bad values rejected */
    pc_params_t d;
    pc_params_load_defaults(&d);
    CHECK(!strcmp(d.bcast.algorithm, "auto") && !strcmp(d.reduce.algorithm, "auto") && d.segsize_max == (1 << 20) && d.log_level == PC_LOG_WARN, "defaults");
    setenv("PAPCOLL_BCAST_SEGSIZE", "32K", 1);
    setenv("PAPCOLL_LOG", "bogus", 1); /* warned and ignored */
    setenv("PAPCOLL_CP_SEGSIZE", "4K", 1); /* former name of PAPCOLL_BCAST_CP_SEGSIZE */
    const pc_params_t *p = pc_params();
    CHECK(p->bcast.segsize == 32768 && !strcmp(p->log, "warn"), "environment");
    CHECK(p->bcast.cp_segsize == 4096, "alias read from the environment");
    CHECK(pc_params_set("PAPCOLL_ARRIVAL_WINDOW", "0.5") == 0 && pc_params()->bcast.arrival_window == 0.5, "alias set");
    CHECK(pc_params_set("PAPCOLL_BCAST", "chain") == 0 && !strcmp(pc_params()->bcast.algorithm, "chain"), "set string");
    CHECK(pc_params_set("PAPCOLL_REDUCE_LOCK", "parallel") == 0 && pc_params_set("PAPCOLL_REDUCE_LOCK", "x") == -1,
          "choices of a per-collective string");
    CHECK(pc_params_set("PAPCOLL_ALPHA", "abc") == -1 && pc_params_set("PAPCOLL_NOPE", "1") == -1, "rejects");
    CHECK(pc_params_set("PAPCOLL_LOG", "debug") == 0 && pc_params()->log_level == PC_LOG_DEBUG, "log level");
    CHECK(pc_params_set("PAPCOLL_PPN", "-2") == -1, "negative rejected");
    /* PAPCOLL_ADAPT_START: one count, or one per collective */
    unsigned long n = 0;
    CHECK(pc_parse_count_list(d.adapt_start, "bcast", &n) == 0 && n == 1000, "default start, bcast: %lu", n);
    CHECK(pc_parse_count_list(d.adapt_start, "reduce", &n) == 0 && n == 100, "default start, reduce: %lu", n);
    CHECK(pc_parse_count_list("0", "reduce", &n) == 0 && n == 0, "one count for every collective");
    CHECK(pc_parse_count_list("50,reduce_scatter=7,reduce=9", "reduce", &n) == 0 && n == 9, "the name, not a prefix: %lu", n);
    CHECK(pc_parse_count_list("50,reduce_scatter=7,reduce=9", "scan", &n) == 0 && n == 50, "unnamed: the first count");
    CHECK(pc_parse_count_list("reduce=9", NULL, NULL) && pc_parse_count_list("5,reduce", NULL, NULL) &&
              pc_parse_count_list("5,Reduce=1", NULL, NULL) && pc_parse_count_list("5,reduce=-1", NULL, NULL) &&
              pc_parse_count_list("5,", NULL, NULL) && pc_parse_count_list("5 ", NULL, NULL),
          "malformed counts rejected");
    CHECK(pc_params_set("PAPCOLL_ADAPT_START", "5,reduce=x") == -1 && pc_params_set("PAPCOLL_ADAPT_START", "2000,bcast=10") == 0 &&
              !strcmp(pc_params()->adapt_start, "2000,bcast=10"),
          "set PAPCOLL_ADAPT_START");
    pc_params_format("PAPCOLL_BCAST_SEGSIZE", buf, sizeof buf);
    CHECK(!strcmp(buf, "32K"), "format param: %s", buf);
    for (int i = 0; i < pc_param_table_size; i++)
        CHECK(pc_param_table[i].help && strlen(pc_param_table[i].help) > 10 && !strncmp(pc_param_table[i].name, "PAPCOLL_", 8),
              "param %d documented", i);
    printf("test_tune_params: %d failures\n", failures);
    return failures != 0;
}
