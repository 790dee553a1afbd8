/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * phase.c - per-phase times of the collectives (see phase.h).
 */
#include "core/phase.h"
#include "core/lock.h"
#include "core/log.h"
#include "core/params.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { MAX_ROWS = 128 };
enum { ROLE_OTHER, ROLE_LEADER, ROLE_ROOT };
static const char *const role_names[] = {"other", "leader", "root"};

typedef struct {
    const char *coll, *algorithm; /* static strings (the catalogue's) */
    int role;                     /* ROLE_* */
    unsigned long calls;
    double in_call, phase[PC_NPHASES];
} phase_row_t;

int pc_phase_enabled;
static int checked, world_rank; /* the rank, read at the first call (SMPI 3.32 answers 0 during MPI_Finalize) */
static phase_row_t rows[MAX_ROWS];
static int nrows, overflow;
static PC_THREAD_LOCAL int depth;                /* nested top-level calls: only the outer one counts */
static PC_THREAD_LOCAL double current[PC_NPHASES]; /* the call being profiled */
static PC_THREAD_LOCAL int current_leads;          /* pc_phase_mark_leader in it */

double pc_phase_now(void) { return PMPI_Wtime(); }

void pc_phase_add(int which, double t0)
{
    if (depth == 1) current[which] += PMPI_Wtime() - t0;
}

void pc_phase_mark_leader(void)
{
    if (depth > 0) current_leads = 1;
}

int pc_phase_call_begin(double *start)
{
    if (!checked) {
        const char *where = pc_params()->phase_report;
        pc_phase_enabled = where && *where;
        PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
        checked = 1;
    }
    if (!pc_phase_enabled || depth++ > 0) return 0;
    memset(current, 0, sizeof current);
    current_leads = 0;
    *start = PMPI_Wtime();
    return 1;
}

void pc_phase_call_end(int token, double start, const char *coll, const char *algorithm, int is_root)
{
    if (!pc_phase_enabled) return;
    depth--;
    if (!token) return;
    double in_call = PMPI_Wtime() - start;
    int role = is_root ? ROLE_ROOT : current_leads ? ROLE_LEADER : ROLE_OTHER;
    pc_lock();
    phase_row_t *r = NULL;
    for (int i = 0; i < nrows && !r; i++)
        if (rows[i].role == role && !strcmp(rows[i].coll, coll) && !strcmp(rows[i].algorithm, algorithm))
            r = &rows[i];
    if (!r && nrows < MAX_ROWS) {
        r = &rows[nrows++];
        r->coll = coll, r->algorithm = algorithm, r->role = role;
    }
    if (r) {
        r->calls++;
        r->in_call += in_call;
        for (int k = 0; k < PC_NPHASES; k++) r->phase[k] += current[k];
    } else
        overflow = 1;
    pc_unlock();
}

void pc_phase_report(void)
{
    if (!pc_phase_enabled || !nrows) return;
    const char *where = pc_params()->phase_report;
    int rank = world_rank;
    FILE *f = strcmp(where, "1") ? fopen(where, "a") : stderr;
    if (!f) {
        pc_log(PC_LOG_WARN, "PAPCOLL_PHASE_REPORT: cannot open %s", where);
        return;
    }
    /* one buffer, one write: processes appending to one file do not interleave lines */
    char buf[MAX_ROWS * 200];
    size_t used = 0;
    pc_lock();
    for (int i = 0; i < nrows && used < sizeof buf; i++) {
        const phase_row_t *r = &rows[i];
        double rest = r->in_call - r->phase[PC_PHASE_SHM_COPY] - r->phase[PC_PHASE_SHM_WAIT];
        used += (size_t)snprintf(buf + used, sizeof buf - used,
                                 "papcoll phases: rank %d coll %s algorithm %s role %s calls %lu in_call_s %.9g "
                                 "shm_copy_s %.9g shm_wait_s %.9g rest_s %.9g\n",
                                 rank, r->coll, r->algorithm, role_names[r->role], r->calls, r->in_call,
                                 r->phase[PC_PHASE_SHM_COPY], r->phase[PC_PHASE_SHM_WAIT], rest);
    }
    if (overflow && used < sizeof buf)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "papcoll phases: rank %d more than %d rows, the rest dropped\n",
                                 rank, MAX_ROWS);
    pc_unlock();
    if (used > sizeof buf - 1) used = sizeof buf - 1;
    fwrite(buf, 1, used, f);
    if (f != stderr) fclose(f);
    else fflush(f);
}
