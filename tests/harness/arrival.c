/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * arrival.c - see arrival.h.
 */
#include "arrival.h"

#include "../test_random.h"

#include <string.h>

const char *const harness_pattern_names[HARNESS_NPATTERNS] = {
    "together",    "root_last", "all_but_root_late", "leaders_last", "other_first",        "node_late",
    "binomial_reverse", "rank_reverse", "random",     "node_last_very_late", "one_late"};

int harness_pattern_index(const char *name)
{
    for (int p = 0; p < HARNESS_NPATTERNS; p++)
        if (!strcmp(name, harness_pattern_names[p])) return p;
    return -1;
}

static int popcount(unsigned v) { return __builtin_popcount(v); }

long harness_delay_us(const harness_shape_t *s, int pattern, long k, int root, int r, uint64_t draw, long D)
{
    int p = s->size, node = s->node_of[r], n = s->node_n[node], j = s->node_idx[r];
    switch (pattern) {
    case HARNESS_P_ROOT_LAST: return r == root ? D : 0;
    case HARNESS_P_ONE_LATE: return (r - root + p) % p == (int)(k % p) ? D : 0;
    case HARNESS_P_ALL_BUT_ROOT: return r == root ? 0 : D + (long)(mix(draw ^ (uint64_t)r) % (uint64_t)(D / 4 + 1));
    case HARNESS_P_LEADERS_LAST: return j == 0 ? D : (long)(n - j) * D / (2 * n);
    case HARNESS_P_OTHER_FIRST: {
        if (n < 2) return 0;
        int first = 1 + (int)((k + node) % (n - 1));
        return j == first ? 0 : D / 2 + (long)j * D / (2 * n);
    }
    case HARNESS_P_NODE_LATE: return node == (int)(draw % (uint64_t)s->nnodes) ? D : 0;
    case HARNESS_P_BINOMIAL_REVERSE: {
        /* order the nodes by (depth desc, relative index desc) in a binomial
         * tree over nodes rooted at the root's node; position q arrives at q*D/2 */
        int N = s->nnodes, v = (node - s->node_of[root] + N) % N, q = 0;
        for (int u = 0; u < N; u++) {
            int du = popcount((unsigned)u), dv = popcount((unsigned)v);
            if (du > dv || (du == dv && u > v)) q++;
        }
        long t = (long)q * D / 2;
        return j == 0 ? t + D / 4 : t;
    }
    case HARNESS_P_RANK_REVERSE: return (long)(p - 1 - (r - root + p) % p) * D / p;
    case HARNESS_P_RANDOM: return (long)(mix(draw ^ ((uint64_t)r << 32)) % (uint64_t)(D + 1));
    case HARNESS_P_NODE_LAST_VERY_LATE: {
        int last = (int)((mix(draw ^ (uint64_t)node) + (uint64_t)k) % (uint64_t)n);
        return j == last ? 3 * D : (long)(mix(draw ^ ((uint64_t)r << 24)) % (uint64_t)(D / 2 + 1));
    }
    default: return 0;
    }
}
