/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune.c - compiles and evaluates selection rules (grammar in tune.h).
 */
#include "select/tune.h"
#include "core/params.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VAR_BYTES, VAR_P, VAR_NODES, VAR_PPN, VAR_OP, VAR_COMMUTATIVE, VAR_INPLACE };
enum { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_ASSIGN /* '=': op=builtin only */ };

typedef struct { int var, op; size_t value; } cond_t;
typedef struct {
    char coll[32];
    int nalgo;
    char algo[PC_TUNE_MAX_CANDIDATES][64]; /* candidates, static choice first */
    int ncond;
    cond_t cond[8];
} rule_t;

struct pc_tune_rules {
    int n;
    rule_t *rule;
};

typedef struct { const char *s; char *err; size_t errlen; int failed; } cursor_t;

static void fail(cursor_t *c, const char *fmt, ...)
{
    if (c->failed) return;
    c->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
}

static void skip_blanks(cursor_t *c)
{
    for (;;) {
        while (*c->s == ' ' || *c->s == '\t' || *c->s == '\r') c->s++;
        if (*c->s != '#') return;
        while (*c->s && *c->s != '\n') c->s++;
    }
}

/* Reads [A-Za-z0-9_] into out; returns length. */
static size_t read_word(cursor_t *c, char *out, size_t outlen)
{
    size_t n = 0;
    skip_blanks(c);
    while (isalnum((unsigned char)*c->s) || *c->s == '_') {
        if (n + 1 < outlen) out[n++] = *c->s;
        else fail(c, "name too long near \"%.20s\"", c->s);
        c->s++;
    }
    out[n] = '\0';
    return n;
}

static int parse_var(const char *w)
{
    static const char *names[] = {"bytes", "p", "nodes", "ppn"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(w, names[i])) return i;
    return -1;
}

static int parse_op(cursor_t *c)
{
    skip_blanks(c);
    static const struct { const char *t; int op; } ops[] = {
        {"<=", OP_LE}, {">=", OP_GE}, {"==", OP_EQ}, {"!=", OP_NE}, {"<", OP_LT}, {">", OP_GT}, {"=", OP_ASSIGN}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t len = strlen(ops[i].t);
        if (!strncmp(c->s, ops[i].t, len)) {
            c->s += len;
            return ops[i].op;
        }
    }
    fail(c, "expected a comparison (<, <=, >, >=, ==, !=) near \"%.20s\"", c->s);
    return -1;
}

/* A flag condition ("commutative", "!inplace") is var == 1 (or 0). */
static int parse_flag(cursor_t *c, const char *word, int negated, cond_t *cond)
{
    cond->var = !strcmp(word, "commutative") ? VAR_COMMUTATIVE : !strcmp(word, "inplace") ? VAR_INPLACE : -1;
    if (cond->var < 0) {
        if (negated) fail(c, "unknown flag \"%s\" after '!' (commutative, inplace)", word);
        return 0;
    }
    cond->op = OP_EQ;
    cond->value = !negated;
    return 1;
}

static void parse_cond(cursor_t *c, cond_t *cond)
{
    char word[32];
    skip_blanks(c);
    int negated = *c->s == '!';
    if (negated) c->s++;
    read_word(c, word, sizeof word);
    if (parse_flag(c, word, negated, cond) || c->failed) return;
    cond->var = !strcmp(word, "op") ? VAR_OP : parse_var(word);
    if (cond->var < 0) {
        fail(c, "unknown variable \"%s\" (bytes, p, nodes, ppn, op, commutative, inplace)", word);
        return;
    }
    cond->op = parse_op(c);
    if (cond->op == OP_ASSIGN) {
        if (cond->var != VAR_OP) fail(c, "'=' compares only op (op=builtin); use == near \"%.20s\"", c->s);
        cond->op = OP_EQ;
    }
    char value[32];
    read_word(c, value, sizeof value);
    if (c->failed) return;
    if (cond->var == VAR_OP) {
        cond->value = !strcmp(value, "builtin") ? PC_OP_BUILTIN : !strcmp(value, "user") ? PC_OP_USER : 0;
        if (!cond->value || (cond->op != OP_EQ && cond->op != OP_NE))
            fail(c, "op takes = or != and builtin or user, not \"%s\"", value);
    } else if (pc_parse_size(value, &cond->value))
        fail(c, "bad value \"%s\" (integer with optional K/M/G)", value);
}

static void parse_rule(cursor_t *c, rule_t *r)
{
    memset(r, 0, sizeof *r);
    if (!read_word(c, r->coll, sizeof r->coll)) fail(c, "expected a collective name near \"%.20s\"", c->s);
    skip_blanks(c);
    if (*c->s == '[') {
        c->s++;
        do {
            if (r->ncond == (int)(sizeof r->cond / sizeof r->cond[0])) {
                fail(c, "too many conditions in one rule");
                return;
            }
            parse_cond(c, &r->cond[r->ncond++]);
            skip_blanks(c);
        } while (!c->failed && *c->s == ',' && c->s++);
        if (*c->s != ']') fail(c, "expected ']' near \"%.20s\"", c->s);
        else c->s++;
        skip_blanks(c);
    }
    if (*c->s != '=') fail(c, "expected '=' near \"%.20s\"", c->s);
    else c->s++;
    do {
        if (r->nalgo == PC_TUNE_MAX_CANDIDATES) {
            fail(c, "more than %d candidates in one rule", PC_TUNE_MAX_CANDIDATES);
            return;
        }
        if (!read_word(c, r->algo[r->nalgo++], sizeof r->algo[0]))
            fail(c, "expected an algorithm name near \"%.20s\"", c->s);
        skip_blanks(c);
    } while (!c->failed && *c->s == '|' && c->s++);
}

pc_tune_rules_t *pc_tune_compile(const char *text, char *err, size_t errlen)
{
    cursor_t c = {text ? text : "", err, errlen, 0};
    pc_tune_rules_t *rules = calloc(1, sizeof *rules);
    if (!rules) return NULL;
    int cap = 0;
    for (;;) {
        skip_blanks(&c);
        while (*c.s == ';' || *c.s == '\n') {
            c.s++;
            skip_blanks(&c);
        }
        if (!*c.s) break;
        if (rules->n == cap) {
            cap = cap ? 2 * cap : 8;
            rule_t *grown = realloc(rules->rule, (size_t)cap * sizeof *grown);
            if (!grown) {
                fail(&c, "out of memory");
                break;
            }
            rules->rule = grown;
        }
        parse_rule(&c, &rules->rule[rules->n++]);
        skip_blanks(&c);
        if (!c.failed && *c.s && *c.s != ';' && *c.s != '\n')
            fail(&c, "expected ';' between rules near \"%.20s\"", c.s);
        if (c.failed) break;
    }
    if (c.failed) {
        pc_tune_free(rules);
        return NULL;
    }
    return rules;
}

void pc_tune_free(pc_tune_rules_t *rules)
{
    if (!rules) return;
    free(rules->rule);
    free(rules);
}

static int holds(const cond_t *cond, const pc_select_input_t *in)
{
    size_t x = cond->var == VAR_BYTES         ? in->bytes
             : cond->var == VAR_P             ? (size_t)in->p
             : cond->var == VAR_NODES         ? (size_t)in->nodes
             : cond->var == VAR_PPN           ? (size_t)in->ppn
             : cond->var == VAR_OP            ? (size_t)in->op
             : cond->var == VAR_COMMUTATIVE   ? (size_t)(in->commutative != 0)
                                              : (size_t)(in->inplace != 0);
    switch (cond->op) {
    case OP_LT: return x < cond->value;
    case OP_LE: return x <= cond->value;
    case OP_GT: return x > cond->value;
    case OP_GE: return x >= cond->value;
    case OP_EQ: return x == cond->value;
    default: return x != cond->value;
    }
}

const char *pc_tune_match(const pc_tune_rules_t *rules, const pc_select_input_t *in, int *rule_no)
{
    for (int i = *rule_no; rules && i < rules->n; i++) {
        const rule_t *r = &rules->rule[i];
        if (strcmp(r->coll, in->coll)) continue;
        int ok = 1;
        for (int k = 0; ok && k < r->ncond; k++) ok = holds(&r->cond[k], in);
        if (ok) {
            *rule_no = i + 1;
            return r->algo[0];
        }
    }
    return NULL;
}

int pc_tune_count(const pc_tune_rules_t *rules) { return rules ? rules->n : 0; }
const char *pc_tune_rule_algo(const pc_tune_rules_t *rules, int i) { return rules->rule[i].algo[0]; }
int pc_tune_rule_ncandidates(const pc_tune_rules_t *rules, int i) { return rules->rule[i].nalgo; }
const char *pc_tune_rule_candidate(const pc_tune_rules_t *rules, int i, int j) { return rules->rule[i].algo[j]; }
const char *pc_tune_rule_coll(const pc_tune_rules_t *rules, int i) { return rules->rule[i].coll; }
