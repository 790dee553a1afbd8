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

/* The k-ary dissemination barrier (Hensgen et al. 1988 for k = 2; MPICH's
 * k-dissemination) among the `size` processes of comm, I being `rank`:
 * ceil(log_k size) rounds, in round r empty messages on tag to the k - 1
 * ranks j k^r ahead and from the k - 1 behind (dissemination, and hier among
 * its node leaders).  MPI_ERR_ARG when radix < 2. */
int pc_barrier_disseminate(MPI_Comm comm, int rank, int size, int tag, long radix);

#endif
