/*
 * run.h - one traced run: its settings (environment), its directory and
 * files, the node map, the clock synchronizations at MPI_Init and
 * MPI_Finalize, and header.json (format.h).
 *
 * Environment:
 *   PAPCOLL_TRACE=0              load the tracer but record nothing (default 1)
 *   PAPCOLL_TRACE_DIR=DIR        where the run directory is created (default: the working directory)
 *   PAPCOLL_TRACE_BUFFER=SIZE    in-memory records per rank before a write, bytes, K/M/G (default 4M)
 *   PAPCOLL_TRACE_SYNC_ROUNDS=N  ping-pongs per rank and synchronization (default 31; the median is kept)
 *   PAPCOLL_TRACE_TEST_SKEW=US,PPM  testing aid: skew rank r's clock by r*US microseconds and r*PPM ppm
 */
#ifndef PAPCOLL_TRACE_RUN_H
#define PAPCOLL_TRACE_RUN_H

#include "format.h"

/* Appends a record to this rank's buffer (takes the tracer's lock). */
void pt_run_record(const pt_record_t *r);

#endif
