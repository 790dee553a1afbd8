/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tree_engine.h - the segmented tree engine, down and up (Open MPI's
 * ompi_coll_base_bcast_generic and ompi_coll_base_reduce_generic).
 *
 * Down: moves a byte buffer from the root down any pc_tree_t, segment by
 * segment: a process receives segment s from its parent and forwards it to
 * each child before (blocking mode) or while (nonblocking mode) receiving
 * segment s+1.  The broadcasts chain, chain_pipelined(_isend), linear,
 * binomial and bintree_pipelined are all this engine fed with different
 * trees, segment sizes and send modes.
 *
 * Up: reduces elements of the call's datatype with its op towards the root
 * of any pc_tree_t, segment by segment: a process receives segment s of
 * each child's partial result, combines them with its own in a fixed order,
 * and sends the result for segment s to its parent while segment s+1
 * arrives.  The reduce binomial (and through it allreduce reduce_bcast) is
 * this engine on a binomial tree.
 */
#ifndef PC_TREE_ENGINE_H
#define PC_TREE_ENGINE_H

#include <mpi.h>
#include <stddef.h>

#include "coll/call.h"
#include "sched/tree.h"

typedef enum {
    PC_SEND_BLOCKING,   /* MPI_Recv segment, then MPI_Send it to each child in turn (the SMPI bcast exercise MODE 3) */
    PC_SEND_NONBLOCKING /* receives posted ahead, MPI_Isend to children; at most max_inflight segments
                           outstanding per peer (the SMPI bcast exercise MODES 4-5) */
} pc_send_mode_t;

/* segsize 0 means one segment (the whole message). */
int pc_tree_bcast(void *buf, size_t bytes, size_t segsize, const pc_tree_t *tree, pc_send_mode_t mode,
                  int max_inflight, MPI_Comm comm, int tag);

/* Reduction up `tree` of `count` elements of a's datatype with a's op, on
 * a's private communicator, in segments of seg_count elements (0 = one
 * segment).  sendbuf: my contribution; result: where the tree's root gets
 * the result (count elements in a's layout; result == sendbuf works in
 * place); ignored at the other processes (may be NULL).  Buffers use the
 * layout of a's datatype (coll/reduction.h).
 * Order: for each segment a process computes
 *     mine op child[0] op child[1] op ... op child[nchildren-1]
 * (each child's value being that of its subtree), which is the rank order a
 * non-commutative op needs when every subtree covers the consecutive ranks
 * that start at its root and children come in increasing rank order (the
 * binomial tree rooted at rank 0 with its children listed smallest first).
 * Flow: a process posts at most max_inflight receives ahead (over its
 * children and segments) and has at most max_inflight sends outstanding;
 * with more segments than that its sends are synchronous, so a late parent
 * never holds more than max_inflight unmatched segments of one child. */
int pc_tree_reduce(const pc_call_t *a, const void *sendbuf, void *result, long count, long seg_count,
                   const pc_tree_t *tree, int max_inflight, int tag);

#endif
