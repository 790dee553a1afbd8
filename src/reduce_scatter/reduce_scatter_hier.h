/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_scatter_hier.h - the node step shared by the hierarchical
 * reduce_scatters hier and multisender (reduce_scatter_hier.c describes it):
 * the blocks in node order, the node's reduction of each chunk in shared
 * memory (node/node_reduce.h, slots layout), then an algorithm's inter-node
 * exchange of the chunk, then every process's copy-out of its block.
 */
#ifndef PC_REDUCE_SCATTER_HIER_H
#define PC_REDUCE_SCATTER_HIER_H

#include "reduce_scatter/reduce_scatter.h"
#include "node/node_reduce.h"

/* The node-ordered vector of one call, cut into rounds: round k holds the
 * k-th piece of every node's share, in node order (pc_rs_node_part), so
 * every round's inter-node exchange involves every node (a vector cut into
 * contiguous chunks would give each chunk the shares of a few nodes only,
 * and the exchange of that chunk would converge on them). */
typedef struct pc_rs_node {
    const pc_call_t *a;
    long *first;        /* [p + 1]: blocks in rank order (the caller's vector) */
    long *node_pos;     /* [p]: where rank i's block starts in its node's share */
    long *share;        /* [nnodes + 1]: node k's share is share[k + 1] - share[k] elements */
    long rounds;        /* uses of the area */
    long *width;        /* [nnodes]: elements of node k's share per round (the last ones shorter) */
    long *part_lo, *part_at, *part_len; /* [nnodes]: the current round's piece of node k: where in its
                                         * share, where in the round, its length */
    long round_first, round_count; /* the current round in the ordered vector */
    void *ordered, *ordered_base; /* my input in round order */
    pc_node_red_t r;    /* the node reduction area, slots layout */
} pc_rs_node_t;

/* An algorithm's inter-node step of one chunk, called by every node process
 * once slot 0 holds the node's reduction of the chunk (pc_rs_node_run):
 * on return, node rank 0's slot 0 must hold the reduce_scatter of the chunk
 * over nodes in its node's share (the run publishes it to the node).
 * `failed`: an earlier step of this process failed.  Returns this
 * process's error, if any; it must return on every process, errors or not
 * (the node waits for node rank 0). */
typedef int (*pc_rs_node_exchange_fn)(pc_rs_node_t *n, const pc_node_chunk_t *ch, int failed, void *arg);

/* Runs a hierarchical reduce_scatter: node order, then per chunk the node
 * reduction, exchange(), publication and the copy-out of my block.  A
 * datatype whose single element does not fit a slot runs
 * PAPCOLL_REDUCE_SCATTER_INTER over the whole communicator (logged as
 * `algorithm`'s). */
int pc_rs_node_run(const pc_call_t *a, const char *algorithm, pc_rs_node_exchange_fn exchange, void *arg);

/* Elements of node k's share in the current round; *at (if not NULL): where
 * they start in it. */
long pc_rs_node_part(const pc_rs_node_t *n, int k, long *at);

#endif
