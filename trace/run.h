/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run.h - one traced run: its settings (environment), its directory and
 * files, the node map, the clock synchronizations (MPI_Init, periodic,
 * MPI_Finalize), and header.json (format.h).
 *
 * Environment:
 *   PAPCOLL_TRACE=0              load the tracer but record nothing (default 1)
 *   PAPCOLL_TRACE_DIR=DIR        where the run directory is created (default: the working directory)
 *   PAPCOLL_TRACE_BUFFER=SIZE    in-memory records per rank before a write, bytes, K/M/G (default 4M)
 *   PAPCOLL_TRACE_SYNC_ROUNDS=N  ping-pongs per rank and synchronization (default 31; the median is kept)
 *   PAPCOLL_TRACE_RESYNC=SECONDS re-synchronize the clocks about every SECONDS (default 0: only at MPI_Init
 *                                and MPI_Finalize); see "Periodic re-synchronization" below
 *   PAPCOLL_TRACE_RESYNC_CHECK=K with RESYNC: the check runs at every K-th blocking call on a communicator of
 *                                all ranks (default 64)
 *   PAPCOLL_TRACE_TEST_SKEW=US,PPM  testing aid: skew rank r's clock by r*US microseconds and r*PPM ppm
 */
#ifndef PAPCOLL_TRACE_RUN_H
#define PAPCOLL_TRACE_RUN_H

#include "comms.h"
#include "format.h"

/*
 * Periodic re-synchronization.  A synchronization needs every rank, and the
 * tracer may communicate only where the program lets it without changing
 * what the program does.  The point it uses: the end (after t_exit and the
 * record) of a blocking collective on an intracommunicator of all world
 * ranks whose ordinal on that communicator (the record's seq, the same on
 * every member: MPI orders a communicator's collectives alike on all of
 * them) is K - 1 modulo K.  Every rank reaches that same call and nothing
 * else: at it, rank 0 broadcasts (PMPI, on the tracer's own duplicate of
 * MPI_COMM_WORLD) whether its clock passed the next deadline, and if so
 * every rank runs Cristian's synchronization (clock.h) there.  No rank can
 * wait for a rank that will not come: the decision is one value from rank
 * 0, the point is defined by the communicator's call sequence alone (not by
 * any rank's clock), and a blocking collective of all ranks is a point a
 * correct MPI program already cannot pass with a rank blocked elsewhere
 * (MPI 4.1 section 6.14: collectives must be ordered so they cannot
 * deadlock, synchronizing or not).  Nonblocking posts are never used (the
 * program may legitimately block elsewhere before it completes them).  A
 * rank whose recording failed keeps taking part (its records are dropped,
 * its calls still counted).
 *
 * The tracer's own time stays out of the records: the step runs after the
 * call's t_exit, so it shows as time between that call and the rank's
 * next arrival; that next record carries PT_FLAG_AFTER_RESYNC (the ranks
 * left the step together).  The run keeps at most PT_SYNC_MAX
 * synchronizations (the last slot for MPI_Finalize); beyond, it stops
 * re-synchronizing.
 */
enum { PT_SYNC_MAX = 64 };

extern int pt_resync_check; /* K, 0 when periodic re-synchronization is off */

/* Called by pt_end after a traced call's record, when pt_resync_check is set. */
void pt_run_resync_point(const pt_comm_t *comm, uint32_t seq, unsigned flags);

#ifdef PAPCOLL_SMPI
/* The program SMPI runs (its argv[0], absolute): what rank-R.sites names instead of the rank's temporary copy. */
const char *pt_run_program_path(void);
#endif

/* Appends a record to this rank's buffer (takes the tracer's lock). */
void pt_run_record(const pt_record_t *r);

#endif
