/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node_dynleader.h - the dynamic-leader climb of a node reduction: the
 * shared part of reduce dynleader and allreduce dynleader.
 *
 * Every process combines its data into its node's shared accumulator (the
 * node reduction area, node_reduce.h, shared layout) as soon as it arrives.
 * Nodes form a tree rooted at the node of `root`: binomial (ceil(log2 N)
 * hops, at most ceil(log2 N) children per node) or flat (every node a child
 * of the root's: one hop, the root's node receives N - 1 results).  The node's
 * LAST contributor -- one of its processes, or its mailbox once the child
 * nodes' results are in -- sends the node's result to the parent node's
 * mailbox.  A node's mailbox is a fixed rank everybody knows (the node's
 * lowest rank; `root` on the root's node): it receives the child nodes'
 * results and combines each into the accumulator as one more contribution,
 * so the leader is simply whoever completes the count, and no control
 * message ever goes down (see reduce_dynleader.c for why the destination
 * must be fixed and how the first chunk's {seq, rank} header, received with
 * MPI_ANY_SOURCE, names the dynamic sender of the later chunks; a later
 * call's first chunk that comes first is kept for that call, ctx/early.h).
 *
 * On return of pc_dynleader_climb for a chunk, a node below the root's has
 * sent its result up (its leader did), and the root's node's accumulator
 * becomes the full result once pc_node_red_wait_arrived returns there.
 */
#ifndef PC_NODE_DYNLEADER_H
#define PC_NODE_DYNLEADER_H

#include "node/node_reduce.h"
#include "sched/tree.h"

typedef struct pc_dynleader {
    const pc_call_t *a;
    pc_node_red_t r;
    pc_tree_t tree;         /* of nodes, rooted at the root's node (binomial or flat) */
    int root, root_node;
    int mailbox;            /* my node's mailbox */
    int parent_mailbox;     /* my parent node's (-1 on the root's node) */
    int is_mailbox;
    int tag_first;          /* windowed tag slot of a child's first chunk (pc_window_tag) */
    int tag_next;           /* tag of the later chunks */
    int fixed;              /* the mailbox always leads, after its whole node */
    int leads;              /* I send my node's result up (decided on chunk 0) */
    /* mailbox: per child node j / per receive buffer i */
    int *sender;            /* child j's leader (rank), -1 until its first chunk came */
    int *held;              /* buffer i holds child held[i]'s chunk */
    char **packed;          /* [nch] child chunk 0 as received (MPI_PACKED: its {seq, sender} header, then data) */
    struct { int len, from; } *earlier; /* packed[i] kept by an earlier call: its bytes and sender */
    int packed_cap;         /* room in each: the header and a whole bank */
    MPI_Request *req;       /* receive into packed[i] (chunk 0) or buffer i */
    void **buf, **base;     /* one chunk per child */
} pc_dynleader_t;

/* Starts the climb of a's message towards `root` (a rank) up a tree of nodes
 * of `shape` (PC_TREE_BINOMIAL or PC_TREE_FLAT): the node reduction area,
 * the tree, the mailbox's first-chunk receives (one chunk buffer per child).
 * d->r.chunk == 0 on success: one element does not fit a bank (the caller
 * reduces some other way).  Always release with pc_dynleader_end. */
int pc_dynleader_begin(pc_dynleader_t *d, const pc_call_t *a, int root, pc_tree_shape_t shape, int tag_first,
                       int tag_next, int fixed);
void pc_dynleader_end(pc_dynleader_t *d);

/* Chunk k (taken with pc_node_red_chunk(&d->r, k, ch)): combines my data,
 * at a mailbox the child nodes' chunks, and, if I lead my node (not the
 * root's), waits for the node's count and sends its result up. */
int pc_dynleader_climb(pc_dynleader_t *d, const pc_node_chunk_t *ch, long k);

#endif
