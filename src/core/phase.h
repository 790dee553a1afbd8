/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * phase.h - where a collective's time goes (PAPCOLL_PHASE_REPORT).
 *
 * Each process splits its time in every call (arrival to exit) into
 *   shm_copy  copying through the node's shared memory: pc_shm_copy and
 *             pc_shm_charge (under SMPI the modelled copy time,
 *             PAPCOLL_SIM_MEMBW; natively the memcpy of pc_shm_copy only),
 *   shm_wait  waiting for a word of the node's shared memory (pc_wait: node
 *             peers to arrive, to fill or free a cell),
 *   rest      everything else: MPI messages and their waits, local
 *             reductions, packing,
 * and sums them per (collective, algorithm, role) over its calls.  Roles:
 * `root` (the root of a rooted collective), `leader` (a process that
 * carried its node's data between nodes in the call: a dynamic leader that
 * claimed its node, a fixed one, a node result's sender; marked by the
 * algorithm with pc_phase_mark_leader), `other`.  At MPI_Finalize every process appends its sums to the report
 * (PAPCOLL_PHASE_REPORT: 1 = stderr, else a file), one line each:
 *   papcoll phases: rank R coll C algorithm A role root|leader|other calls N
 *   in_call_s T shm_copy_s X shm_wait_s Y rest_s Z
 * `papcoll phases FILE` summarises them (means per call per process).
 * Off (the default) it costs one predictable branch per copy and wait.
 * Nested collectives (a hierarchical algorithm's inner call) count in the
 * outer call only.
 */
#ifndef PC_CORE_PHASE_H
#define PC_CORE_PHASE_H

enum { PC_PHASE_SHM_COPY, PC_PHASE_SHM_WAIT, PC_NPHASES };

extern int pc_phase_enabled; /* PAPCOLL_PHASE_REPORT set (read at the first call) */

double pc_phase_now(void);
/* Adds the time since t0 (from pc_phase_now) to phase `which` of the
 * current call, if one is being profiled. */
void pc_phase_add(int which, double t0);

/* This process leads its node in the current call (role `leader`). */
void pc_phase_mark_leader(void);

/* Around a top-level call: begin returns a token for end (0 when off or
 * nested); end files the call's times under (coll, algorithm, role). */
int pc_phase_call_begin(double *start);
void pc_phase_call_end(int token, double start, const char *coll, const char *algorithm, int is_root);

/* At MPI_Finalize: append this process's sums to the report. */
void pc_phase_report(void);

#endif
