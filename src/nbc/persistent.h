/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent.h - MPI-4's persistent collectives (MPI_<Coll>_init, Open MPI's
 * MPIX_<Coll>_init) on papcoll's nonblocking schedules (docs/nonblocking.md,
 * "Persistent collectives").
 *
 * The handle.  A generalized request cannot be persistent (it is freed when
 * it completes), so the program holds a real persistent request of the MPI
 * library that papcoll recognises: PMPI_Recv_init of 0 bytes from rank 0 of
 * MPI_COMM_SELF (itself), never started, hence always inactive in the library's eyes
 * (not from MPI_PROC_NULL: MPICH 4.0.2's MPI_Request_free of one breaks the
 * persistent collectives made after it)
 * (MPI_Wait returns at once with an empty status, Waitany and Waitsome skip
 * it, MPI_Request_free frees it).  papcoll keeps a table from that handle to
 * the request's object: its schedule, built once at init, and the
 * generalized request of its current run (pc_nbc_start_run), made at each
 * MPI_Start.  Inside the interposed completion calls (pmpi/nonblocking.c)
 * the handle of an active request is swapped for its run's generalized
 * request, in the program's array, for the duration of the call: when the
 * library completes (and frees) that one, the request becomes inactive and
 * the program's array gets its handle back, so the program sees what MPI
 * specifies for a persistent request.  This is what MPICH and Open MPI do
 * inside the library (a persistent request whose start re-runs a schedule
 * built at init: MPICH's MPIR_<Coll>_init, Open MPI's coll/libnbc
 * *_init); from outside, the swap is the one place they can be joined.
 *
 * Messages.  MPI lets processes start persistent collectives in any order
 * (only the init calls are ordered), so a request's tag is fixed at init:
 * its number among the persistent requests of the communicator, on a
 * communicator of papcoll's own for them (a duplicate of the private one,
 * made at the first persistent init on the communicator), never confused
 * with the nonblocking collectives' tags.  Two runs of one request never
 * overlap and every message of a run is received in it, so consecutive runs
 * with one tag do not mix either.
 *
 * Making one.  papcoll_<coll>_init (persistent_front.c) sets this thread's
 * maker (pc_persist_maker) and calls the collective's nonblocking front
 * (front.c) unchanged: its selection and checks run once; where it would
 * post (pc_nbc_next, pc_nbc_start) it asks pc_persist_making() and builds
 * the request instead; where it would call the MPI library's own
 * PMPI_I<coll>, PC_NBC_NATIVE calls the maker's native init instead
 * (PMPI_<Coll>_init or PMPIX_<Coll>_init): the library's own persistent
 * request, which MPI_Start passes through.
 */
#ifndef PC_NBC_PERSISTENT_H
#define PC_NBC_PERSISTENT_H

#include "nbc/sched.h"

#include <mpi.h>

/* What a papcoll_<coll>_init call is making: its native init (the MPI
 * library's persistent collective with the call's arguments) and the
 * outcome once taken. */
typedef struct pc_persist_maker {
    const char *coll;                                    /* "bcast": logs */
    int (*native)(const void *args, MPI_Request *request); /* the library's own init */
    const void *args;
    int native_rc;
} pc_persist_maker_t;

/* This thread's maker while a papcoll_<coll>_init runs, else NULL. */
extern __thread pc_persist_maker_t *pc_persist_maker;

static inline int pc_persist_making(void) { return pc_persist_maker != NULL; }

/* In a front's native paths: when a persistent request is being made, makes
 * the library's own (the maker's native init) and returns 1 (its result in
 * pc_persist_maker->native_rc); else 0. */
int pc_persist_native_taken(MPI_Request *request);

/* The front's `return PMPI_I<coll>(...)`, written once:
 * return PC_NBC_NATIVE(request, PMPI_I<coll>(...)). */
#define PC_NBC_NATIVE(request, call) \
    (pc_persist_native_taken(request) ? pc_persist_maker->native_rc : (call))

/* The communicator and tag of the next persistent request on comm (papcoll's
 * context and its persistent communicator, built on first use:
 * collective). */
int pc_persist_next(MPI_Comm comm, MPI_Comm *pcomm, int *tag, unsigned long *seq);

/* Makes the persistent request of schedule s (taken over, also on failure)
 * on the communicator and tag of pc_persist_next: *request = its handle. */
int pc_persist_create(pc_nbc_sched_t *s, MPI_Comm pcomm, int tag, MPI_Request *request);

/* ---- the interposer's side (pmpi/persistent.c, pmpi/nonblocking.c) ---- */

/* Whether any papcoll persistent request exists (0: nothing to look up). */
int pc_persist_any(void);

/* MPI_Start of *request when it is papcoll's: returns 1 and *rc; else 0. */
int pc_persist_start(MPI_Request *request, int *rc);

/* MPI_Request_free of *request when it is papcoll's (inactive: freed now;
 * active: its run goes on and the request goes when it ends): 1 and *rc;
 * else 0. */
int pc_persist_free(MPI_Request *request, int *rc);

/* The swap around a completion call on reqs[0..n): the handles of active
 * papcoll requests replaced by their runs' generalized requests (at[] and
 * obj[] record where and whose), then put back, the completed ones made
 * inactive. */
typedef struct pc_persist_swap {
    int n;                 /* requests swapped */
    int *at;               /* their positions */
    struct pc_persist **obj;
    int small_at[8];
    struct pc_persist *small_obj[8];
} pc_persist_swap_t;

/* Swaps in; 0 when nothing was swapped (no swap_out needed). */
int pc_persist_swap_in(pc_persist_swap_t *sw, int n, MPI_Request reqs[]);
void pc_persist_swap_out(pc_persist_swap_t *sw, MPI_Request reqs[]);

/* Returns `call` (a completion call on reqs[0..n)), with the swap around it
 * when papcoll's persistent requests exist. */
#define PC_PERSIST_AROUND(n, reqs, call)                                        \
    do {                                                                        \
        pc_persist_swap_t pc_sw_;                                               \
        if (!pc_persist_any() || !pc_persist_swap_in(&pc_sw_, (n), (reqs)))     \
            return call;                                                        \
        int pc_rc_ = call;                                                      \
        pc_persist_swap_out(&pc_sw_, (reqs));                                   \
        return pc_rc_;                                                          \
    } while (0)

#endif
