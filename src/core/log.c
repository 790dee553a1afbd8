/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * log.c - see log.h.
 */
#include "core/log.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>


void pc_log(pc_log_level_t level, const char *fmt, ...)
{
    static const char *names[] = {"", "warning", "info", "debug"};
    if (!pc_log_enabled(level)) return;
    int rank = -1, up = 0, down = 0;
    PMPI_Initialized(&up);
    PMPI_Finalized(&down);
    if (up && !down) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "papcoll[%d] %s: %s\n", rank, names[level], line);
}
