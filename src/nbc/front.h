/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * front.h - what the nonblocking fronts share (front.c defines it; the
 * block collectives' fronts are front_blocks.c and front_reduce_scatter.c):
 * an algorithm table, the choice (PAPCOLL_I<COLL> or a _by_name argument),
 * the schedule built and started, the debug lines.
 */
#ifndef PC_NBC_FRONT_H
#define PC_NBC_FRONT_H

#include "nbc/nbc.h"

#include <mpi.h>

typedef int (*pc_nbc_build_t)(pc_nbc_sched_t *s, const pc_nbc_args_t *a);

typedef struct pc_nbc_algo {
    const char *name;
    pc_nbc_build_t build;   /* NULL: native */
} pc_nbc_algo_t;

/* The entry of table called name, or NULL. */
const pc_nbc_algo_t *pc_nbc_find(const pc_nbc_algo_t *table, const char *name);
/* The algorithm of coll: forced (a _by_name argument) or env
 * (PAPCOLL_I<COLL>); "auto" gives auto_name; *why says which (logs).  NULL
 * for an unknown name (logged). */
const pc_nbc_algo_t *pc_nbc_choose(const char *coll, const pc_nbc_algo_t *table, const char *forced, const char *env,
                                   const char *auto_name, const char **why);
/* Builds algo's schedule for a (rank and size filled here) on comm's
 * private duplicate and starts it; the debug line; errors through comm's
 * handler. */
int pc_nbc_run(const char *coll, const pc_nbc_algo_t *algo, const char *why, pc_nbc_args_t *a, MPI_Comm comm,
               MPI_Request *request);
/* The debug line and last algorithm of a call going to the MPI library:
 * chosen or fallen back to (why), or refused arguments (rc: the class
 * papcoll's checks gave; the library's own call reports them). */
void pc_nbc_native_log(const char *coll, const char *why);
void pc_nbc_refused_log(const char *coll, int rc);

#endif
