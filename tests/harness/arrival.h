/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * arrival.h - adversarial process arrival patterns: the delay (microseconds)
 * with which each rank enters call k, on a node-mapped shape.  D is the
 * pattern's unit delay; `draw` is a per-call random number, the same on every
 * rank, so all ranks agree on the pattern's random choices.
 *
 *   together            no delay (reference)
 *   root_last           the root arrives D late
 *   all_but_root_late   everyone but the root arrives ~D late (root first)
 *   leaders_last        on every node the lowest rank (the leader by a static
 *                       rule) arrives last on its node
 *   other_first         on every node an arbitrary non-lowest member (changes
 *                       with the call) arrives first, the others D/2..D later
 *   node_late           one whole node (random per call) D late
 *   binomial_reverse    node leaders arrive in reverse order of a binomial
 *                       tree over nodes rooted at the root's node (deepest
 *                       first, root's node last); other members D/4 before
 *                       their leader
 *   rank_reverse        relative rank r arrives at (p-1-r) D / p: the end of
 *                       a chain first, the root last
 *   random              uniform 0..D per process
 *   node_last_very_late on every node one member (changing with the call, the
 *                       lowest included) arrives 3D late, the others within
 *                       0..D/2: a node's first arriver must wait for it
 *   one_late            exactly one process D late: relative rank k mod p
 *                       in call k, so p consecutive calls make every
 *                       position the straggler (allreduce straggler's
 *                       delegation to a deputy)
 */
#ifndef PC_HARNESS_ARRIVAL_H
#define PC_HARNESS_ARRIVAL_H

#include "shapes.h"

#include <stdint.h>

enum { HARNESS_P_TOGETHER, HARNESS_P_ROOT_LAST, HARNESS_P_ALL_BUT_ROOT, HARNESS_P_LEADERS_LAST,
       HARNESS_P_OTHER_FIRST, HARNESS_P_NODE_LATE, HARNESS_P_BINOMIAL_REVERSE, HARNESS_P_RANK_REVERSE,
       HARNESS_P_RANDOM, HARNESS_P_NODE_LAST_VERY_LATE, HARNESS_P_ONE_LATE, HARNESS_NPATTERNS };
extern const char *const harness_pattern_names[HARNESS_NPATTERNS];

/* Index of a pattern name, -1 if unknown. */
int harness_pattern_index(const char *name);
/* Delay in microseconds of comm rank r in call k of pattern `pattern`. */
long harness_delay_us(const harness_shape_t *s, int pattern, long k, int root, int r, uint64_t draw, long D);

#endif
