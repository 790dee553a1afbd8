/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune.h - the selection-rule grammar (PAPCOLL_TUNE and the built-in rules).
 *
 *   rules := rule { (';' | newline) rule }
 *   rule  := coll [ '[' cond { ',' cond } ']' ] '=' algo { '|' algo }
 *   cond  := var cmp value | 'op' ('=' | '==' | '!=') ('builtin' | 'user') | ['!'] flag
 *   var   := bytes | p | nodes | ppn        (ppn = largest node's process count)
 *   cmp   := < | <= | > | >= | == | !=
 *   value := integer with optional K, M, G suffix (powers of 1024)
 *   flag  := commutative | inplace          (the call's op is commutative / MPI_IN_PLACE was passed)
 *
 * Example: "bcast[bytes<=8K]=binomial; bcast[nodes>1,bytes>=1M]=scatter_ring_allgather; bcast=binomial"
 *          "reduce[op=user,!commutative]=binomial; allreduce[inplace,bytes<64K]=recursive_doubling"
 * Collectives without an op (bcast) have no op kind (op=... never holds)
 * and are not commutative.
 * The first rule whose collective matches and whose conditions all hold wins.
 * A rule may name up to PC_TUNE_MAX_CANDIDATES candidates separated by '|'
 * ("bcast[bytes<=32K]=hier|dynleader|cp_binomial"): the rule applies when
 * its first candidate can run the call (op requirements), which is then the
 * static choice; PAPCOLL_ADAPT measures the usable ones (select/adapt.h).
 * Blank rules and '#' comments (to end of line) are ignored.  No MPI here.
 */
#ifndef PC_TUNE_H
#define PC_TUNE_H

#include <stddef.h>

typedef enum { PC_OP_NONE, PC_OP_BUILTIN, PC_OP_USER } pc_op_kind_t;

typedef struct pc_select_input {
    const char *coll;  /* "bcast" */
    size_t bytes;      /* message size in bytes */
    long p;            /* processes in the communicator */
    long nodes;        /* nodes (real or virtual) */
    long ppn;          /* processes on the largest node */
    pc_op_kind_t op;   /* kind of the call's op */
    int commutative;   /* the op is commutative */
    int inplace;       /* MPI_IN_PLACE was passed */
} pc_select_input_t;

typedef struct pc_tune_rules pc_tune_rules_t;

enum { PC_TUNE_MAX_CANDIDATES = 8 };

/* Compiles rule text; NULL on a syntax error, with a message in err. */
pc_tune_rules_t *pc_tune_compile(const char *text, char *err, size_t errlen);
void pc_tune_free(pc_tune_rules_t *rules);
/* Returns the (first) algorithm of the first matching rule after rule number
 * *rule_no (start with 0) and stores that rule's 1-based number in *rule_no,
 * so a caller may resume after a rule it cannot use; NULL when none match. */
const char *pc_tune_match(const pc_tune_rules_t *rules, const pc_select_input_t *in, int *rule_no);
int pc_tune_count(const pc_tune_rules_t *rules);
/* First algorithm name of rule i (0-based), for validation against a table. */
const char *pc_tune_rule_algo(const pc_tune_rules_t *rules, int i);
/* Candidates of rule i (0-based): how many (>= 1), and the j-th (0-based). */
int pc_tune_rule_ncandidates(const pc_tune_rules_t *rules, int i);
const char *pc_tune_rule_candidate(const pc_tune_rules_t *rules, int i, int j);
const char *pc_tune_rule_coll(const pc_tune_rules_t *rules, int i);

#endif
