/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fortran_requests.c - the Fortran MPI_WAIT, MPI_WAITALL, MPI_WAITANY,
 * MPI_WAITSOME, MPI_TEST, MPI_TESTALL, MPI_TESTANY, MPI_TESTSOME,
 * MPI_START, MPI_STARTALL, MPI_REQUEST_FREE and MPI_REQUEST_GET_STATUS,
 * served by the C ones of nonblocking.c and persistent.c.
 *
 * A Fortran program's papcoll requests need them: a nonblocking one is a
 * generalized request that only papcoll's progress completes (the library's
 * MPI_WAIT would wait forever), a persistent one a handle that papcoll
 * starts and swaps for its run around a completion call (the library would
 * start a receive of its own, or see an inactive request).  Where the MPI
 * library's Fortran routine calls the PMPI_ function, its name is defined
 * here; where it calls the C MPI_ one, papcoll already serves it:
 *  - Open MPI 4.1: every binding calls PMPI_Wait ... (libmpi_mpifh for
 *    mpif.h and `use mpi`, libmpi_usempif08 for mpi_f08): every name of
 *    PC_FORTRAN_NAMES (fortran.h).  Statuses are INTEGER(MPI_STATUS_SIZE)
 *    arrays in every binding; MPI_STATUS(ES)_IGNORE: fortran_sentinels.h.
 *  - MPICH 4.0: mpif.h's and `use mpi`'s mpi_wait_ ... call the C MPI_Wait
 *    ..., mpi_f08's mpi_wait_f08_ ... call PMPI_Wait ... (objdump of
 *    libmpichfort 4.0.2): the _f08_ names only.  type(MPI_Status) is C's
 *    MPI_F08_status, MPI_STATUS(ES)_IGNORE are MPI_F08_STATUS(ES)_IGNORE.
 * Handles go through MPI_Request_f2c / c2f (mpi_f08's type(MPI_Request) is
 * its INTEGER MPI_VAL), indices from 0-based to Fortran's 1-based.
 */
#include "fortran_sentinels.h"

#include <mpi.h>

#include <stdlib.h>

#include "fortran.h"

#if defined(OPEN_MPI) || (defined(MPICH_VERSION) && !defined(PAPCOLL_SMPI))

#if defined(OPEN_MPI)
enum { F_STATUS_INTS = sizeof(MPI_Status) / sizeof(MPI_Fint) }; /* MPI_STATUS_SIZE */
static int status_ignored(const MPI_Fint *s) { return pc_fortran_is_status_ignore(s); }
static int statuses_ignored(const MPI_Fint *s) { return pc_fortran_is_statuses_ignore(s); }
static void status_c2f(const MPI_Status *c, MPI_Fint *f) { PMPI_Status_c2f(c, f); }
#define PC_REQUEST_NAMES(impl, upper, lower, params) PC_FORTRAN_NAMES(impl, upper, lower, params)
#else
enum { F_STATUS_INTS = sizeof(MPI_F08_status) / sizeof(MPI_Fint) };
static int status_ignored(const MPI_Fint *s) { return (const void *)s == (const void *)MPI_F08_STATUS_IGNORE; }
static int statuses_ignored(const MPI_Fint *s) { return (const void *)s == (const void *)MPI_F08_STATUSES_IGNORE; }
static void status_c2f(const MPI_Status *c, MPI_Fint *f) { PMPI_Status_c2f08(c, (MPI_F08_status *)f); }
#define PC_REQUEST_NAMES(impl, upper, lower, params) void lower##_f08_ params __attribute__((alias(#impl)))
#endif

/* gfortran's LOGICAL: .true. is 1 (as Open MPI's and MPICH's wrappers write it). */
static MPI_Fint logical(int c) { return c ? 1 : 0; }

/* The C side of a Fortran array of requests and its statuses. */
enum { SMALL = 16 };
typedef struct {
    int n;              /* requests (0 for a negative count, which the C call reports) */
    int ignore;         /* statuses ignored, or none wanted */
    MPI_Request *req;
    MPI_Status *st;
    MPI_Request small_req[SMALL];
    MPI_Status small_st[SMALL];
} c_set_t;

static void set_free(c_set_t *s)
{
    if (s->req != s->small_req) free(s->req);
    if (s->st != s->small_st) free(s->st);
}

/* Converts count Fortran requests (and room for their statuses unless
 * fstatuses is NULL or MPI_STATUSES_IGNORE); MPI_ERR_NO_MEM if out of memory. */
static int set_in(c_set_t *s, const MPI_Fint *count, const MPI_Fint *freqs, const MPI_Fint *fstatuses)
{
    s->n = *count > 0 ? (int)*count : 0;
    s->ignore = !fstatuses || statuses_ignored(fstatuses);
    s->req = s->n <= SMALL ? s->small_req : malloc((size_t)s->n * sizeof *s->req);
    s->st = s->ignore || s->n <= SMALL ? s->small_st : malloc((size_t)s->n * sizeof *s->st);
    if (!s->req || !s->st) {
        set_free(s);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < s->n; i++) s->req[i] = PMPI_Request_f2c(freqs[i]);
    return MPI_SUCCESS;
}

static MPI_Status *set_statuses(c_set_t *s) { return s->ignore ? MPI_STATUSES_IGNORE : s->st; }

/* Every handle back (completed: MPI_REQUEST_NULL; persistent: its handle),
 * the first nstatus statuses, and the memory freed. */
static void set_out(c_set_t *s, MPI_Fint *freqs, MPI_Fint *fstatuses, int nstatus)
{
    for (int i = 0; i < s->n; i++) freqs[i] = PMPI_Request_c2f(s->req[i]);
    for (int k = 0; !s->ignore && k < nstatus && k < s->n; k++) status_c2f(&s->st[k], fstatuses + k * F_STATUS_INTS);
    set_free(s);
}

static MPI_Fint index_c2f(int i) { return i == MPI_UNDEFINED ? MPI_UNDEFINED : i + 1; }

/* ---- one request ---- */

static void fortran_wait(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierror)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    MPI_Status st;
    int ignore = status_ignored(status);
    pc_fortran_set_ierror(ierror, MPI_Wait(&c, ignore ? MPI_STATUS_IGNORE : &st));
    *request = PMPI_Request_c2f(c);
    if (!ignore) status_c2f(&st, status);
}

static void fortran_test(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    MPI_Status st;
    int ignore = status_ignored(status), done = 0;
    pc_fortran_set_ierror(ierror, MPI_Test(&c, &done, ignore ? MPI_STATUS_IGNORE : &st));
    *request = PMPI_Request_c2f(c);
    *flag = logical(done);
    if (done && !ignore) status_c2f(&st, status);
}

static void fortran_request_get_status(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror)
{
    MPI_Status st;
    int ignore = status_ignored(status), done = 0;
    pc_fortran_set_ierror(ierror, MPI_Request_get_status(PMPI_Request_f2c(*request), &done,
                                                         ignore ? MPI_STATUS_IGNORE : &st));
    *flag = logical(done);
    if (done && !ignore) status_c2f(&st, status);
}

static void fortran_start(MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    pc_fortran_set_ierror(ierror, MPI_Start(&c));
    *request = PMPI_Request_c2f(c);
}

static void fortran_request_free(MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    pc_fortran_set_ierror(ierror, MPI_Request_free(&c));
    *request = PMPI_Request_c2f(c);
}

/* ---- arrays of requests ---- */

static void fortran_waitall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierror)
{
    c_set_t s;
    int rc = set_in(&s, count, requests, statuses);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Waitall((int)*count, s.req, set_statuses(&s));
        set_out(&s, requests, statuses, s.n);
    }
    pc_fortran_set_ierror(ierror, rc);
}

static void fortran_testall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                            MPI_Fint *ierror)
{
    c_set_t s;
    int done = 0, rc = set_in(&s, count, requests, statuses);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Testall((int)*count, s.req, &done, set_statuses(&s));
        set_out(&s, requests, statuses, done ? s.n : 0);
    }
    *flag = logical(done);
    pc_fortran_set_ierror(ierror, rc);
}

static void fortran_waitany(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                            MPI_Fint *ierror)
{
    c_set_t s;
    MPI_Status st;
    int i = MPI_UNDEFINED, ignore = status_ignored(status), rc = set_in(&s, count, requests, NULL);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Waitany((int)*count, s.req, &i, ignore ? MPI_STATUS_IGNORE : &st);
        set_out(&s, requests, NULL, 0);
        if (!ignore && i != MPI_UNDEFINED) status_c2f(&st, status);
    }
    *index = index_c2f(i);
    pc_fortran_set_ierror(ierror, rc);
}

static void fortran_testany(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                            MPI_Fint *status, MPI_Fint *ierror)
{
    c_set_t s;
    MPI_Status st;
    int i = MPI_UNDEFINED, done = 0, ignore = status_ignored(status), rc = set_in(&s, count, requests, NULL);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Testany((int)*count, s.req, &i, &done, ignore ? MPI_STATUS_IGNORE : &st);
        set_out(&s, requests, NULL, 0);
        if (done && !ignore && i != MPI_UNDEFINED) status_c2f(&st, status);
    }
    *index = index_c2f(i);
    *flag = logical(done);
    pc_fortran_set_ierror(ierror, rc);
}

/* MPI_WAITSOME (wait) and MPI_TESTSOME. */
static void some(int wait, MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                 MPI_Fint *statuses, MPI_Fint *ierror)
{
    c_set_t s;
    int out = MPI_UNDEFINED, rc = set_in(&s, incount, requests, statuses);
    int *idx = rc == MPI_SUCCESS && s.n > 0 ? malloc((size_t)s.n * sizeof *idx) : NULL;
    if (rc == MPI_SUCCESS && s.n > 0 && !idx) {
        set_free(&s);
        rc = MPI_ERR_NO_MEM;
    } else if (rc == MPI_SUCCESS) {
        rc = wait ? MPI_Waitsome((int)*incount, s.req, &out, idx, set_statuses(&s))
                  : MPI_Testsome((int)*incount, s.req, &out, idx, set_statuses(&s));
        set_out(&s, requests, statuses, out == MPI_UNDEFINED ? 0 : out);
        for (int k = 0; out != MPI_UNDEFINED && k < out; k++) indices[k] = idx[k] + 1;
    }
    free(idx);
    *outcount = out;
    pc_fortran_set_ierror(ierror, rc);
}

static void fortran_waitsome(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                             MPI_Fint *statuses, MPI_Fint *ierror)
{
    some(1, incount, requests, outcount, indices, statuses, ierror);
}

static void fortran_testsome(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                             MPI_Fint *statuses, MPI_Fint *ierror)
{
    some(0, incount, requests, outcount, indices, statuses, ierror);
}

static void fortran_startall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierror)
{
    c_set_t s;
    int rc = set_in(&s, count, requests, NULL);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Startall((int)*count, s.req);
        set_out(&s, requests, NULL, 0);
    }
    pc_fortran_set_ierror(ierror, rc);
}

PC_REQUEST_NAMES(fortran_wait, MPI_WAIT, mpi_wait, (MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_test, MPI_TEST, mpi_test,
                 (MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_request_get_status, MPI_REQUEST_GET_STATUS, mpi_request_get_status,
                 (MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_start, MPI_START, mpi_start, (MPI_Fint *request, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_request_free, MPI_REQUEST_FREE, mpi_request_free, (MPI_Fint *request, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_waitall, MPI_WAITALL, mpi_waitall,
                 (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_testall, MPI_TESTALL, mpi_testall,
                 (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_waitany, MPI_WAITANY, mpi_waitany,
                 (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_testany, MPI_TESTANY, mpi_testany,
                 (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag, MPI_Fint *status,
                  MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_waitsome, MPI_WAITSOME, mpi_waitsome,
                 (MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                  MPI_Fint *statuses, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_testsome, MPI_TESTSOME, mpi_testsome,
                 (MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                  MPI_Fint *statuses, MPI_Fint *ierror));
PC_REQUEST_NAMES(fortran_startall, MPI_STARTALL, mpi_startall, (MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierror));

#endif
