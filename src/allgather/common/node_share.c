/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * allgather/common/node_share.c - the node-shared result of the multi-sender
 * allgathers: layout, chunks, copy-in, signals, copy-out (see
 * node_share.h).
 */
#include "allgather/common/node_share.h"
#include "core/log.h"

#include <stdatomic.h>
#include <stdlib.h>

/* Bytes of node k's share: its processes' blocks. */
static size_t count_share(const pc_ag_share_t *sh, int k)
{
    const pc_comm_t *c = sh->c;
    int first = c->node_members[c->node_first[k]], last = c->node_members[c->node_first[k + 1] - 1];
    if (last - first + 1 == c->node_first[k + 1] - c->node_first[k]) /* consecutive ranks */
        return pc_blocks_span(&sh->a->rblocks, first, last);
    size_t bytes = 0;
    for (int j = c->node_first[k]; j < c->node_first[k + 1]; j++)
        bytes += pc_blocks_span(&sh->a->rblocks, c->node_members[j], c->node_members[j]);
    return bytes;
}

/* The same, from the table once layout filled it (without one: no memory). */
static size_t share_of(const pc_ag_share_t *sh, int k) { return sh->share ? sh->share[k] : count_share(sh, k); }

/* Bytes of chunk `chunk` (of width w) in a share of `bytes`. */
static size_t slice_len(size_t bytes, size_t w, size_t chunk)
{
    size_t lo = chunk * w;
    return bytes <= lo ? 0 : pc_min_size(bytes - lo, w);
}

/* Bytes of one chunk of width w: every share's first slice. */
static size_t chunk_bytes(const pc_ag_share_t *sh, size_t w)
{
    size_t bytes = 0;
    for (int k = 0; k < sh->N; k++) bytes += pc_min_size(share_of(sh, k), w);
    return bytes;
}

/* Shares, my block's place in mine, and the chunk width: the largest w
 * whose slices fit `bank` (bank >= N: w >= 1). */
static void layout(pc_ag_share_t *sh, size_t bank)
{
    const pc_comm_t *c = sh->c;
    size_t largest = 0;
    for (int k = 0; k < sh->N; k++) {
        size_t bytes = count_share(sh, k);
        if (sh->share) sh->share[k] = bytes;
        if (bytes > largest) largest = bytes;
    }
    sh->my_offset = 0;
    for (int j = c->node_first[c->my_node]; c->node_members[j] != c->rank; j++)
        sh->my_offset += pc_blocks_span(&sh->a->rblocks, c->node_members[j], c->node_members[j]);
    size_t lo = bank / (size_t)sh->N, hi = largest; /* lo fits; find the largest that does */
    if (lo >= hi) lo = hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (chunk_bytes(sh, mid) <= bank) lo = mid;
        else hi = mid - 1;
    }
    sh->width = lo;
    sh->nchunks = lo ? (largest + lo - 1) / lo : 0;
}

/* This chunk's positions, and my slice into the bank. */
static void copy_in(pc_ag_share_t *sh)
{
    const pc_comm_t *c = sh->c;
    sh->pos[0] = 0;
    for (int r = 0; r < sh->N; r++)
        sh->pos[r + 1] = sh->pos[r] + slice_len(sh->share[pc_ag_share_node_at(sh, r)], sh->width, sh->chunk);
    size_t lo = sh->chunk * sh->width, hi = lo + sh->width;
    size_t from = sh->my_offset, to = sh->my_offset + pc_blocks_span(&sh->a->rblocks, c->rank, c->rank);
    if (from < lo) from = lo;
    if (to > hi) to = hi;
    if (from < to)
        pc_shm_copy(sh->bank + sh->pos[0] + (from - lo), pc_blocks_at(&sh->a->rblocks, c->rank) + (from - sh->my_offset),
                    to - from, sh->shm);
}

/* Every other process's part of this chunk, from the bank into its block. */
static void copy_out(pc_ag_share_t *sh)
{
    const pc_comm_t *c = sh->c;
    const pc_blocks_t *b = &sh->a->rblocks;
    size_t lo = sh->chunk * sh->width, hi = lo + sh->width;
    for (int r = 0; r < sh->N; r++) {
        int k = pc_ag_share_node_at(sh, r);
        const char *slice = sh->bank + sh->pos[r];
        size_t at = 0; /* the member's offset in node k's share */
        for (int j = c->node_first[k]; j < c->node_first[k + 1] && at < hi; j++) {
            int rank = c->node_members[j];
            size_t len = pc_blocks_span(b, rank, rank), from = at < lo ? lo : at, to = at + len < hi ? at + len : hi;
            if (rank != c->rank && from < to) pc_shm_copy(pc_blocks_at(b, rank) + (from - at), slice + (from - lo), to - from, sh->shm);
            at += len;
        }
    }
}

void pc_ag_share_wait_staged(pc_ag_share_t *sh)
{
    for (int j = 0; j < sh->c->node_size; j++) pc_wait_at_least(sh->shm, pc_node_xchg_ready(sh->x, j, 0), sh->use + 1);
}

void pc_ag_share_mark(pc_ag_share_t *sh, int step, int group, int rc)
{
    atomic_store_explicit(pc_node_xchg_where(sh->x, sh->use, step, group), (uint64_t)rc, memory_order_relaxed);
    pc_node_xchg_mark(sh->x, pc_node_xchg_landed(sh->x, sh->use, step, group), sh->use); /* release: after `where` */
}

int pc_ag_share_wait_marks(pc_ag_share_t *sh, int step, int groups)
{
    int rc = MPI_SUCCESS;
    for (int g = 0; g < groups; g++) {
        pc_wait_at_least(sh->shm, pc_node_xchg_landed(sh->x, sh->use, step, g), sh->use + 1);
        uint64_t code = atomic_load_explicit(pc_node_xchg_where(sh->x, sh->use, step, g), memory_order_relaxed);
        if (rc == MPI_SUCCESS && code != MPI_SUCCESS) rc = (int)code;
    }
    return rc;
}

int pc_ag_share_post(pc_ag_share_t *sh, int sfirst, int sn, int dst, int rfirst, int rn, int src, int tag,
                     MPI_Request *req, int *nreq)
{
    MPI_Comm comm = sh->c->comm;
    size_t sbytes = sh->pos[sfirst + sn] - sh->pos[sfirst], rbytes = sh->pos[rfirst + rn] - sh->pos[rfirst];
    int rc = rbytes ? pc_irecv(sh->bank + sh->pos[rfirst], rbytes, src, tag, comm, &req[*nreq]) : MPI_SUCCESS;
    if (rbytes && rc == MPI_SUCCESS) (*nreq)++;
    if (sbytes && rc == MPI_SUCCESS) {
        rc = pc_isend(sh->bank + sh->pos[sfirst], sbytes, dst, tag, comm, &req[*nreq]);
        if (rc == MPI_SUCCESS) (*nreq)++;
    }
    return rc;
}

int pc_ag_share_waitall(MPI_Request *req, int nreq, int rc)
{
    int wrc = nreq ? pc_waitall(nreq, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS; /* also after an error: posted */
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* The bank this call stages in: the whole result when it fits the largest
 * bank (PAPCOLL_EXCHANGE_AREA / 2), else that bank in chunks.  The same on
 * every process (the shares and the parameter are), so every node cuts the
 * same chunks; never taken from the area itself, which another collective
 * may have grown on one node only. */
static size_t staging_bytes(const pc_ag_share_t *sh)
{
    size_t total = 0;
    for (int k = 0; k < sh->N; k++) total += count_share(sh, k);
    return pc_min_size(total > (size_t)sh->N ? total : (size_t)sh->N, pc_node_xchg_bank_limit());
}

int pc_ag_share_run(const pc_call_t *a, const char *name, const pc_ag_share_plan_t *plan)
{
    pc_ag_share_t sh = {.a = a, .c = a->ctx, .N = a->ctx->nnodes};
    size_t bank = staging_bytes(&sh);
    if (bank < (size_t)sh.N) { /* the same decision everywhere: N and the bank are */
        if (a->ctx->rank == 0)
            pc_log(PC_LOG_INFO, "allgather %s: PAPCOLL_EXCHANGE_AREA too small for one byte of each of %d nodes: "
                   "hier instead", name, sh.N);
        return pc_allgather_hier(a);
    }
    int rc = pc_node_xchg_get_bank(a->ctx, bank, &sh.x, &sh.shm);
    if (rc != MPI_SUCCESS) return rc;
    sh.share = malloc((size_t)sh.N * sizeof *sh.share);
    sh.pos = malloc((size_t)(sh.N + 1) * sizeof *sh.pos);
    if (!sh.share || !sh.pos) {
        rc = MPI_ERR_NO_MEM; /* chunks still taken, marks still set: the node must not hang */
        free(sh.share);
        sh.share = NULL;
    }
    layout(&sh, bank);
    int own = rc; /* this process's own failure: it stops communicating */
    for (sh.chunk = 0; sh.chunk < sh.nchunks; sh.chunk++) {
        sh.bank = pc_node_xchg_begin(sh.x, &sh.use);
        if (own == MPI_SUCCESS) copy_in(&sh);
        pc_node_xchg_mark(sh.x, pc_node_xchg_ready(sh.x, a->ctx->node_rank, 0), sh.use);
        if (plan->groups > 0) own = plan->exchange(&sh, own, plan->arg);
        pc_ag_share_wait_staged(&sh);
        int peers = plan->groups > 0 ? pc_ag_share_wait_marks(&sh, plan->steps - 1, plan->groups) : MPI_SUCCESS;
        if (own == MPI_SUCCESS && peers == MPI_SUCCESS) copy_out(&sh);
        if (rc == MPI_SUCCESS) rc = own != MPI_SUCCESS ? own : peers;
        pc_node_xchg_end(sh.x, sh.use);
    }
    free(sh.share);
    free(sh.pos);
    return rc;
}
