/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scan.h - what scan algorithms share.  Every algorithm is
 * pc_scan_<name>(const pc_call_t *a) (generated prototypes, from
 * algorithms.list).  MPI_Scan and MPI_Exscan are both this collective
 * (a->vform: the second form, MPI_Exscan; pc_scan_exclusive): a->sendbuf
 * holds my contribution x_i (== a->recvbuf with MPI_IN_PLACE), and
 * a->recvbuf receives x_0 op x_1 op ... op x_i (scan) or op ... x_(i-1)
 * (exscan; rank 0's receive buffer is left untouched), always combined in
 * rank order with the lower ranks on the left.  Element view and helpers:
 * coll/reduction.h.
 */
#ifndef PC_SCAN_H
#define PC_SCAN_H

#include "coll/reduction.h"
#include "core/p2p.h"

#include "scan_algorithms.h" /* generated from algorithms.list: pc_scan_<name>() */

/* MPI_Exscan rather than MPI_Scan. */
static inline int pc_scan_exclusive(const pc_call_t *a) { return a->vform; }

#endif
