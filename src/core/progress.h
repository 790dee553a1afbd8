/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * progress.h - waiting for MPI requests without starving an oversubscribed
 * node.
 *
 * MPICH 4.0 (ch4:ucx as Debian 12 ships it) polls in its blocking calls
 * (MPI_Wait, MPI_Waitall, MPI_Recv ...) and never yields the CPU: with more
 * processes than CPUs on a node, a process waiting for a peer that is
 * descheduled burns its whole time slice, and every step of an algorithm
 * that waits for another process costs time slices of the spinning ones
 * (Open MPI yields in its progress loop when mpirun finds the node
 * oversubscribed).  With 10 processes on 2 cores, multisender_bruck's
 * allgathers over 5 virtual nodes spent 3.8 s in 78 calls in PMPI_Waitall,
 * 0.7 s testing and yielding instead.
 *
 * So papcoll's waits on its own requests go through pc_waitall /
 * pc_wait_request: when the node is oversubscribed (pc_oversubscribed) they
 * test (which makes MPI progress) and sched_yield between tests; otherwise
 * they are PMPI_Waitall / PMPI_Wait, unchanged.  Under SimGrid SMPI the
 * node is never oversubscribed: the blocking calls stay (a test costs
 * simulated time; SMPI schedules ranks itself).  Waits on node shared memory yield on their own
 * (pc_wait, ctx/shm.h).
 *
 * Oversubscribed: the processes of this job on this node, from the
 * launcher's environment (Open MPI OMPI_COMM_WORLD_LOCAL_SIZE, MPICH hydra
 * MPI_LOCALNRANKS) or, without one, the most processes of one communicator
 * that a context found on this node, exceed the online CPUs
 * (sysconf(_SC_NPROCESSORS_ONLN); not the affinity mask, which is one core
 * for a process bound to a core).
 */
#ifndef PC_PROGRESS_H
#define PC_PROGRESS_H

#include <mpi.h>

/* Whether this node runs more of the job's processes than it has CPUs. */
int pc_oversubscribed(void);
/* A context found n processes of its communicator on this (real) node. */
void pc_progress_note_node(int n);

/* PMPI_Waitall / PMPI_Wait that yield the CPU while waiting when the node is
 * oversubscribed (same arguments, same results). */
int pc_waitall(int n, MPI_Request *req, MPI_Status *statuses);
int pc_wait_request(MPI_Request *req, MPI_Status *status);
/* PMPI_Waitany, the same way (same arguments, same results). */
int pc_waitany(int n, MPI_Request *req, int *index, MPI_Status *status);

#endif
