/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allreduce/common/straggler_blocks.h - the blocks, ranges, collectors and
 * deputies of allreduce straggler (allreduce_straggler.c, whose header
 * comment describes the algorithm; the delegating loop is
 * common/straggler_deputy.c).  p blocks of ceil(count / p) elements, block j
 * owned by rank j; on a node of q processes local index l collects the
 * contiguous range of blocks [range_lo(l), range_lo(l + 1)).
 */
#ifndef PC_ALLREDUCE_STRAGGLER_BLOCKS_H
#define PC_ALLREDUCE_STRAGGLER_BLOCKS_H

#include "allreduce/allreduce.h"
#include "sched/blocks.h"

/* Block b of p in buf. */
static inline void *pc_strag_block(const pc_call_t *a, const void *buf, int p, long b)
{
    return pc_red_at(a, buf, (long)pc_block_offset((size_t)a->count, p, b));
}
/* Elements of blocks [lo, hi) of p. */
static inline long pc_strag_count(const pc_call_t *a, int p, long lo, long hi)
{
    return (long)pc_blocks_len((size_t)a->count, p, lo, hi - lo);
}
/* First block of local index l's range on a node of q processes, and the
 * local index whose range holds block j. */
static inline long pc_strag_range_lo(int p, int q, long l) { return (l * p + q - 1) / q; }
static inline int pc_strag_range_of(int p, int q, long j) { return (int)(j * q / p); }
/* The collector of block j on node x. */
static inline int pc_strag_collector(const pc_comm_t *c, int x, long j)
{
    int q = c->node_first[x + 1] - c->node_first[x];
    return c->node_members[c->node_first[x] + pc_strag_range_of(c->size, q, j)];
}
/* Owner o's deputy: the process of o's local index on the next node, -1 if
 * that node is smaller (one deputy per owner, one owner per deputy: the
 * ward, the same local index on the previous node). */
static inline int pc_strag_deputy(const pc_comm_t *c, int o)
{
    int y = (c->node_of[o] + 1) % c->nnodes, l = c->node_rank_of[o];
    return l < c->node_first[y + 1] - c->node_first[y] ? c->node_members[c->node_first[y] + l] : -1;
}
static inline int pc_strag_ward(const pc_comm_t *c)
{
    int y = (c->my_node + c->nnodes - 1) % c->nnodes, l = c->node_rank;
    return l < c->node_first[y + 1] - c->node_first[y] ? c->node_members[c->node_first[y] + l] : -1;
}

/* Requests and buffer elements pc_straggler_deputy needs. */
long pc_straggler_deputy_nreq(const pc_call_t *a);
long pc_straggler_deputy_nslots(const pc_call_t *a);
/* The commutative, landing-order form through the nodes, with delegation
 * (common/straggler_deputy.c).  src: my input; buf: nslots elements; req:
 * nreq requests, MPI_REQUEST_NULL (the sends are left posted: the caller
 * waits for them). */
int pc_straggler_deputy(const pc_call_t *a, const void *src, void *buf, MPI_Request *req);

#endif
