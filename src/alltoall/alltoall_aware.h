/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * alltoall_aware.h - the engine shared by alltoall aware and aware_barrier
 * (alltoall_aware.c describes it).
 */
#ifndef PC_ALLTOALL_AWARE_H
#define PC_ALLTOALL_AWARE_H

#include "alltoall/alltoall.h"

/* Runs the imbalance-aware alltoall; node_barrier: a node barrier after
 * each round's copy-in, before any send (aware_barrier). */
int pc_alltoall_aware_run(const pc_call_t *a, int node_barrier, const char *name);

#endif
