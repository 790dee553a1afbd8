/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * large_count.c - libpapcoll_mpi for MPI-4's large-count functions:
 * MPI_Bcast_c, MPI_Reduce_c, MPI_Allreduce_c, MPI_Reduce_scatter(_block)_c,
 * MPI_Allgather(v)_c, MPI_Alltoall(v)_c, MPI_Gather(v)_c, MPI_Scatter(v)_c,
 * MPI_Scan_c and MPI_Exscan_c run through papcoll.  Built only where the MPI
 * library has them (PAPCOLL_HAVE_MPI_LARGE_COUNT, a configure check: MPICH
 * 4.0 has them, Open MPI 4.1 does not); empty otherwise.
 *
 * Every count and displacement within int: papcoll's ordinary path,
 * unchanged (the same algorithms, checks and error classes as MPI_<coll>).
 * Beyond int:
 *  - bcast and the equal-block collectives (allgather, alltoall, gather,
 *    scatter): each side whose count exceeds INT_MAX is folded into one
 *    element of a derived type (BigMPI's MPIX_Type_contiguous_x: INT_MAX-
 *    element chunks and a remainder joined by MPI_Type_create_struct,
 *    resized to the extent of count elements), so papcoll's algorithms see
 *    count 1 of a type larger than 2 GiB.  Processes may describe the same
 *    data differently (MPI only asks for equal type signatures): papcoll
 *    moves bytes, so a folded side meets an ordinary one.
 *  - reduce, allreduce, scan, exscan: count and datatype are the same on
 *    every process, so the vector is cut into pieces of at most INT_MAX
 *    elements, one papcoll call each.  Exact for every op, predefined or
 *    user-defined, commutative or not: MPI's ops are elementwise, element j
 *    of the result only depends on element j of every contribution.
 *  - reduce_scatter(_block): its counts are the same on every process;
 *    beyond int, one papcoll reduce (itself in pieces) per process, root i
 *    receiving block i: papcoll's reduce algorithms, p calls.
 *  - the v forms (allgatherv, alltoallv, gatherv, scatterv): only a
 *    process's own counts and displacements are known to it, so the
 *    processes first agree (a one-int PMPI_Allreduce on comm) whether all of
 *    theirs fit in int: then papcoll's v path; else the library's _c
 *    function with the caller's arguments (debug log line).
 *  - intercommunicators: the library's _c function.
 * PAPCOLL_LARGE_COUNT_LIMIT lowers the INT_MAX of these rules, so the tests
 * run every path beyond int on small buffers against the library's _c.
 * A count below INT_MIN goes to the ordinary path as -1 (MPI_ERR_COUNT); a
 * side with an invalid datatype is not folded, so the ordinary path reports
 * it (MPI_ERR_TYPE).
 *
 * Fortran: MPICH 4.0's mpi_f08 large-count procedures (mpi_bcast_f08ts_large_
 * ...) call the C MPI_Bcast_c, so they reach these functions; Open MPI 4.1
 * has neither.
 */
#include <papcoll.h>

#include "core/args.h"
#include "core/log.h"
#include "core/params.h"
#include "select/site.h"

#ifdef PAPCOLL_HAVE_MPI_LARGE_COUNT

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* INT_MAX, or a lower PAPCOLL_LARGE_COUNT_LIMIT (tests: the beyond-int
 * paths on small buffers). */
static MPI_Count limit(void)
{
    long l = pc_params()->large_count_limit;
    return l >= 1 && l < INT_MAX ? (MPI_Count)l : INT_MAX;
}

/* n takes the ordinary path (negative counts too: it reports them). */
static int fits(MPI_Count n) { return n <= limit() && n >= INT_MIN; }

/* n as an int for the ordinary path (its checks report what is wrong). */
static int clamp(MPI_Count n) { return n > INT_MAX ? INT_MAX : n < INT_MIN ? -1 : (int)n; }

/* A datatype that can be folded (valid and committed). */
static int foldable(MPI_Datatype type) { return pc_check_type_count(0, type) == MPI_SUCCESS; }

/* count elements of type as one element of *out (committed; the caller
 * frees it): contiguous chunks of limit() (INT_MAX) elements, the remainder
 * after them, resized to type's lower bound and count x its extent. */
static int fold(MPI_Count count, MPI_Datatype type, MPI_Datatype *out)
{
    MPI_Count piece = limit(), chunks = count / piece, rest = count % piece;
    MPI_Aint lb, extent;
    if (chunks > INT_MAX) return MPI_ERR_COUNT;
    int rc = PMPI_Type_get_extent(type, &lb, &extent);
    MPI_Datatype chunk = MPI_DATATYPE_NULL, body = MPI_DATATYPE_NULL, tail = MPI_DATATYPE_NULL,
                 joined = MPI_DATATYPE_NULL;
    if (rc == MPI_SUCCESS) rc = PMPI_Type_contiguous((int)piece, type, &chunk);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_contiguous((int)chunks, chunk, &body);
    if (rc == MPI_SUCCESS && rest) rc = PMPI_Type_contiguous((int)rest, type, &tail);
    if (rc == MPI_SUCCESS && rest) {
        int lengths[2] = {1, 1};
        MPI_Aint displs[2] = {0, (MPI_Aint)(chunks * piece) * extent};
        MPI_Datatype types[2] = {body, tail};
        rc = PMPI_Type_create_struct(2, lengths, displs, types, &joined);
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Type_create_resized(rest ? joined : body, lb, (MPI_Aint)count * extent, out);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(out);
    MPI_Datatype *made[] = {&chunk, &body, &tail, &joined};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        if (*made[i] != MPI_DATATYPE_NULL) PMPI_Type_free(made[i]);
    return rc;
}

/* One side (count, type) of a call: folded when count exceeds int and the
 * side is significant here, else as it was (clamped). */
typedef struct {
    int count;
    MPI_Datatype type, folded;
} side_t;

static int side_make(side_t *s, MPI_Count count, MPI_Datatype type, int significant)
{
    s->count = clamp(count);
    s->type = type;
    s->folded = MPI_DATATYPE_NULL;
    if (!significant || fits(count) || !foldable(type)) return MPI_SUCCESS;
    int rc = fold(count, type, &s->folded);
    if (rc != MPI_SUCCESS) return rc;
    s->count = 1;
    s->type = s->folded;
    return MPI_SUCCESS;
}

static void side_free(side_t *s)
{
    if (s->folded != MPI_DATATYPE_NULL) PMPI_Type_free(&s->folded);
}

static int comm_size(MPI_Comm comm, int *size)
{
    if (pc_check_comm(comm) != MPI_SUCCESS) return MPI_ERR_COMM;
    return PMPI_Comm_size(comm, size);
}

static int rank_of(MPI_Comm comm)
{
    int rank = -1;
    PMPI_Comm_rank(comm, &rank);
    return rank;
}

/* An intercommunicator: the library's _c function (every process of both
 * groups knows it, so all take the same path). */
static int inter(MPI_Comm comm) { return pc_check_comm(comm) == MPI_SUCCESS && pc_is_intercomm(comm); }

static void log_fallback(const char *name, const char *why)
{
    pc_log(PC_LOG_DEBUG, "%s: %s: the MPI library's %s runs it", name, why, name);
}

/* The debug line of a call papcoll runs (before papcoll's own line). */
static void log_served(const char *name, const char *how)
{
    if (pc_log_enabled(PC_LOG_DEBUG)) pc_log(PC_LOG_DEBUG, "%s: %s", name, how);
}

#define WITHIN_INT "counts within int: papcoll's path"

/* Bcast: fold. */

static int bcast_c(void *buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm)
{
    if (fits(count) || count < 0) {
        log_served("MPI_Bcast_c", WITHIN_INT);
        return papcoll_bcast(buf, clamp(count), type, root, comm);
    }
    if (inter(comm)) {
        log_fallback("MPI_Bcast_c", "intercommunicator");
        return PMPI_Bcast_c(buf, count, type, root, comm);
    }
    side_t s;
    int rc = side_make(&s, count, type, 1);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    log_served("MPI_Bcast_c", "count beyond INT_MAX: one element of a folded datatype");
    rc = papcoll_bcast(buf, s.count, s.type, root, comm);
    side_free(&s);
    return rc;
}

int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    PC_SITE_RETURN(bcast_c(buffer, count, datatype, root, comm));
}

/* Reductions: pieces of at most INT_MAX elements. */

typedef enum { RED_REDUCE, RED_ALLREDUCE, RED_SCAN, RED_EXSCAN } red_t;

static int reduce_piece(red_t kind, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                        int root, MPI_Comm comm)
{
    switch (kind) {
    case RED_REDUCE: return papcoll_reduce(sendbuf, recvbuf, count, type, op, root, comm);
    case RED_ALLREDUCE: return papcoll_allreduce(sendbuf, recvbuf, count, type, op, comm);
    case RED_SCAN: return papcoll_scan(sendbuf, recvbuf, count, type, op, comm);
    default: return papcoll_exscan(sendbuf, recvbuf, count, type, op, comm);
    }
}

static const char *const red_name[] = {"MPI_Reduce_c", "MPI_Allreduce_c", "MPI_Scan_c", "MPI_Exscan_c"};

static int reduction_c(red_t kind, const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
                       int root, MPI_Comm comm)
{
    if (fits(count) || count < 0 || !foldable(type)) {
        log_served(red_name[kind], WITHIN_INT);
        return reduce_piece(kind, sendbuf, recvbuf, clamp(count), type, op, root, comm);
    }
    if (inter(comm)) {
        log_fallback(red_name[kind], "intercommunicator");
        switch (kind) {
        case RED_REDUCE: return PMPI_Reduce_c(sendbuf, recvbuf, count, type, op, root, comm);
        case RED_ALLREDUCE: return PMPI_Allreduce_c(sendbuf, recvbuf, count, type, op, comm);
        case RED_SCAN: return PMPI_Scan_c(sendbuf, recvbuf, count, type, op, comm);
        default: return PMPI_Exscan_c(sendbuf, recvbuf, count, type, op, comm);
        }
    }
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(type, &lb, &extent);
    log_served(red_name[kind], "count beyond INT_MAX: pieces of at most INT_MAX elements");
    MPI_Count piece = limit();
    int rc = MPI_SUCCESS;
    for (MPI_Count done = 0; done < count && rc == MPI_SUCCESS;) {
        int n = (int)(count - done > piece ? piece : count - done);
        MPI_Aint at = (MPI_Aint)done * extent;
        const void *s = sendbuf == MPI_IN_PLACE || !sendbuf ? sendbuf : (const char *)sendbuf + at;
        void *r = recvbuf ? (char *)recvbuf + at : recvbuf;
        rc = reduce_piece(kind, s, r, n, type, op, root, comm);
        done += n;
    }
    return rc;
}

int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm)
{
    PC_SITE_RETURN(reduction_c(RED_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm));
}

int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm)
{
    PC_SITE_RETURN(reduction_c(RED_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, 0, comm));
}

int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    PC_SITE_RETURN(reduction_c(RED_SCAN, sendbuf, recvbuf, count, datatype, op, 0, comm));
}

int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm)
{
    PC_SITE_RETURN(reduction_c(RED_EXSCAN, sendbuf, recvbuf, count, datatype, op, 0, comm));
}

/* Reduce-scatter: the counts are the same on every process.  Beyond int,
 * one reduce per process (through reduction_c: pieces), root i receiving
 * block i, in rank order: exact for every op, as the reduce keeps the rank
 * order.  MPI_IN_PLACE: the input is recvbuf; root i reduces from its block
 * straight to the front of recvbuf when the two do not overlap (blocks
 * before i, already reduced, are all that is overwritten), else in place
 * in its block, then moved to the front. */
static int reduce_scatter_by_reduces(const char *name, const void *sendbuf, void *recvbuf, const MPI_Count *counts,
                                     MPI_Count each, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    int p = 0, me = rank_of(comm), rc = comm_size(comm, &p);
    MPI_Aint lb, extent, true_lb, true_extent;
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    log_served(name, "count beyond INT_MAX: one reduce per process");
    int inplace = sendbuf == MPI_IN_PLACE;
    const char *in = inplace ? (const char *)recvbuf : (const char *)sendbuf;
    MPI_Count offset = 0;
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++) {
        MPI_Count n = counts ? counts[i] : each;
        const char *block = in + (MPI_Aint)offset * extent;
        if (me != i) {
            rc = reduction_c(RED_REDUCE, block, NULL, n, type, op, i, comm);
        } else if (!inplace) {
            rc = reduction_c(RED_REDUCE, block, recvbuf, n, type, op, i, comm);
        } else if (offset == 0) {
            rc = reduction_c(RED_REDUCE, MPI_IN_PLACE, recvbuf, n, type, op, i, comm);
        } else if (offset >= n) {
            rc = reduction_c(RED_REDUCE, block, recvbuf, n, type, op, i, comm);
        } else {
            rc = reduction_c(RED_REDUCE, MPI_IN_PLACE, (void *)block, n, type, op, i, comm);
            if (rc == MPI_SUCCESS && n > 0)
                memmove((char *)recvbuf + true_lb, block + true_lb, (size_t)((n - 1) * extent + true_extent));
        }
        offset += n;
    }
    return rc;
}


static int reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype type,
                                  MPI_Op op, MPI_Comm comm)
{
    if (fits(recvcount) || recvcount < 0) {
        log_served("MPI_Reduce_scatter_block_c", WITHIN_INT);
        return papcoll_reduce_scatter_block(sendbuf, recvbuf, clamp(recvcount), type, op, comm);
    }
    if (inter(comm)) {
        log_fallback("MPI_Reduce_scatter_block_c", "intercommunicator");
        return PMPI_Reduce_scatter_block_c(sendbuf, recvbuf, recvcount, type, op, comm);
    }
    if (!foldable(type) || pc_check_comm(comm) != MPI_SUCCESS) /* the ordinary path reports them */
        return papcoll_reduce_scatter_block(sendbuf, recvbuf, clamp(recvcount), type, op, comm);
    return reduce_scatter_by_reduces("MPI_Reduce_scatter_block_c", sendbuf, recvbuf, NULL, recvcount, type, op, comm);
}

int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm)
{
    PC_SITE_RETURN(reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm));
}

/* An int copy of n counts (NULL counts: NULL), or *big set when one does not fit. */
static int *int_copy(const MPI_Count *counts, int n, int *big, int *rc)
{
    if (!counts || n <= 0) return NULL;
    int *out = malloc((size_t)n * sizeof *out);
    if (!out) {
        *rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!fits(counts[i])) *big = 1;
        out[i] = clamp(counts[i]);
    }
    return out;
}

static int *int_copy_aint(const MPI_Aint *displs, int n, int *big, int *rc)
{
    if (!displs || n <= 0) return NULL;
    int *out = malloc((size_t)n * sizeof *out);
    if (!out) {
        *rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!fits(displs[i])) *big = 1;
        out[i] = fits(displs[i]) ? (int)displs[i] : 0;
    }
    return out;
}

static int reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype type,
                            MPI_Op op, MPI_Comm comm)
{
    int p = 0, big = 0, rc = comm_size(comm, &p);
    if (rc != MPI_SUCCESS) return papcoll_reduce_scatter(sendbuf, recvbuf, NULL, type, op, comm);
    int *counts = int_copy(recvcounts, p, &big, &rc);
    if (rc != MPI_SUCCESS) return pc_error(comm, rc);
    if (!big) {
        log_served("MPI_Reduce_scatter_c", WITHIN_INT);
        rc = papcoll_reduce_scatter(sendbuf, recvbuf, counts, type, op, comm);
    } else if (inter(comm)) {
        log_fallback("MPI_Reduce_scatter_c", "intercommunicator");
        rc = PMPI_Reduce_scatter_c(sendbuf, recvbuf, recvcounts, type, op, comm);
    } else if (!foldable(type)) {
        rc = papcoll_reduce_scatter(sendbuf, recvbuf, counts, type, op, comm);
    } else {
        rc = reduce_scatter_by_reduces("MPI_Reduce_scatter_c", sendbuf, recvbuf, recvcounts, 0, type, op, comm);
    }
    free(counts);
    return rc;
}

int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm)
{
    PC_SITE_RETURN(reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm));
}

/* Equal blocks: fold the sides beyond int. */

typedef enum { BLK_ALLGATHER, BLK_ALLTOALL, BLK_GATHER, BLK_SCATTER } blk_t;

static int blocks_c(blk_t kind, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char *const name[] = {"MPI_Allgather_c", "MPI_Alltoall_c", "MPI_Gather_c", "MPI_Scatter_c"};
    int large = !fits(sendcount) || !fits(recvcount);
    if (large && inter(comm)) {
        log_fallback(name[kind], "intercommunicator");
        switch (kind) {
        case BLK_ALLGATHER: return PMPI_Allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
        case BLK_ALLTOALL: return PMPI_Alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
        case BLK_GATHER:
            return PMPI_Gather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
        default: return PMPI_Scatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
        }
    }
    /* which sides this process reads (MPI_IN_PLACE, the root's) */
    int at_root = large && pc_check_comm(comm) == MPI_SUCCESS && rank_of(comm) == root;
    int send_read = sendbuf != MPI_IN_PLACE && (kind != BLK_SCATTER || at_root);
    int recv_read = (kind != BLK_GATHER || at_root) && !(kind == BLK_SCATTER && at_root && recvbuf == MPI_IN_PLACE);
    side_t s = {clamp(sendcount), sendtype, MPI_DATATYPE_NULL}, r = {clamp(recvcount), recvtype, MPI_DATATYPE_NULL};
    int rc = MPI_SUCCESS;
    if (large) {
        rc = side_make(&s, sendcount, sendtype, send_read);
        if (rc == MPI_SUCCESS) rc = side_make(&r, recvcount, recvtype, recv_read);
    }
    if (rc != MPI_SUCCESS) {
        side_free(&s);
        return pc_error(comm, rc);
    }
    log_served(name[kind], s.folded != MPI_DATATYPE_NULL || r.folded != MPI_DATATYPE_NULL ? "count beyond INT_MAX: one element of a folded datatype" : WITHIN_INT);
    switch (kind) {
    case BLK_ALLGATHER: rc = papcoll_allgather(sendbuf, s.count, s.type, recvbuf, r.count, r.type, comm); break;
    case BLK_ALLTOALL: rc = papcoll_alltoall(sendbuf, s.count, s.type, recvbuf, r.count, r.type, comm); break;
    case BLK_GATHER: rc = papcoll_gather(sendbuf, s.count, s.type, recvbuf, r.count, r.type, root, comm); break;
    default: rc = papcoll_scatter(sendbuf, s.count, s.type, recvbuf, r.count, r.type, root, comm); break;
    }
    side_free(&s);
    side_free(&r);
    return rc;
}

int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    PC_SITE_RETURN(blocks_c(BLK_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm));
}

int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    PC_SITE_RETURN(blocks_c(BLK_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, comm));
}

int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    PC_SITE_RETURN(blocks_c(BLK_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    PC_SITE_RETURN(blocks_c(BLK_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

/* The v forms: papcoll's v path when every process's counts and
 * displacements fit in int (agreed on comm), else the library's _c. */

/* 1 when every process's big is 0 (an intercommunicator: 0, the library). */
static int all_fit(int big, MPI_Comm comm)
{
    if (pc_check_comm(comm) != MPI_SUCCESS) return 1; /* the ordinary path reports the communicator */
    if (pc_is_intercomm(comm)) return 0;
    int fit = !big;
    if (PMPI_Allreduce(MPI_IN_PLACE, &fit, 1, MPI_INT, MPI_LAND, comm) != MPI_SUCCESS) return 1;
    return fit;
}

typedef enum { V_ALLGATHERV, V_ALLTOALLV, V_GATHERV, V_SCATTERV } v_t;

static int v_c(v_t kind, const void *sendbuf, const MPI_Count *sendcounts, MPI_Count sendcount,
               const MPI_Aint *sdispls, MPI_Datatype sendtype, void *recvbuf, const MPI_Count *recvcounts,
               MPI_Count recvcount, const MPI_Aint *rdispls, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char *const name[] = {"MPI_Allgatherv_c", "MPI_Alltoallv_c", "MPI_Gatherv_c", "MPI_Scatterv_c"};
    int p = 0, rc = MPI_SUCCESS, big = 0;
    if (comm_size(comm, &p) != MPI_SUCCESS) p = 0;
    int at_root = p > 0 && rank_of(comm) == root && !pc_is_intercomm(comm);
    /* the arrays this process reads */
    int send_arrays = kind == V_ALLTOALLV ? sendbuf != MPI_IN_PLACE : kind == V_SCATTERV && at_root;
    int recv_arrays = kind == V_ALLGATHERV || kind == V_ALLTOALLV || (kind == V_GATHERV && at_root);
    if (inter(comm)) send_arrays = recv_arrays = 0; /* the library's (all_fit) */
    int *scounts = send_arrays ? int_copy(sendcounts, p, &big, &rc) : NULL;
    int *sd = send_arrays ? int_copy_aint(sdispls, p, &big, &rc) : NULL;
    int *rcounts = recv_arrays ? int_copy(recvcounts, p, &big, &rc) : NULL;
    int *rd = recv_arrays ? int_copy_aint(rdispls, p, &big, &rc) : NULL;
    int scount = clamp(sendcount), rcount = clamp(recvcount);
    int one_send_read = (kind == V_ALLGATHERV || kind == V_GATHERV) && sendbuf != MPI_IN_PLACE;
    int one_recv_read = kind == V_SCATTERV && !(at_root && recvbuf == MPI_IN_PLACE);
    if ((one_send_read && !fits(sendcount)) || (one_recv_read && !fits(recvcount))) big = 1;
    if (rc == MPI_SUCCESS && all_fit(big, comm)) {
        log_served(name[kind], "every process's counts and displacements within int: papcoll's path");
        switch (kind) {
        case V_ALLGATHERV:
            rc = papcoll_allgatherv(sendbuf, scount, sendtype, recvbuf, rcounts, rd, recvtype, comm);
            break;
        case V_ALLTOALLV:
            rc = papcoll_alltoallv(sendbuf, scounts, sd, sendtype, recvbuf, rcounts, rd, recvtype, comm);
            break;
        case V_GATHERV:
            rc = papcoll_gatherv(sendbuf, scount, sendtype, recvbuf, rcounts, rd, recvtype, root, comm);
            break;
        default: rc = papcoll_scatterv(sendbuf, scounts, sd, sendtype, recvbuf, rcount, recvtype, root, comm); break;
        }
    } else if (rc == MPI_SUCCESS) {
        log_fallback(name[kind], "an intercommunicator, or counts or displacements beyond INT_MAX");
        switch (kind) {
        case V_ALLGATHERV:
            rc = PMPI_Allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
            break;
        case V_ALLTOALLV:
            rc = PMPI_Alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
            break;
        case V_GATHERV:
            rc = PMPI_Gatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, rdispls, recvtype, root, comm);
            break;
        default:
            rc = PMPI_Scatterv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcount, recvtype, root, comm);
            break;
        }
    } else {
        rc = pc_error(comm, rc);
    }
    free(scounts);
    free(sd);
    free(rcounts);
    free(rd);
    return rc;
}

int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    PC_SITE_RETURN(v_c(V_ALLGATHERV, sendbuf, NULL, sendcount, NULL, sendtype, recvbuf, recvcounts, 0, displs,
                       recvtype, 0, comm));
}

int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    PC_SITE_RETURN(v_c(V_ALLTOALLV, sendbuf, sendcounts, 0, sdispls, sendtype, recvbuf, recvcounts, 0, rdispls,
                       recvtype, 0, comm));
}

int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm)
{
    PC_SITE_RETURN(v_c(V_GATHERV, sendbuf, NULL, sendcount, NULL, sendtype, recvbuf, recvcounts, 0, displs,
                       recvtype, root, comm));
}

int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm)
{
    PC_SITE_RETURN(v_c(V_SCATTERV, sendbuf, sendcounts, 0, displs, sendtype, recvbuf, NULL, recvcount, NULL,
                       recvtype, root, comm));
}

#else

/* Without MPI-4's large-count functions this file defines nothing. */
typedef int pc_large_count_unavailable;

#endif
