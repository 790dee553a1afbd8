/*
 * sites.h - the distinct call sites (callers' return addresses) of this
 * rank, kept as raw addresses during the run and resolved only at
 * MPI_Finalize to (object, load bias, nearest symbol), written as
 * rank-R.sites (format.h); `papcoll trace report` turns them into
 * function and file:line with addr2line.
 */
#ifndef PAPCOLL_TRACE_SITES_H
#define PAPCOLL_TRACE_SITES_H

#include <stdint.h>

/* Remembers address (callers hold the tracer's lock).  0, or -1 when out of memory. */
int pt_sites_add(uint64_t address);
/* Writes the sites file and forgets them.  0, or -1 with errno. */
int pt_sites_write(const char *path);

#endif
