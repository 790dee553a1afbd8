/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * alltoall.h - what alltoall algorithms share.  Every algorithm is
 * pc_alltoall_<name>(const pc_call_t *a) (generated prototypes, from
 * algorithms.list).  MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw are all this
 * collective: every process sends one block to every process and receives
 * one from each.  The algorithms see the block view (coll/block_view.h:
 * a->sblocks, a->rblocks; blocks may differ in size in the v and w forms,
 * and may be empty; the w form's per-peer datatypes are packed there; my own
 * data already in place).  a->vform is set in the w form too: what the
 * algorithms do for alltoallv they do for alltoallw.
 */
#ifndef PC_ALLTOALL_H
#define PC_ALLTOALL_H

#include "coll/block_view.h"
#include "core/p2p.h"

#include "alltoall_algorithms.h" /* generated from algorithms.list: pc_alltoall_<name>() */

/* Nonblocking messages of any size: pieces of at most PC_MAX_MSG (the
 * receiver cuts the same pieces, and MPI keeps their order). */
static inline int pc_alltoall_pieces(size_t bytes) { return (int)((bytes + PC_MAX_MSG - 1) / PC_MAX_MSG); }

/* Posts an Isend (send) or Irecv of bytes in pieces: pc_alltoall_pieces(bytes)
 * requests appended at req[*nreq]. */
static inline int pc_alltoall_post(int send, char *buf, size_t bytes, int peer, int tag, MPI_Comm comm,
                                   MPI_Request *req, int *nreq)
{
    for (size_t done = 0; done < bytes; done += PC_MAX_MSG) {
        size_t n = pc_min_size(bytes - done, PC_MAX_MSG);
        int rc = send ? pc_isend(buf + done, n, peer, tag, comm, &req[*nreq]) : pc_irecv(buf + done, n, peer, tag, comm, &req[*nreq]);
        if (rc != MPI_SUCCESS) return rc;
        ++*nreq;
    }
    return MPI_SUCCESS;
}

/* Runs alltoall algorithm `name` (or "auto") over comm on the block views
 * send/recv (offsets [size + 1] for comm's size, block `rank` of send already
 * in recv): as alltoallv of bytes, for algorithms that run another one
 * among other processes (hier). */
int pc_alltoall_on(const pc_call_t *a, const char *name, const pc_blocks_t *send, const pc_blocks_t *recv,
                   MPI_Comm comm);

#endif
