/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * caller.h - who called an interposed MPI function (pmpi/caller.c).
 */
#ifndef PC_PMPI_CALLER_H
#define PC_PMPI_CALLER_H

/* Whether the code at `caller` (a return address) is an MPI library's
 * Fortran binding (libmpichfort, libmpi_mpifh, libmpi_usempi*): such calls
 * get the MPI library's own nonblocking and persistent collectives
 * (docs/nonblocking.md, "Limits"). */
int pc_from_fortran(void *caller) __attribute__((visibility("hidden")));

#endif
