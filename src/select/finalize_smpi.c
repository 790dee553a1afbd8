/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * finalize_smpi.c - under SimGrid SMPI only (built there alone):
 * papcoll's MPI_Finalize, which ends papcoll's messages in flight before
 * SMPI's MPI_Finalize begins.
 *
 * Natively papcoll does this from the deletion of MPI_COMM_SELF's
 * attributes, the first thing MPI_Finalize does (nbc/request.c drains the
 * nonblocking requests, select/adapt_state.c waits for the adaptive
 * selection's agreements), while MPI still works.  SMPI 3.32 marks the
 * process finalized before it deletes those attributes and refuses every
 * point-to-point call from then on ("MPI_Init was not called"): a node
 * leader that still had to forward an agreement (adapt_messages.c) failed
 * its send there, and rank 0 waited for it forever.  So under SMPI the
 * program's MPI_Finalize is this one (SMPI's mpi.h declares MPI_<name>
 * weak; the arrival tracer's, linked first, reaches it as pc_MPI_Finalize,
 * trace/tracer.h), and every process runs its part of the agreements and
 * requests in flight to their end before calling SMPI's.  Waiting is safe:
 * what a process waits for needs only the other processes' own progress,
 * which they make in their MPI_Finalize (the leaders advance every schedule
 * in flight, src/nbc), so no order of arrival at MPI_Finalize can hang.
 */
#include "select/adapt_impl.h"
#include "nbc/request.h"

int pc_MPI_Finalize(void);
int MPI_Finalize(void) __attribute__((alias("pc_MPI_Finalize")));

int pc_MPI_Finalize(void)
{
    pc_adapt_finish_agreements();
    pc_nbc_drain();
    return PMPI_Finalize();
}
