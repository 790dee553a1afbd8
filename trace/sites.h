/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sites.h - the distinct call sites (callers' return addresses) of this
 * rank, kept as raw addresses during the run and resolved only at
 * MPI_Finalize to (object, load bias, nearest symbol), written as
 * rank-R.sites, with the build identity of each object holding one in
 * rank-R.objects (format.h); `papcoll trace report` turns them into
 * function and file:line with addr2line, unless the object was rebuilt since.
 */
#ifndef PAPCOLL_TRACE_SITES_H
#define PAPCOLL_TRACE_SITES_H

#include <stdint.h>

/* Remembers address (callers hold the tracer's lock).  0, or -1 when out of memory. */
int pt_sites_add(uint64_t address);
/* Writes the sites and objects files and forgets the sites.  0, or -1 with errno. */
int pt_sites_write(const char *sites_path, const char *objects_path);

#endif
