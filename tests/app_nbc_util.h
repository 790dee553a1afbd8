/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app_nbc_util.h - what the nonblocking collectives' test programs
 * (app_nbc.c, app_nbc_blocks.c: unmodified MPI programs) share: failure
 * counting, the setup (seed, watchdog, papcoll's last-algorithm query),
 * seeded random delays, completing requests in one of 8 ways (persistent
 * ones among them: app_mixed.c), error classes compared with the MPI
 * library's.
 */
#ifndef APP_NBC_UTIL_H
#define APP_NBC_UTIL_H

#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int failures, rank_w;
static unsigned seed;
static const char *(*last_algorithm)(void); /* papcoll's, when preloaded */

#include "app_check.h"

static void delay(void)
{
    int us = rand_r(&seed) % 4 == 0 ? rand_r(&seed) % 3000 : 0;
    if (us) usleep((useconds_t)us);
}

/* After MPI_Init: rank_w, a watchdog (a hang is a failure), the delays'
 * seed from argv[1], papcoll_last_algorithm when papcoll is preloaded;
 * returns argv[2] (or NULL). */
static const char *app_nbc_setup(int argc, char **argv)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_w);
    alarm(100);
    seed = (unsigned)(argc > 1 ? atoi(argv[1]) : 1) * 7919u + (unsigned)rank_w;
    last_algorithm = (const char *(*)(void))dlsym(RTLD_DEFAULT, "papcoll_last_algorithm");
    return argc > 2 ? argv[2] : NULL;
}

/* MPI_Init and app_nbc_setup; *expect = argv[2] (or NULL); returns the
 * number of processes. */
static inline int app_nbc_init(int *argc, char ***argv, const char **expect)
{
    int p;
    MPI_Init(argc, argv);
    *expect = app_nbc_setup(*argc, *argv);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    return p;
}

/* The program's failures summed over every process; rank 0 prints
 * "<name>: np=P <what>: OK" (or FAILED).  Returns the exit status. */
static inline int app_nbc_summary(const char *name, const char *what)
{
    int all = 0, p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_w == 0) printf("%s: np=%d %s: %s\n", name, p, what, all ? "FAILED" : "OK");
    return all != 0;
}

/* ---- completion in one of 8 ways ---- */

/* Completes req[0..n) by way how % 8 (Wait, Waitall, Waitany, Waitsome,
 * Test, Testall, Testany, Testsome); after it every request must be
 * MPI_REQUEST_NULL but the persistent ones (persistent[i] nonzero), which
 * must stay (inactive). */
static int complete_some_persistent(MPI_Request *req, int n, int how, const char *persistent)
{
    int flag, idx, out, indices[64];
    static MPI_Status st[64];
    switch (how % 8) {
    case 0: for (int i = n - 1; i >= 0; i--) MPI_Wait(&req[i], MPI_STATUS_IGNORE); break;
    case 1: MPI_Waitall(n, req, st); break;
    case 2: /* until every request is null */
        for (;;) { MPI_Waitany(n, req, &idx, MPI_STATUS_IGNORE); if (idx == MPI_UNDEFINED) break; }
        break;
    case 3:
        for (;;) { MPI_Waitsome(n, req, &out, indices, st); if (out == MPI_UNDEFINED) break; CHECK(out > 0, "waitsome %d", out); }
        break;
    case 4: for (int i = 0; i < n; i++) do { MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE); if (!flag) delay(); } while (!flag); break;
    case 5: do { MPI_Testall(n, req, &flag, st); if (!flag) delay(); } while (!flag); break;
    case 6:
        for (;;) { MPI_Testany(n, req, &idx, &flag, MPI_STATUS_IGNORE); if (flag && idx == MPI_UNDEFINED) break; if (!flag) delay(); }
        break;
    case 7:
        for (;;) { MPI_Testsome(n, req, &out, indices, st); if (out == MPI_UNDEFINED) break; if (out == 0) delay(); }
        break;
    }
    for (int i = 0; i < n; i++)
        if (persistent && persistent[i]) CHECK(req[i] != MPI_REQUEST_NULL, "persistent request %d freed (way %d)", i, how % 8);
        else CHECK(req[i] == MPI_REQUEST_NULL, "request %d not freed (way %d)", i, how % 8);
    return 0;
}

static inline int complete(MPI_Request *req, int n, int how) { return complete_some_persistent(req, n, how, NULL); }

/* ---- error classes against the MPI library's ---- */

static inline int cls(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &c);
    return c;
}

/* ours (MPI_I<coll>) and theirs (PMPI_I<coll>) fail with the same class */
#define SAME(name, ours, theirs)                                                               \
    do {                                                                                       \
        int a_ = cls(ours), b_ = cls(theirs);                                                  \
        CHECK(a_ == b_, "%s: class %d, the MPI library gives %d", name, a_, b_);               \
        CHECK(a_ != MPI_SUCCESS, "%s: accepted", name);                                         \
    } while (0)

#endif
