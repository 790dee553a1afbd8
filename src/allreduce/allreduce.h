/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allreduce.h - what allreduce algorithms share.  Every algorithm is
 * pc_allreduce_<name>(const pc_call_t *a) (generated prototypes, from
 * algorithms.list): a->sendbuf holds my contribution (== a->recvbuf with
 * MPI_IN_PLACE), a->recvbuf receives the result everywhere.  Buffers, local
 * combination in rank order and element blocks: coll/reduction.h.
 */
#ifndef PC_ALLREDUCE_H
#define PC_ALLREDUCE_H

#include "coll/reduction.h"
#include "core/p2p.h"
#include "sched/tree.h"

#include "allreduce_algorithms.h" /* generated from algorithms.list: pc_allreduce_<name>() */

/* Runs allreduce algorithm `name` (or "auto") with a's datatype and op over
 * another communicator (hier: among node leaders).  Does not touch
 * papcoll_last_algorithm. */
static inline int pc_allreduce_on(const pc_call_t *a, const char *name, const void *sendbuf, void *recvbuf,
                                  MPI_Comm comm)
{
    return pc_red_call_on(a, name, sendbuf, recvbuf, 0, comm);
}

/* The dynamic-leader allreduce (allreduce_dynleader.c) up and back down a
 * tree of nodes of shape node_tree (PC_TREE_BINOMIAL: dynleader;
 * PC_TREE_FLAT: dynleader_flat); name is the algorithm's, for its log
 * messages. */
int pc_allreduce_dynleader_tree(const pc_call_t *a, pc_tree_shape_t node_tree, const char *name);

#endif
