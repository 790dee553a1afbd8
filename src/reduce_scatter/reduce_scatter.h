/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce_scatter.h - what reduce_scatter algorithms share.  Every algorithm
 * is pc_reduce_scatter_<name>(const pc_call_t *a) (generated prototypes,
 * from algorithms.list).  MPI_Reduce_scatter and MPI_Reduce_scatter_block
 * are both this collective: a->sendbuf holds a->count elements (the sum of
 * the blocks; == a->recvbuf when the caller passed MPI_IN_PLACE), block i
 * (pc_rs_count(a, i) elements at element pc_rs_first(...)) of the reduction
 * goes to rank i's a->recvbuf.  Element view and helpers: coll/reduction.h.
 */
#ifndef PC_REDUCE_SCATTER_H
#define PC_REDUCE_SCATTER_H

#include "coll/reduction.h"
#include "core/p2p.h"

#include "reduce_scatter_algorithms.h" /* generated from algorithms.list: pc_reduce_scatter_<name>() */

/* Elements of rank i's block. */
static inline long pc_rs_count(const pc_call_t *a, int i) { return a->vform ? a->recvcounts[i] : a->recvcount; }

/* The MPI library's own MPI_Reduce_scatter (v form) or
 * MPI_Reduce_scatter_block with a's arguments, sendbuf as the caller gave it
 * (MPI_IN_PLACE included), on comm: native, intercommunicators. */
int pc_reduce_scatter_library(const pc_call_t *a, const void *sendbuf, MPI_Comm comm);

/* first[i] = element where rank i's block starts, first[p] = a->count;
 * NULL when out of memory (free() it). */
long *pc_rs_offsets(const pc_call_t *a);

/* MPI's argument checks of MPI_Reduce_scatter (vform: recvcounts) or
 * MPI_Reduce_scatter_block (recvcount) on the intracommunicator comm:
 * MPI_SUCCESS or the error class; *total = the elements of all blocks (the
 * nonblocking front, src/nbc). */
int pc_rs_check_args(const void *sendbuf, void *recvbuf, int vform, const int *recvcounts, int recvcount,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, long long *total);

#endif
