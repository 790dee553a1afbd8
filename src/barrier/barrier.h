/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier.h - what barrier algorithms share.  Every algorithm is
 * pc_barrier_<name>(const pc_call_t *a) (generated prototypes, from
 * algorithms.list); a barrier has no data (a->bytes == 0): an algorithm
 * returns on a process only once every process of a->ctx->comm has entered
 * the call.
 */
#ifndef PC_BARRIER_H
#define PC_BARRIER_H

#include "coll/call.h"
#include "core/p2p.h"

#include "barrier_algorithms.h" /* generated from algorithms.list: pc_barrier_<name>() */

/* The dissemination barrier (Hensgen et al. 1988) among the `size` processes
 * of comm, I being `rank`: ceil(log2 size) rounds of empty messages on tag
 * (dissemination, and hier among its node leaders). */
int pc_barrier_disseminate(MPI_Comm comm, int rank, int size, int tag);

#endif
