/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * native - the MPI library's own MPI_Scan or MPI_Exscan (PMPI_Scan,
 * PMPI_Exscan) on papcoll's private communicator: the baseline every other
 * scan is measured against, and what the rules pick on one node for a
 * commutative op.
 *
 *   P0 P1 ... Pp-1 --> PMPI_Scan / PMPI_Exscan(private duplicate) --> prefixes
 *
 * Cost and late arrival: those of the library's algorithm (Open MPI 4.1
 * tuned: a linear chain, p - 1 (alpha + beta m + gamma m), or recursive
 * doubling; MPICH 4: recursive doubling, ceil(log2 p) (alpha + beta m +
 * 2 gamma m), in which every process waits for the last arrival).
 * Under SimGrid SMPI (3.32) with a non-commutative op it runs
 * recursive_doubling instead: SMPI's own MPI_Scan and MPI_Exscan combine
 * such an op out of rank order, and adaptive selection runs `native` for a
 * call site's first calls (select/adapt.h).
 * Source: the MPI standard's MPI_Scan and MPI_Exscan (MPI-3.1 §5.11).
 */
#include "scan/scan.h"

int pc_scan_native(const pc_call_t *a)
{
#ifdef PAPCOLL_SMPI
    if (!a->commutative) return pc_scan_recursive_doubling(a);
#endif
    const void *sendbuf = a->inplace ? MPI_IN_PLACE : a->sendbuf;
    if (pc_scan_exclusive(a)) return PMPI_Exscan(sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->ctx->comm);
    return PMPI_Scan(sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->ctx->comm);
}
