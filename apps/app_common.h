/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_common.h - what the application benchmarks of apps/ share: their
 * command line, the block distribution of rows or columns, the deterministic
 * input generator, the timed collective calls, error handling and the
 * one-line summary.
 *
 * The applications call plain MPI.  Natively they reach papcoll only when
 * libpapcoll_mpi.so is preloaded (found at run time with dlsym, so that the
 * summary names the algorithm that ran).  Under SimGrid SMPI an interposer
 * cannot be preloaded (every rank lives in the smpirun process), so the SMPI
 * flavour (<app>-smpi, compiled with PAPCOLL_APP_SMPI: the SMPI computation
 * model of app_compute.c) is linked with papcoll's interposer
 * papcoll_mpi_smpi, the way any program is built with papcoll-smpicc
 * (docs/simulation.md "Unmodified programs under SMPI"): its MPI_Bcast,
 * MPI_Reduce and MPI_Alltoall run papcoll, whose algorithm is PAPCOLL_BCAST /
 * PAPCOLL_REDUCE / PAPCOLL_ALLTOALL (a name, "native" for SMPI's own
 * collective, or "auto", the default), and papcoll_last_algorithm is a weak
 * reference for the summary.
 */
#ifndef PAPCOLL_APP_COMMON_H
#define PAPCOLL_APP_COMMON_H

#include "app_compute.h"

#include <mpi.h>

#include <stdint.h>

/* The options every application takes (app_parse_options). */
typedef struct {
    long n;         /* problem size: vertices, or matrix order */
    uint64_t seed;  /* input generator seed */
    long iters;     /* repetitions (whole solves, or matrix-vector products) */
    int check;      /* compare with a serial computation on rank 0 */
    app_compute_mode_t compute; /* --compute (app_compute.h); app_parse_options sets the flavour's default */
    app_noise_t noise;          /* --noise (app_compute.h), "none" by default */
} app_options_t;

/* Seconds spent inside one kind of timed collective, and what ran last. */
typedef struct {
    double seconds;
    long calls;
    const char *algorithm; /* papcoll's last algorithm, or NULL when papcoll is absent */
} app_timer_t;

/* Aborts the job with the MPI error string of RC when RC is not MPI_SUCCESS. */
#define APP_CHECK(call)                                                                                  \
    do {                                                                                                 \
        int app_check_rc_ = (call);                                                                      \
        if (app_check_rc_ != MPI_SUCCESS) app_fail_mpi(app_check_rc_, #call, __FILE__, __LINE__);        \
    } while (0)

void app_fail_mpi(int rc, const char *what, const char *file, int line);
/* Prints "APP: MESSAGE" on stderr and aborts the job (exit status 2). */
void app_fail(const char *app, const char *message);

/* Parses argv into OPT (defaults given in OPT, except compute and noise,
 * whose defaults are the flavour's and "none").  Returns 0 to run, 1 when
 * --help was printed (by rank 0; exit 0), -1 on a bad option (message printed
 * by rank 0; exit 2).  DESCRIPTION heads the --help text. */
int app_parse_options(int argc, char **argv, int rank, const char *app, const char *description,
                      app_options_t *opt);

/* MPI_Init, MPI_ERRORS_RETURN on MPI_COMM_WORLD, its rank and size, then
 * app_parse_options and app_compute_init.  Returns -1 to run; otherwise MPI is finalized (or never
 * started) and the value is main's exit status (0 after --help, 2 on a bad
 * option or a failed MPI_Init). */
int app_start(int *argc, char ***argv, const char *app, const char *description, app_options_t *opt, int *rank,
              int *p);

/* Block distribution of N items over P ranks: rank R holds COUNT items
 * starting at FIRST; the first N % P ranks hold one more. */
void app_block_range(long n, int p, int r, long *first, long *count);
/* The rank holding item I under app_block_range. */
int app_block_owner(long n, int p, long i);

/* A deterministic value in [0, 1) for (SEED, I, J), independent of P. */
double app_unit(uint64_t seed, uint64_t i, uint64_t j);

/* MPI_Bcast / MPI_Reduce, timed into T (or papcoll's, see above).  Each timed
 * collective first ends the computation phase (app_settle: its modelled
 * cost and noise) and starts the next one on exit (app_resume); the timer
 * covers the collective only. */
int app_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, app_timer_t *t);
int app_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm, app_timer_t *t);
/* MPI_Alltoall (papcoll's when it is there: PAPCOLL_ALLTOALL chooses), timed
 * into T. */
int app_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm, app_timer_t *t);

/* Prints, on rank 0, the summary line
 *   app=APP,n=N,p=P,iters=I,collective=COLL,impl=IMPL,solve_s=S,COLL_mean_s=M,COLL_max_s=X,check=CHECK,
 *   compute=MODE,noise=SPEC,work_mean_s=W,noise_mean_s=Z
 * solve_s: SOLVE_SECONDS (this rank's total over the iterations) divided by
 * the iterations, max over ranks; COLL_mean_s / COLL_max_s: the same of T's
 * seconds, mean and max over ranks; IMPL: "mpi" without papcoll, else
 * "papcoll:ALGORITHM" (the algorithm of the last timed call); W and Z: the
 * computation phases' seconds per repetition (noise included) and the noise
 * model's part of them, means over ranks (app_compute_totals).  Collective. */
int app_report(const char *app, const app_options_t *opt, const char *coll, double solve_seconds,
               const app_timer_t *t, const char *check, MPI_Comm comm);

#endif
