/*
 * tree_engine.c - the segmented tree engine (see tree_engine.h).
 *
 * Cost (Hockney, message m in k segments, tree of height h, at most c
 * children per process, all arriving together):
 *   blocking:    about (h + k - 1) * c * (alpha + beta m / k)
 *   nonblocking: the same bound; sends to children overlap where the network allows.
 * Late arrival: a process forwards only what it has received, so a late
 * process delays its whole subtree; a sender has at most max_inflight
 * segments outstanding towards a late child (bounded memory and flooding).
 */
#include "sched/tree_engine.h"
#include "core/p2p.h"

#include <stdlib.h>

static size_t seg_len(size_t bytes, size_t segsize, size_t s)
{
    return pc_min_size(segsize, bytes - s * segsize);
}

static int blocking(char *buf, size_t bytes, size_t segsize, size_t nseg, const pc_tree_t *t, MPI_Comm comm,
                    int tag)
{
    for (size_t s = 0; s < nseg; s++) {
        char *seg = buf + s * segsize;
        size_t len = seg_len(bytes, segsize, s);
        int rc = t->parent >= 0 ? pc_recv(seg, len, t->parent, tag, comm) : MPI_SUCCESS;
        for (int c = 0; rc == MPI_SUCCESS && c < t->nchildren; c++) rc = pc_send(seg, len, t->children[c], tag, comm);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

static int nonblocking(char *buf, size_t bytes, size_t segsize, size_t nseg, const pc_tree_t *t, int window,
                       MPI_Comm comm, int tag)
{
    int nc = t->nchildren, rc = MPI_SUCCESS;
    MPI_Request *rreq = malloc((size_t)window * sizeof *rreq);
    MPI_Request *sreq = malloc((size_t)window * (size_t)(nc ? nc : 1) * sizeof *sreq);
    if (!rreq || !sreq) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int i = 0; i < window; i++) rreq[i] = MPI_REQUEST_NULL;
    for (int i = 0; i < window * nc; i++) sreq[i] = MPI_REQUEST_NULL;

    if (t->parent >= 0)
        for (size_t s = 0; s < nseg && s < (size_t)window && rc == MPI_SUCCESS; s++)
            rc = pc_irecv(buf + s * segsize, seg_len(bytes, segsize, s), t->parent, tag, comm, &rreq[s]);
    for (size_t s = 0; s < nseg && rc == MPI_SUCCESS; s++) {
        int slot = (int)(s % (size_t)window);
        char *seg = buf + s * segsize;
        if (t->parent >= 0) {
            rc = PMPI_Wait(&rreq[slot], MPI_STATUS_IGNORE);
            size_t next = s + (size_t)window;
            if (rc == MPI_SUCCESS && next < nseg)
                rc = pc_irecv(buf + next * segsize, seg_len(bytes, segsize, next), t->parent, tag, comm, &rreq[slot]);
        }
        for (int c = 0; c < nc && rc == MPI_SUCCESS; c++) {
            MPI_Request *r = &sreq[c * window + slot];
            rc = PMPI_Wait(r, MPI_STATUS_IGNORE); /* bounded in flight towards child c */
            if (rc == MPI_SUCCESS) rc = pc_isend(seg, seg_len(bytes, segsize, s), t->children[c], tag, comm, r);
        }
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Waitall(window * nc, sreq, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS) rc = PMPI_Waitall(window, rreq, MPI_STATUSES_IGNORE);
out:
    free(rreq);
    free(sreq);
    return rc;
}

int pc_tree_bcast(void *buf, size_t bytes, size_t segsize, const pc_tree_t *tree, pc_send_mode_t mode,
                  int max_inflight, MPI_Comm comm, int tag)
{
    if (bytes == 0) return MPI_SUCCESS;
    if (segsize == 0 || segsize > bytes) segsize = bytes;
    if (segsize > PC_MAX_MSG) segsize = PC_MAX_MSG;
    size_t nseg = (bytes + segsize - 1) / segsize;
    if (mode == PC_SEND_BLOCKING) return blocking(buf, bytes, segsize, nseg, tree, comm, tag);
    return nonblocking(buf, bytes, segsize, nseg, tree, max_inflight > 0 ? max_inflight : 1, comm, tag);
}
