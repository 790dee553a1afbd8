/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allreduce/common/straggler_blocks.h - the blocks, ranges, collectors and
 * deputies of allreduce straggler and straggler_deputy
 * (allreduce_straggler.c, allreduce_straggler_deputy.c).  p blocks of ceil(count / p) elements, block j
 * owned by rank j; on a node of q processes local index l collects the
 * contiguous range of blocks [range_lo(l), range_lo(l + 1)).
 * straggler_nodeblock (allreduce_straggler_nodeblock.c) shares the
 * buffers, the absorbing and the ranges, over its own blocks and units.
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
/* Owner o's deputy: the process of o's local index l on node x + 1 +
 * (l mod (N - 1)) (x: o's node), -1 if that node is smaller.  The shift
 * spreads one node's deputies over the other nodes (with one shift for all,
 * the next node would send its own blocks and the late node's: 2 m); one
 * deputy per owner and one owner per deputy (its ward: the same local
 * index, shifted back). */
static inline int pc_strag_deputy(const pc_comm_t *c, int o)
{
    int l = c->node_rank_of[o], y = (c->node_of[o] + 1 + l % (c->nnodes - 1)) % c->nnodes;
    return l < c->node_first[y + 1] - c->node_first[y] ? c->node_members[c->node_first[y] + l] : -1;
}
static inline int pc_strag_ward(const pc_comm_t *c)
{
    int l = c->node_rank, N = c->nnodes, y = ((c->my_node - 1 - l % (N - 1)) % N + N) % N;
    return l < c->node_first[y + 1] - c->node_first[y] ? c->node_members[c->node_first[y] + l] : -1;
}

/* acc = the op over the k pieces piece[i] (piece[mine]: already here, or
 * mine < 0; the others' receives req[i]): in landing order, or, `ordered`,
 * piece[0] op (piece[1] op (... op piece[k-1])) waiting for them in that
 * order (allreduce_straggler.c). */
int pc_strag_absorb(const pc_call_t *a, int ordered, void *acc, void *const *piece, MPI_Request *req, int k, int mine,
                    long n);

/* The three allreduces that share pc_straggler_run. */
typedef enum { PC_STRAGGLER_PLAIN, PC_STRAGGLER_DEPUTY, PC_STRAGGLER_NODEBLOCK } pc_straggler_form_t;
/* allreduce straggler, straggler_deputy or straggler_nodeblock: buffers,
 * then the form; each of the latter two runs the plain one's forms where it
 * does not apply (allreduce_straggler.c). */
int pc_straggler_run(const pc_call_t *a, pc_straggler_form_t form);
/* Requests and buffer elements pc_straggler_deputy needs. */
long pc_straggler_deputy_nreq(const pc_call_t *a);
long pc_straggler_deputy_nslots(const pc_call_t *a);
/* straggler_deputy's commutative, landing-order form through the nodes
 * (allreduce_straggler_deputy.c).  src: my input; buf: nslots elements; req:
 * nreq requests, MPI_REQUEST_NULL (the sends are left posted: the caller
 * waits for them). */
int pc_straggler_deputy(const pc_call_t *a, const void *src, void *buf, MPI_Request *req);
/* straggler_nodeblock's form through the nodes, any order
 * (allreduce_straggler_nodeblock.c).  buf: nslots elements; piece: room for
 * max(nnodes, node_size) pointers; req: nreq requests, MPI_REQUEST_NULL
 * (the sends and the last receives are left posted: the caller waits). */
long pc_straggler_nodeblock_nreq(const pc_call_t *a);
long pc_straggler_nodeblock_nslots(const pc_call_t *a);
int pc_straggler_nodeblock(const pc_call_t *a, int ordered, const void *src, void *buf, void **piece, MPI_Request *req);

#endif
