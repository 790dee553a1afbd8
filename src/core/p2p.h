/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * p2p.h - thin wrappers over PMPI point-to-point, in bytes.
 *
 * papcoll algorithms move bytes (packed when the datatype is not contiguous).
 * Blocking wrappers accept any size_t and split messages above PC_MAX_MSG;
 * nonblocking ones take at most PC_MAX_MSG (callers segment).  On an
 * oversubscribed node the blocking ones post and wait through
 * pc_wait_request / pc_waitall, which yield the CPU (core/progress.h).
 */
#ifndef PC_P2P_H
#define PC_P2P_H

#include <mpi.h>
#include <stddef.h>

#include "core/progress.h"
#include "core/tags.h"

#define PC_MAX_MSG ((size_t)1 << 30)

/* The tag of windowed purpose `slot` in call seq (core/tags.h). */
static inline int pc_window_tag(int slot, unsigned long seq)
{
    return PC_TAG_WINDOWED + (int)(seq % pc_tag_window) * PC_TAG_SLOTS + slot;
}

/* A message of `nheader` long longs at header then `count` elements of
 * `type` at buf, as one committed datatype over absolute addresses (send or
 * receive it at MPI_BOTTOM): a control header travels with its data in one
 * message, one latency.  The caller frees *t (after posting is enough). */
static inline int pc_header_type(long long *header, int nheader, const void *buf, int count, MPI_Datatype type,
                                 MPI_Datatype *t)
{
    int lengths[2] = {nheader, count};
    MPI_Aint where[2];
    MPI_Datatype types[2] = {MPI_LONG_LONG, type};
    PMPI_Get_address(header, &where[0]);
    PMPI_Get_address(buf, &where[1]);
    int rc = PMPI_Type_create_struct(2, lengths, where, types, t);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(t);
    return rc;
}

static inline size_t pc_min_size(size_t a, size_t b) { return a < b ? a : b; }

static inline int pc_send(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm)
{
    size_t done = 0;
    do {
        size_t n = pc_min_size(bytes - done, PC_MAX_MSG);
        MPI_Request req;
        int over = pc_oversubscribed();
        int rc = over ? PMPI_Isend((const char *)buf + done, (int)n, MPI_BYTE, dst, tag, comm, &req)
                      : PMPI_Send((const char *)buf + done, (int)n, MPI_BYTE, dst, tag, comm);
        if (rc == MPI_SUCCESS && over) rc = pc_wait_request(&req, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
        done += n;
    } while (done < bytes);
    return MPI_SUCCESS;
}

static inline int pc_recv(void *buf, size_t bytes, int src, int tag, MPI_Comm comm)
{
    size_t done = 0;
    do {
        size_t n = pc_min_size(bytes - done, PC_MAX_MSG);
        MPI_Request req;
        int over = pc_oversubscribed();
        int rc = over ? PMPI_Irecv((char *)buf + done, (int)n, MPI_BYTE, src, tag, comm, &req)
                      : PMPI_Recv((char *)buf + done, (int)n, MPI_BYTE, src, tag, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && over) rc = pc_wait_request(&req, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
        done += n;
    } while (done < bytes);
    return MPI_SUCCESS;
}

static inline int pc_isend(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm, MPI_Request *req)
{
    return PMPI_Isend(buf, (int)bytes, MPI_BYTE, dst, tag, comm, req);
}

static inline int pc_irecv(void *buf, size_t bytes, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    return PMPI_Irecv(buf, (int)bytes, MPI_BYTE, src, tag, comm, req);
}

/* MPI_Waitsome (block) or MPI_Testsome (!block) on req[0..n-1]: the indices
 * of completed requests go to idx, their number to *outcount (0 when none,
 * also when every request is MPI_REQUEST_NULL).
 * Under SMPI it is one Waitany or Testany, then Testany until nothing more is
 * complete: SMPI 3.32's Waitsome and Testsome test every pending request one
 * by one and charge each failing test smpi/test of simulated time, so a root
 * waiting for p - 1 ARRIVED messages pays about p x smpi/test per round (a
 * 64-rank arrival_b-like exchange: 9.0 ms simulated per 200 calls, against
 * 3.3 ms this way), and they slow the simulator down with every call (2000
 * calls: 42.6 s against 35.1 s real time).  Testany costs one charge per
 * completion plus one.  Natively MPI_Waitsome/Testsome are one O(n) pass. */
static inline int pc_some_complete(int n, MPI_Request *req, int block, int *outcount, int *idx)
{
#ifdef PAPCOLL_SMPI
    int i, flag = 1, rc = block ? PMPI_Waitany(n, req, &i, MPI_STATUS_IGNORE)
                                : PMPI_Testany(n, req, &i, &flag, MPI_STATUS_IGNORE);
    *outcount = 0;
    while (rc == MPI_SUCCESS && flag && i != MPI_UNDEFINED) {
        idx[(*outcount)++] = i;
        rc = PMPI_Testany(n, req, &i, &flag, MPI_STATUS_IGNORE);
    }
    return rc;
#else
    int rc = block ? PMPI_Waitsome(n, req, outcount, idx, MPI_STATUSES_IGNORE)
                   : PMPI_Testsome(n, req, outcount, idx, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS && *outcount == MPI_UNDEFINED) *outcount = 0;
    return rc;
#endif
}

/* Exchange with possibly different sizes each way (either may be 0).  Each
 * direction is cut into its own pieces, so the peers always agree. */
static inline int pc_sendrecv(const void *sbuf, size_t sbytes, int dst, void *rbuf, size_t rbytes, int src,
                              int tag, MPI_Comm comm)
{
    if (sbytes <= PC_MAX_MSG && rbytes <= PC_MAX_MSG) {
        if (!pc_oversubscribed())
            return PMPI_Sendrecv(sbuf, (int)sbytes, MPI_BYTE, dst, tag, rbuf, (int)rbytes, MPI_BYTE, src, tag, comm,
                                 MPI_STATUS_IGNORE);
        /* the same two messages (also of 0 bytes: a peer on another node may use Sendrecv) */
        MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        int rc = pc_irecv(rbuf, rbytes, src, tag, comm, &req[0]);
        if (rc == MPI_SUCCESS) rc = pc_isend(sbuf, sbytes, dst, tag, comm, &req[1]);
        int wrc = pc_waitall(2, req, MPI_STATUSES_IGNORE); /* also after an error: what was posted */
        return rc != MPI_SUCCESS ? rc : wrc;
    }
    size_t sdone = 0, rdone = 0;
    while (sdone < sbytes || rdone < rbytes) {
        MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        size_t sn = pc_min_size(sbytes - sdone, PC_MAX_MSG), rn = pc_min_size(rbytes - rdone, PC_MAX_MSG);
        int rc = rn ? pc_irecv((char *)rbuf + rdone, rn, src, tag, comm, &req[0]) : MPI_SUCCESS;
        if (rc == MPI_SUCCESS && sn) rc = pc_isend((const char *)sbuf + sdone, sn, dst, tag, comm, &req[1]);
        if (rc == MPI_SUCCESS) rc = pc_waitall(2, req, MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
        sdone += sn;
        rdone += rn;
    }
    return MPI_SUCCESS;
}

#endif
